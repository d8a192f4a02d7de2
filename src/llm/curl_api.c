/*
 * src/llm/curl_api.c - the libcurl functions the LLM transport calls,
 * resolved from libcurl.so.4 on first use.
 *
 * Linking libcurl into the iosage binary made every process start load 35
 * shared objects (OpenSSL, GnuTLS, Kerberos, LDAP, SASL, libssh2, ...) and
 * run their constructors, though only `analyze --llm` ever speaks HTTP. So,
 * as src/model/xgb_api.c does for XGBoost, the library is loaded with dlopen
 * the first time an LLM client is opened or used.
 *
 * When it cannot be loaded, ios_curl()->loaded is 0 and ios_curl_error()
 * says why; the entry points of the transport (iosage_llm_open,
 * iosage_llm_chat) check that before any other function of the table runs.
 */
#include <pthread.h>

#include "internal.h"
#include "ios_dlib.h"

#define CURL_LIBRARY "libcurl.so.4"

static struct ios_curl_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* dlsym, noting the first missing symbol in load_error. */
static void *sym(void *lib, const char *name)
{
    return ios_dlib_sym(lib, CURL_LIBRARY, name, load_error, sizeof load_error);
}

static void load(void)
{
    void *lib = ios_dlib_open(CURL_LIBRARY, load_error, sizeof load_error);
    if (!lib)
        return;
    /* Object pointers from dlsym become function pointers through a
     * cast of the whole table entry (POSIX guarantees this works). */
    api.global_init = (__typeof__(api.global_init))sym(lib, "curl_global_init");
    api.easy_init = (__typeof__(api.easy_init))sym(lib, "curl_easy_init");
    api.easy_setopt = (__typeof__(api.easy_setopt))sym(lib, "curl_easy_setopt");
    api.easy_perform = (__typeof__(api.easy_perform))sym(lib, "curl_easy_perform");
    api.easy_getinfo = (__typeof__(api.easy_getinfo))sym(lib, "curl_easy_getinfo");
    api.easy_cleanup = (__typeof__(api.easy_cleanup))sym(lib, "curl_easy_cleanup");
    api.easy_strerror = (__typeof__(api.easy_strerror))sym(lib, "curl_easy_strerror");
    api.slist_append = (__typeof__(api.slist_append))sym(lib, "curl_slist_append");
    api.slist_free_all = (__typeof__(api.slist_free_all))sym(lib, "curl_slist_free_all");
    api.url = (__typeof__(api.url))sym(lib, "curl_url");
    api.url_set = (__typeof__(api.url_set))sym(lib, "curl_url_set");
    api.url_get = (__typeof__(api.url_get))sym(lib, "curl_url_get");
    api.url_cleanup = (__typeof__(api.url_cleanup))sym(lib, "curl_url_cleanup");
    api.free = (__typeof__(api.free))sym(lib, "curl_free");
    /* Any missing symbol leaves the table unusable: keep the library
     * loaded (it is harmless) but say it is not. */
    api.loaded = load_error[0] == '\0';
}

const struct ios_curl_api *ios_curl(void)
{
    pthread_once(&once, load);
    return &api;
}

const char *ios_curl_error(void)
{
    pthread_once(&once, load);
    return load_error;
}
