/*
 * iosage/version.h - the one version string of iosage: the project version
 * of CMakeLists.txt, as `iosage --version`, the report documents'
 * "generator", the validation document and the LLM clients' User-Agent
 * give it.
 */
#ifndef IOSAGE_VERSION_H
#define IOSAGE_VERSION_H

#include "iosage/error.h" /* IOSAGE_API */

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0": static storage, never NULL. */
IOSAGE_API const char *iosage_version(void);

#ifdef __cplusplus
}
#endif

#endif
