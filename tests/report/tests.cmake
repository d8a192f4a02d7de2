# tests/report/tests.cmake - the report views (src/report).
#   report_views     cmocka: every fixture in every format, hostile strings,
#                    determinism, version check, tolerant rendering
#   report_chromium  the HTML views loaded in headless Chromium: they render,
#                    the charts are in the DOM, no script ran (skips, 77,
#                    without /usr/bin/chromium)
#   report_schema    the fixtures validate against docs/report-schema.json
#   report_schema_generated  so do documents iosage analyze generates
set(IOSAGE_REPORT_TESTS ${CMAKE_CURRENT_LIST_DIR})

add_executable(report_render ${IOSAGE_REPORT_TESTS}/render.c
               ${IOSAGE_REPORT_TESTS}/hostile_bytes.c)
target_link_libraries(report_render PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)

add_executable(test_report ${IOSAGE_REPORT_TESTS}/test_report.c
               ${IOSAGE_REPORT_TESTS}/hostile_bytes.c)
target_include_directories(test_report PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_report PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m
                      PkgConfig::CMOCKA)
target_compile_definitions(test_report PRIVATE
    IOSAGE_REPORT_FIXTURES="${IOSAGE_REPORT_TESTS}/fixtures")
add_test(NAME report_views COMMAND test_report)
set_tests_properties(report_views PROPERTIES TIMEOUT 60)

add_test(NAME report_chromium COMMAND ${IOSAGE_REPORT_TESTS}/chromium.sh
         $<TARGET_FILE:report_render> ${IOSAGE_REPORT_TESTS}/fixtures)
set_tests_properties(report_chromium PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

add_test(NAME report_schema COMMAND /usr/bin/python3
         ${IOSAGE_REPORT_TESTS}/check_schema.py ${PROJECT_SOURCE_DIR}/docs/report-schema.json
         ${IOSAGE_REPORT_TESTS}/fixtures)
set_tests_properties(report_schema PROPERTIES TIMEOUT 60)

# report_schema_generated: the documents `iosage analyze` writes (demo log,
# bench-runs logs of several patterns, a healthy one, an LLM fallback, the
# public logs when present) validate against the same schema.
add_test(NAME report_schema_generated COMMAND ${IOSAGE_REPORT_TESTS}/schema_generated.sh
         $<TARGET_FILE:iosage> $<TARGET_FILE:iosage-example-writer> ${PROJECT_SOURCE_DIR})
set_tests_properties(report_schema_generated PROPERTIES TIMEOUT 120)
