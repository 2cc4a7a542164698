# tests/gemm: libtdisc_gemm. Host: its plan logic (compiled in here) and, at test time, generated host
# plans driven by it. gemm_install: builds the library (small plan set) with nvcc, installs it into a
# temporary prefix and builds tests/gemm/example against it with find_package(tdisc) — skipped (77)
# without nvcc. gemm_gpu: bit-exact checks against cuBLAS for every plan — skipped (77) without a GPU.
target_sources(tests_gemm PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/codegen/codegen_support.cpp
               ${PROJECT_SOURCE_DIR}/codegen/gemm/src/plan_table.cpp ${PROJECT_SOURCE_DIR}/codegen/gemm/src/json_lite.cpp)
target_compile_definitions(tests_gemm PRIVATE TDISC_CXX="${CMAKE_CXX_COMPILER}")
if(TDISC_CUDA)
  set(TDISC_GEMM_NVCC "${TDISC_NVCC_PATH}")
else()
  set(TDISC_GEMM_NVCC "")
endif()
add_test(NAME gemm_install
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gemm/install_test.sh ${PROJECT_SOURCE_DIR} "${TDISC_GEMM_NVCC}" small
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(gemm_install PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME gemm_gpu
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gemm/install_test.sh ${PROJECT_SOURCE_DIR} "${TDISC_GEMM_NVCC}" all gpu
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(gemm_gpu PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
# gemm_plans_fresh: the committed plans (what the standalone library build compiles) are what
# codegen/gemm/plans/generate.sh writes with this tdisc; host-only, so it runs everywhere.
add_test(NAME gemm_plans_fresh COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gemm/plans_fresh.sh ${PROJECT_SOURCE_DIR} $<TARGET_FILE:tdisc>)
set_tests_properties(gemm_plans_fresh PROPERTIES LABELS fast TIMEOUT 600)
# gemm_ozaki_tables_fresh: the emulated plans' scheme tables and generated level code
# (codegen/gemm/src/ozaki_scheme_tables.inc, ozaki_level_code.inc) are what
# codegen/gemm/tools/ozaki_schemes.py writes from codegen/schemes.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME gemm_ozaki_tables_fresh COMMAND ${Python3_EXECUTABLE} codegen/gemm/tools/ozaki_schemes.py --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(gemm_ozaki_tables_fresh PROPERTIES LABELS fast)
  # gemm_merge_emulated: codegen/gemm/plans/merge_emulated.py (tuned emulated entries into the default tables)
  add_test(NAME gemm_merge_emulated COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gemm/test_merge_emulated.py)
  set_tests_properties(gemm_merge_emulated PROPERTIES LABELS fast)
  # gemm_ozaki_results: bench/ozaki_results.py (a device run's rounds into one result file)
  add_test(NAME gemm_ozaki_results COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gemm/test_ozaki_results.py)
  set_tests_properties(gemm_ozaki_results PROPERTIES LABELS fast)
endif()
