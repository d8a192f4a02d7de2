# cmake/parts/batch.cmake - `iosage batch` and its MPI twin `iosage-mpi`.
#
# The library part lives in src/batch (globbed into iosage_obj). The two
# front ends share src/batch_cli (options, output file, progress bar), which
# prints and so stays out of the library: it is compiled into `iosage` here,
# and into `iosage-mpi` together with src/batch_mpi, which needs MPI and is
# built only when MPI_C is found.
set(IOSAGE_BATCH_CLI_SOURCES ${PROJECT_SOURCE_DIR}/src/batch_cli/options.c
    ${PROJECT_SOURCE_DIR}/src/batch_cli/output.c)
target_sources(iosage PRIVATE ${IOSAGE_BATCH_CLI_SOURCES})

find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  file(GLOB IOSAGE_BATCH_MPI_SOURCES CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/src/batch_mpi/*.c)
  add_executable(iosage-mpi ${IOSAGE_BATCH_MPI_SOURCES} ${IOSAGE_BATCH_CLI_SOURCES})
  target_include_directories(iosage-mpi PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(iosage-mpi PRIVATE iosage_obj MPI::MPI_C ZLIB::ZLIB
                        BZip2::BZip2 m)
  iosage_embed_model(TARGET iosage-mpi DIR ${PROJECT_SOURCE_DIR}/models/default)
  install(TARGETS iosage-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
else()
  message(STATUS "MPI not found: iosage-mpi is not built (iosage batch still is)")
endif()
