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
app_folders=" cli gen batch_cli batch_mpi "
fail=0
for f in $(find src -name '*.[ch]' | LC_ALL=C sort); do
    folder=$(echo "$f" | cut -d/ -f2)
    while IFS= read -r hit; do
        line=${hit%%:*}
        text=${hit#*:}
        inc=$(echo "$text" | sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//')
        name=$(echo "$inc" | sed -E 's/^["<]([^">]*)[">].*/\1/')
        why=""
        case "$inc" in
        \<*)
            case "$name" in
            internal.h | *_internal.h | ios_*.h | */internal.h)
                why="our header with angle brackets" ;;
            esac ;;
        \"*)
            dir=""
            [[ "$name" == */* ]] && dir=${name%%/*}
            base=${name##*/}
            if [ -n "$dir" ] && [ "$dir" != "$folder" ] &&
                { [ "$base" = internal.h ] || [[ "$base" == *_internal.h ]]; }; then
                why="another module's internal header"
            elif [ -n "$dir" ] && [ "$dir" != iosage ] &&
                [[ "$app_folders" != *" $folder "* ]]; then
                why="a path into src/ from a library module (use the bare name)"
            fi ;;
        esac
        if [ -n "$why" ]; then
            echo "check-includes: $f:$line: $why: $name"
            fail=1
        fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f")
done
if [ $fail -eq 0 ]; then
    echo "check-includes: $(find src -name '*.[ch]' | wc -l) files keep to their modules"
fi
exit $fail
