/*
 * ios_outpath.h - is an output path one of the command's inputs?
 * (outpath.c)
 *
 * Every command that writes a file checks its output against each input
 * (logs, config files, databases, sweep files) before it reads anything,
 * so that a slip of tab completion cannot replace a job's only log with a
 * report. Two paths name the same file when both exist and have the same
 * device and inode (hard links and symbolic links included), or, when one
 * does not exist yet, when their normalised absolute paths are equal.
 */
#ifndef IOS_COMMON_OUTPATH_H
#define IOS_COMMON_OUTPATH_H

#include <stddef.h>

/* 1 when out and in name the same file, else 0. */
int ios_same_file(const char *out, const char *in);

/* 1 when path is dir or lies inside it at any depth (an output directory
 * that holds an input), else 0. Paths are compared after resolving
 * symbolic links where they exist. */
int ios_path_within(const char *path, const char *dir);

/* The index of the first of inputs[0..n) (NULL entries skipped) that
 * the output out would write over: the same file (ios_same_file), or, when
 * out is an output directory (out_is_dir), an input inside it
 * (ios_path_within). -1 when there is none. */
long ios_output_clash(const char *out, int out_is_dir,
                      const char *const *inputs, size_t n);

#endif
