#!/usr/bin/env bash
# Style checks that a compiler does not make (run by ctest as `checksrc`):
#   - no banned C functions (unbounded or locale/state traps);
#   - no function longer than 200 lines in src/.
set -u
cd "$(dirname "$0")/.."
fail=0
banned='\b(strcpy|strcat|sprintf|vsprintf|gets|strtok|atoi|atol|atof|tmpnam)[[:space:]]*\('
hits=$(grep -nE "$banned" $(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'examples/*.c' 'trace/*.c' 'bench/*.c' 2>/dev/null) 2>/dev/null)
if [ -n "$hits" ]; then
  echo "checksrc: banned functions:"; echo "$hits"; fail=1
fi
# function length: a line starting a function body "{" at column 0 to the
# matching "}" at column 0
for f in $(git ls-files 'src/*.c' 2>/dev/null); do
  awk -v file="$f" '
    /^\{/ { start = NR }
    /^\}/ { if (start && NR - start > 200) { printf "checksrc: %s:%d: function body of %d lines (max 200)\n", file, start, NR - start; bad = 1 } start = 0 }
    END { exit bad }' "$f" || fail=1
done
n=$(git ls-files 'src/*.c' | wc -l)
if [ $fail -eq 0 ]; then echo "checksrc: $n files clean"; fi
exit $fail
