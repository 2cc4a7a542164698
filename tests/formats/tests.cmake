# tests/formats: the exported Python script is run by python3 where it exists; without python3 the
# test reports skipped (exit 77), never passed.
add_test(NAME formats_python
         COMMAND sh -c "command -v python3 >/dev/null 2>&1 || { echo 'python3 not found: skipped'; exit 77; }; exec \"$0\" --warn NoTests '[python]'"
                 $<TARGET_FILE:tests_formats>
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(formats_python PROPERTIES SKIP_RETURN_CODE 77 LABELS fast)
