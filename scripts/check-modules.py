#!/usr/bin/python3
"""check-modules.py - no loop among the library's modules (issue 11).

    scripts/check-modules.py BUILD_DIR       the modules as built
    scripts/check-modules.py --edges FILE    "a b" lines: a uses b (tests)

A module is a folder of src/ built as its own OBJECT target ios_<folder>
(CMakeLists.txt). Module a uses module b when an object file of a refers to
a global symbol that an object file of b defines (nm). The script prints
each module with the modules it uses, then every loop it finds (a uses b,
b uses ... a), and exits 1 when there is one. src/common is everybody's
and uses nobody. Python's standard library and nm (binutils) only.
"""
import glob
import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRCVW":  # upper case: global
            defined.add(name)
    return defined, undefined


def edges_from_build(build):
    """{module: set of modules it uses} from BUILD/CMakeFiles/ios_*.dir."""
    owner, wants = {}, {}
    dirs = sorted(glob.glob(os.path.join(build, "CMakeFiles", "ios_*.dir")))
    if not dirs:
        sys.exit("check-modules: no module objects under %s/CMakeFiles "
                 "(build it first)" % build)
    for d in dirs:
        module = os.path.basename(d)[len("ios_"):-len(".dir")]
        wants[module] = set()
        for obj in glob.glob(os.path.join(d, "**", "*.o"), recursive=True):
            defined, undefined = symbols(obj)
            for name in defined:
                owner[name] = module
            wants[module] |= undefined
    uses = {}
    for module, names in wants.items():
        uses[module] = {owner[n] for n in names
                        if n in owner and owner[n] != module}
    return uses


def edges_from_file(path):
    uses = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                uses.setdefault(parts[0], set()).add(parts[1])
                uses.setdefault(parts[1], set())
    return uses


def loops(uses):
    """Every module pair (a, b) with a -> b and a path b -> ... -> a, as
    the path a -> b -> ... -> a."""
    found = []
    for a in sorted(uses):
        for b in sorted(uses[a]):
            path = find_path(uses, b, a)
            if path:
                found.append([a] + path)
    return found


def find_path(uses, start, goal):
    """A shortest path start -> ... -> goal, or None."""
    prev, todo = {start: None}, [start]
    while todo:
        nxt = []
        for x in todo:
            if x == goal:
                path = []
                while x is not None:
                    path.append(x)
                    x = prev[x]
                return path[::-1]
            for y in sorted(uses.get(x, ())):
                if y not in prev:
                    prev[y] = x
                    nxt.append(y)
        todo = nxt
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--edges":
        uses = edges_from_file(sys.argv[2])
    elif len(sys.argv) == 2:
        uses = edges_from_build(sys.argv[1])
    else:
        sys.exit("usage: check-modules.py BUILD_DIR | --edges FILE")
    for module in sorted(uses):
        print("%-10s -> %s" % (module, " ".join(sorted(uses[module])) or "-"))
    bad = loops(uses)
    for path in bad:
        print("loop: " + " -> ".join(path))
    if bad:
        return 1
    print("no loop among %d modules" % len(uses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
