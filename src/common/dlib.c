/*
 * dlib.c - a shared library loaded on first use (see ios_dlib.h).
 */
#include <dlfcn.h>
#include <stdio.h>

#include "ios_dlib.h"

void *ios_dlib_open(const char *name, char *err, size_t size)
{
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(err, size, "%s", e ? e : name);
    }
    return lib;
}

void *ios_dlib_sym(void *lib, const char *name, const char *sym, char *err,
                   size_t size)
{
    void *p = dlsym(lib, sym);
    if (!p && err[0] == '\0')
        snprintf(err, size, "%s: no symbol %s", name, sym);
    return p;
}
