# tests/mpi: whole searches under mpirun (reach a target with 3 ranks, resume 3 → 2 ranks, a rank killed
# with kill -9, the pool exchange's migrant bound, the numeric engine's restart split, the llm engine's remote evaluations, a campaign's targets dealt to 2 ranks). Skipped (77)
# where mpirun is missing or tdisc was built without MPI.
foreach(case reach resume killed exchange numeric campaign)
  add_test(NAME mpi_${case} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/run_mpi.sh $<TARGET_FILE:tdisc> ${case}
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  set_tests_properties(mpi_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
endforeach()
# The llm engine under mpirun uses the scripted chat server of tests/llm.
target_sources(tests_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/llm/script_server.cpp)
add_test(NAME mpi_llm COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/run_mpi.sh $<TARGET_FILE:tdisc> llm $<TARGET_FILE:tests_mpi>
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(mpi_llm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
