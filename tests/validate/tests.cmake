# `iosage validate` end to end: a tiny scenario with 3 pairs, a healthy one,
# and a proposal the scenario has no configuration for, against a fake
# analyzer (tests/validate/fake_analyzer.sh). The statistics, the scenario
# format and the report parsing are unit-tested in tests/unit/validate/test_validate.c.
# The kernels and the MPI tracer are added after tests/ (top CMakeLists), so
# their paths are passed as they will be; run.sh skips (77) without them.
add_test(NAME validate_e2e
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/validate/run.sh $<TARGET_FILE:iosage>
                 ${PROJECT_BINARY_DIR}/bench
                 ${PROJECT_BINARY_DIR}/trace/libiosage-trace-mpi.so)
set_tests_properties(validate_e2e PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
