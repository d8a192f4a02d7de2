/*
 * version.c - iosage_version: the project version, which CMakeLists.txt
 * passes to this file alone (IOSAGE_VERSION); everything else asks here.
 */
#include "iosage/version.h"

#ifndef IOSAGE_VERSION
#error "IOSAGE_VERSION comes from CMakeLists.txt (the project version)"
#endif

const char *iosage_version(void)
{
    return IOSAGE_VERSION;
}
