/*
 * ios_math.h - the libm functions iosage uses, resolved from libm.so.6 on
 * first use (math.c).
 *
 * Linking libm cost every start of iosage the mapping and relocation of
 * one more library: a C program that prints a line started in 2.04 ms
 * without libm and 2.25 ms with it (best of 7 rounds of 100, alternating,
 * 2026-12-06), and `iosage dump` of a log, which computes nothing, paid
 * it too. So, as for XGBoost, libcurl and SQLite (ios_dlib.h), libm is
 * loaded the first time ios_libm() is called. Each entry is the libm
 * function of that name, so results are exactly libm's; fabs and floor
 * need no libm (the compiler inlines them).
 *
 * libm is part of the C library: when it cannot be loaded, the program
 * says so on stderr and exits with status 4 (internal error), as nothing
 * it computes could be trusted.
 */
#ifndef IOS_COMMON_MATH_H
#define IOS_COMMON_MATH_H

/* The functions, from libm.so.6: ios_libm()->log10(x) is log10(x). */
struct ios_libm {
    double (*log)(double);
    double (*log10)(double);
    double (*pow)(double, double);
    double (*sqrt)(double);
    double (*fmod)(double, double);
    double (*round)(double);
    long (*lround)(double);
    double (*fmin)(double, double);
    double (*fmax)(double, double);
};

/* The table, loaded on the first call (thread-safe). */
const struct ios_libm *ios_libm(void);

#endif
