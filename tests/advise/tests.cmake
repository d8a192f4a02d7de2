# tests/advise/tests.cmake - the advice module's data-driven tests (issue 5).
#
# advise_quality: detection + offline advice over the test and ood splits
# of data/hpc-runs (the shipped models' training set); the top-ranked change
# must be the configuration's known fix (bench/sweeps/hpc.fixes) for >= 90%
# of the runs with a pattern, and healthy runs the model calls healthy get
# no change.
add_executable(advise_quality ${CMAKE_CURRENT_SOURCE_DIR}/advise/quality.c)
target_link_libraries(advise_quality PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)
add_test(NAME advise_quality COMMAND advise_quality ${PROJECT_SOURCE_DIR} test
         data/hpc-runs bench/sweeps/hpc.fixes)
set_tests_properties(advise_quality PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# advise_mkcards DATASET OUT.json: the cards of a dataset (the code `iosage
# train` runs), used to make models/default/cards.json; not a test.
add_executable(advise_mkcards ${CMAKE_CURRENT_SOURCE_DIR}/advise/mkcards.c)
target_link_libraries(advise_mkcards PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m)
