# tests/gpu: [gpu] cases run only where a GPU and nvcc exist; elsewhere the test reports skipped (77).
add_test(NAME gpu COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu/run_gpu_tests.sh $<TARGET_FILE:tests_gpu>
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu)
target_sources(tests_gpu PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/codegen/codegen_support.cpp)
target_compile_definitions(tests_gpu PRIVATE TDISC_CXX="${CMAKE_CXX_COMPILER}")
