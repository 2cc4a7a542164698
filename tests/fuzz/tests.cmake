# tests/fuzz: the committed corpus of every reader replayed through the fuzz contract (fuzz_replay,
# built here by any compiler), and the sanitizer build: clang ASan+UBSan of the readers, the
# verifier and their fast tests, in its own small build tree (tests/fuzz/sanitize.sh).
add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/targets ${CMAKE_CURRENT_BINARY_DIR}/fuzz_targets)
foreach(format native exp maple fmm-mpl perminov-json fast-matmul flip-cpd alphaevolve-ipynb alphatensor-npz qcsr-npz json-input escape ansatz field-scheme gzip)
  set(dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${format})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${format})
    list(APPEND dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${format})
  endif()
  add_test(NAME fuzz_replay_${format} COMMAND fuzz_replay ${format} ${dirs})
endforeach()
# It builds its own tree before it tests: 205 s on the 2-core VM (a fresh clone, 2026-11-26), a cold
# compile on a machine 3x slower would come near 900 s, so the limit is twice that.
add_test(NAME sanitizers COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/sanitize.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(sanitizers PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
# The run-directory and LLM-reply targets (tests/fuzz/targets/run_dir_one.cpp, llm_reply_one.cpp) link
# the search, LLM and report code: their replay is fuzz_replay_app.
foreach(format run-dir llm-reply)
  set(dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${format})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${format})
    list(APPEND dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${format})
  endif()
  add_test(NAME fuzz_replay_${format} COMMAND fuzz_replay_app ${format} ${dirs})
endforeach()
