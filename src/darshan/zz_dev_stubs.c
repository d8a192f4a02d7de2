/* TEMPORARY development stubs: weak definitions so the tree links while the
 * module codecs are written. Every real definition overrides these. Delete this
 * file once all codecs exist. */
#include "darshan/internal.h"
#include "iosage/dump.h"

#define WEAK __attribute__((weak))

WEAK int ios_posix_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_posix_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_mpiio_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_mpiio_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_stdio_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_stdio_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_h5f_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_h5f_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_h5d_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_h5d_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_pnetcdf_file_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_pnetcdf_file_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_pnetcdf_var_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_pnetcdf_var_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_bgq_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_bgq_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_lustre_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_lustre_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_dxt_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_dxt_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_mdhim_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_mdhim_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_apmpi_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_apmpi_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_heatmap_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_heatmap_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_dfs_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_dfs_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int ios_daos_decode(ios_cursor *c, ios_mod_ctx *x, iosage_record *r, ios_arena *a, iosage_error *e)
{ (void)c; (void)x; (void)r; (void)a; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "decoder not written"); }
WEAK iosage_status ios_daos_encode(const iosage_record *r, ios_buf *b, iosage_error *e)
{ (void)r; (void)b; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "encoder not written"); }
WEAK int iosage_counter_count(int m) { (void)m; return 0; }
WEAK int iosage_fcounter_count(int m) { (void)m; return 0; }
WEAK const char *iosage_counter_name(int m, int i) { (void)m; (void)i; return NULL; }
WEAK const char *iosage_fcounter_name(int m, int i) { (void)m; (void)i; return NULL; }
WEAK int iosage_counter_index(int m, const char *n) { (void)m; (void)n; return -1; }
WEAK int iosage_fcounter_index(int m, const char *n) { (void)m; (void)n; return -1; }
WEAK iosage_status iosage_dump_parser(iosage_reader *r, int f, FILE *o, FILE *d, struct iosage_dump_result *res, iosage_error *e)
{ (void)r; (void)f; (void)o; (void)d; (void)res; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "dump not written"); }
WEAK iosage_status iosage_dump_dxt(iosage_reader *r, int f, FILE *o, FILE *d, struct iosage_dump_result *res, iosage_error *e)
{ (void)r; (void)f; (void)o; (void)d; (void)res; return ios_fail(e, IOSAGE_E_INTERNAL, NULL, NULL, -1, "dump not written"); }
