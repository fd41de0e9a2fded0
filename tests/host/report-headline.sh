#!/usr/bin/env bash
# `bootprobe report` prints its headline on standard output, one row per mode
# in run order, then report.html's path; --quiet prints nothing there, --json
# prints summary.json with the same rows as its "headline" array.  The run is
# made from a recorded console (tests/data/console/ok.log) with chosen
# coldplug times, drivers, a failed probe and a SIGKILL, so every cell is known:
#   a: boot times 11, 13, 17 s -> median 13; a SIGKILL and a failed probe in
#      a-001, whose first device stays unbound -> bound 2, 2, 1 of 2.
#   b: boot times 7, 9 s -> median 8; nothing killed or failed.
# Boot time is coldplug done here: every probe has ended by 6 s.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "bootprobe report prints its headline"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run

# boot NAME MODE COLDPLUG_DONE DRIVER_OF_03.0 KILLED(0/1)
boot() {
	local dir=$run/boots/$1 ret=0 kill=
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"%s","outcome":"ok"}\n' "$1" "$2" >"$dir/boot.json"
	sed -e "s/coldplug done at 13.44 s/coldplug done at $3 s/" \
	    -e "s/device 0000:00:03.0 driver=slowprobe/device 0000:00:03.0 driver=$4/" \
	    tests/data/console/ok.log >"$dir/console.log"
	if [ "$5" = 1 ]; then
		ret=-4
		kill='{"type":"signal_generate","ts_ns":4500000000,"pid":32,"comm":"systemd-udevd","sig":9,"result":"delivered","target":{"pid":44,"comm":"(udev-worker)"}}'
	fi
	{
		echo '{"type":"header","schema":1}'
		echo "{\"type\":\"probe\",\"pid\":44,\"driver\":\"slowprobe\",\"device\":\"0000:00:03.0\",\"start_ns\":4000000000,\"end_ns\":5000000000,\"ret\":$ret}"
		echo '{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:04.0","start_ns":5000000000,"end_ns":6000000000,"ret":0}'
		[ -n "$kill" ] && echo "$kill"
		echo '{"type":"trailer","events_written":3,"events_dropped":0,"bpf_drops":0}'
	} >"$dir/events.jsonl"
	manifest+=("{\"boot\":\"$1\",\"mode\":\"$2\",\"dir\":\"boots/$1\"}")
}

manifest=()
boot a-001 a 11.00 none 1
boot b-001 b 7.00 slowprobe 0
boot a-002 a 13.00 slowprobe 0
boot b-002 b 9.00 slowprobe 0
boot a-003 a 17.00 slowprobe 0
(IFS=,; echo "{\"boots\":[${manifest[*]}]}") >"$run/manifest.json"

"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
check "report exits 0 on the synthetic run" test "$rc" -eq 0
check "the headline is a header, a row per mode and the report's path: 4 lines" \
	test "$(wc -l <"$tmp/stdout")" -eq 4
check "its header names the columns" \
	grep -qE '^mode +ok +boot time \(s\) +95% CI +SIGKILL +failed probes +bound$' "$tmp/stdout"
check "row a: 3/3 ok, median 13.000 s, SIGKILL in 1/3, 1 failed probe (1/3), 2 of 2 bound (1..2)" \
	grep -qE '^a +3/3 +13\.000 +1[0-9]\.[0-9]{3} \.\. 1[0-9]\.[0-9]{3} +1/3 +1 \(1/3\) +2/2 \(1\.\.2\)$' "$tmp/stdout"
check "row b: 2/2 ok, median 8.000 s, no SIGKILL, no failed probe, 2 of 2 bound" \
	grep -qE '^b +2/2 +8\.000 +[7-9]\.[0-9]{3} \.\. [7-9]\.[0-9]{3} +0/2 +0 \(0/2\) +2/2$' "$tmp/stdout"
check "rows come in run order (a before b), not sorted otherwise" \
	test "$(awk 'NR == 2 || NR == 3 { printf "%s", $1 }' "$tmp/stdout")" = ab
check "the last line is report.html's path, and the file is there" \
	sh -c "tail -1 '$tmp/stdout' | grep -qx 'report: $tmp/out/report.html' && test -s '$tmp/out/report.html'"

# The kill chart: only modes with a SIGKILL get a data block, and each is
# titled with its own mode even when a mode without kills comes first.
run=$tmp/run-b-first
manifest=()
boot b-001 b 7.00 slowprobe 0
boot a-001 a 11.00 none 1
(IFS=,; echo "{\"boots\":[${manifest[*]}]}") >"$run/manifest.json"
"$BP" report --quiet --no-traces --out "$tmp/charts" "$run" >/dev/null 2>&1
check "kill chart: one data block, plotted as index 0 and titled with mode a" \
	sh -c "grep -c '^#' '$tmp/charts/charts/kills.dat' | grep -qx 1 &&
		grep -q \"index 0 using 1:2 with points pt 7 title 'a'\" '$tmp/charts/charts/kills.gp' &&
		! grep -q \"title 'b'\" '$tmp/charts/charts/kills.gp'"
# One boot a mode: no interval, no claim.  (The answer once read "slower by
# 4 s in these boots, but not significant (... the 95 % CI of the
# difference, +4.000 - +4.000 s, excludes 0; p = 1 ...)": a point.)
check "one boot a mode: the answer says not comparable, a CI needs 2 a side, with the medians" \
	grep -q "not comparable, 1 and 1 ok boots with a boot time (a confidence interval needs 2 a side); in these boots 11.000 s against 7.000 s, +4.000 s, +57.1 %." \
	"$tmp/charts/report.md"
check "... and no CI is claimed anywhere in the report" \
	bash -c '! grep -q "excludes 0;" "$1" && ! grep -qwi nan "$1"' _ "$tmp/charts/report.md"
run=$tmp/run-no-kills
manifest=()
boot b-001 b 7.00 slowprobe 0
(IFS=,; echo "{\"boots\":[${manifest[*]}]}") >"$run/manifest.json"
"$BP" report --quiet --no-traces --out "$tmp/nokills" "$run" >/dev/null 2>&1
check "kill chart of a run without kills says so, over the boot's time span" \
	sh -c "grep -q 'no SIGKILL in any boot' '$tmp/nokills/charts/kills.gp' &&
		grep -q 'set xrange \\[0:7\\]' '$tmp/nokills/charts/kills.gp'"
run=$tmp/run

"$BP" report --quiet --no-charts --no-traces --out "$tmp/quiet" "$run" >"$tmp/stdout"
rc=$?
check "--quiet: exit 0, nothing on standard output, the report still written" \
	sh -c "test $rc -eq 0 && ! test -s '$tmp/stdout' && test -s '$tmp/quiet/report.md'"

if ! command -v jq >/dev/null; then
	skip "--json carries the headline instead of the table" "no jq"
	exit 0
fi
"$BP" report --json --no-charts --no-traces --out "$tmp/json" "$run" >"$tmp/stdout"
check "--json: standard output is one JSON document, no table" jq -e . "$tmp/stdout" >/dev/null
check "--json: its headline rows hold the table's numbers" \
	test "$(jq -c '[.headline[] | [.mode, .ok, .boots, .boot_s.median, .boots_with_kills, .failed_probes, .boots_with_failed_probes, .devices_bound.median, .devices]]' "$tmp/stdout")" \
	= '[["a",3,3,13,1,1,1,2,2],["b",2,2,8,0,0,0,2,2]]'
check "--json: standard output is summary.json as written" \
	test "$(jq -S . "$tmp/stdout")" = "$(jq -S . "$tmp/json/summary.json")"
