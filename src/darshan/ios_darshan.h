/*
 * src/darshan/ios_darshan.h - what the reader shares with the other modules
 * of the library (not public): facts of the reference reader that the dump
 * needs to print logs line for line as darshan-parser does.
 */
#ifndef IOS_DARSHAN_IOS_DARSHAN_H
#define IOS_DARSHAN_IOS_DARSHAN_H

/* The reference reader's per-module record buffer, in bytes: a Lustre or
 * heatmap record larger than this is cut (or refused) there. */
#define IOS_LUSTRE_SCRATCH 81920

#endif
