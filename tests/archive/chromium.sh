#!/usr/bin/env bash
# tests/archive/chromium.sh IOSAGE MKARCHIVE LOGS_DIR
#
# The dashboard of `iosage archive site` in headless Chromium (Debian's
# chromium), on a generated archive of 300 logs whose first three jobs have
# an executable made of HTML and script text:
#   - the site is 0700 and its pages 0600;
#   - the overview has its two charts with one bar per week and series, and
#     the hostile strings stay text (control characters as \xNN) (no element made from them, no script
#     of theirs ran) on the overview, the job table and a report page;
#   - the job table shows its first 200 rows, then all after "more"; it
#     sorts by a numeric column both ways and by text, and filters by text
#     and by pattern to exactly the jobs the database has;
#   - no request leaves any page: Chromium's net log holds no request made
#     by a page, while a control page with an external image shows that the
#     log would have it;
#   - a screenshot of the overview is taken (kept at $ARCHIVE_SCREENSHOT
#     when set).
# Skips (77) without /usr/bin/chromium.
set -u
iosage=$1
mkarchive=$2
logs=$3
chromium=${CHROMIUM:-/usr/bin/chromium}
py=/usr/bin/python3
if [ ! -x "$chromium" ] || [ ! -d "$logs" ]; then
  echo "archive_chromium: skipped, no $chromium or no $logs"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
  echo "FAIL $1" >&2
  fail=1
}
n() { grep -oF -- "$1" "$2" | wc -l; }

mapfile -t src < <(ls "$logs"/*.darshan | head -300)
"$mkarchive" "$tmp/arch" 300 5 3 "${src[@]}" || { echo "FAIL mkarchive"; exit 1; }
"$iosage" batch --db "$tmp/a.sqlite" -q "$tmp/arch" || bad "batch --db"
site=$tmp/site
"$iosage" archive site "$tmp/a.sqlite" -o "$site" --reports 5 --table 1000 2>/dev/null || bad "archive site"
[ "$(stat -c %a "$site")" = 700 ] && [ "$(stat -c %a "$site/jobs")" = 700 ] || bad "site directory modes"
for f in "$site"/*.html "$site"/jobs/*.html; do
  [ "$(stat -c %a "$f")" = 600 ] || bad "$f: mode $(stat -c %a "$f")"
done
[ "$(ls "$site"/jobs/*.html | wc -l)" -eq 5 ] || bad "report pages: $(ls "$site"/jobs | wc -l), want 5"
report=$(ls "$site"/jobs/*.html | head -1)
# a job's page is what `iosage analyze LOG --format html` writes for its log
id=$(basename "$report" .html)
logpath=$(sqlite3 "$tmp/a.sqlite" "SELECT path FROM logs WHERE id = $id")
"$iosage" analyze "$logpath" --format html -o "$tmp/analyze.html" 2>/dev/null
cmp -s "$report" "$tmp/analyze.html" || bad "jobs/$id.html differs from analyze --format html of $logpath"
grep -lE '(src|href)="(https?:)?//|url\(' "$site"/*.html && bad "a page names an external resource"
# the control characters of the hostile executable are shown as \xNN text,
# never written as raw bytes
[ "$(cat "$site"/*.html | grep -c $'\x1b')" -eq 0 ] || bad "a page holds a raw ESC byte from a log"
[ "$(n '\x1b]0;pwned\x07\x1b[2J' "$site/jobs.html")" -eq 3 ] || \
  bad "jobs: the 3 hostile executables' control characters are not shown as \\xNN"

# the table page with a test script appended: sort, filter, write a result
cat >"$tmp/probe.js" <<'JS'
<script>window.addEventListener('load', function () {
  var th = Array.prototype.slice.call(document.querySelectorAll('#jobs th'));
  function idx(n) { return th.findIndex(function (h) { return h.textContent === n; }); }
  function col(n) {
    var i = idx(n);
    return Array.prototype.slice.call(document.querySelectorAll('#jobs tbody tr'))
      .filter(function (r) { return !r.hidden; })
      .map(function (r) { return r.cells[i].textContent; });
  }
  var out = {};
  out.initial = col('io_hours').length;
  document.getElementById('more').click();
  th[idx('io_hours')].click(); out.desc = col('io_hours');
  th[idx('io_hours')].click(); out.asc = col('io_hours');
  th[idx('app')].click(); out.app = col('app');
  var q = document.getElementById('q');
  q.value = 'wrf.exe'; q.dispatchEvent(new Event('input')); out.wrf = col('app');
  q.value = ''; q.dispatchEvent(new Event('input'));
  var p = document.getElementById('pat');
  p.value = 'access_pattern'; p.dispatchEvent(new Event('change'));
  out.ap = col('patterns'); out.shown = document.getElementById('n').textContent;
  var pre = document.createElement('pre'); pre.id = 'result';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});</script>
JS
"$py" -c 'import sys; s = open(sys.argv[1]).read(); p = open(sys.argv[2]).read()
open(sys.argv[3], "w").write(s.replace("</body>", p + "</body>"))' \
  "$site/jobs.html" "$tmp/probe.js" "$site/jobs-probe.html"
cat >"$tmp/control.html" <<'HTML'
<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/control.png">
<script>document.body.appendChild(document.createElement('pwned-marker'))</script></body></html>
HTML

# load NAME FILE: DOM in $tmp/NAME.dom, net log in $tmp/NAME.net
load() {
  timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --disable-extensions --no-default-browser-check \
    --user-data-dir="$tmp/$1.profile" --log-net-log="$tmp/$1.net" \
    --dump-dom "file://$2" >"$tmp/$1.dom" 2>"$tmp/$1.err"
}
pids=()
load control "$tmp/control.html" & pids+=($!)
load index "$site/index.html" & pids+=($!)
load jobs "$site/jobs-probe.html" & pids+=($!)
load report "$report" & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || bad "chromium failed: $(head -c 300 "$tmp"/*.err)"; done
shot=${ARCHIVE_SCREENSHOT:-$tmp/overview.png}
timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
  --disable-background-networking --user-data-dir="$tmp/shot.profile" \
  --hide-scrollbars --window-size=1280,1400 --screenshot="$shot" \
  "file://$site/index.html" >/dev/null 2>&1
[ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 20000 ] || bad "no overview screenshot"

# --- the DOMs ---------------------------------------------------------------
[ "$(n '<pwned-marker>' "$tmp/control.dom")" -eq 1 ] || bad "control: its script did not run"
weeks=$(sqlite3 "$tmp/a.sqlite" "SELECT count(DISTINCT date(start_time, 'unixepoch', '-6 days', 'weekday 1')) FROM logs WHERE status != 'error'")
[ "$(n '<svg ' "$tmp/index.dom")" -eq 2 ] || bad "overview: $(n '<svg ' "$tmp/index.dom") charts, want 2"
bars=$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="#[0-9a-f]*"><title>' "$tmp/index.dom" | wc -l)
[ "$bars" -eq $((2 * weeks)) ] || bad "overview: $bars bars, want $((2 * weeks)) (2 series x $weeks weeks)"
for page in index jobs report; do
  dom=$tmp/$page.dom
  [ "$(n '</html>' "$dom")" -eq 1 ] || bad "$page: no complete DOM"
  [ "$(grep -ciE '<(iframe|img)[ >]' "$dom")" -eq 0 ] || bad "$page: an element made from a log string"
  [ "$(n '<pwned-marker' "$dom")" -eq 0 ] || bad "$page: a script from a log ran"
done
[ "$(n "&lt;iframe&gt;\"'&amp;amp;" "$tmp/jobs.dom")" -ge 6 ] || \
  bad "jobs: the 3 hostile apps and paths are not text in the DOM"

# --- sorting and filtering, against the database -------------------------------
"$py" - "$tmp/jobs.dom" "$tmp/a.sqlite" <<'PY' || bad "the job table does not sort or filter right"
import html, json, re, sqlite3, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
if not m:
    print("no result element: the probe did not run"); sys.exit(1)
r = json.loads(html.unescape(m.group(1)))
db = sqlite3.connect(sys.argv[2])
bad = 0
num = lambda v: [float(x) if x != "-" else float("-inf") for x in v]
total = db.execute("SELECT count(*) FROM logs WHERE status != 'error'").fetchone()[0]
if r["initial"] != min(200, total) or total <= 200:
    print("rows shown at first", r["initial"], total); bad += 1
if len(r["desc"]) != total or num(r["desc"]) != sorted(num(r["desc"]), reverse=True):
    print("io_hours descending", len(r["desc"]), total); bad += 1
if num(r["asc"]) != sorted(num(r["asc"])) or num(r["asc"])[-1] != num(r["desc"])[0]:
    print("io_hours ascending"); bad += 1
if r["app"] != sorted(r["app"], reverse=True):
    print("app descending"); bad += 1
wrf = db.execute("SELECT count(*) FROM logs WHERE status != 'error' AND "
                 "(instr(app, 'wrf.exe') OR instr(path, 'wrf.exe'))").fetchone()[0]
if len(r["wrf"]) != wrf or wrf < 10 or any("wrf.exe" not in a for a in r["wrf"]):
    print("filter wrf.exe", len(r["wrf"]), wrf); bad += 1
ap = db.execute("SELECT count(*) FROM findings WHERE pattern = 'access_pattern' AND detected = 1").fetchone()[0]
if len(r["ap"]) != ap or any("access_pattern" not in p.split() for p in r["ap"]) or \
        r["shown"] != "%d of %d jobs match" % (ap, total):
    print("filter access_pattern", len(r["ap"]), ap, r["shown"]); bad += 1
sys.exit(1 if bad else 0)
PY

# --- no request leaves a page ---------------------------------------------------
"$py" - "$tmp" <<'PY' || bad "a page made a network request"
import json, sys
t = sys.argv[1]
def page_requests(name):
    """URLs of requests a page made (the browser's own have no origin)."""
    try:
        events = json.load(open("%s/%s.net" % (t, name)))["events"]
    except ValueError:  # a log cut short at exit: read what is there
        text = open("%s/%s.net" % (t, name)).read().rstrip().rstrip(",")
        events = json.loads(text + "]}")["events"]
    urls = set()
    for e in events:
        p = e.get("params") or {}
        if "url" in p and "initiator" in p and p["initiator"] != "not an origin" \
                and not p["url"].startswith("file:"):
            urls.add(p["url"])
    return urls
if "http://127.0.0.1:9/control.png" not in page_requests("control"):
    print("control: its request is not in the net log"); sys.exit(1)
bad = 0
for name in ("index", "jobs", "report"):
    u = page_requests(name)
    if u:
        print(name, "requested", sorted(u)[:5]); bad = 1
sys.exit(bad)
PY

[ $fail -eq 0 ] && echo "archive_chromium: all checks passed"
exit $fail
