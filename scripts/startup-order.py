#!/usr/bin/python3
"""startup-order.py - write cmake/startup-order.ld, the linker script that
places the code and constants a start of iosage touches next to each other.

    scripts/startup-order.py BUILD_DIR [OUTPUT]

Why: a start of `iosage dump` runs about a hundred of the program's
functions, and the linker scattered them over 650 KiB of code; every 64 KiB
window of the file that a start touches is one page fault (the kernel maps a
file's pages 16 at a time), and on this virtual machine a fault costs
microseconds. The same holds for the strings and tables they read.

How: it runs `valgrind --tool=callgrind` on the commands below, takes every
function of the iosage executable that ran (zlib's and libdeflate's
included: they are linked statically), finds the object file that defines
each one (`nm` over BUILD_DIR's objects and the static archives), and writes
a linker script that puts

  - those functions first in the code (`.text.<function>` sections; the
    build compiles with -ffunction-sections), and
  - the constants of the objects they come from together in the read-only
    data, right after the rest of it
    (whole objects: string literals cannot be told apart by function),
    the large tables of counter names last among them.

The script is an addition to the default one (INSERT), so nothing else
moves. A function renamed since the script was written is simply not placed
first; run this again after large changes to the start-up path (the output
is committed, the build never runs valgrind). Only the release build of the
command uses it (CMakeLists.txt).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "darshan-logs")


def commands(iosage):
    """The starts to profile: the version, dumps of the shared empty log
    (the start-up target of issue 12) when present and of a log of the
    project's own dataset."""
    cmds = [[iosage, "--version"]]
    empty = os.path.join(SHARED, "empty_log.darshan")
    if os.path.exists(empty):
        cmds.append([iosage, "dump", "--all", empty])
    logs = os.path.join(ROOT, "data", "bench-runs", "logs")
    if os.path.isdir(logs):
        own = sorted(f for f in os.listdir(logs) if f.endswith(".darshan"))
        if own:
            cmds.append([iosage, "dump", "--all", os.path.join(logs, own[0])])
    return cmds


def functions_run(cmd, exe):
    """Names of the functions of exe that ran under cmd (callgrind)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, TZ="UTC"), check=False)
        text = subprocess.run(["callgrind_annotate", "--threshold=100", out],
                              capture_output=True, text=True, check=True).stdout
    names = set()
    pat = re.compile(r"^\s*[0-9,]+ \([ 0-9.]+%\)\s+\S*:(\S+) \[(.*)\]$")
    for line in text.splitlines():
        m = pat.match(line)
        # valgrind names the object "???" for code outside .text (the
        # block this script places): those are the program's too; a name
        # that no object of the program defines is dropped later
        if m and (m.group(2) == "???" or
                  os.path.realpath(m.group(2)) == os.path.realpath(exe)):
            names.add(m.group(1))
    return names


def definitions(paths):
    """{function name: [object or archive:member, ...]} of text symbols."""
    defs = {}
    for path in paths:
        text = subprocess.run(["nm", "-A", "--defined-only", path],
                              capture_output=True, text=True, check=False).stdout
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in ("t", "T"):
                where = parts[0].rsplit(":", 1)[0]  # drop the address
                defs.setdefault(parts[2], []).append(where)
    return defs


def link_line(build):
    """The command that links iosage (Ninja or Makefile generator)."""
    if os.path.exists(os.path.join(build, "build.ninja")):
        out = subprocess.run(["ninja", "-C", build, "-t", "commands", "iosage"],
                             capture_output=True, text=True, check=True).stdout
        return out.strip().splitlines()[-1]
    with open(os.path.join(build, "CMakeFiles", "iosage.dir", "link.txt")) as f:
        return f.read()


def object_pattern(where, build):
    """The linker script's file pattern for an object or archive member."""
    if where.endswith(".a") or ".a:" in where:
        archive, member = where.rsplit(":", 1)
        return "*%s:%s" % (os.path.basename(archive), member)
    rel = os.path.relpath(where, build)
    # CMakeFiles/<target>.dir/src/x/y.c.o -> */src/x/y.c.o
    m = re.search(r"\.dir/(.*)$", rel)
    return "*/" + (m.group(1) if m else os.path.basename(rel))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: startup-order.py BUILD_DIR [OUTPUT]")
    build = sys.argv[1]
    output = sys.argv[2] if len(sys.argv) == 3 else os.path.join(ROOT, "cmake", "startup-order.ld")
    exe = os.path.join(build, "iosage")
    hot = set()
    for cmd in commands(exe):
        hot |= functions_run(cmd, exe)
    objects = [os.path.join(build, w) for w in link_line(build).split() if w.endswith(".c.o")]
    archives = [a for a in ("/usr/lib/x86_64-linux-gnu/libz.a",
                            "/usr/lib/x86_64-linux-gnu/libdeflate.a") if os.path.exists(a)]
    defs = definitions(sorted(objects) + archives)
    funcs, hot_objects = [], []
    for name in sorted(hot):
        where = defs.get(name, [])
        if not where:
            continue
        funcs.append(name)
        for w in where:
            pat = object_pattern(w, build)
            if pat not in hot_objects:
                hot_objects.append(pat)
    hot_objects.sort(key=lambda p: ("counters.c.o" in p, p))
    with open(output, "w") as f:
        f.write("/* cmake/startup-order.ld - written by scripts/startup-order.py;\n"
                " * see there. The code and constants a start of iosage touches,\n"
                " * placed together. */\n")
        f.write("SECTIONS\n{\n  .text.iosage_start :\n  {\n")
        for name in funcs:
            f.write("    *(.text.%s)\n" % name)
        for pat in hot_objects:
            if ".a:" in pat:  # archives built without -ffunction-sections
                f.write("    %s(.text .text.*)\n" % pat)
        # the C run-time's start and exit code (_start, the destructors)
        f.write("    *Scrt1.o(.text .text.*)\n    *crtbeginS.o(.text .text.*)\n")
        f.write("  }\n}\nINSERT BEFORE .text;\n\n")
        f.write("SECTIONS\n{\n  .rodata.iosage_start :\n  {\n")
        for pat in hot_objects:
            f.write("    %s(.rodata .rodata.*)\n" % pat)
        # after .rodata, not before: in front of it the block would land in
        # the executable segment
        f.write("  }\n}\nINSERT AFTER .rodata;\n")
    print("%s: %d functions, %d objects" % (output, len(funcs), len(hot_objects)))


if __name__ == "__main__":
    main()
