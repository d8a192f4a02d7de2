# tests/limits/tests.cmake - bounded memory on hostile logs (issue 17 point 6).
# The peak-memory bound: 100 MB for a release build (70-80 MB measured);
# the sanitizer build's shadow memory and quarantine take it to 230-265 MB
# on the same runs, so 400 MB there.
if(IOSAGE_SANITIZE)
  set(IOSAGE_LIMITS_PEAK_KB 409600)
else()
  set(IOSAGE_LIMITS_PEAK_KB 102400)
endif()
add_test(NAME inflate_limits COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/limits/run.sh
         $<TARGET_FILE:iosage> $<TARGET_FILE:iosage-example-writer>
         ${IOSAGE_LIMITS_PEAK_KB})
set_tests_properties(inflate_limits PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
