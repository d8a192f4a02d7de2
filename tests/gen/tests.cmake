# `iosage gen --pfs-random` (domain randomization, issue 15): drawn systems,
# their profiles and manifest column, determinism, old manifests resumed.
add_test(NAME gen_random COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/gen/random.sh $<TARGET_FILE:iosage>)
set_tests_properties(gen_random PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
