/*
 * src/model/embedded.h - the model bundle built into the iosage binary.
 *
 * cmake/embed_model.cmake generates the definition from models/default/ at
 * build time; a build without a bundle there defines it with no files.
 */
#ifndef IOS_MODEL_EMBEDDED_H
#define IOS_MODEL_EMBEDDED_H

#include <stddef.h>

#include "iosage/model.h"

/* Fill out[0 .. min(n, cap)) with the embedded files (name, bytes, size;
 * the bytes live in the binary) and return n, the number of files: 0 when
 * the build embedded no bundle. Pass cap 0 to count. */
size_t ios_embedded_model(struct iosage_model_file *out, size_t cap);

#endif
