/*
 * ios_dlib.h - a shared library loaded on first use (dlib.c).
 *
 * XGBoost (src/model/xgb_api.c), libcurl (src/llm/curl_api.c) and SQLite
 * (src/archive/sqlite_api.c) are loaded with dlopen the first time they are
 * needed, so that commands that never use them do not pay for loading them
 * at every start. Each loader fills a table of function pointers with
 * ios_dlib_sym and keeps the first failure's text in a buffer of its own.
 */
#ifndef IOS_COMMON_DLIB_H
#define IOS_COMMON_DLIB_H

#include <stddef.h>

/* dlopen(name, RTLD_NOW | RTLD_LOCAL). NULL when it cannot be loaded, with
 * dlerror's text (or the name) in err[size]. */
void *ios_dlib_open(const char *name, char *err, size_t size);

/* The symbol sym of lib, opened as name. NULL when it is missing, with
 * "<name>: no symbol <sym>" in err[size] unless err already holds a
 * failure (the first one is the one worth reporting). */
void *ios_dlib_sym(void *lib, const char *name, const char *sym, char *err,
                   size_t size);

#endif
