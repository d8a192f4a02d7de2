/*
 * src/features/feature_list.h - THE feature schema: order, names and
 * formulas. Changing anything here (order, a name, a formula) requires
 * bumping IOSAGE_FEATURE_SCHEMA_VERSION and regenerating docs/features.md
 * (tests/unit/test_features.c checks that every name is documented).
 *
 * Notation (docs/features.md explains it in full):
 *   n       nprocs;  R  run time;  T  the job's I/O time (LABELING.md)
 *   data files   files that move bytes, not streams or system files
 *   top layer    per data file: MPI-IO if it was opened through MPI-IO,
 *                else POSIX/DFS; plus STDIO
 *   POSIX        POSIX and DFS rows of data files, including files also
 *                opened through MPI-IO
 *   share        x / y capped to [0, 1], 0 when y is 0
 *   lg(x)        log10(1 + x), 0 when x <= 0
 *
 * The last two are counts, not scale-invariant: the floors read them (a
 * pattern's materiality, as LABELING.md's criteria count it), and training
 * never shows them to a model: a model's inputs are the first
 * IOSAGE_NUM_MODEL_FEATURES (src/model/xgb.c gives XGBoost those columns).
 */
#ifndef IOS_FEATURE_LIST_H
#define IOS_FEATURE_LIST_H

#define IOS_FEATURES(X)                                                        \
    /* job */                                                                  \
    X(job_io_time_share_slowest,                                               \
      "min(1, slowest rank's I/O time / R); 0 when R is unknown")              \
    X(job_io_time_share_mean, "min(1, T / (n * R)); 0 when R is unknown")       \
    X(job_bytes_per_rank_log,                                                  \
      "lg(top-layer bytes of all files / n / 2^20): MiB per rank")             \
    X(job_data_ops_per_rank_log, "lg(top-layer data ops of data files / n)")   \
    X(job_bandwidth_log, "lg((top-layer bytes / 2^20) / T): MiB/s of I/O time") \
    X(job_read_byte_share, "share(bytes read, bytes moved), top layer, data files") \
    X(job_read_op_share, "share(reads, data ops), top layer, data files")      \
    X(job_read_write_ratio_log,                                                \
      "log10((1 + bytes read) / (1 + bytes written)), top layer, data files; signed") \
    X(job_read_time_share, "share(read time, T)")                              \
    X(job_write_time_share, "share(write time, T)")                            \
    X(job_meta_time_share, "share(metadata time, T)")                          \
    X(job_nondata_time_share,                                                  \
      "share(T - I/O time of data files, T): streams, system files, files moving no bytes") \
    X(job_small_op_share,                                                      \
      "share(top-layer requests under 1 MiB, top-layer data ops), data files") \
    X(job_small_file_time_share,                                               \
      "share(I/O time of data files whose requests under 1 MiB, as the file system saw them, are at least half of their reads or of their writes, T)") \
    X(job_small_ops_per_rank_log,                                              \
      "lg(top-layer requests under 1 MiB of data files / n)")                  \
    /* POSIX request sizes */                                                  \
    X(posix_read_0_100_share, "share(SIZE_READ_0_100, POSIX reads)")           \
    X(posix_read_100_1k_share, "share(SIZE_READ_100_1K, POSIX reads)")         \
    X(posix_read_1k_10k_share, "share(SIZE_READ_1K_10K, POSIX reads)")         \
    X(posix_read_10k_100k_share, "share(SIZE_READ_10K_100K, POSIX reads)")     \
    X(posix_read_100k_1m_share, "share(SIZE_READ_100K_1M, POSIX reads)")       \
    X(posix_read_1m_4m_share, "share(SIZE_READ_1M_4M, POSIX reads)")           \
    X(posix_read_4m_10m_share, "share(SIZE_READ_4M_10M, POSIX reads)")         \
    X(posix_read_10m_plus_share,                                               \
      "share(SIZE_READ_10M_100M + SIZE_READ_100M_1G + SIZE_READ_1G_PLUS, POSIX reads)") \
    X(posix_write_0_100_share, "share(SIZE_WRITE_0_100, POSIX writes)")        \
    X(posix_write_100_1k_share, "share(SIZE_WRITE_100_1K, POSIX writes)")      \
    X(posix_write_1k_10k_share, "share(SIZE_WRITE_1K_10K, POSIX writes)")      \
    X(posix_write_10k_100k_share, "share(SIZE_WRITE_10K_100K, POSIX writes)")  \
    X(posix_write_100k_1m_share, "share(SIZE_WRITE_100K_1M, POSIX writes)")    \
    X(posix_write_1m_4m_share, "share(SIZE_WRITE_1M_4M, POSIX writes)")        \
    X(posix_write_4m_10m_share, "share(SIZE_WRITE_4M_10M, POSIX writes)")      \
    X(posix_write_10m_plus_share,                                              \
      "share(SIZE_WRITE_10M_100M + SIZE_WRITE_100M_1G + SIZE_WRITE_1G_PLUS, POSIX writes)") \
    X(posix_small_read_share, "share(POSIX reads under 1 MiB, POSIX reads)")   \
    X(posix_small_write_share, "share(POSIX writes under 1 MiB, POSIX writes)") \
    X(posix_tiny_op_share,                                                     \
      "share(POSIX requests of at most 10 KiB (bins 0_100 .. 1K_10K), POSIX data ops)") \
    X(posix_read_size_log, "lg(POSIX bytes read / POSIX reads)")               \
    X(posix_write_size_log, "lg(POSIX bytes written / POSIX writes)")          \
    /* MPI-IO request sizes (aggregate request sizes) */                       \
    X(mpiio_read_10k_share,                                                    \
      "share(SIZE_READ_AGG_0_100 + _100_1K + _1K_10K, MPI-IO reads)")          \
    X(mpiio_read_10k_1m_share,                                                 \
      "share(SIZE_READ_AGG_10K_100K + _100K_1M, MPI-IO reads)")                \
    X(mpiio_read_1m_10m_share,                                                 \
      "share(SIZE_READ_AGG_1M_4M + _4M_10M, MPI-IO reads)")                    \
    X(mpiio_read_10m_plus_share,                                               \
      "share(SIZE_READ_AGG_10M_100M + _100M_1G + _1G_PLUS, MPI-IO reads)")     \
    X(mpiio_write_10k_share,                                                   \
      "share(SIZE_WRITE_AGG_0_100 + _100_1K + _1K_10K, MPI-IO writes)")        \
    X(mpiio_write_10k_1m_share,                                                \
      "share(SIZE_WRITE_AGG_10K_100K + _100K_1M, MPI-IO writes)")              \
    X(mpiio_write_1m_10m_share,                                                \
      "share(SIZE_WRITE_AGG_1M_4M + _4M_10M, MPI-IO writes)")                  \
    X(mpiio_write_10m_plus_share,                                              \
      "share(SIZE_WRITE_AGG_10M_100M + _100M_1G + _1G_PLUS, MPI-IO writes)")   \
    X(mpiio_small_op_share,                                                    \
      "share(MPI-IO requests under 1 MiB, MPI-IO data ops)")                   \
    X(mpiio_op_size_log, "lg(MPI-IO bytes / MPI-IO data ops)")                 \
    /* STDIO request sizes */                                                  \
    X(stdio_small_op_share,                                                    \
      "share(sum per record and direction of max(0, ops - bytes / 2^20), STDIO ops): a lower bound") \
    X(stdio_op_size_log, "lg(STDIO bytes / STDIO ops)")                        \
    /* access pattern */                                                       \
    X(posix_consec_read_share, "share(CONSEC_READS, POSIX reads)")             \
    X(posix_consec_write_share, "share(CONSEC_WRITES, POSIX writes)")          \
    X(posix_seq_read_share, "share(SEQ_READS, POSIX reads)")                   \
    X(posix_seq_write_share, "share(SEQ_WRITES, POSIX writes)")                \
    X(posix_nonseq_op_share,                                                   \
      "share(POSIX data ops - SEQ_READS - SEQ_WRITES, POSIX data ops)")        \
    X(posix_nonseq_file_time_share,                                            \
      "share(I/O time of data files whose non-sequential ops are at least 20% of their POSIX data ops, T)") \
    X(posix_rw_switches_per_op, "share(RW_SWITCHES, POSIX data ops)")          \
    X(posix_file_misaligned_share, "share(FILE_NOT_ALIGNED, POSIX data ops)")  \
    X(posix_mem_misaligned_share, "share(MEM_NOT_ALIGNED, POSIX data ops)")    \
    X(posix_access_top1_share, "share(sum of ACCESS1_COUNT, POSIX data ops)")  \
    X(posix_access_top4_share,                                                 \
      "share(sum of ACCESS1..4_COUNT, POSIX data ops)")                        \
    X(posix_stride_top4_share,                                                 \
      "share(sum of STRIDE1..4_COUNT, POSIX data ops)")                        \
    X(mpiio_access_top4_share,                                                 \
      "share(sum of MPIIO_ACCESS1..4_COUNT, MPI-IO data ops)")                 \
    X(posix_reread_ratio_log,                                                  \
      "lg(sum of bytes read / sum of (MAX_BYTE_READ + 1) * ranks), POSIX and STDIO rows of data files that read: reads per byte and rank") \
    X(posix_reread_byte_share,                                                 \
      "share(bytes read of data files read at least 2x their extent, bytes read), POSIX and STDIO rows") \
    X(posix_rewrite_ratio_log,                                                 \
      "lg(sum of bytes written / sum of (MAX_BYTE_WRITTEN + 1)), POSIX and STDIO rows of data files that write") \
    /* metadata */                                                             \
    X(meta_ops_per_data_op_log,                                                \
      "lg(metadata ops / data ops), all files, every layer's rows")            \
    X(meta_ops_per_rank_log, "lg(metadata ops / n), all files")                \
    X(meta_opens_per_file_rank_log,                                            \
      "lg(top-layer opens / rank-weighted files), all files: opens per file and rank") \
    X(meta_stats_per_open_log, "lg(POSIX_STATS / POSIX opens), data files")    \
    X(meta_seeks_per_op_log,                                                   \
      "lg((POSIX_SEEKS + STDIO_SEEKS) / (POSIX + STDIO data ops)), data files") \
    X(meta_time_per_op_log,                                                    \
      "lg(10^6 * metadata time / metadata ops): microseconds per metadata op") \
    /* files */                                                                \
    X(file_per_rank_log, "lg(data files / n)")                                 \
    X(file_shared_share,                                                       \
      "share(rank-weighted shared data files, rank-weighted data files); rank-weighted: each file counts once per rank that opened it") \
    X(file_shared_byte_share,                                                  \
      "share(top-layer bytes of shared data files, top-layer bytes of data files)") \
    X(file_shared_time_share, "share(I/O time of shared data files, T)")       \
    X(file_unique_per_rank_log,                                                \
      "lg(data files opened by exactly one rank / n)")                         \
    X(file_median_size_log,                                                    \
      "lg(median data file size in bytes); size = highest offset + 1, or bytes moved when no offset is known") \
    X(file_small_share,                                                        \
      "share(rank-weighted data files under 4 MiB, rank-weighted data files)")  \
    X(file_read_only_share,                                                    \
      "share(rank-weighted data files only read, rank-weighted data files)")    \
    X(file_write_only_share,                                                   \
      "share(rank-weighted data files only written, rank-weighted data files)") \
    X(file_read_write_share,                                                   \
      "share(rank-weighted data files read and written, rank-weighted data files)") \
    X(file_top_time_share, "share(largest I/O time of one data file, T)")      \
    X(file_nondata_share,                                                      \
      "share(rank-weighted files that are not data files, rank-weighted files)") \
    /* interface */                                                            \
    X(mpiio_op_share, "share(MPI-IO data ops, top-layer data ops), data files") \
    X(mpiio_coll_op_share,                                                     \
      "share(COLL + SPLIT reads and writes, MPI-IO data ops)")                 \
    X(mpiio_coll_read_share, "share(COLL_READS + SPLIT_READS, MPI-IO reads)")  \
    X(mpiio_coll_write_share,                                                  \
      "share(COLL_WRITES + SPLIT_WRITES, MPI-IO writes)")                      \
    X(mpiio_nb_op_share, "share(NB_READS + NB_WRITES, MPI-IO data ops)")       \
    X(mpiio_posix_ops_per_op_log,                                              \
      "lg(POSIX data ops of files opened through MPI-IO / their MPI-IO data ops)") \
    X(mpiio_views_per_open_log, "lg(MPIIO_VIEWS / MPI-IO opens)")              \
    X(stdio_byte_share, "share(STDIO bytes, top-layer bytes), data files")     \
    X(stdio_op_share, "share(STDIO data ops, top-layer data ops), data files") \
    X(stdio_time_share, "share(STDIO I/O time of all files, T)")               \
    X(file_indep_shared_time_share,                                            \
      "share(I/O time of shared data files with >= 90% POSIX or independent MPI-IO ops and small (average < 1 MiB) or non-contiguous requests, T)") \
    /* balance across ranks */                                                 \
    X(rank_time_imbalance,                                                     \
      "1 - mean / max of the per-rank I/O time estimate; 0 without I/O time")  \
    X(rank_time_max_over_mean_log,                                             \
      "log10(max / mean) of the per-rank I/O time estimate")                   \
    X(rank_bytes_imbalance, "1 - mean / max of the per-rank bytes estimate")   \
    X(rank_bytes_max_over_mean_log,                                            \
      "log10(max / mean) of the per-rank bytes estimate")                      \
    X(rank_active_share, "share(ranks estimated to do I/O, n)")                \
    X(shared_time_spread,                                                      \
      "time-weighted mean over rank -1 records of data files of (F_SLOWEST_RANK_TIME - F_FASTEST_RANK_TIME) / F_SLOWEST_RANK_TIME") \
    X(shared_bytes_spread,                                                     \
      "byte-weighted mean over rank -1 records of data files of abs(SLOWEST_RANK_BYTES - FASTEST_RANK_BYTES) / the larger") \
    X(shared_time_cv_log,                                                      \
      "lg(time-weighted mean over rank -1 records of data files of sqrt(F_VARIANCE_RANK_TIME) / (record time / n))") \
    X(shared_bytes_cv_log,                                                     \
      "lg(byte-weighted mean over rank -1 records of data files of sqrt(F_VARIANCE_RANK_BYTES) / (record bytes / n))") \
    X(unique_rank_bytes_imbalance,                                             \
      "1 - mean / max over ranks of the bytes of their per-rank records of data files") \
    X(unique_rank_bytes_max_over_mean_log,                                     \
      "log10(max / mean) of the same per-rank bytes")                          \
    /* syncs and storage use */                                                \
    X(sync_per_write_log, "lg((FSYNCS + FDSYNCS) / POSIX writes), data files") \
    X(sync_extra_per_write,                                                    \
      "share(sum per POSIX row of max(0, syncs - 2 * ranks), POSIX writes), data files") \
    X(mpiio_sync_per_write_log, "lg(MPIIO_SYNCS / MPI-IO writes), data files") \
    X(stdio_flush_per_write_log, "lg(STDIO_FLUSHES / STDIO writes), data files") \
    X(lustre_stripe_count_log,                                                 \
      "lg(stripe count of the data file with the most bytes written among those with LUSTRE data); 0 without") \
    X(lustre_mib_per_ost_log,                                                  \
      "lg(bytes written to that file / its stripe count / 2^20)")              \
    X(lustre_single_ost_write_share,                                           \
      "share(bytes written to data files striped over one OST, bytes written to data files with LUSTRE data)") \
    X(reread_time_share,                                                       \
      "share(read time of data files read at least 2x their extent, T)")       \
    /* counts: the floors' materiality, never a model input */                \
    X(job_data_files_log, "lg(data files): a count, for the floors only")     \
    X(job_meta_ops_log,                                                        \
      "lg(metadata operations as LABELING.md counts them: opens, stats, seeks, syncs where the file system sees them): a count, for the floors only")

#endif
