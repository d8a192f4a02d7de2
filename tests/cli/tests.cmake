# tests/cli/tests.cmake - the command line's outputs (issue 17, points 1, 2).
#   cli_outputs  (tests/cli/outputs.sh) no output over an input (every
#                command that names an output), /dev/full on stdout and -o:
#                one line, exit 4, nothing left behind
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  set(IOSAGE_OUTPUTS_TEST_MPI $<TARGET_FILE:iosage-mpi>)
else()
  set(IOSAGE_OUTPUTS_TEST_MPI -)
endif()
add_test(NAME cli_outputs
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/outputs.sh $<TARGET_FILE:iosage>
                 $<TARGET_FILE:iosage-example-writer> ${IOSAGE_OUTPUTS_TEST_MPI})
set_tests_properties(cli_outputs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")

#   cli_terminal (tests/cli/terminal.sh) a file name holding terminal controls:
#                dump raw into a file, escaped on a pty; batch and archive CSV
#                escaped; JSON exact
add_test(NAME cli_terminal
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/terminal.sh $<TARGET_FILE:iosage>
                 $<TARGET_FILE:iosage_trace>)
set_tests_properties(cli_terminal PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
