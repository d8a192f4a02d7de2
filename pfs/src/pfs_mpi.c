/*
 * pfs_mpi.c - the MPI-IO striping hints: striping_factor and
 * striping_unit given to MPI_File_open set the layout of the file it
 * creates, as ROMIO's and OMPIO's Lustre drivers do.
 *
 * Built only when MPI headers are found, and not linked with MPI: the
 * real functions are looked up at run time, so the library still loads
 * into programs without MPI. Both MPI_File_open and PMPI_File_open are
 * wrapped: a program calls the first, the tracer (when it is preloaded
 * before this library) calls the second.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>

#include "pfs_emu.h"

typedef int (*file_open_fn)(MPI_Comm, const char *, int, MPI_Info, MPI_File *);
typedef int (*info_get_fn)(MPI_Info, const char *, int, char *, int *);

static void *_Atomic real_mpi_open, *_Atomic real_pmpi_open, *_Atomic real_info_get;

/* The integer value of hint `key` in info, or 0. */
static unsigned long long hint(MPI_Info info, const char *key)
{
    info_get_fn get = (info_get_fn)pfs_real(&real_info_get, "PMPI_Info_get");
    char val[64];
    int flag = 0;
    if (!get || get(info, key, (int)sizeof val - 1, val, &flag) != MPI_SUCCESS ||
        !flag)
        return 0;
    val[sizeof val - 1] = '\0';
    return strtoull(val, NULL, 10);
}

/* 1 when info is MPI_INFO_NULL. Open MPI's is the address of a variable
 * in libmpi, which this library does not link: look it up instead. */
static int info_is_null(MPI_Info info)
{
#ifdef OPEN_MPI
    return info == NULL || (void *)info == dlsym(RTLD_DEFAULT, "ompi_mpi_info_null");
#else
    return info == MPI_INFO_NULL;
#endif
}

/* Note the hints for the create inside the real open, then make it. */
static int open_common(void *fn, MPI_Comm comm, const char *path, int amode,
                       MPI_Info info, MPI_File *fh)
{
    if (!fn)
        return MPI_ERR_OTHER;
    if (pfs_active() && !info_is_null(info) && (amode & MPI_MODE_CREATE) &&
        pfs_path_in_mount(path)) {
        unsigned long long count = hint(info, "striping_factor");
        unsigned long long unit = hint(info, "striping_unit");
        if (count > PFS_MAX_STRIPES)
            count = PFS_MAX_STRIPES;
        pfs_set_hints((int)count, unit);
    }
    int rc = ((file_open_fn)fn)(comm, path, amode, info, fh);
    pfs_set_hints(0, 0);
    return rc;
}

int MPI_File_open(MPI_Comm comm, const char *path, int amode, MPI_Info info,
                  MPI_File *fh)
{
    return open_common(pfs_real(&real_mpi_open, "MPI_File_open"), comm, path,
                       amode, info, fh);
}

int PMPI_File_open(MPI_Comm comm, const char *path, int amode, MPI_Info info,
                   MPI_File *fh)
{
    return open_common(pfs_real(&real_pmpi_open, "PMPI_File_open"), comm, path,
                       amode, info, fh);
}
