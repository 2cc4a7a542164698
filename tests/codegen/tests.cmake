# tests/codegen: the host compiler compiles generated host code at test time; nvcc (when present)
# compiles generated CUDA for sm_90. Without nvcc that test reports skipped (exit 77), never passed.
target_compile_definitions(tests_codegen PRIVATE TDISC_CXX="${CMAKE_CXX_COMPILER}")
if(TDISC_CUDA)
  set(TDISC_NVCC_ARG "${TDISC_NVCC_PATH}")
else()
  set(TDISC_NVCC_ARG "none")  # -DTDISC_CUDA=OFF: the CUDA test reports skipped
endif()
add_test(NAME codegen_nvcc
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/codegen/nvcc_compile.sh $<TARGET_FILE:tdisc> "${TDISC_NVCC_ARG}"
                 ${CMAKE_CURRENT_SOURCE_DIR}/..
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(codegen_nvcc PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu)
