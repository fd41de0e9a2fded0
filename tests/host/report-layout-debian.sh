#!/usr/bin/env bash
# The charts stay readable at real-world scale: the report of the committed
# kernels comparison (results/20261207-054712-kernels: 3 modes, 5 boots each,
# 38 to 50 drivers a boot; its boots are committed under boots/), written
# into a temporary folder, then:
#   the scripts: every chart's key is above, below or outside its plot, or there is
#     none (a key inside covers data); the timeline is one mode a row (one
#     panel each, stacked), and labels only the probes that matter (no more
#     per row than the slowest, the failed and one per milestone);
#   the per-driver chart is a row per driver with a point and a CI per mode;
#   in headless Chromium at 1400 px and at a phone's width (window 390 px,
#     laid out at 500 px): no text of any chart overlaps another text of it
#     (labels, tics, key), the page does not scroll sideways, and no table
#     scrolls at 1400 px.
# The screenshots are kept when KEEP=1 (the folder is printed).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

run=results/20261207-054712-kernels
require_bp "the charts of a real multi-kernel Debian run stay readable"
if [ ! -d "$run/boots" ]; then
	skip "the charts of a real multi-kernel Debian run stay readable" "$run has no boots/"
	exit 0
fi
if ! command -v gnuplot >/dev/null; then
	skip "the charts of a real multi-kernel Debian run stay readable" "gnuplot is not installed"
	exit 0
fi
tmp=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
	echo "# kept in $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi
out=$tmp/out

"$BP" report --quiet --no-traces --out "$out" "$run" >"$tmp/log" 2>&1
check "report exits 0 on $run (into a temporary folder)" test $? -eq 0
charts=$out/charts
for c in gantt boottime drivers kills; do
	check "chart $c: drawn (SVG and PNG)" test -s "$charts/$c.svg" -a -s "$charts/$c.png"
done

# ---- the scripts ----
check "every chart's key is above, below or outside its plot, or unset (a key inside covers data)" \
	bash -c 'for gp in "$1"/*.gp; do
		grep "^set key" "$gp" | grep -qv -e below -e above -e outside && exit 1
		grep -q "^unset key" "$gp" || grep -q "^set key" "$gp" || ! grep -q " title " "$gp" || exit 1
	done; exit 0' _ "$charts"
modes=$(grep -c '"name":' <(sed -n '/"modes":\[/,/\]/p' "$run/manifest.json"))
echo "# $run: $modes modes"
check "timeline: one row per mode, one under the other ($modes panels at x 0, each its own height)" \
	test "$(grep -c '^set origin 0,' "$charts/gantt.gp")" -eq "$modes"
check "timeline: one mode per row, not side by side (no multiplot layout of columns)" \
	bash -c '! grep -q "multiplot layout" "$1"' _ "$charts/gantt.gp"
# Labelled bars per row: at most the 8 slowest, the failed, one per milestone (4).
check "timeline: each row labels 1 to 12 probes (the slowest 8, one per milestone; no probe failed here)" \
	bash -c 'for d in "$1"/gantt-*.dat; do
		n=$(grep -c "^[0-9]* [0-9.]* \"[^\"]" "$d"); [ "$n" -ge 1 ] && [ "$n" -le 12 ] || exit 1
	done' _ "$charts"
drivers=$(grep -c '^debian-12,debian-12,' "$out/drivers.csv")
check "per-driver chart: a row per driver of both modes of a pair (y tics), a point and CI per mode" \
	bash -c 'grep -q "^set ytics (" "$1/drivers.gp" 2>/dev/null && grep -q "with xerrorbars" "$1/drivers.gp" &&
		test "$(grep -c "^[0-9.-]* [0-9.e+-]* " "$1/drivers.dat")" -gt 30' _ "$charts"
echo "# drivers of debian-12 in drivers.csv: $drivers"

# ---- in a browser ----
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	for w in 1400 390; do
		skip "rendered at $w px: no text of a chart overlaps another" "chromium not installed"
		skip "rendered at $w px: the page does not scroll sideways" "chromium not installed"
	done
	exit 0
fi
browse() {
	local profile
	profile=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout 90 "$chrome" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$profile" --run-all-compositor-stages-before-draw \
		--virtual-time-budget=3000 "$@" 2>>"$tmp/chromium.err"
}
# A copy of the report with a script (never in the report itself) that
# writes into the title: the page's scroll and client width, the most a
# table's box scrolls, and the pairs of overlapping texts in the charts
# (two boxes that share more than 1 px each way), with the first pair.  A
# boxed label's white box is drawn as a copy of its text: not counted.
cat >"$tmp/probe.js" <<'EOF'
var t = 0, pairs = 0, first = "";
for (const d of document.querySelectorAll("div.t")) t = Math.max(t, d.scrollWidth - d.clientWidth);
for (const svg of document.querySelectorAll("svg")) {
  const boxes = [];
  for (const e of svg.querySelectorAll("text")) {
    const s = e.textContent.trim(), style = e.parentElement.getAttribute("style") || "";
    // gnuplot draws a boxed label twice: its opaque box (a filter), then the text.
    if (!s || style.includes("textbox")) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) boxes.push([r, s]);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i][0], b = boxes[j][0];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) { pairs++; if (!first) first = boxes[i][1] + " / " + boxes[j][1]; }
    }
}
document.title = "W " + document.documentElement.scrollWidth + " " +
  document.documentElement.clientWidth + " " + t + " " + pairs + " " + first.replace(/\s+/g, "_");
EOF
{ sed 's#</body></html>##' "$out/report.html"; printf '<script>%s</script></body></html>\n' "$(cat "$tmp/probe.js")"; } \
	>"$out/probe.html"
for w in 1400 390; do
	read -r sw cw tw pairs first <<<"$(browse --window-size="$w",1000 --dump-dom "file://$out/probe.html" |
		sed -n 's/.*<title>W \([^<]*\)<\/title>.*/\1/p')"
	echo "# at $w px: page scrollWidth ${sw:-?}, clientWidth ${cw:-?}; a table scrolls by ${tw:-?} px; overlapping texts in charts: ${pairs:-?} ${first:-}"
	check "rendered at $w px: no text of a chart overlaps another (labels, tics, key)" \
		test -n "${pairs:-}" -a "${pairs:-1}" = 0
	check "rendered at $w px: the page does not scroll sideways" \
		test -n "${sw:-}" -a "${sw:-1}" -le "${cw:-0}"
	if [ "$w" = 1400 ]; then
		check "rendered at $w px: no table scrolls" test "${tw:-1}" = 0
	fi
	# Screenshots of the whole report, for a person to look at (KEEP=1).
	browse --window-size="$w",9000 --screenshot="$tmp/shot-$w.png" "file://$out/report.html" >/dev/null
done
