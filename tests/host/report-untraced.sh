#!/usr/bin/env bash
# A mode whose boots ran with the collector off (bootprobe.collector=0: an
# empty events.jsonl, no probe lines in the console) has no probe and no
# driver to draw, and the report is written all the same, exit 0.  From the
# committed Debian run (results/20261207-131807-debian: modes sync, the
# baseline, driver-async and module-async, 3 boots each), two copies:
#   the baseline untraced: the timeline gives its row a panel that says "no
#     probe recorded" and reads no data file of it; the per-driver chart,
#     with no baseline to compare against, is a panel per traced mode (2),
#     none for sync; gnuplot says nothing;
#   every mode untraced: the timeline and the per-driver chart are not
#     drawn (no gantt.svg, drivers.svg), said once in report.md with no
#     heading of their own; boot time and SIGKILLs are drawn.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "a report of untraced modes"
if ! command -v gnuplot >/dev/null; then
	skip "a report of untraced modes" "no gnuplot (make deps)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=results/20261207-131807-debian

# untraced COPY GLOB: a copy of the run whose boots GLOB recorded nothing.
untraced() {
	local f
	cp -r "$src" "$1" && rm -rf "$1/report"
	for f in "$1"/boots/$2/events.jsonl; do
		: >"$f"
	done
}

# ---- the baseline untraced ----
run=$tmp/base-off
untraced "$run" 'sync-*'
"$BP" report -q "$run" >"$tmp/base.out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/base.out"
c=$run/report/charts
check "baseline untraced: the report is written (exit $rc)" test "$rc" -eq 0
check "baseline untraced: gnuplot reported nothing" test ! -s "$c/gnuplot.log"
check "baseline untraced: report.md shows the timeline and the per-driver chart" \
	bash -c 'grep -qF "![gantt](charts/gantt.svg)" "$1" && grep -qF "![drivers](charts/drivers.svg)" "$1"' \
	_ "$run/report/report.md"
check "timeline: the baseline's row says no probe was recorded" \
	grep -q "^set title 'sync: sync-[0-9]* (seconds since kernel start; no probe recorded)'" "$c/gantt.gp"
check "timeline: 3 rows, 2 of them read a data file" \
	bash -c '[ "$(grep -c "^set multiplot" "$1")" = 1 ] && [ "$(grep -c "^set title" "$1")" = 3 ] &&
		[ "$(grep -c "^plot .gantt-[0-9]*.dat" "$1")" = 2 ] && [ "$(grep -c "^plot NaN" "$1")" = 1 ]' \
	_ "$c/gantt.gp"
check "per-driver chart: a panel per traced mode (2), none for the baseline" \
	bash -c '[ "$(grep -c "^plot .drivers.dat. index" "$1")" = 2 ] &&
		grep -q "^set title .driver-async: [0-9]* drivers" "$1" &&
		grep -q "^set title .module-async: [0-9]* drivers" "$1" && ! grep -q "^set title .sync" "$1"' \
	_ "$c/drivers.gp"
check "both drawn whole" bash -c 'for f in gantt drivers; do
	tail -c 8 "$1/$f.svg" 2>/dev/null | grep -q "</svg>" && [ -s "$1/$f.png" ] || exit 1; done' _ "$c"

# ---- every mode untraced ----
run=$tmp/all-off
untraced "$run" '*'
"$BP" report -q "$run" >"$tmp/all.out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/all.out"
c=$run/report/charts
md=$run/report/report.md
check "all untraced: the report is written (exit $rc)" test "$rc" -eq 0
check "all untraced: nothing failed in gnuplot" \
	bash -c '! grep -q gnuplot "$1" && [ ! -s "$2" ]' _ "$tmp/all.out" "$c/gnuplot.log"
check "all untraced: no timeline and no per-driver chart drawn" \
	bash -c '[ ! -e "$1/gantt.svg" ] && [ ! -e "$1/drivers.svg" ] && [ ! -e "$1/gantt.gp" ] &&
		[ ! -e "$1/drivers.gp" ]' _ "$c"
check "all untraced: said once in report.md, naming both, with no heading of their own" \
	bash -c '[ "$(grep -c "so these charts are not drawn: Probe timeline of a typical boot per mode; Per-driver probe time\.$" "$1")" = 1 ] &&
		! grep -q "^### Probe timeline" "$1" && ! grep -q "^### Per-driver" "$1" && ! grep -q "Not drawn" "$1"' _ "$md"
check "all untraced: boot time and SIGKILLs still drawn" \
	bash -c 'grep -qF "![boottime](charts/boottime.svg)" "$1" && grep -qF "![kills](charts/kills.svg)" "$1"' _ "$md"
check "all untraced: report.html says it too" \
	grep -q "so these charts are not drawn" "$run/report/report.html"
