# cmake/parts/batch_archive.cmake - the archive database (issue 18).
#
# src/archive (library: SQLite schema, incremental selection, rows, queries)
# is added to iosage_obj here rather than in the top-level glob, with
# SQLite from Debian (libsqlite3-dev). src/batch_cli/archive.c (the --db
# sink of `iosage batch` and `iosage-mpi`) joins the batch front ends; the
# file sorts after batch.cmake, so iosage-mpi exists when this runs.
find_package(SQLite3 REQUIRED)
file(GLOB IOSAGE_ARCHIVE_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/src/archive/*.c)
target_sources(iosage_obj PRIVATE ${IOSAGE_ARCHIVE_SOURCES})
target_link_libraries(iosage_obj PUBLIC SQLite::SQLite3)
target_link_libraries(iosage_static PUBLIC SQLite::SQLite3)
target_link_libraries(iosage_shared PRIVATE SQLite::SQLite3)

target_sources(iosage PRIVATE ${PROJECT_SOURCE_DIR}/src/batch_cli/archive.c)
if(TARGET iosage-mpi)
  target_sources(iosage-mpi PRIVATE ${PROJECT_SOURCE_DIR}/src/batch_cli/archive.c)
endif()
