/*
 * src/label/classify.c - data files versus streams and system files
 * (LABELING.md "Data files"). The path rules live in one place, the
 * feature module's classifier (src/features/classify.c); this maps its
 * classes onto the labeler's.
 */
#include "ios_features.h"
#include "internal.h"

int lb_classify_path(const char *path)
{
    unsigned c = ios_classify_path(path);
    if (c & IOSAGE_FILE_STREAM)
        return LB_STREAM;
    if (c & IOSAGE_FILE_SYSTEM)
        return LB_SYSTEM;
    return LB_DATA;
}
