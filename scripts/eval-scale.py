#!/usr/bin/python3
"""eval-scale.py - what the models report on a generated dataset, beside its
configuration labels and beside the written criteria (`iosage label`).

    scripts/eval-scale.py BUILD/iosage DATASET [MODEL_DIR]

For every ok run of DATASET/manifest.tsv: its configuration labels, what
`iosage detect` (with MODEL_DIR, default the built-in bundle) reports, and
what `iosage label` finds in the same log, one line a run; then the micro
TP / FP / FN / F1 of the models against each of the two. The configuration
labels are taken as written (`iosage eval` drops a label whose run is under
the healthy gate or the pattern's floors; this script does not), and the
criteria are the reference of the public real logs (LABELS.tsv), so the
second figure is the one to set beside the real logs'. Used for
bench/sweeps/scale256.sweep (docs/evaluation.md, "Beyond the training
ranks").
"""
import csv
import json
import subprocess
import sys

PATTERNS = ["access_granularity", "metadata_intensity",
            "parallelism_efficiency", "access_pattern", "interface_choice",
            "file_strategy", "throughput_utilization"]


def run(argv):
    """stdout of argv; exits with its stderr when it fails."""
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("eval-scale: %s failed: %s" % (argv[1], p.stderr.strip()))
    return p.stdout


def detected(iosage, logs, model):
    """{log: set of patterns the models report}."""
    argv = [iosage, "detect", "--no-shap"] + (["--model", model] if model else [])
    out = {}
    for line in run(argv + logs).splitlines():
        d = json.loads(line)
        if "patterns" in d:
            out[d["file"]] = {p for p in PATTERNS if d["patterns"][p]["detected"]}
    return out


def criteria(iosage, logs):
    """{log: set of patterns the written criteria find}."""
    out = {}
    for line in run([iosage, "label"] + logs).splitlines():
        v = line.split("\t")
        if len(v) > len(PATTERNS) and v[0] in logs:
            out[v[0]] = {p for p, x in zip(PATTERNS, v[1:]) if x == "1"}
    return out


def f1(tp, fp, fn):
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")


def names(s):
    return ",".join(sorted(s)) or "healthy"


def main(args):
    if len(args) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    iosage, data = args[0], args[1].rstrip("/")
    model = args[2] if len(args) == 3 else None
    with open(data + "/manifest.tsv", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["status"] == "ok"]
    logs = [data + "/" + r["log"] for r in rows]
    det, crit = detected(iosage, logs, model), criteria(iosage, logs)
    count = {"configuration": [0, 0, 0], "criteria": [0, 0, 0]}
    print("%-24s %-8s | %-40s | %-40s | %s" % ("run", "ranks", "configuration",
                                               "models", "criteria"))
    for r, log in zip(rows, logs):
        cfg = set() if r["labels"] == "healthy" else set(r["labels"].split(","))
        m, c = det.get(log, set()), crit.get(log, set())
        for key, ref in (("configuration", cfg), ("criteria", c)):
            count[key][0] += len(m & ref)
            count[key][1] += len(m - ref)
            count[key][2] += len(ref - m)
        print("%-24s %-8s | %-40s | %-40s | %s" % (r["run_id"], r["ranks"],
                                                   names(cfg), names(m), names(c)))
    for key, (tp, fp, fn) in count.items():
        print("models against the %s labels: TP %d, FP %d, FN %d, micro F1 %.3f"
              % (key, tp, fp, fn, f1(tp, fp, fn)))


if __name__ == "__main__":
    main(sys.argv[1:])
