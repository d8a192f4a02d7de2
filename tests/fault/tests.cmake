# tests/fault/tests.cmake - fault injection (issue 17, point 5).
#   libiosage-fault.so  (tests/fault/fault.c) fails the Nth allocation or the
#                       Nth write of a command it is preloaded into; built
#                       without sanitizers, like the tracer, so that it can
#                       be preloaded into the ASan build
#   fault_sample        (tests/fault/sweep.sh sample) every 97th N of each run
#                       of the sweep, allocations and writes (ENOSPC, EIO)
#   make stress         the full sweep: every N (Makefile)
add_library(iosage_fault SHARED ${CMAKE_CURRENT_LIST_DIR}/fault.c)
set_target_properties(iosage_fault PROPERTIES OUTPUT_NAME iosage-fault)
get_target_property(_fault_copts iosage_fault COMPILE_OPTIONS)
list(FILTER _fault_copts EXCLUDE REGEX "sanitize")
set_target_properties(iosage_fault PROPERTIES COMPILE_OPTIONS "${_fault_copts}")
get_target_property(_fault_lopts iosage_fault LINK_OPTIONS)
if(_fault_lopts)
  list(FILTER _fault_lopts EXCLUDE REGEX "sanitize")
  set_target_properties(iosage_fault PROPERTIES LINK_OPTIONS "${_fault_lopts}")
endif()
target_link_libraries(iosage_fault PRIVATE ${CMAKE_DL_LIBS})

add_test(NAME fault_sample
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/sweep.sh sample $<TARGET_FILE:iosage>
                 $<TARGET_FILE:iosage-example-writer> $<TARGET_FILE:iosage_fault>
                 ${PROJECT_SOURCE_DIR}/../shared/darshan-logs
                 ${PROJECT_SOURCE_DIR}/data/bench-runs/logs)
set_tests_properties(fault_sample PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
