/*
 * math.c - libm's functions through a table filled on first use (see
 * ios_math.h for why).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ios_dlib.h"
#include "ios_math.h"

#define LIBM_LIBRARY "libm.so.6"

static struct ios_libm fn;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* dlsym, noting the first missing symbol in load_error. */
static void *sym(void *lib, const char *name)
{
    return ios_dlib_sym(lib, LIBM_LIBRARY, name, load_error, sizeof load_error);
}

static void load(void)
{
    void *lib = ios_dlib_open(LIBM_LIBRARY, load_error, sizeof load_error);
    if (lib) {
        /* Object pointers from dlsym become function pointers through a
         * cast of the whole table entry (POSIX guarantees this works). */
        fn.log = (__typeof__(fn.log))sym(lib, "log");
        fn.log10 = (__typeof__(fn.log10))sym(lib, "log10");
        fn.pow = (__typeof__(fn.pow))sym(lib, "pow");
        fn.sqrt = (__typeof__(fn.sqrt))sym(lib, "sqrt");
        fn.fmod = (__typeof__(fn.fmod))sym(lib, "fmod");
        fn.round = (__typeof__(fn.round))sym(lib, "round");
        fn.lround = (__typeof__(fn.lround))sym(lib, "lround");
        fn.fmin = (__typeof__(fn.fmin))sym(lib, "fmin");
        fn.fmax = (__typeof__(fn.fmax))sym(lib, "fmax");
    }
    if (load_error[0] != '\0') {
        /* part of the C library: nothing computed without it holds */
        fprintf(stderr, "iosage: cannot load the math library: %s\n",
                load_error);
        exit(4);
    }
}

const struct ios_libm *ios_libm(void)
{
    pthread_once(&once, load);
    return &fn;
}
