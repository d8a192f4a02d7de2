/*
 * ios_common.h - the library-wide helpers of src/common, for the modules
 * that use several of them. Each part has its own header:
 *
 *   ios_error.h    ios_fail: fill an iosage_error             (error.c)
 *   ios_file.h     read a whole file                          (file.c)
 *   ios_text.h     UTF-8 checks, a growable string            (text.c)
 *   ios_arena.h    many small allocations freed together      (arena.c)
 *   ios_bigmem.h   malloc/calloc/realloc of megabytes on huge pages
 *                                                             (bigmem.c)
 *   ios_buf.h      growable byte buffer, little-endian appends (buf.c)
 *   ios_idmap.h    64-bit id -> index map                     (idmap.c)
 *   ios_numfmt.h   numbers for people (three output styles)   (numfmt.c)
 *   ios_runtime.h  the job's run time as darshan-parser prints it
 *                                                             (runtime.c)
 *   ios_dlib.h     a shared library loaded on first use       (dlib.c;
 *                  not included here)
 *   ios_mpirun.h   a kernel run under mpirun (gen, validate)  (mpirun.c;
 *                  not included here)
 *   ios_json.h     building JSON with jansson (not included here: only
 *                  the modules that build documents need it)  (json.c)
 *
 * Nothing here is public (include/iosage holds the public API), and
 * nothing here knows about another module: src/common depends on no other
 * part of src/.
 */
#ifndef IOS_COMMON_H
#define IOS_COMMON_H

#include "ios_arena.h"
#include "ios_bigmem.h"
#include "ios_buf.h"
#include "ios_error.h"
#include "ios_file.h"
#include "ios_idmap.h"
#include "ios_numfmt.h"
#include "ios_runtime.h"
#include "ios_text.h"

#endif
