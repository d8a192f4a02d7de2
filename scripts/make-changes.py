#!/usr/bin/python3
"""scripts/make-changes.py - write bench/sweeps/hpc.changes from hpc.sweep.

For every configuration of a sweep with a pattern, and for each of its
patterns, the kernel flags of the configuration with that pattern's change
applied (issue 16: measured savings). The rules are below, one function per
change; a pattern whose change no flag of the kernel can express is left out
with a comment line, so the file says what was not measured and why.

    scripts/make-changes.py bench/sweeps/hpc.sweep bench/sweeps/hpc.fixes \
        > bench/sweeps/hpc.changes

The output is committed; `iosage savings` reads it (docs/savings.md).
Standard library only.
"""
import sys

UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def size_of(text):
    if text[-1].lower() in UNITS:
        return int(text[:-1]) * UNITS[text[-1].lower()]
    return int(text)


def size_text(n):
    for suffix, unit in (("g", 1 << 30), ("m", 1 << 20), ("k", 1 << 10)):
        if n % unit == 0:
            return "%d%s" % (n // unit, suffix)
    return str(n)


class Flags:
    """A kernel's flags as a list, with the few edits the rules need."""

    def __init__(self, words):
        self.w = list(words)

    def has(self, flag):
        return flag in self.w

    def get(self, flag, default=None):
        if flag in self.w:
            return self.w[self.w.index(flag) + 1]
        return default

    def drop(self, flag, value=False):
        if flag in self.w:
            i = self.w.index(flag)
            del self.w[i:i + (2 if value else 1)]
        return self

    def set(self, flag, value):
        if flag in self.w:
            self.w[self.w.index(flag) + 1] = value
        else:
            self.w += [flag, value]
        return self

    def swap(self, old, new):
        if old in self.w:
            self.w[self.w.index(old)] = new
        return self

    def copy(self):
        return Flags(self.w)

    def text(self):
        return " ".join(self.w)


# --- The rules: each returns (flags, kernel or None, note) or None ----------

def balance(k, n, f):
    """balance_io: the same bytes in all, spread evenly over the ranks."""
    g = f.copy()
    if k == "imbalance":
        factor = int(f.get("--factor", "1"))
        heavy = int(f.get("--heavy-ranks", "1"))
        block = size_of(f.get("--block", "4m"))
        total = (n - heavy + heavy * factor) * block
        per = (total // n) // (1 << 20) * (1 << 20)
        g.set("--factor", "1").drop("--heavy-ranks", True)
        return g.set("--block", size_text(per)), None
    if k == "ior_like":
        factor = int(f.get("--heavy-factor", "1"))
        block = size_of(f.get("--block", "4m"))
        transfer = size_of(f.get("--transfer", "1m"))
        per = (n - 1 + factor) * block // n // transfer * transfer
        g.drop("--heavy-factor", True)
        return g.set("--block", size_text(per)), None
    if k == "hacc_like":
        factor = int(f.get("--heavy-factor", "1"))
        parts = int(f.get("--particles", "131072"))
        g.drop("--heavy-factor", True)
        return g.set("--particles", str((n - 1 + factor) * parts // n)), None
    if k == "ckpt_like":
        factor = int(f.get("--heavy-factor", "1"))
        state = size_of(f.get("--state", "8m"))
        per = (n - 1 + factor) * state // n // (1 << 16) * (1 << 16)
        g.drop("--heavy-factor", True)
        return g.set("--state", size_text(per)), None
    if k == "amrex_like":
        factor = int(f.get("--heavy-factor", "1"))
        fabs = int(f.get("--fabs", "4"))
        g.drop("--heavy-factor", True)
        return g.set("--fabs", str(max(1, round((n - 1 + factor) * fabs / n)))), None
    if k == "e3sm_like" and f.get("--io-tasks") == "1":
        return g.set("--io-tasks", str(n)), None
    if k == "postproc_like" and not f.has("--parallel"):
        return Flags(g.w + ["--parallel"]), None
    if k == "stdio_heavy" and f.has("--rank0-only"):
        records = int(f.get("--records", "8"))
        g.drop("--rank0-only").set("--records", str(max(1, records // n)))
        return g, None
    if k == "wrf_like" and f.get("--io") == "serial":
        return g.set("--io", "parallel"), None
    return None


def larger(k, n, f):
    """larger_requests: the same bytes in requests of up to 1 MiB."""
    g = f.copy()
    if k == "ior_like":
        block = size_of(f.get("--block", "4m"))
        return g.set("--transfer", size_text(min(block, 1 << 20))), None
    if k in ("hacc_like", "amrex_like", "ckpt_like"):
        return g.drop("--transfer", True), None  # a variable/box/state whole
    if k == "h5bench_like":
        return g.drop("--block", True), None      # the rank's part whole
    if k == "mdtest_like":
        return g.set("--transfer", f.get("--write-bytes", "4m")), None
    if k == "e3sm_like" and f.get("--decomp") == "cyclic":
        return g.set("--decomp", "block"), None  # one range per rank
    if k == "dlio_like":
        rec = size_of(f.get("--record", "1m"))
        per = int(f.get("--records-per-file", "4"))
        file_bytes = rec * per
        big = min(file_bytes, 1 << 20)
        g.set("--record", size_text(big))
        return g.set("--records-per-file", str(file_bytes // big)), None
    if k == "stdio_heavy":
        rec = size_of(f.get("--record", "1m"))
        count = int(f.get("--records", "8"))
        total = rec * count
        big = min(1 << 20, max(rec, total // 8))
        big = big // rec * rec
        g.set("--record", size_text(big))
        return g.set("--records", str(max(1, total // big))), None
    return None


def collective(k, n, f):
    """collective_io: collective MPI-IO calls on the shared file."""
    g = f.copy()
    if k in ("ior_like", "hacc_like", "ckpt_like", "wrf_like"):
        if f.get("--api") == "posix":
            g.set("--api", "mpiio").drop("--seek")
            return Flags(g.w + ["--collective"]), None
        if f.has("--independent"):
            return g.swap("--independent", "--collective"), None
        return None
    if k in ("e3sm_like", "h5bench_like") and f.has("--independent"):
        return g.swap("--independent", "--collective"), None
    return None


def sequential(k, n, f):
    if f.has("--random"):
        return f.copy().drop("--random"), None
    if f.has("--random-restart"):
        return f.copy().drop("--random-restart"), None
    return None


def fewer_files(k, n, f):
    """fewer_files: a hundredth of the files, each with the bytes of 100."""
    g = f.copy()
    if k == "mdtest_like":
        files = int(f.get("--files-per-rank", "2"))
        fewer = max(1, files // 100)
        wb = size_of(f.get("--write-bytes", "4m"))
        g.set("--files-per-rank", str(fewer))
        if wb:
            g.set("--write-bytes", size_text(wb * files // fewer))
        return g, None
    if k == "postproc_like":
        inputs = int(f.get("--inputs", "16"))
        size = size_of(f.get("--input-size", "4m"))
        fewer = max(1, inputs // 100)
        g.set("--inputs", str(fewer))
        return g.set("--input-size", size_text(size * inputs // fewer)), None
    if k == "dlio_like":
        files = int(f.get("--files", "32"))
        per = int(f.get("--records-per-file", "4"))
        fewer = max(1, files // 8)
        g.set("--files", str(fewer))
        return g.set("--records-per-file", str(per * files // fewer)), None
    return None


def batch_metadata(k, n, f):
    """batch_metadata: open (and stat) once, not per operation."""
    if f.has("--open-per-sample"):
        return f.copy().drop("--open-per-sample"), None
    if f.has("--reopen"):
        return f.copy().drop("--reopen"), None
    if k == "mdtest_like" and f.has("--stat-other"):
        return f.copy().drop("--stat-other"), None
    return None


def metadata(k, n, f):
    return fewer_files(k, n, f) or batch_metadata(k, n, f)


def shared_file(k, n, f):
    """shared_file: one file instead of one per process (or per sample),
    striped over every target (the change template's second half, `lfs
    setstripe -c -1` on the run directory: --stripe-count -1)."""
    got = one_file(k, n, f)
    if got is None:
        return None
    g, other = got
    return g.set("--stripe-count", "-1"), other


def one_file(k, n, f):
    """One file instead of one per process (or per sample)."""
    g = f.copy()
    if k in ("ior_like", "hacc_like", "imbalance") and f.has("--file-per-proc"):
        return g.drop("--file-per-proc"), None
    if k == "ckpt_like" and f.get("--mode") == "nn":
        return g.set("--mode", "n1"), None
    if k == "amrex_like":
        return g.set("--nfiles", "1"), None
    if k == "wrf_like" and f.get("--io") == "split":
        return g.set("--io", "parallel"), None
    if k == "dlio_like":
        files = int(f.get("--files", "32"))
        per = int(f.get("--records-per-file", "4"))
        g.set("--files", "1")
        return g.set("--records-per-file", str(files * per)), None
    if k == "mdtest_like":
        files = int(f.get("--files-per-rank", "2"))
        wb = size_of(f.get("--write-bytes", "4m"))
        tr = size_of(f.get("--transfer", "1m"))
        if wb == 0:
            return None
        block = size_text(files * wb)
        return Flags(["--api", "posix", "--transfer", size_text(min(tr, wb)),
                      "--block", block]), "ior_like"
    if k == "postproc_like":
        inputs = int(f.get("--inputs", "16"))
        size = size_of(f.get("--input-size", "4m"))
        g.set("--inputs", "1")
        return g.set("--input-size", size_text(size * inputs)), None
    return None


def drop_syncs(k, n, f):
    if f.has("--fsync-per-write"):
        return f.copy().drop("--fsync-per-write"), None
    return None


def read_once(k, n, f):
    if f.has("--reread"):
        return f.copy().set("--reread", "1"), None
    if f.has("--passes"):
        return f.copy().set("--passes", "1"), None
    if k == "dlio_like" and int(f.get("--epochs", "1")) > 1:
        return f.copy().set("--epochs", "1"), None  # the dataset kept after one
    return None


def stripe_wide(k, n, f):
    if f.get("--striping-factor") == "1":
        return f.copy().set("--striping-factor", "12"), None
    return None


def throughput(k, n, f):
    return drop_syncs(k, n, f) or stripe_wide(k, n, f) or read_once(k, n, f)


def throughput_id(f):
    if f.has("--fsync-per-write"):
        return "drop_syncs"
    if f.get("--striping-factor") == "1":
        return "stripe_wide"
    return "read_once"


RULES = {
    "access_granularity": ("larger_requests", larger),
    "metadata_intensity": (None, metadata),
    "parallelism_efficiency": ("balance_io", balance),
    "access_pattern": ("sequential_access", sequential),
    "interface_choice": ("collective_io", collective),
    "file_strategy": ("shared_file", shared_file),
    "throughput_utilization": (None, throughput),
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-changes.py SWEEP FIXES")
    out = [
        "# bench/sweeps/hpc.changes - for every configuration of hpc.sweep with a",
        "# pattern, the kernel flags with each pattern's change applied (issue 16).",
        "# Written by scripts/make-changes.py from hpc.sweep; its rules say how each",
        "# change is expressed per kernel. `iosage savings` runs the baseline and",
        "# every line of a configuration in alternating pairs (docs/savings.md).",
        "#",
        "# CONFIG_ID PATTERN CHANGE_ID [kernel=KERNEL] FLAGS...",
        "# '# none CONFIG_ID PATTERN: why' marks a pattern no flag can change.",
        "",
    ]
    for line in open(sys.argv[1]):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        cid, kernel, ranks, _rep, labels, _group = words[:6]
        if labels == "healthy":
            continue
        f = Flags(words[6:])
        seen = set()
        for pattern in labels.split(","):
            change_id, rule = RULES[pattern]
            got = rule(kernel, int(ranks), f)
            if got is None:
                out.append("# none %s %s: no flag of %s expresses its change"
                           % (cid, pattern, kernel))
                continue
            g, other = got
            if change_id is None:
                change_id = (throughput_id(f) if pattern ==
                             "throughput_utilization" else
                             "fewer_files" if fewer_files(kernel, 1, f)
                             else "batch_metadata")
            key = (other or kernel, g.text())
            if key in seen:
                out.append("# same %s %s %s: the flags of an earlier line"
                           % (cid, pattern, change_id))
                continue
            seen.add(key)
            kw = ("kernel=%s " % other) if other else ""
            out.append("%-20s %-23s %-17s %s%s" % (cid, pattern, change_id,
                                                    kw, g.text()))
    print("\n".join(out))


if __name__ == "__main__":
    main()
