# tests/batch/tests.cmake - `iosage batch` and iosage-mpi (issue 6).
#   batch   (tests/batch/run.sh) rows, error rows, values against `iosage dump`, CSV/JSONL
#           validity, lists and stdin, --summary, atomic -o, and the same
#           bytes for -j1, -j2, mpirun -np 2 and -np 4 (the MPI part only
#           when MPI is found; it runs mpirun as root with the OMPI_ALLOW_*
#           variables set)
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  set(IOSAGE_BATCH_TEST_MPI $<TARGET_FILE:iosage-mpi>)
else()
  set(IOSAGE_BATCH_TEST_MPI -)
endif()
add_test(NAME batch
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh $<TARGET_FILE:iosage>
                 $<TARGET_FILE:iosage-example-writer> ${IOSAGE_BATCH_TEST_MPI}
                 ${PROJECT_SOURCE_DIR}/../shared/darshan-logs)
set_tests_properties(batch PROPERTIES TIMEOUT 300)

# test_batch   cmocka: CSV quoting, JSON lines, the exact row form and its
#              round trip, listing order and list files, the schedule, the
#              summary, the pool's windows (loads models/default)
add_executable(test_batch ${CMAKE_CURRENT_LIST_DIR}/test_batch.c)
target_link_libraries(test_batch PRIVATE iosage_obj ZLIB::ZLIB BZip2::BZip2 m
                      PkgConfig::CMOCKA)
target_compile_definitions(test_batch PRIVATE IOSAGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_test(NAME test_batch COMMAND test_batch)
