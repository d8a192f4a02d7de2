#!/usr/bin/env bash
# tests/report/chromium.sh REPORT_RENDER FIXTURES_DIR
#
# Load the HTML views in headless Chromium (Debian's chromium package) and
# check the DOM it builds: the page parses to the end, every chart and every
# bar is there, the hostile strings are text, and no script ran. A control
# page first shows that a script in a page does run in this harness (it
# appends a <pwned-marker> element), so its absence from the report pages
# means something. Skips (77) when /usr/bin/chromium is absent.
set -u
render=$1
fixtures=$2
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "report_chromium: skipped, $chromium not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# dump FILE.html: FILE.dom gets the DOM after load, as Chromium serializes
# it. Each page has its own profile so that the dumps run side by side.
dump() {
  local base=${1%.html}
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$base.profile" --dump-dom "file://$1" >"$base.dom" 2>"$base.err"
}

bad() {
  echo "FAIL $1" >&2
  fail=1
}

# n PATTERN FILE: number of occurrences of a fixed string
n() { grep -oF -- "$1" "$2" | wc -l; }

# control: a page with a script and no CSP; the script must run here
cat >"$tmp/control.html" <<'HTML'
<!DOCTYPE html><html><head><title>control</title></head><body><p>x</p>
<script>document.body.appendChild(document.createElement('pwned-marker'));document.title='PWNED'</script>
</body></html>
HTML
# the report pages, rendered by the library
"$render" html "$fixtures/three_patterns.json" "$tmp/three_patterns.html" || bad "render three_patterns"
"$render" html "$fixtures/hostile.json" "$tmp/hostile.html" --bad-utf8 || bad "render hostile"

# all three pages loaded at once (a Chromium start takes seconds)
pids=()
for page in control three_patterns hostile; do
  dump "$tmp/$page.html" &
  pids+=($!)
done
for i in 0 1 2; do
  wait "${pids[$i]}" || bad "chromium failed on page $i: $(head -c 300 "$tmp"/*.err)"
done

if [ "$(n '<pwned-marker>' "$tmp/control.dom")" -ne 1 ]; then
  bad "control: the script did not run, so this harness cannot see scripts"
fi

# check NAME SVGS VERDICT: the DOM of one report page
check() {
  local name=$1 svgs=$2 verdict=$3
  local html=$tmp/$name.html dom=$tmp/$name.dom
  [ "$(n '</html>' "$dom")" -eq 1 ] || bad "$name: no complete DOM"
  [ "$(n '<svg ' "$dom")" -eq "$svgs" ] || bad "$name: $(n '<svg ' "$dom") svg charts in the DOM, want $svgs"
  local bars_src bars_dom
  bars_src=$(n 'class="bar ' "$html")
  bars_dom=$(n 'class="bar ' "$dom")
  [ "$bars_dom" -eq "$bars_src" ] && [ "$bars_dom" -gt 20 ] || bad "$name: $bars_dom bars in the DOM, page has $bars_src"
  [ "$(grep -ciF '<script' "$dom")" -eq 0 ] || bad "$name: a <script> element in the DOM"
  [ "$(n '<pwned-marker' "$dom")" -eq 0 ] || bad "$name: a script ran (marker element present)"
  [ "$(n 'PWNED</title>' "$dom")" -eq 0 ] || bad "$name: a script ran (title changed)"
  [ "$(grep -ciE '<(img|iframe|object|embed|a) ' "$dom")" -eq 0 ] || bad "$name: an element made from the data"
  [ "$(grep -ciE '<[^>]* on[a-z]+=' "$dom")" -eq 0 ] || bad "$name: an event attribute in the DOM"
  grep -qF "$verdict" "$dom" || bad "$name: verdict \"$verdict\" not in the DOM"
}

check three_patterns 7 '3 bottleneck patterns detected'
check hostile 7 '3 bottleneck patterns detected'
# the hostile strings arrived as text (escape bytes shown as \x1b)
for s in '&lt;script&gt;alert(1)&lt;/script&gt;' \
         '&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;alert(5)&lt;/script&gt;' \
         "'\" onmouseover=alert(10) x='" \
         '\x1b[31mred warning\x1b[0m' \
         '[x](javascript:alert(11))'; do
  grep -qF -- "$s" "$tmp/hostile.dom" || bad "hostile: text \"$s\" not in the DOM"
done

if [ $fail -eq 0 ]; then
  echo "report_chromium: control script ran; 2 report pages rendered with all charts, no script ran"
fi
exit $fail
