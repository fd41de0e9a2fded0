#!/usr/bin/env bash
# The report's "What if every probe were asynchronous?" (docs/whatif.md) on
# made-up runs whose answer is known by construction.  Sync boots: a udev
# worker loads module m, whose driver probes two devices one after the
# other, 2 s each; driver-async and module-async boots: the same two probes
# side by side.  A run with the async modes measured shows, per mode, the
# prediction (3.1 s), the measured boots (3.1 s) and the error between them,
# and never lists its two sync modes as "measured"; whatif.csv has the
# judged rows.  A run of sync boots alone has nothing to judge its prediction
# against: what it shows is what the committed calibration table
# (results/whatif-calibration.csv, built in) says of lab boots: with no row
# for a mode, or an error over the limit, the prediction is withheld, with
# the reason; within it, shown beside the error.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "the what-if section judges and withholds"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# probe PID DEVICE START END (s): one probe of driver d for module m's load.
probe() {
	printf '{"type":"probe","ts_ns":%s,"pid":%d,"comm":"(udev-worker)","driver":"d","device":"%s","bus":"pci","owner":"m","async":%s,"start_ns":%s,"end_ns":%s,"ret":0,"origin":{"kind":"module_load","pid":%d,"comm":"(udev-worker)","module":"m"}}\n' \
		"$4" "$1" "$2" "$5" "$3" "$4" "$1"
}
ns() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1e9 }'; }

# boot RUN MODE N CMDLINE JITTER: boot MODE-00N, its probes in series (sync) or side by side.
boot() {
	local dir=$1/boots/$2-00$3 j=$5 a0 a1 b0 b1 done end
	mkdir -p "$dir"
	a0=$(ns "1.0 + $j"); a1=$(ns "3.0 + $j")
	if [ "${2#sync}" != "$2" ]; then
		b0=$a1; b1=$(ns "5.0 + $j"); end=$(ns "5.05 + $j"); done=$(awk -v j="$j" 'BEGIN { printf "%.2f", 5.1 + j }')
		probe 100 a "$a0" "$a1" false >"$dir/e"
		probe 100 b "$b0" "$b1" false >>"$dir/e"
	else
		b0=$a0; b1=$(ns "3.0 + $j"); end=$(ns "3.05 + $j"); done=$(awk -v j="$j" 'BEGIN { printf "%.2f", 3.1 + j }')
		probe 41 a "$a0" "$a1" true >"$dir/e"
		probe 42 b "$b0" "$b1" true >>"$dir/e"
	fi
	{
		echo '{"type":"header","schema":1,"tool":"probetrace","clock":"boottime","ts_ns":500000000,"attach_ns":400000000,"kernel":"6.1.192","pid":30,"kthread_source":"tracepoint","attached":[],"not_attached":[]}'
		cat "$dir/e"
		printf '{"type":"module_load","ts_ns":%s,"pid":100,"comm":"(udev-worker)","name":"m","start_ns":%s,"end_ns":%s,"ret":0}\n' "$end" "$(ns "0.9 + $j")" "$end"
		echo '{"type":"trailer","ts_ns":9000000000,"exit_reason":"SIGTERM","events_written":3,"events_dropped":0,"bpf_drops":0}'
	} >"$dir/events.jsonl"
	rm "$dir/e"
	printf '[    0.500000] bootprobe: init start at 0.50 s\n[    %s] bootprobe: coldplug done at %s s\n' \
		"$done" "$done" >"$dir/console.log"
	cat >"$dir/boot.json" <<-EOF
	{
	  "schema":1,
	  "boot":"$2-00$3",
	  "mode":"$2",
	  "index":$3,
	  "outcome":"ok",
	  "wall_s":9.0,
	  "accel":"tcg",
	  "kernel_cmdline":"$4",
	  "qemu_cmdline":"qemu-system-x86_64 -M pc -m 512 -smp 1 -nodefaults",
	  "devices":0
	}
	EOF
}

for n in 1 2 3; do
	j=$(awk -v n="$n" 'BEGIN { printf "%.3f", (n - 2) * 0.01 }')
	boot "$tmp/judged" sync "$n" "" "$j"
	boot "$tmp/judged" sync-b "$n" "" "$j"
	boot "$tmp/judged" driver-async "$n" "driver_async_probe=*" "$j"
	boot "$tmp/judged" module-async "$n" "module.async_probe=1" "$j"
	boot "$tmp/alone" sync "$n" "" "$j"
done

"$BP" report --no-charts --no-traces --out "$tmp/out" "$tmp/judged" >"$tmp/stdout" 2>&1
rc=$?
check "report of the run with async modes measured exits 0 (rc $rc)" test "$rc" -eq 0
md=$tmp/out/report.md
sed -n '/^## What if/,/^## Probe order/p' "$md" >"$tmp/whatif.md"
sed 's/^/#   /' "$tmp/whatif.md" | head -30
row() { grep -qE "^\| — \| $1 \| sync \(3 boots\) \| $2 \| $3 \| [0-9.]+ – [0-9.]+.* \| $4 \| $5 \|$" "$tmp/whatif.md"; }
check "boot time, driver-async: predicted 3.100, measured 3.100 (3 boots), error +0.0 %" \
	row driver-async 5.100 3.100 'driver-async: 3.100 \([0-9.]+ – [0-9.]+\), 3 boots' '\+0.0 %'
check "boot time, module-async: predicted 3.000 (the probes' end), measured 3.100, error -3.2 %" \
	row module-async 5.100 3.000 'module-async: 3.100 \([0-9.]+ – [0-9.]+\), 3 boots' '-3.2 %'
check "probe phase, driver-async: 4 s predicted to 2 s, measured 2 s, error +0.0 %" \
	row driver-async 4.000 2.000 'driver-async: 2.000 \([0-9.]+ – [0-9.]+\), 3 boots' '\+0.0 %'
check "neither sync mode is listed as measured (nor predicted from sync-b)" \
	bash -c '! grep -qE "measured sync|\| sync(-b)?: [0-9]|sync-b \(" "$1"' _ "$tmp/whatif.md"
check "no judged row is withheld" bash -c '! grep -q "| withheld |" "$1"' _ "$tmp/whatif.md"
csv=$tmp/out/whatif.csv
check "whatif.csv holds the judged rows: 2 modes x (boot, probe phase), with the error" \
	test "$(grep -cE '^judged,-,lab,(driver|module)-async,(boot|probe_phase),-,3,3,' "$csv")" -eq 4

"$BP" report --no-charts --no-traces --out "$tmp/out-alone" "$tmp/alone" >/dev/null 2>&1
rc=$?
check "report of a sync-only run exits 0 (rc $rc)" test "$rc" -eq 0
sed -n '/^## What if/,/^## Probe order/p' "$tmp/out-alone/report.md" >"$tmp/alone.md"
# cal_err MODE: the largest |error| of the committed table's lab boot-time
# rows of MODE (one decimal, as the report prints it) and their count, or nothing.
cal_err() {
	awk -F, -v m="$1" '!/^#/ && $3 == "lab" && $4 == m && $5 == "boot" {
		e = $13 < 0 ? -$13 : $13; if (!n++ || e > max) max = e }
		END { if (n) printf "%.1f %d\n", max, n }' results/whatif-calibration.csv
}
for m in driver-async module-async; do
	pred=3.100
	[ "$m" = module-async ] && pred=3.000
	read -r e rows <<<"$(cal_err "$m")"
	head="^\| — \| $m \| sync \(3 boots\) \| 5.100 \|"
	if [ -z "${e:-}" ]; then
		check "$m, unjudged and uncalibrated: the boot-time prediction is withheld, with the reason" \
			grep -qE "$head withheld \| – \| not measured \| withheld: no calibration run has measured the model.s error for $m on lab boots" "$tmp/alone.md"
	elif awk -v e="$e" 'BEGIN { exit !(e > 10) }'; then
		check "$m, unjudged, calibrated off by $e %: the boot-time prediction is withheld, with the reason" \
			grep -qE "$head withheld \| – \| not measured \| withheld: on the calibration runs the model was off by up to $e % for $m on lab boots" "$tmp/alone.md"
	else
		check "$m, unjudged, calibrated within 10 % ($e %): the prediction $pred is shown beside that error" \
			grep -qE "$head $pred \| [0-9.]+ – [0-9.]+ \| not measured \| unjudged: calibration error up to $e % \($rows comparisons?\) \|\$" "$tmp/alone.md"
	fi
done
nw=$(grep -c '| withheld: ' "$tmp/alone.md")
check "no number is printed for a withheld prediction ($nw withheld rows)" \
	bash -c '! grep "| withheld: " "$1" | grep -vqE "\| withheld \| – \| not measured \| withheld: "' _ "$tmp/alone.md"
check "a sync-only run's whatif.csv has its header alone" \
	test "$(wc -l <"$tmp/out-alone/whatif.csv")" -eq 1
