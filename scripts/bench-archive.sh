#!/usr/bin/env bash
# scripts/bench-archive.sh BUILD_DIR - the archive database and dashboard at
# scale (make bench): a generated archive of 10,000 and one of 100,000 logs
# (tests/archive/mkarchive: the project's logs written again by the
# project's writer with varied job ids, users, executables and dates, in
# YEAR/MONTH/DAY), in a temporary directory under /tmp removed at the end.
#
# Prints: ingest rate of `iosage batch --db` (first run), the second run
# over the same tree (nothing to analyse), database size, the queries,
# site generation time, page weight, and the time Chromium takes to load
# the overview and the job table (the page's own navigation timing, and
# the wall time of a headless load against an empty page's).
#
#   ARCHIVE_BENCH_LOGS=100000   size of the large archive
#   ARCHIVE_BENCH_KEEP=1        keep the temporary directory (printed)
set -u
build=${1:-build}
iosage=$build/iosage
mkarchive=$build/tests/mkarchive
big=${ARCHIVE_BENCH_LOGS:-100000}
chromium=${CHROMIUM:-/usr/bin/chromium}
cd "$(dirname "$0")/.." || exit 1
if [ ! -x "$mkarchive" ]; then
  echo "bench-archive: $mkarchive not built (IOSAGE_TESTS=ON)" >&2
  exit 1
fi
mapfile -t src < <(ls data/bench-runs/logs/*.darshan)
tmp=$(mktemp -d /tmp/iosage-archive-bench.XXXXXX)
if [ "${ARCHIVE_BENCH_KEEP:-0}" = 1 ]; then
  echo "bench-archive: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{printf "%.2f", $2 - $1}'; }
rate() { echo "$1 $2" | awk '{printf "%.0f", $1 / $2}'; }

echo "== archive database and dashboard (load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; not a quiet machine when the load is above 0)"

# time_batch DB DIR: seconds of `iosage batch --db DB DIR`
time_batch() {
  local t0 t1
  t0=$(now)
  "$iosage" batch --db "$1" -q -j "$(nproc)" "$2" || [ $? -eq 3 ] || echo "bench-archive: batch failed" >&2
  t1=$(now)
  secs "$t0" "$t1"
}

for n in 10000 "$big"; do
  dir=$tmp/arch$n
  db=$tmp/a$n.sqlite
  t0=$(now)
  "$mkarchive" "$dir" "$n" 12 0 "${src[@]}" || exit 1
  t1=$(now)
  echo "-- $n logs ($(du -sh "$dir" | cut -f1) in YEAR/MONTH/DAY, written in $(secs "$t0" "$t1") s)"
  first=$(time_batch "$db" "$dir")
  second=$(time_batch "$db" "$dir")
  echo "first run (all new):     $first s  = $(rate "$n" "$first") logs/s ingested (read, analysed, stored)"
  echo "second run (unchanged):  $second s  (stat and look up every log, analyse none)"
  echo "database:                $(du -b "$db" | cut -f1 | awk '{printf "%.1f MiB", $1 / 1048576}')  ($(du -b "$db" | cut -f1 | awk -v n="$n" '{printf "%.0f", $1 / n}') bytes per log)"
  for qn in apps users jobs patterns weeks; do
    t0=$(now)
    "$iosage" archive "$qn" "$db" >/dev/null
    t1=$(now)
    printf '  archive %-9s %s s\n' "$qn" "$(secs "$t0" "$t1")"
  done
  rm -rf "$dir.site"
  t0=$(now)
  "$iosage" archive site "$db" -o "$dir.site" 2>/dev/null
  t1=$(now)
  "$iosage" archive site "$db" -o "$dir.site" 2>/dev/null
  t2=$(now)
  echo "site (5000-row table, a report page per row): $(secs "$t0" "$t1") s; again with the pages kept: $(secs "$t1" "$t2") s; index.html $(du -b "$dir.site/index.html" | cut -f1) B, jobs.html $(du -b "$dir.site/jobs.html" | cut -f1) B, whole site $(du -sb "$dir.site" | cut -f1) B"
  if [ -x "$chromium" ]; then
    for page in index jobs; do
      # the page with a probe: load time from the navigation timing
      /usr/bin/python3 -c 'import sys; s = open(sys.argv[1]).read()
probe = ("<script>window.addEventListener(\"load\",function(){setTimeout(function(){"
         "var t=performance.timing;var p=document.createElement(\"pre\");p.id=\"t\";"
         "p.textContent=(t.loadEventEnd-t.navigationStart);document.body.appendChild(p);},0);});</script>")
open(sys.argv[2], "w").write(s.replace("</body>", probe + "</body>"))' \
        "$dir.site/$page.html" "$dir.site/$page-timed.html"
      echo '<!DOCTYPE html><html><body></body></html>' >"$tmp/empty.html"
      for which in empty page; do
        f=$dir.site/$page-timed.html
        [ "$which" = empty ] && f=$tmp/empty.html
        t0=$(now)
        timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
          --disable-background-networking --user-data-dir="$tmp/prof-$page-$which" \
          --dump-dom "file://$f" >"$tmp/$page-$which.dom" 2>/dev/null
        t1=$(now)
        eval "wall_$which=$(secs "$t0" "$t1")"
      done
      ms=$(sed -n 's/.*<pre id="t">\([0-9]*\)<\/pre>.*/\1/p' "$tmp/$page-page.dom")
      echo "chromium $page.html: loaded in ${ms:-?} ms (navigation timing); headless run $wall_page s vs $wall_empty s for an empty page"
    done
  fi
done
