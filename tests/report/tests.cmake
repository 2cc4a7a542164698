# tests/report: the pages in headless Chromium (skipped, exit 77, where it is missing).
add_test(NAME report_browser COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/report/browser_test.sh $<TARGET_FILE:tdisc> ${PROJECT_SOURCE_DIR}
         WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
set_tests_properties(report_browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
