#!/usr/bin/python3
"""Compare a log written by the iosage tracer with the log the Darshan runtime
wrote for the same run of the same kernel (trace/tests/conformance.sh runs it).

    conformance_compare.py IOSAGE RUNTIME_LOG TRACER_LOG CONFIG

Both logs are printed with `iosage dump` (darshan-parser's text form) and
compared record by record, records matched by (module, rank, name) where a
name under the run's data directory is taken relative to it (the runs used
different directories) and the process ids in Open MPI's shared-memory file
names are blanked.

What must hold:
  * the same modules and the same set of records;
  * every counter that is not a timing counter equal, except the ones listed
    in EXCEPTIONS (each with the reason it cannot be equal; trace/README.md
    repeats the list);
  * timing counters (*_F_*) present and sensible: times >= 0, every start
    timestamp <= its end timestamp, timestamps of operations that happened
    (count > 0) non-zero, no timestamp after the job's run time;
  * HEATMAP records: timing decides which bin a byte falls in, so the bins
    are not compared one by one; their sums per record (bytes read and
    written by that rank through that API) must be equal, and the bin width
    sensible;
  * the job's run time positive, every timestamp within it (that it runs
    from MPI_Init to MPI_Finalize is checked exactly by trace_mpi_np2/np4).

Prints one line per difference and exits 1 when there is any.
"""
import re
import subprocess
import sys

# Counters that cannot be equal, as (module, counter regex, record name
# regex, reason). Keep trace/README.md's list in step.
EXCEPTIONS = [
    ("POSIX", r"POSIX_(MEM|FILE)_NOT_ALIGNED|POSIX_MEM_ALIGNMENT", r".*",
     "depends on where malloc placed the buffers in each run"),
    ("POSIX|MPI-IO", r".*_MAX_(READ|WRITE)_TIME_SIZE", r".*",
     "size of the slowest call: which call is slowest is timing"),
    ("POSIX|MPI-IO|STDIO|H5D|PNETCDF_VAR", r".*_(FASTEST|SLOWEST)_RANK(_BYTES)?",
     r".*", "fastest/slowest rank is decided by the ranks' I/O times"),
    ("STDIO", r"STDIO_(BYTES_WRITTEN|MAX_BYTE_WRITTEN)", r"<STDOUT>",
     "the kernels print their timings and rates: the line's length varies"),
]

TIMING = re.compile(r"_F_")


def dump(iosage, path):
    """(job dict, {key: {counter: value}}, set of modules) of one log."""
    out = subprocess.run([iosage, "dump", path], check=True,
                         capture_output=True, text=True).stdout
    job, recs, mods, ids = {}, {}, set(), {}
    for line in out.splitlines():
        if line.startswith("# run time:"):
            job["run_time"] = float(line.split(":", 1)[1])
        elif line.startswith("# nprocs:"):
            job["nprocs"] = int(line.split(":", 1)[1])
        elif line.startswith("# ") and " module: " in line and "ver=" in line:
            mods.add(line[2:].split(" module:")[0])
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        if len(f) < 6:
            continue
        key = (f[0], int(f[1]), norm_name(f[5]))
        ids[int(f[2])] = key[2]
        recs.setdefault(key, {})[f[3]] = float(f[4]) if "." in f[4] \
            else int(f[4])
    # A reference to another record (H5D_FILE_REC_ID, PNETCDF_VAR's file)
    # is a hash of an absolute path: compare the name it resolves to.
    for rec in recs.values():
        for c in ("H5D_FILE_REC_ID", "PNETCDF_VAR_FILE_REC_ID"):
            if c in rec:
                rec[c] = ids.get(rec[c], f"<unknown id {rec[c]}>")
    return job, recs, mods


def norm_name(name):
    """A record name made independent of the run's directory and pids."""
    m = re.search(r"/data/[^/]+/(.*)$", name)
    if m and not name.startswith("/tmp/ompi"):
        return m.group(1)
    name = re.sub(r"/pid\.\d+/", "/pid.N/", name)
    # Open MPI's communicator id: the runtime duplicates a communicator of
    # its own at MPI_Init, so the program's are numbered one higher.
    name = re.sub(r"_cid-\d+-\d+\.sm$", r"_cid-C-N.sm", name)
    return name


def excepted(module, counter, name):
    for mods, cre, nre, _ in EXCEPTIONS:
        if re.fullmatch(mods, module) and re.fullmatch(cre, counter) and \
                re.fullmatch(nre, name):
            return True
    return False


def check_timing(key, rec, run_time, errs):
    """Timing counters of one tracer record sensible on their own."""
    mod = key[0]
    for c, v in rec.items():
        if TIMING.search(c) and v < 0:
            errs.append(f"{key}: {c} = {v} < 0")
    for c, v in rec.items():
        if c.endswith("_START_TIMESTAMP"):
            end = rec.get(c.replace("_START_", "_END_"))
            if end is not None and v > end:
                errs.append(f"{key}: {c} {v} after its end {end}")
            if v > run_time + 0.01 or (end or 0) > run_time + 0.01:
                errs.append(f"{key}: {c} {v}/{end} beyond run time {run_time}")
    pre = {"POSIX": "POSIX_", "MPI-IO": "MPIIO_", "STDIO": "STDIO_"}.get(mod)
    if not pre:
        return
    for what, counts in (("READ", ["READS", "INDEP_READS", "COLL_READS"]),
                         ("WRITE", ["WRITES", "INDEP_WRITES", "COLL_WRITES"])):
        n = sum(rec.get(pre + c, 0) for c in counts)
        if n > 0 and rec.get(f"{pre}F_{what}_START_TIMESTAMP", 0) <= 0:
            errs.append(f"{key}: {n} {what.lower()}s but no start timestamp")
        if n > 0 and rec.get(f"{pre}F_{what}_TIME", 0) <= 0:
            errs.append(f"{key}: {n} {what.lower()}s but no {what} time")


def stride_ties(key, r, t, errs):
    """True when the runtime's top-4 strides of a shared file end in a tie
    (several strides as common as its 4th): which of the tied ones the
    runtime keeps depends on the order its reduction merges the ranks'
    lists, which the tracer does not reproduce (trace/README.md). Then only
    the strides more common than the tie must be in the tracer's top-4
    with the same counts."""
    if key[0] != "POSIX" or key[1] != -1:
        return False
    cnt = [r.get(f"POSIX_STRIDE{i}_COUNT", 0) for i in range(1, 5)]
    if cnt[3] == 0 or cnt[2] != cnt[3]:
        return False
    tr = {t.get(f"POSIX_STRIDE{i}_STRIDE"): t.get(f"POSIX_STRIDE{i}_COUNT")
          for i in range(1, 5)}
    for i in range(1, 5):
        if cnt[i - 1] > cnt[3]:
            v = r[f"POSIX_STRIDE{i}_STRIDE"]
            if tr.get(v) != cnt[i - 1]:
                errs.append(f"{key}: stride {v} x {cnt[i - 1]} of the "
                            f"runtime not in the tracer's top-4 {tr}")
    return True


def check_ranks(key, rec, nprocs, errs):
    """A shared record's fastest and slowest ranks are filled: real ranks,
    the slowest no faster than the fastest."""
    pre = {"POSIX": "POSIX_", "MPI-IO": "MPIIO_", "STDIO": "STDIO_"}.get(key[0])
    if not pre or key[1] != -1:
        return
    for what in ("FASTEST", "SLOWEST"):
        rank = rec.get(f"{pre}{what}_RANK", -1)
        if not 0 <= rank < nprocs:
            errs.append(f"{key}: {pre}{what}_RANK {rank} is not a rank")
    if rec.get(f"{pre}F_FASTEST_RANK_TIME", 0) > \
            rec.get(f"{pre}F_SLOWEST_RANK_TIME", 0):
        errs.append(f"{key}: fastest rank time above the slowest's")


def heatmap_sums(rec):
    r = sum(v for c, v in rec.items() if c.startswith("HEATMAP_READ_BIN_"))
    w = sum(v for c, v in rec.items() if c.startswith("HEATMAP_WRITE_BIN_"))
    return r, w


def main():
    iosage, ref_log, trc_log, config = sys.argv[1:5]
    rjob, rrecs, rmods = dump(iosage, ref_log)
    tjob, trecs, tmods = dump(iosage, trc_log)
    errs = []
    if rmods != tmods:
        errs.append(f"modules differ: runtime {sorted(rmods)}, "
                    f"tracer {sorted(tmods)}")
    if rjob.get("nprocs") != tjob.get("nprocs"):
        errs.append(f"nprocs: runtime {rjob.get('nprocs')}, "
                    f"tracer {tjob.get('nprocs')}")
    for key in sorted(set(rrecs) - set(trecs)):
        errs.append(f"record missing in the tracer's log: {key}")
    for key in sorted(set(trecs) - set(rrecs)):
        errs.append(f"record only in the tracer's log: {key}")
    run_time = tjob.get("run_time", 0.0)
    n_equal = 0
    for key in sorted(set(rrecs) & set(trecs)):
        r, t = rrecs[key], trecs[key]
        if key[0] == "HEATMAP":
            # The STDIO heatmap holds the <STDOUT> bytes, whose count may
            # differ by as much as the <STDOUT> record does (exception).
            slack = 0
            if key[2] == "heatmap:STDIO":
                for rk in (key[1], -1):
                    o = ("STDIO", rk, "<STDOUT>")
                    if o in rrecs and o in trecs:
                        slack = rrecs[o].get("STDIO_BYTES_WRITTEN", 0) - \
                            trecs[o].get("STDIO_BYTES_WRITTEN", 0)
                        break
            rs, ts = heatmap_sums(r), heatmap_sums(t)
            if rs[0] != ts[0] or abs(rs[1] - ts[1]) > abs(slack):
                errs.append(f"{key}: heatmap bytes (read, written) runtime "
                            f"{heatmap_sums(r)}, tracer {heatmap_sums(t)}")
            width = t.get("HEATMAP_F_BIN_WIDTH_SECONDS", 0)
            nbins = sum(1 for c in t if c.startswith("HEATMAP_READ_BIN_"))
            if width <= 0 or nbins < 1 or (nbins - 1) * width > run_time + 0.01:
                errs.append(f"{key}: heatmap of {nbins} bins of {width} s "
                            f"for a run of {run_time} s")
            continue
        tied = stride_ties(key, r, t, errs)
        for c in r:
            if c not in t:
                errs.append(f"{key}: counter {c} missing")
                continue
            if TIMING.search(c) or excepted(key[0], c, key[2]) or \
                    (tied and re.fullmatch(r"POSIX_STRIDE\d_(STRIDE|COUNT)", c)):
                continue
            if r[c] != t[c]:
                errs.append(f"{key}: {c} runtime {r[c]}, tracer {t[c]}")
            else:
                n_equal += 1
        check_timing(key, t, run_time, errs)
        check_ranks(key, t, tjob.get("nprocs", 1), errs)
    # The run time itself depends on the machine's load; that it runs from
    # MPI_Init to MPI_Finalize is checked exactly by trace_mpi_np2/np4
    # (against wall times the workload takes around both calls). Here: it
    # is positive and every timestamp lies within it (check_timing).
    if run_time <= 0:
        errs.append(f"run time {run_time} not positive")
    for e in errs:
        print(f"{config}: {e}")
    print(f"{config}: {len(trecs)} records, {n_equal} counters equal, "
          f"run time runtime {rjob.get('run_time')} s, tracer {run_time} s, "
          f"{len(errs)} difference(s)")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
