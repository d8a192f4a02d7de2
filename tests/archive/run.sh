#!/usr/bin/env bash
# tests/archive/run.sh IOSAGE MKARCHIVE IOSAGE_MPI|- LOGS_DIR
#
# The archive database of `iosage batch --db` and the queries of
# `iosage archive`, on a generated archive of 300 logs (YEAR/MONTH/DAY):
#   - one row per log, with the values `iosage batch -o rows.csv` prints,
#     every pattern's finding and a change per detected pattern; 0600;
#   - a second run analyses nothing; a changed log is analysed again, a
#     touched one only gets its mtime; a bad log is an error row, skipped
#     while unchanged and retried when it changes;
#   - a new model bundle re-analyses only with --reanalyze; a list on stdin;
#   - a version 1 archive is migrated (its rows kept, changes filled in); a
#     foreign SQLite file, a text file and a newer schema are refused;
#   - Ctrl-C in the middle of a run keeps the committed rows whole, a reader
#     sees rows while the batch writes, and the next run completes;
#   - every query against sums computed here from the CSV rows, in text,
#     csv and json; `archive sql` runs as printed in sqlite3;
#   - the site has a report page for every job of its table, the same with
#     -j 1 and -j 2; a second run keeps them; a changed log's page is made
#     again, a log that is gone loses its link;
#   - iosage-mpi --db (when MPI is built) stores the same rows.
set -u
iosage=$1
mkarchive=$2
mpi=$3
logs=$4
py=/usr/bin/python3
if [ ! -d "$logs" ] || ! command -v sqlite3 >/dev/null; then
  echo "archive: skipped, no $logs or no sqlite3"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
  echo "FAIL $1" >&2
  fail=1
}
q() { sqlite3 "$1" "$2"; }
eq() { # eq WHAT GOT WANT
  [ "$2" = "$3" ] || bad "$1: got '$2', want '$3'"
}

mapfile -t src < <(ls "$logs"/*.darshan | head -400)
"$mkarchive" "$tmp/arch" 300 6 0 "${src[@]}" || { echo "FAIL mkarchive"; exit 1; }
db=$tmp/a.sqlite

# --- 1. first run: rows, values, permissions --------------------------------
"$iosage" batch --db "$db" -q -j 2 -o "$tmp/rows.csv" "$tmp/arch" || bad "first run: exit $?"
eq "logs" "$(q "$db" 'SELECT count(*) FROM logs')" 300
eq "schema" "$(q "$db" 'PRAGMA user_version')" 3
eq "mode" "$(stat -c %a "$db")" 600
for f in "$db-wal" "$db-shm"; do
  [ ! -e "$f" ] || [ "$(stat -c %a "$f")" = 600 ] || bad "$f mode $(stat -c %a "$f")"
done
eq "findings" "$(q "$db" 'SELECT count(*) FROM findings')" $((300 * 7))
eq "changes = detected findings" "$(q "$db" 'SELECT count(*) FROM changes')" \
   "$(q "$db" 'SELECT count(*) FROM findings WHERE detected = 1')"
# criteria_only: the CSV column's ids, one findings row each, never on a
# detected pattern, and 0 (not NULL) everywhere else
eq "criteria_only = the CSV's" \
   "$(q "$db" "SELECT group_concat(x, ' ') FROM (SELECT logs.path || ':' || pattern AS x FROM findings JOIN logs ON logs.id = log_id WHERE criteria_only = 1 ORDER BY x)")" \
   "$("$py" -c 'import csv,sys
rows = csv.DictReader(open(sys.argv[1]))
print(" ".join(sorted(r["file"] + ":" + p for r in rows for p in r["criteria_only"].split(";") if p)))' "$tmp/rows.csv")"
[ "$(q "$db" 'SELECT count(*) FROM findings WHERE criteria_only = 1')" -gt 0 ] ||
  bad "no criteria_only finding in the archive (the check above compared nothing)"
eq "criteria_only never detected" "$(q "$db" 'SELECT count(*) FROM findings WHERE criteria_only = 1 AND detected = 1')" 0
eq "criteria_only known" "$(q "$db" 'SELECT count(*) FROM findings WHERE criteria_only IS NULL')" 0
# the shipped bundle has a savings model for a change of every pattern: every
# log with a detected pattern has a predicted saving, the healthy ones none
eq "saved_seconds of every log with a pattern" \
   "$(q "$db" 'SELECT count(*) FROM logs WHERE saved_seconds IS NOT NULL')" \
   "$(q "$db" "SELECT count(*) FROM logs WHERE healthy = 0 AND status != 'error'")"
eq "saved_seconds of every change" \
   "$(q "$db" 'SELECT count(*) FROM changes WHERE saved_seconds IS NOT NULL')" \
   "$(q "$db" 'SELECT count(*) FROM changes')"
eq "changes ranked by saved_seconds" \
   "$(q "$db" 'SELECT count(*) FROM changes a JOIN changes b ON a.log_id = b.log_id AND b.rank = a.rank + 1 WHERE b.saved_seconds > a.saved_seconds')" 0
# the row of every log against the CSV row of the same batch
"$py" - "$db" "$tmp/rows.csv" <<'PY' || bad "rows differ from the CSV output"
import csv, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 300, len(rows)
bad = 0
for r in rows:
    got = db.execute("SELECT job_id, uid, nprocs, io_time, top_pattern, exe, "
                     "healthy, id FROM logs WHERE path = ?",
                     (os.path.realpath(r["file"]),)).fetchone()
    want = (int(r["job_id"]), int(r["uid"]), int(r["nprocs"]),
            float(r["io_time"]), r["top_pattern"] or None, r["exe"],
            int(r["healthy"]))
    if got is None or got[:3] != want[:3] or abs(got[3] - want[3]) > 1e-5 * max(1, want[3]) \
            or got[4] != want[4] or got[5] != want[5] or got[6] != want[6]:
        print("row", r["file"], got, want); bad += 1; continue
    pats = {p: (s, d) for p, s, d in db.execute(
        "SELECT pattern, score, detected FROM findings WHERE log_id = ?", (got[7],))}
    for k in r:
        if k.endswith("_detected"):
            p = k[:-9]
            if pats[p][1] != int(r[k]) or abs(pats[p][0] - float(r[p + "_score"])) > 1e-5:
                print("finding", r["file"], p, pats[p], r[k]); bad += 1
sys.exit(1 if bad else 0)
PY
# the start time is the job's, as `iosage dump` prints it
one=$(find "$tmp/arch" -name '*.darshan' | sort | head -1)
want=$("$iosage" dump "$one" | sed -n 's/^# start_time: //p')
eq "start_time" "$(q "$db" "SELECT start_time FROM logs WHERE path = '$(realpath "$one")'")" "$want"

# --- 2. incremental runs ------------------------------------------------------
"$iosage" batch --db "$db" "$tmp/arch" 2>"$tmp/err2" || bad "second run: exit $?"
grep -q "300 logs listed: 0 new, 0 changed, 0 to analyse again (--reanalyze), 300 unchanged" "$tmp/err2" \
  || bad "second run: $(cat "$tmp/err2")"
mapfile -t two < <(find "$tmp/arch" -name '*.darshan' | sort | sed -n '10p;20p')
old_job=$(q "$db" "SELECT job_id FROM logs WHERE path = '$(realpath "${two[0]}")'")
cp "$one" "${two[0]}"                       # other content: analysed again
touch -d '2026-01-02 03:04:05' "${two[1]}"   # same content: mtime only
bad_log=$tmp/arch/2026/1/1/broken.darshan
mkdir -p "$(dirname "$bad_log")"
printf 'not a darshan log' >"$bad_log"
"$iosage" batch --db "$db" "$tmp/arch" 2>"$tmp/err3"
eq "exit with a bad log" "$?" 3
grep -q "301 logs listed: 1 new, 1 changed, 0 to analyse again (--reanalyze), 298 unchanged, 1 touched" "$tmp/err3" \
  || bad "third run: $(head -1 "$tmp/err3")"
eq "changed log re-read" "$(q "$db" "SELECT job_id FROM logs WHERE path = '$(realpath "${two[0]}")'")" \
   "$(q "$db" "SELECT job_id FROM logs WHERE path = '$(realpath "$one")'")"
[ "$old_job" != "$(q "$db" "SELECT job_id FROM logs WHERE path = '$(realpath "${two[0]}")'")" ] || bad "changed log kept its old job id"
eq "touched mtime" "$(q "$db" "SELECT mtime_ns / 1000000000 FROM logs WHERE path = '$(realpath "${two[1]}")'")" \
   "$(stat -c %Y "${two[1]}")"
eq "error row" "$(q "$db" "SELECT status, error IS NOT NULL, job_id IS NULL FROM logs WHERE path = '$(realpath "$bad_log")'")" "error|1|1"
"$iosage" batch --db "$db" "$tmp/arch" 2>"$tmp/err4"
eq "unchanged bad log: exit" "$?" 0
grep -q "301 unchanged" "$tmp/err4" || bad "bad log retried while unchanged: $(cat "$tmp/err4")"
printf 'still not a darshan log' >"$bad_log"
"$iosage" batch --db "$db" -q "$tmp/arch"
eq "changed bad log retried: exit" "$?" 3

# --- 3. another model bundle, --reanalyze; stdin ------------------------------
cp -r "$(dirname "$0")/../../models/default" "$tmp/bundle"
echo >>"$tmp/bundle/bundle.json"
"$iosage" batch --db "$db" --model "$tmp/bundle" "$tmp/arch" 2>"$tmp/err5"
grep -q "0 to analyse again" "$tmp/err5" || bad "new bundle without --reanalyze: $(cat "$tmp/err5")"
"$iosage" batch --db "$db" --model "$tmp/bundle" --reanalyze "$tmp/arch" 2>"$tmp/err6"
grep -q "300 to analyse again (--reanalyze)" "$tmp/err6" || bad "--reanalyze: $(head -1 "$tmp/err6")"
eq "bundles after --reanalyze" "$(q "$db" "SELECT count(DISTINCT bundle) FROM logs WHERE status != 'error'")" 1
find "$tmp/arch" -name '*.darshan' | "$iosage" batch --db "$tmp/stdin.sqlite" -q -
eq "stdin list" "$(q "$tmp/stdin.sqlite" 'SELECT count(*) FROM logs')" 301
"$iosage" batch --reanalyze "$tmp/arch" 2>/dev/null
eq "--reanalyze without --db" "$?" 2

# --- 4. migration and refusals ------------------------------------------------
v1=$tmp/v1.sqlite
sqlite3 "$v1" <<'SQL'
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('application', 'iosage-archive');
CREATE TABLE logs(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL, hash TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
  bundle TEXT NOT NULL, analysed_at INTEGER NOT NULL, job_id INTEGER, uid INTEGER,
  nprocs INTEGER, exe TEXT, app TEXT, start_time INTEGER, end_time INTEGER, run_time REAL,
  io_time REAL, io_time_share REAL, bytes_read INTEGER, bytes_written INTEGER,
  healthy INTEGER, gate_score REAL, top_pattern TEXT, evidence TEXT);
CREATE INDEX logs_start ON logs(start_time);
CREATE INDEX logs_app ON logs(app, start_time);
CREATE INDEX logs_uid ON logs(uid, start_time);
CREATE TABLE findings(log_id INTEGER NOT NULL REFERENCES logs(id) ON DELETE CASCADE,
  pattern TEXT NOT NULL, score REAL NOT NULL, detected INTEGER NOT NULL,
  PRIMARY KEY(log_id, pattern)) WITHOUT ROWID;
CREATE INDEX findings_pattern ON findings(pattern, detected);
INSERT INTO logs VALUES(1, '/old/job.darshan', 10, 1, 'ab', 'ok', NULL, 'b1', 0, 7, 1000,
  4, '/apps/old/bin/old', 'old', 1790000000, 1790000100, 100, 50, 0.5, 1, 2, 0, 0.9,
  'metadata_intensity', 'x');
INSERT INTO findings VALUES(1, 'metadata_intensity', 0.9, 1), (1, 'file_strategy', 0.7, 1),
  (1, 'access_pattern', 0.2, 0);
PRAGMA user_version = 1;
SQL
"$iosage" archive info "$v1" >/dev/null 2>"$tmp/err7"
eq "reading a v1 archive" "$?" 3
grep -q "needs migrating" "$tmp/err7" || bad "v1 read: $(cat "$tmp/err7")"
"$iosage" batch --db "$v1" -q "$one" || bad "batch on a v1 archive"
eq "migrated" "$(q "$v1" 'PRAGMA user_version')" 3
eq "old findings: criteria_only not known" "$(q "$v1" "SELECT count(*) FROM findings WHERE log_id = 1 AND criteria_only IS NULL")" 3
eq "old row kept" "$(q "$v1" "SELECT job_id, saved_seconds IS NULL FROM logs WHERE path = '/old/job.darshan'")" "7|1"
eq "old changes filled in" "$(q "$v1" "SELECT group_concat(rank || ':' || pattern, ' ') FROM changes WHERE log_id = 1")" \
   "1:metadata_intensity 2:file_strategy"
eq "new row" "$(q "$v1" 'SELECT count(*) FROM logs')" 2
sqlite3 "$tmp/foreign.sqlite" 'CREATE TABLE t(x); INSERT INTO t VALUES(1)'
"$iosage" batch --db "$tmp/foreign.sqlite" -q "$one" 2>"$tmp/err8"
eq "foreign database: exit" "$?" 3
grep -q "not an iosage archive" "$tmp/err8" || bad "foreign: $(cat "$tmp/err8")"
eq "foreign database untouched" "$(q "$tmp/foreign.sqlite" 'SELECT count(*) FROM sqlite_schema')" 1
printf 'plain text, no database\n%.0s' {1..100} >"$tmp/text.sqlite"
"$iosage" archive info "$tmp/text.sqlite" >/dev/null 2>"$tmp/err9"
eq "text file: exit" "$?" 3
grep -q "text.sqlite" "$tmp/err9" || bad "text file: $(cat "$tmp/err9")"
cp "$db" "$tmp/new.sqlite"
sqlite3 "$tmp/new.sqlite" 'PRAGMA user_version = 99'
"$iosage" archive apps "$tmp/new.sqlite" >/dev/null 2>"$tmp/err10"
eq "newer schema: exit" "$?" 3
grep -q "schema version 99" "$tmp/err10" || bad "newer: $(cat "$tmp/err10")"
"$iosage" archive info "$tmp/missing.sqlite" >/dev/null 2>&1
eq "missing archive: exit" "$?" 3
[ ! -e "$tmp/missing.sqlite" ] || bad "a query created a missing archive"

# --- 5. Ctrl-C mid-run, a reader during the write ----------------------------
"$mkarchive" "$tmp/big" 1600 4 0 "${src[@]}" || bad "mkarchive big"
kdb=$tmp/k.sqlite
# started with SIGINT at its default (a background job of a script ignores it)
"$py" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
  "$iosage" batch --db "$kdb" -q -j 1 "$tmp/big" &
pid=$!
seen=0
for _ in $(seq 1200); do # a reader while the batch writes (WAL)
  seen=$(sqlite3 -cmd '.timeout 2000' "$kdb" 'SELECT count(*) FROM logs' 2>/dev/null || echo 0)
  [ "${seen:-0}" -gt 0 ] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
st=$?
kept=$(q "$kdb" 'SELECT count(*) FROM logs')
[ "$seen" -gt 0 ] || bad "no reader saw committed rows during the run"
[ "$st" -ne 0 ] && [ "$kept" -lt 1600 ] || echo "note: the batch ended before Ctrl-C ($st, $kept rows)"
eq "integrity after Ctrl-C" "$(q "$kdb" 'PRAGMA integrity_check')" ok
eq "no half rows" "$(q "$kdb" "SELECT count(*) FROM logs WHERE status != 'error' AND (SELECT count(*) FROM findings WHERE log_id = logs.id) != 7")" 0
"$iosage" batch --db "$kdb" "$tmp/big" 2>"$tmp/err11" || bad "run after Ctrl-C"
grep -q "$((1600 - kept)) new" "$tmp/err11" || bad "after Ctrl-C: $(cat "$tmp/err11") (kept $kept)"
eq "complete after the rerun" "$(q "$kdb" 'SELECT count(*) FROM logs')" 1600

# --- 6. queries ---------------------------------------------------------------
qdb=$tmp/q.sqlite
"$iosage" batch --db "$qdb" -q -o "$tmp/q.csv" "$tmp/arch" 2>/dev/null
"$iosage" archive apps "$qdb" --format csv --limit 3 >"$tmp/apps.csv" || bad "apps"
"$iosage" archive users "$qdb" --format json >"$tmp/users.json" || bad "users"
"$iosage" archive history "$qdb" wrf.exe --format csv >"$tmp/hist.csv" || bad "history"
"$iosage" archive patterns "$qdb" --format csv >"$tmp/pat.csv" || bad "patterns"
"$iosage" archive jobs "$qdb" --format csv --limit 0 --since 2026-11-01 >"$tmp/since.csv" || bad "jobs --since"
"$iosage" archive weeks "$qdb" >"$tmp/weeks.txt" || bad "weeks"
"$py" - "$tmp" "$qdb" <<'PY' || bad "queries differ from the sums of the CSV rows"
import csv, json, os, sqlite3, sys, collections, datetime
t, dbp = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(t + "/q.csv")) if r["status"] != "error"]
app = lambda exe: os.path.basename(exe.split()[0]) if exe.split() else "(unknown)"
io = collections.Counter(); users = collections.Counter()
for r in rows:
    io[app(r["exe"])] += float(r["io_time"]); users[int(r["uid"])] += float(r["io_time"])
bad = 0
apps = list(csv.DictReader(open(t + "/apps.csv")))
top = sorted(io.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
if [a["app"] for a in apps] != [k for k, v in top] or \
        any(abs(float(a["io_hours"]) - v / 3600) > 0.0006 for a, (k, v) in zip(apps, top)):
    print("apps", apps, top); bad += 1
js = json.load(open(t + "/users.json"))
if len(js) != 20 or js[0]["uid"] != max(users, key=users.get) or \
        abs(js[0]["io_hours"] - max(users.values()) / 3600) > 0.0006:
    print("users", js[0]); bad += 1
hist = list(csv.DictReader(open(t + "/hist.csv")))
if len(hist) != sum(1 for r in rows if app(r["exe"]) == "wrf.exe") or \
        [h["start"] for h in hist] != sorted(h["start"] for h in hist):
    print("history", len(hist)); bad += 1
pat = collections.Counter()
for p in csv.DictReader(open(t + "/pat.csv")):
    pat[p["pattern"]] += int(p["jobs"])
for k in rows[0]:
    if k.endswith("_detected"):
        n = sum(int(r[k]) for r in rows)
        if pat[k[:-9]] != n:
            print("patterns", k, pat[k[:-9]], n); bad += 1
db = sqlite3.connect(dbp)
cut = int(datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc).timestamp())
want = db.execute("SELECT count(*) FROM logs WHERE status != 'error' AND start_time >= ?", (cut,)).fetchone()[0]
since = list(csv.DictReader(open(t + "/since.csv")))
got = len(since)
if got != want or want == 0:
    print("since", got, want); bad += 1
# check_by_hand: the batch rows' criteria_only, per job and per pattern
by_path = {r["file"]: sorted(filter(None, r["criteria_only"].split(";"))) for r in rows}
hand = sum(1 for j in since if sorted(j["check_by_hand"].split()) != by_path[j["path"]])
if hand or not any(j["check_by_hand"] for j in since):
    print("jobs check_by_hand", hand); bad += 1
crit = collections.Counter(p for v in by_path.values() for p in v)
hand = collections.Counter()
for p in csv.DictReader(open(t + "/pat.csv")):
    hand[p["pattern"]] += int(p["check_by_hand"])
if hand != crit or not crit:
    print("patterns check_by_hand", hand, crit); bad += 1
sys.exit(1 if bad else 0)
PY
head -1 "$tmp/weeks.txt" | grep -q "^week *jobs *io_hours *hours_at_stake *saved_hours *flagged_jobs$" \
  || bad "weeks text header: $(head -1 "$tmp/weeks.txt")"
# the SQL printed by `archive sql` gives the same rows in sqlite3
{ echo ".mode csv"; echo ".headers on"; echo ".param set ?1 0"; echo ".param set ?2 0"
  echo ".param set ?3 3"; "$iosage" archive sql apps | grep -v '^--'; } >"$tmp/apps.sql"
sqlite3 "$qdb" <"$tmp/apps.sql" | tr -d '\r' >"$tmp/apps-sqlite3.csv"
cmp -s "$tmp/apps.csv" "$tmp/apps-sqlite3.csv" || bad "archive sql apps in sqlite3 differs: $(diff "$tmp/apps.csv" "$tmp/apps-sqlite3.csv" | head -5)"
"$iosage" archive apps "$qdb" --format xml >/dev/null 2>&1
eq "bad --format" "$?" 2
"$iosage" archive apps "$qdb" --since 2026-13-01 >/dev/null 2>&1
eq "bad --since" "$?" 2
"$iosage" archive nosuch "$qdb" >/dev/null 2>&1
eq "unknown query" "$?" 2

# --- 6b. site: a report page for every job of the table, kept when unchanged -
site=$tmp/site
"$iosage" archive site "$qdb" -o "$site" -j 2 2>"$tmp/site1.err" || bad "site: exit $? $(cat "$tmp/site1.err")"
rows=$(grep -c '^<tr' "$site/jobs.html")
links=$(grep -c '^<tr.*<a href="jobs/[0-9]*\.html">' "$site/jobs.html")
eq "site: table rows = jobs" "$rows" "$(q "$qdb" "SELECT count(*) FROM logs WHERE status != 'error'")"
eq "site: every listed job links its report" "$links" "$rows"
eq "site: report pages" "$(ls "$site"/jobs/*.html | wc -l)" "$rows"
grep -q "^iosage: archive: $rows report pages made, 0 kept" "$tmp/site1.err" || bad "site first run: $(cat "$tmp/site1.err")"
# one worker writes the same pages as two
"$iosage" archive site "$qdb" -o "$tmp/site-j1" -j 1 2>/dev/null || bad "site -j 1"
diff -r -x pages.tsv "$site/jobs" "$tmp/site-j1/jobs" >/dev/null || bad "site: -j 1 and -j 2 pages differ"
# a second run makes no page; a changed log gets its page again, a gone log none
"$iosage" archive site "$qdb" -o "$site" 2>"$tmp/site2.err" || bad "site second run"
grep -q "^iosage: archive: 0 report pages made, $rows kept" "$tmp/site2.err" || bad "site second run: $(cat "$tmp/site2.err")"
changed=$(q "$qdb" "SELECT path FROM logs WHERE status = 'ok' ORDER BY io_time DESC LIMIT 1")
gone=$(q "$qdb" "SELECT path FROM logs WHERE status = 'ok' ORDER BY io_time DESC LIMIT 1 OFFSET 1")
gone_id=$(q "$qdb" "SELECT id FROM logs WHERE path = '$gone'")
touch -d '2026-01-02 03:04:05' "$changed"
mv "$gone" "$gone.away"
"$iosage" archive site "$qdb" -o "$site" 2>"$tmp/site3.err" || bad "site third run"
grep -q "^iosage: archive: 1 report pages made, $((rows - 2)) kept" "$tmp/site3.err" || bad "site third run: $(cat "$tmp/site3.err")"
grep -q "no report for .*: the log is gone" "$tmp/site3.err" || bad "site: gone log not reported"
grep -q "<a href=\"jobs/$gone_id.html\">" "$site/jobs.html" && bad "site: a gone log still links a page"
mv "$gone.away" "$gone"
eq "site: modes" "$(stat -c %a "$site" "$site/jobs" "$site/jobs/pages.tsv" | tr '\n' ' ')" "700 700 600 "

# --- 7. iosage-mpi writes through rank 0 --------------------------------------
if [ "$mpi" != "-" ] && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  export ASAN_OPTIONS=detect_leaks=0
  mdb=$tmp/m.sqlite
  mpirun -np 2 --bind-to none "$mpi" --db "$mdb" -q "$tmp/arch" 2>"$tmp/errm"
  [ "$?" -eq 3 ] || bad "iosage-mpi --db: exit $? $(cat "$tmp/errm")"
  eq "mpi rows" "$(q "$mdb" 'SELECT count(*) FROM logs')" 301
  sqlite3 "$mdb" "ATTACH '$qdb' AS s; SELECT count(*) FROM logs m JOIN s.logs o ON o.path = m.path WHERE m.job_id IS NOT o.job_id OR m.top_pattern IS NOT o.top_pattern OR abs(m.io_time - o.io_time) > 1e-9" >"$tmp/mdiff"
  eq "mpi rows = threaded rows" "$(cat "$tmp/mdiff")" 0
  mpirun -np 2 --bind-to none "$mpi" --db "$mdb" "$tmp/arch" 2>"$tmp/errm2"
  grep -q "301 unchanged" "$tmp/errm2" || bad "iosage-mpi second run: $(cat "$tmp/errm2")"
fi

[ $fail -eq 0 ] && echo "archive: all checks passed"
exit $fail
