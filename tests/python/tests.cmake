# tests/python: the Python package (python/) under the python3 CMake found (Debian's), each file a
# CTest test. Without the package (no python3-dev or pybind11-dev), NumPy or PyTorch a test exits 77
# and CTest reports it skipped, never passed. python_torch_gpu also skips without a CUDA device.
set(TDISC_PYTHON_TESTS scheme verify search torch torch_gpu docs)
foreach(name ${TDISC_PYTHON_TESTS})
  if(TDISC_HAVE_PYTHON)
    add_test(NAME python_${name}
             COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROJECT_BINARY_DIR}/python TDISC_SOURCE_DIR=${PROJECT_SOURCE_DIR}
                     TDISC_BINARY=$<TARGET_FILE:tdisc> TDISC_CATALOG_DIR=${PROJECT_SOURCE_DIR}/algorithms
                     ${TDISC_PYTHON_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/python/test_${name}.py
             WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  else()
    add_test(NAME python_${name} COMMAND sh -c "echo 'the Python package is not built (python3-dev, pybind11-dev): skipped'; exit 77")
  endif()
  set_tests_properties(python_${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS fast TIMEOUT 600)
endforeach()
set_tests_properties(python_verify python_search PROPERTIES LABELS slow)
set_tests_properties(python_torch_gpu PROPERTIES LABELS gpu)
