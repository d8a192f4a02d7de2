#!/usr/bin/python3
"""scripts/savings-ceiling.py DATASET [DRAWS] [ROWS]

How far measurement noise alone keeps the savings models from the issue's
Spearman target: for each change with 10 or more rows measured on an
emulated system in DATASET/savings.tsv (`iosage savings measure`), the
Spearman correlation that a perfect predictor would reach against these
measurements, and the test-retest correlation of two measurements.

Each row's median pair ratio comes with its order-statistic interval
(io_ratio_lo .. io_ratio_hi; with 5 pairs the min and max). The noise of
the median is taken as normal in log(ratio) with a standard deviation of
0.24 times the interval's width in log(ratio): the range of 5 normal
draws is on average 2.33 sigma, and the median of 5 has a standard
deviation of about 0.56 sigma. Savings are clipped to [-1, 1] as
`iosage savings eval` clips them. DRAWS (default 400) noisy copies are
drawn per change, seed 1.

A second table bounds what the log's configuration can tell: each run of
the sweep is measured on its own drawn system, so a run's saving is
"predicted" by the mean saving of the same configuration's other runs
(each on another system), the best a model could do that knew every
configuration, unseen ones included, but nothing of the system. Its
Spearman correlation against the measurements, per change with 10 or more
such runs, is an upper bound for predictions from configuration alone;
beating it takes what the log shows of the system (its time shares and
rates). With ROWS, the output of `iosage savings eval --rows DATASET`,
the table adds the models' out-of-fold Spearman on the same runs.
Standard library only.
"""
import csv
import math
import random
import statistics
import sys

SD_PER_WIDTH = 0.24


def ranks(values):
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den > 0 else float('nan')


def saving(log_ratio):
    """1 - 1/ratio, clipped to [-1, 1]."""
    return max(-1.0, min(1.0, 1.0 - math.exp(-log_ratio)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    draws = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    predicted_by = {}  # (run_id, change_id) -> out-of-fold prediction
    if len(sys.argv) > 3:
        with open(sys.argv[3], newline='') as f:
            for r in csv.DictReader(f, delimiter='\t'):
                if r['row'] == 'measured':
                    predicted_by[r['run_id'], r['change_id']] = float(r['predicted'])
    rows = {}
    configs = {}  # change -> configuration -> clipped savings of its runs
    with open(sys.argv[1] + '/savings.tsv', newline='') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            if r['system'] == 'native':
                continue  # not learned nor scored (docs/savings.md)
            try:
                lo, hi = float(r['io_ratio_lo']), float(r['io_ratio_hi'])
                s = float(r['io_saving'])
            except ValueError:
                continue
            if lo <= 0 or hi <= 0 or s >= 1:
                continue
            sd = SD_PER_WIDTH * (math.log(hi) - math.log(lo))
            rows.setdefault(r['change_id'], []).append((-math.log(1 - s), sd))
            configs.setdefault(r['change_id'], {}).setdefault(
                r['config_id'], []).append((r['run_id'], max(-1.0, min(1.0, s))))
    rng = random.Random(1)
    print('| change | rows | median noise sd (log ratio) | perfect predictor | test-retest |')
    print('|---|---:|---:|---:|---:|')
    for change, v in sorted(rows.items(), key=lambda kv: -len(kv[1])):
        if len(v) < 10:
            continue
        truth = [saving(m) for m, _ in v]
        perfect, retest = [], []
        for _ in range(draws):
            a = [saving(m + rng.gauss(0, sd)) for m, sd in v]
            b = [saving(m + rng.gauss(0, sd)) for m, sd in v]
            perfect.append(spearman(truth, a))
            retest.append(spearman(a, b))
        print(f'| {change} | {len(v)} | {statistics.median(sd for _, sd in v):.3f} '
              f'| {statistics.mean(perfect):.3f} | {statistics.mean(retest):.3f} |')
    print()
    model = ' the models, out of fold |' if predicted_by else ''
    print('| change | runs (configurations) | the configuration\'s other '
          'systems as prediction |' + model)
    print('|---|---:|---:|' + ('---:|' if predicted_by else ''))
    for change, by_config in sorted(configs.items(),
                                    key=lambda kv: -len(rows[kv[0]])):
        measured, predicted, modeled = [], [], []
        for runs in by_config.values():
            if len(runs) < 2:
                continue
            for i, (run_id, y) in enumerate(runs):
                others = [o for _, o in runs[:i] + runs[i + 1:]]
                measured.append(y)
                predicted.append(statistics.mean(others))
                modeled.append(predicted_by.get((run_id, change), float('nan')))
        if len(measured) < 10:
            continue
        n_configs = sum(len(v) > 1 for v in by_config.values())
        cell = ''
        if predicted_by:
            cell = f' {spearman(measured, modeled):.3f} |'
        print(f'| {change} | {len(measured)} ({n_configs}) '
              f'| {spearman(measured, predicted):.3f} |' + cell)

if __name__ == '__main__':
    main()
