# The file system emulator (pfs/, docs/pfs.md):
#   pfs_model   the cost model and the profile reader as pure functions,
#               compiled here with the project's sanitizers
#   pfs_preload the preload library in a real run: nothing changes without
#               IOSAGE_PFS_*, interleaved small writes to one shared file are
#               slower than aligned blocks (2 MPI ranks), bad profiles fail
add_executable(test_pfs_model ${CMAKE_CURRENT_SOURCE_DIR}/pfs/test_pfs_model.c
               ${PROJECT_SOURCE_DIR}/pfs/src/pfs_profile.c
               ${PROJECT_SOURCE_DIR}/pfs/src/pfs_model.c
               ${PROJECT_SOURCE_DIR}/pfs/src/pfs_sim.c)
target_include_directories(test_pfs_model PRIVATE ${PROJECT_SOURCE_DIR}/pfs/src)
target_compile_definitions(test_pfs_model PRIVATE
    IOSAGE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(test_pfs_model PRIVATE PkgConfig::CMOCKA m)
add_test(NAME pfs_model COMMAND test_pfs_model)

find_package(MPI COMPONENTS C QUIET)
add_executable(pfs_wl ${CMAKE_CURRENT_SOURCE_DIR}/pfs/pfs_wl.c)
if(MPI_C_FOUND)
  target_compile_definitions(pfs_wl PRIVATE PFS_WL_MPI=1)
  target_link_libraries(pfs_wl PRIVATE MPI::MPI_C)
endif()
# pfs/ is added after tests/ (top CMakeLists): the library's path is passed
# as it will be.
add_test(NAME pfs_preload
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pfs/run.sh
                 ${PROJECT_BINARY_DIR}/pfs/libiosage-pfs.so $<TARGET_FILE:pfs_wl>
                 ${PROJECT_SOURCE_DIR}/profiles "${MPIEXEC_EXECUTABLE}")
set_tests_properties(pfs_preload PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)

add_test(NAME pfs_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pfs/cli.sh $<TARGET_FILE:iosage>)
add_test(NAME pfs_gen COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pfs/gen.sh $<TARGET_FILE:iosage>)
set_tests_properties(pfs_gen PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)

# LUSTRE records and the lustre mount entry of the tracer on the emulated
# file system (trace/src/lustre.c), read back by dump and analyze
add_test(NAME pfs_lustre
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/pfs/lustre.sh $<TARGET_FILE:iosage>
                 ${PROJECT_SOURCE_DIR}/profiles "${MPIEXEC_EXECUTABLE}")
set_tests_properties(pfs_lustre PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
