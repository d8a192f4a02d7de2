#!/usr/bin/env bash
# check-includes.sh - module boundaries in src/ (run by ctest as
# check_includes; the build enforces the same with per-module include paths,
# this names the line and also covers the command-line folders).
#
#   scripts/check-includes.sh [ROOT]      (ROOT: the checkout, default ..)
#
# Rules:
#   1. No file includes another folder's internal header ("x/internal.h",
#      "x/*_internal.h"): a module's internals are its own.
#   2. A library module (every folder of src/ but cli, gen, batch_cli and
#      batch_mpi) includes no "folder/header.h" but the public "iosage/...":
#      its own headers by their bare name, src/common's ios_*.h, and the
#      ios_<module>.h interface of the modules CMakeLists.txt lets it use.
#   3. No header is included with angle brackets that is ours (internal.h,
#      ios_*.h): those come from the module's own include path.
# Prints each offending line; exit 1 when there is one.
set -u
root=${1:-"$(dirname "$0")/.."}
cd "$root" || exit 2
# One awk pass over every file (a process per line would take a minute on a
# loaded machine).
find src -name '*.[ch]' | LC_ALL=C sort | xargs awk '
BEGIN { apps = " cli gen batch_cli batch_mpi "; bad = 0; n = 0 }
FNR == 1 { n++; split(FILENAME, part, "/"); folder = part[2] }
/^[ \t]*#[ \t]*include/ {
    line = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", line)
    q = substr(line, 1, 1)
    name = substr(line, 2)
    sub(/[">].*$/, "", name)
    why = ""
    base = name; sub(/^.*\//, "", base)
    dir = ""; if (index(name, "/")) { dir = name; sub(/\/.*$/, "", dir) }
    if (q == "<") {
        if (base == "internal.h" || base ~ /_internal\.h$/ || base ~ /^ios_.*\.h$/)
            why = "our header with angle brackets"
    } else if (q == "\"") {
        if (dir != "" && dir != folder && (base == "internal.h" || base ~ /_internal\.h$/))
            why = "another module'"'"'s internal header"
        else if (dir != "" && dir != "iosage" && index(apps, " " folder " ") == 0)
            why = "a path into src/ from a library module (use the bare name)"
    }
    if (why != "") {
        printf "check-includes: %s:%d: %s: %s\n", FILENAME, FNR, why, name
        bad = 1
    }
}
END {
    if (!bad) printf "check-includes: %d files keep to their modules\n", n
    exit bad
}' || exit 1
