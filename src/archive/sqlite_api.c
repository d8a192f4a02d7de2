/*
 * src/archive/sqlite_api.c - the SQLite functions the archive calls,
 * resolved from libsqlite3.so.0 on first use.
 *
 * Only `iosage batch --db`, `iosage-mpi --db` and `iosage archive` open a
 * database, yet a statically linked SQLite put 1.2 MB of code and about
 * 1,100 pointer relocations into every start of iosage (a dump of an empty
 * log paid for them too). So, as src/model/xgb_api.c does for XGBoost and
 * src/llm/curl_api.c for libcurl, the library is loaded with dlopen the
 * first time an archive is opened.
 *
 * When it cannot be loaded, ios_sqlite()->loaded is 0 and
 * ios_sqlite_error() says why; iosage_archive_open checks that before any
 * other function of the table runs, and no archive exists without it.
 */
#include <pthread.h>

#include "internal.h"
#include "ios_dlib.h"

#define SQLITE_LIBRARY "libsqlite3.so.0"

static struct ios_sqlite_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* dlsym, noting the first missing symbol in load_error. */
static void *sym(void *lib, const char *name)
{
    return ios_dlib_sym(lib, SQLITE_LIBRARY, name, load_error, sizeof load_error);
}

static void load(void)
{
    void *lib = ios_dlib_open(SQLITE_LIBRARY, load_error, sizeof load_error);
    if (!lib)
        return;
    /* Object pointers from dlsym become function pointers through a
     * cast of the whole table entry (POSIX guarantees this works). */
    api.open_v2 = (__typeof__(api.open_v2))sym(lib, "sqlite3_open_v2");
    api.close = (__typeof__(api.close))sym(lib, "sqlite3_close");
    api.busy_timeout = (__typeof__(api.busy_timeout))sym(lib, "sqlite3_busy_timeout");
    api.exec = (__typeof__(api.exec))sym(lib, "sqlite3_exec");
    api.errmsg = (__typeof__(api.errmsg))sym(lib, "sqlite3_errmsg");
    api.free = (__typeof__(api.free))sym(lib, "sqlite3_free");
    api.last_insert_rowid =
        (__typeof__(api.last_insert_rowid))sym(lib, "sqlite3_last_insert_rowid");
    api.prepare_v2 = (__typeof__(api.prepare_v2))sym(lib, "sqlite3_prepare_v2");
    api.step = (__typeof__(api.step))sym(lib, "sqlite3_step");
    api.reset = (__typeof__(api.reset))sym(lib, "sqlite3_reset");
    api.finalize = (__typeof__(api.finalize))sym(lib, "sqlite3_finalize");
    api.clear_bindings =
        (__typeof__(api.clear_bindings))sym(lib, "sqlite3_clear_bindings");
    api.bind_parameter_count = (__typeof__(api.bind_parameter_count))sym(
        lib, "sqlite3_bind_parameter_count");
    api.bind_int = (__typeof__(api.bind_int))sym(lib, "sqlite3_bind_int");
    api.bind_int64 = (__typeof__(api.bind_int64))sym(lib, "sqlite3_bind_int64");
    api.bind_double = (__typeof__(api.bind_double))sym(lib, "sqlite3_bind_double");
    api.bind_text = (__typeof__(api.bind_text))sym(lib, "sqlite3_bind_text");
    api.bind_null = (__typeof__(api.bind_null))sym(lib, "sqlite3_bind_null");
    api.column_count = (__typeof__(api.column_count))sym(lib, "sqlite3_column_count");
    api.column_name = (__typeof__(api.column_name))sym(lib, "sqlite3_column_name");
    api.column_type = (__typeof__(api.column_type))sym(lib, "sqlite3_column_type");
    api.column_int64 = (__typeof__(api.column_int64))sym(lib, "sqlite3_column_int64");
    api.column_text = (__typeof__(api.column_text))sym(lib, "sqlite3_column_text");
    /* Any missing symbol leaves the table unusable: keep the library
     * loaded (it is harmless) but say it is not. */
    api.loaded = load_error[0] == '\0';
}

const struct ios_sqlite_api *ios_sqlite(void)
{
    pthread_once(&once, load);
    return &api;
}

const char *ios_sqlite_error(void)
{
    pthread_once(&once, load);
    return load_error;
}
