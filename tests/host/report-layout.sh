#!/usr/bin/env bash
# The report leads with the answer.  A synthetic run from the recorded boots
# of tests/data/boots (sync and module-async from "killed", driver-async from
# "sigterm": one mode slower, one no different, kills in two), three boots a
# mode, sync the baseline, and a long kernel command line.  Then:
#   report.md: the first table is the headline, the answer comes before
#     "## Modes", the charts before every detail section;
#   report.html: well-formed (tests/html-check.py), detail sections folded in
#     <details>, the headline and answer not; numbers right-aligned;
#   in headless Chromium: the first rendered <table> is the headline, no
#     backtick in the rendered text, nothing wider than the window at 1400 px
#     (no table scrolls either) or at a phone's width (window 400 px, which
#     headless Chromium lays out at 500 px).  Without chromium those checks are skipped.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

if [ ! -x "$BP" ]; then
	skip "the report leads with the answer" "$BP not built"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run

# A long kernel argument without a space, as module_blacklist= lists are.
long=module_blacklist=$(printf 'floppy,pcspkr,snd_hda_intel,%.0s' $(seq 1 12))bochs
manifest=()
for spec in sync:killed driver-async:sigterm module-async:killed; do
	mode=${spec%%:*} fixture=tests/data/boots/${spec#*:}
	for i in 1 2 3; do
		boot=$mode-00$i
		mkdir -p "$run/boots/$boot"
		cp "$fixture"/* "$run/boots/$boot/"
		sed -i "s/\"boot\":\"[^\"]*\"/\"boot\":\"$boot\"/; s/\"mode\":\"[^\"]*\"/\"mode\":\"$mode\"/" \
			"$run/boots/$boot/boot.json"
		manifest+=("{\"boot\":\"$boot\",\"mode\":\"$mode\",\"dir\":\"boots/$boot\"}")
	done
done
(IFS=,; cat >"$run/manifest.json" <<EOF
{"schema":1,"run_id":"layout","baseline":"sync","modes":[
 {"name":"sync","kernel_args":"udev.event_timeout=3 $long"},
 {"name":"driver-async","kernel_args":"udev.event_timeout=3 driver_async_probe=*"},
 {"name":"module-async","kernel_args":"udev.event_timeout=3 module.async_probe=1"}],
 "until":{"ended":"the budget of 3 boots per mode is spent"},
 "boots":[${manifest[*]}]}
EOF
)

"$BP" report --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
rc=$?
check "report exits 0 on the synthetic run" test "$rc" -eq 0
md=$tmp/out/report.md html=$tmp/out/report.html

# ---- report.md ----
headline='| mode | ok | boot time (s) | 95% CI | SIGKILL | failed probes | bound |'
line_of() { grep -n -m1 -- "$1" "$md" | cut -d: -f1; }
before() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -lt "$2" ]; }
check "report.md: the first table is the headline" \
	test "$(grep -m1 '^|' "$md")" = "$headline"
check "report.md: the headline has a row per mode, as on the terminal" \
	test "$(sed -n '/^| mode | ok |/,/^$/p' "$md" | grep -c '^| [a-z-]* | 3/3 |')" -eq 3
check "report.md: the answer comes before the Modes section" \
	before "$(line_of '^## Answer$')" "$(line_of '^## Modes$')"
# Three boots a side: the CI excludes 0, but no p survives Holm over two modes.
check "report.md: driver-async is slower than sync in these boots, by how much, not significant after Holm" \
	grep -qE '^\*\*driver-async\*\* against \*\*sync\*\*: \*\*slower\*\* by [0-9.]+ s \(\+[0-9.]+ %\).*not significant.*95 % CI.*Mann-Whitney p = [0-9.]+, Holm p = [0-9.]+ over 2 modes' "$md"
check "report.md: and says what 3 boots a side can detect and what it takes" \
	grep -qE '^\*\*driver-async\*\*.*With 3 and 3 boots no difference can reach p < 0.025 .*cannot go below 0.1.*that takes 5 boots per mode' "$md"
check "report.md: the comparison table has the raw and Holm p, the MDD and the boots needed" \
	grep -q '| p | Holm p | MDD | boots needed |$' "$md"
check "report.md: module-async against sync: no clear difference (its CI includes 0)" \
	grep -q '^\*\*module-async\*\* against \*\*sync\*\*: no clear difference' "$md"
check "report.md: a run --until-ci run says what ended it, before the answer" \
	before "$(line_of '^The run booted in rounds until a condition held (`run --until-ci`): the budget of 3 boots per mode is spent.$')" "$(line_of '^## Answer$')"
check "report.md: the answer says what was killed" grep -q '^\*\*Killed\*\*: sync, a SIGKILL in 3 of 3' "$md"
check "report.md: the drivers compared come before the charts" \
	before "$(line_of '^## Driver probes compared with sync$')" "$(line_of '^## Charts$')"
details=$(line_of '^<!-- details -->$')
check "report.md: the charts come before every detail section" \
	bash -c 'c=$(grep -n -m1 "^## Charts$" "$1" | cut -d: -f1); for s in "## Modes" "## Per mode" "## Compared with sync" "## Against the physical limit"; do
		n=$(grep -n -m1 "^$s" "$1" | cut -d: -f1); [ -n "$n" ] && [ "$c" -lt "$n" ] || exit 1; done' _ "$md"
in_order() { before "$1" "$2" && before "$2" "$3"; }
check "report.md: the detail marker comes after the charts and the kills, before Modes" \
	in_order "$(line_of '^## Killed probes')" "$details" "$(line_of '^## Modes$')"

# ---- report.html, as written ----
check "report.html: well-formed (tags balance, details and tables nest, no block in a <p>)" \
	tests/html-check.py "$html"
check "report.html: a viewport meta for phones" \
	grep -q '<meta name="viewport" content="width=device-width, initial-scale=1">' "$html"
check "report.html: Modes and Per mode are folded in <details>, Answer and Charts are not" \
	bash -c 'grep -q "^<details><summary><h2>Modes</h2></summary>$" "$1" &&
		grep -q "^<details><summary><h2>Per mode</h2></summary>$" "$1" &&
		grep -q "^<h2>Answer</h2>$" "$1" && grep -q "^<h2>Charts</h2>$" "$1"' _ "$html"
check "report.html: numbers right-aligned, names left (the headline's sync row)" \
	grep -q '^<tr><td> sync </td><td class=n> 3/3 </td><td class=n> [0-9.]* </td>' "$html"
check "report.html: kernel arguments in <code>, and code wraps" \
	bash -c 'grep -q "<code>udev.event_timeout=3 module_blacklist=" "$1" &&
		grep -q "code{white-space:pre-wrap;word-break:break-all}" "$1"' _ "$html"
check "report.html: the hostile-names test's tags still cannot get in (no <script>)" \
	bash -c '! grep -qi "<script" "$1"' _ "$html"

# ---- report.html in a browser ----
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	for what in "rendered: chromium drew the page (a PNG)" "rendered: the first table is the headline" \
		"rendered: the text is there" "rendered: no backtick in the text" \
		"rendered: no horizontal overflow at 1400 px" \
		"rendered: no horizontal overflow at a phone's width"; do
		skip "$what" "chromium not installed"
	done
	exit 0
fi
# Each call gets a profile of its own (not ~/.config/chromium, which another
# chromium may hold), and its messages are kept for a failure to show.
browse() {
	local profile
	profile=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout 60 "$chrome" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$profile" --run-all-compositor-stages-before-draw \
		--virtual-time-budget=2000 "$@" 2>>"$tmp/chromium.err"
}
browse --window-size=1400,1000 --screenshot="$tmp/shot.png" "file://$html" >/dev/null
shot=$?
browse --window-size=1400,1000 --dump-dom "file://$html" >"$tmp/dom.html"
if [ "$(head -c 8 "$tmp/shot.png" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; then
	pass "rendered: chromium drew the page (a PNG)"
else
	fail "rendered: chromium drew the page (a PNG)" \
		"exit $shot; chromium said: $(grep -v '^$' "$tmp/chromium.err" | tail -3 | tr '\n' '|')"
fi
# The header cells of the first <table> of the DOM Chromium built.
python3 - "$tmp/dom.html" >"$tmp/first-table" <<'EOF'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    tables, inth, cells, text = 0, False, [], ""
    def handle_starttag(self, tag, a):
        if tag == "table": self.tables += 1
        if tag == "th" and self.tables == 1: self.inth, self.text = True, ""
    def handle_endtag(self, tag):
        if tag == "th" and self.inth: self.cells.append(self.text.strip()); self.inth = False
    def handle_data(self, d):
        if self.inth: self.text += d
p = P(); p.feed(open(sys.argv[1]).read()); print("|".join(p.cells))
EOF
check "rendered: the first table is the headline (its header cells)" \
	test "$(cat "$tmp/first-table")" = "mode|ok|boot time (s)|95% CI|SIGKILL|failed probes|bound"
# The rendered text: the DOM without its tags, style and SVG (gnuplot's).
sed -e 's/<style>.*<\/style>//' -e 's/<[^>]*>//g' "$tmp/dom.html" >"$tmp/text"
check "rendered: the text is there (the answer)" grep -q 'no clear difference' "$tmp/text"
check "rendered: no backtick in the text (code spans are <code>)" \
	bash -c '! grep -q "\`" "$1"' _ "$tmp/text"
# A copy of the report with a script (never in the report itself) that
# writes, into the title, the page's scroll and client width and the most
# any table's box has to scroll.
overflow() {
	sed 's#</body></html>#<script>var t=0;for(const d of document.querySelectorAll("div.t"))t=Math.max(t,d.scrollWidth-d.clientWidth);document.title="W "+document.documentElement.scrollWidth+" "+document.documentElement.clientWidth+" "+t;</script></body></html>#' \
		"$html" >"$tmp/out/probe.html"
	browse --window-size="$1",1000 --dump-dom "file://$tmp/out/probe.html" |
		sed -n 's/.*<title>W \([0-9]*\) \([0-9]*\) \([0-9]*\)<\/title>.*/\1 \2 \3/p'
}
read -r sw cw tw <<<"$(overflow 1400)"
echo "# at 1400 px: page scrollWidth ${sw:-?}, clientWidth ${cw:-?}; a table scrolls by ${tw:-?} px"
check "rendered: no horizontal overflow at 1400 px (page, and no table that scrolls)" \
	test -n "${sw:-}" -a "${sw:-1}" -le "${cw:-0}" -a "${tw:-1}" -eq 0
read -r sw cw tw <<<"$(overflow 400)"
# Headless Chromium lays a narrower window out at its smallest width, 500 px.
echo "# at 400 px: page scrollWidth ${sw:-?}, clientWidth ${cw:-?} (tables may scroll in their box)"
check "rendered: no horizontal overflow of the page at a phone's width (window 400 px)" \
	test -n "${sw:-}" -a "${sw:-1}" -le "${cw:-0}"
