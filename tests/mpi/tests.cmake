# tests/mpi: whole searches under mpirun (reach a target with 3 ranks, resume 3 → 2 ranks, a rank
# killed with kill -9). Skipped (77) where mpirun is missing or tdisc was built without MPI.
foreach(case reach resume killed)
  add_test(NAME mpi_${case} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/run_mpi.sh $<TARGET_FILE:tdisc> ${case}
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  set_tests_properties(mpi_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
endforeach()
