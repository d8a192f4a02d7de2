# tests/archive/tests.cmake - the archive database and dashboard (issue 18).
#   archive           (tests/archive/run.sh) batch --db on a generated
#                     archive of 300 logs: rows against `iosage batch`
#                     output, incremental second run, changed / touched /
#                     failing logs, --reanalyze, stdin lists, migration of a
#                     version 1 archive, refusal of foreign and newer files,
#                     permissions, kill mid-run, readers during a write,
#                     every query in every format, iosage-mpi --db
#   archive_chromium  (tests/archive/chromium.sh) the site in headless
#                     Chromium: overview charts, the table sorts and
#                     filters, hostile strings stay text, no request leaves
#                     the page, a screenshot (skips, 77, without chromium)
add_executable(mkarchive ${CMAKE_CURRENT_LIST_DIR}/mkarchive.c)
target_link_libraries(mkarchive PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)

find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  set(IOSAGE_ARCHIVE_TEST_MPI $<TARGET_FILE:iosage-mpi>)
else()
  set(IOSAGE_ARCHIVE_TEST_MPI -)
endif()
add_test(NAME archive
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh $<TARGET_FILE:iosage>
                 $<TARGET_FILE:mkarchive> ${IOSAGE_ARCHIVE_TEST_MPI}
                 ${PROJECT_SOURCE_DIR}/data/bench-runs/logs)
set_tests_properties(archive PROPERTIES TIMEOUT 300)

add_test(NAME archive_chromium
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/chromium.sh $<TARGET_FILE:iosage>
                 $<TARGET_FILE:mkarchive> ${PROJECT_SOURCE_DIR}/data/bench-runs/logs)
set_tests_properties(archive_chromium PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)

# test_archive  cmocka: the hash's test vectors, application names, a row
#               through the API (replacement, findings, changes, NULL
#               savings), the selection rules, every query, read mode
add_executable(test_archive ${CMAKE_CURRENT_LIST_DIR}/test_archive.c)
target_link_libraries(test_archive PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m
                      PkgConfig::CMOCKA)
add_test(NAME test_archive COMMAND test_archive)
