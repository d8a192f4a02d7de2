# cmake/parts/batch_archive.cmake - the archive database (issue 18).
#
# src/archive (library: SQLite schema, incremental selection, rows, queries)
# is a module like any other (ios_archive, from the top-level loop); here it
# gets SQLite's header from Debian (libsqlite3-dev). src/batch_cli/archive.c (the --db
# sink of `iosage batch` and `iosage-mpi`) joins the batch front ends; the
# file sorts after batch.cmake, so iosage-mpi exists when this runs.
# Only the header is needed at build time: the library is loaded with
# dlopen when an archive is first opened (src/archive/sqlite_api.c).
find_package(SQLite3 REQUIRED)
target_include_directories(ios_archive PRIVATE ${SQLite3_INCLUDE_DIRS})

target_sources(iosage PRIVATE ${PROJECT_SOURCE_DIR}/src/batch_cli/archive.c)
if(TARGET iosage-mpi)
  target_sources(iosage-mpi PRIVATE ${PROJECT_SOURCE_DIR}/src/batch_cli/archive.c)
endif()
