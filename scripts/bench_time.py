#!/usr/bin/python3
"""bench_time.py - time commands one process per input, tools alternating.

    bench_time.py [--rounds N] [--repeat K] --inputs FILE \\
                  NAME=COMMAND [NAME=COMMAND ...]

COMMAND is a program and its arguments, split on blanks; the input path is
appended. In each round every tool, in turn, runs once per line of FILE
(each line K times), one process at a time, with stdout and stderr thrown
away and TZ=UTC. The processes are started with posix_spawn and reaped with
wait4, so the figures hold the program's own start-up and nothing of a
shell's.

For each tool it prints one line:
    NAME wall_best_s cpu_best_s peak_rss_kib processes failures
where the best is the smallest total over the rounds (wall: elapsed;
CPU: user + system of the children). peak_rss_kib is what wait4 reports,
which is never below this Python process's own resident set (the child
starts as its copy): use GNU time for the memory of small programs. Used
by scripts/bench.sh (make bench).
"""
import os
import sys
import time


def run_round(argv, inputs, repeat, env):
    """Run argv + [input] for each input, repeat times; returns
    (wall seconds, CPU seconds, peak KiB, processes, failures)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1),
               (os.POSIX_SPAWN_DUP2, devnull, 2)]
    cpu = 0.0
    peak = 0
    procs = 0
    failures = 0
    t0 = time.perf_counter()
    for path in inputs:
        for _ in range(repeat):
            pid = os.posix_spawn(argv[0], argv + [path], env,
                                 file_actions=actions)
            _, status, ru = os.wait4(pid, 0)
            cpu += ru.ru_utime + ru.ru_stime
            peak = max(peak, ru.ru_maxrss)
            procs += 1
            code = os.waitstatus_to_exitcode(status)
            if code not in (0, 3):  # 3: part of a log unreadable (iosage)
                failures += 1
    wall = time.perf_counter() - t0
    os.close(devnull)
    return wall, cpu, peak, procs, failures


def main(args):
    rounds, repeat, inputs_file, tools = 5, 1, None, []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--rounds":
            rounds = int(args[i + 1])
            i += 2
        elif a == "--repeat":
            repeat = int(args[i + 1])
            i += 2
        elif a == "--inputs":
            inputs_file = args[i + 1]
            i += 2
        elif "=" in a:
            name, cmd = a.split("=", 1)
            tools.append((name, cmd.split()))
            i += 1
        else:
            sys.exit("bench_time.py: unexpected argument %r" % a)
    if not inputs_file or not tools:
        sys.exit(__doc__)
    with open(inputs_file) as f:
        inputs = [line.rstrip("\n") for line in f if line.strip()]
    env = dict(os.environ, TZ="UTC")
    best = {name: None for name, _ in tools}
    for _ in range(rounds):
        for name, argv in tools:  # alternating: one round of each in turn
            r = run_round(argv, inputs, repeat, env)
            b = best[name]
            if b is None:
                best[name] = list(r)
            else:
                b[0] = min(b[0], r[0])
                b[1] = min(b[1], r[1])
                b[2] = max(b[2], r[2])
                b[4] += r[4]
    for name, _ in tools:
        wall, cpu, peak, procs, failures = best[name]
        print("%s %.6f %.6f %d %d %d" % (name, wall, cpu, peak, procs,
                                          failures))


if __name__ == "__main__":
    main(sys.argv[1:])
