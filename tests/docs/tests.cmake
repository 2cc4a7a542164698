# tests/docs beside its Catch2 cases: docs/PERFORMANCE.md is generated from bench/results/*.json by
# bench/performance.py (python3, standard library only); docs_performance checks the committed page
# against it, the files it links, the results files and page sections the docs name, and the
# generator's refusals.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME docs_performance
           COMMAND ${CMAKE_COMMAND} -E env TDISC_SOURCE_DIR=${PROJECT_SOURCE_DIR}
                   ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_performance.py
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
else()
  add_test(NAME docs_performance COMMAND sh -c "echo 'no python3: skipped'; exit 77")
endif()
set_tests_properties(docs_performance PROPERTIES SKIP_RETURN_CODE 77 LABELS fast TIMEOUT 120)
