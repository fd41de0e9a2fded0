#!/usr/bin/env bash
# What the collector costs a boot: N boots with probetrace started beside
# the boot (as /init does), N with /init waiting for it to be ready
# (bootprobe.collector=wait, as it did before) and N with
# bootprobe.collector=0, same kernel, initramfs, devices and kernel
# arguments (including probetrace --boot-args on all sides), taking turns
# (the order rotates each round) so that drift of the host hits all alike.  The measure is the guest's
# own "BOOT-COMPLETE at X s" (uptime when /init is done) and the host wall
# time of each boot; the report is the ratio of the medians with the
# min-max spread of each side.
#
# The last line is the summary the README quotes.
#
# usage: bench/probetrace-overhead.sh [N] [DEVICES]   (default 10 boots, 23 devices)
#   env: PROBETRACE, PT_INITRD, BP_RESULTS as for tests/guest/probetrace-*.sh
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/guest/probetrace-lib.sh
. bench/lib.sh
n=${1:-10}
devices=${2:-23}
pt_require "probetrace overhead benchmark"

run=$(date -u +%Y%m%d-%H%M%S)-probetrace-overhead
modes=('collector:slowprobe.probe_ms=20'
	'wait:slowprobe.probe_ms=20 bootprobe.collector=wait'
	'none:slowprobe.probe_ms=20 bootprobe.collector=0')
# N runs of one boot per mode, so that the modes take turns.
for ((i = 1; i <= n; i++)); do
	args=()
	for ((k = 0; k < 3; k++)); do args+=(--mode "${modes[(i + k) % 3]}"); done
	echo "# round $i of $n" >&2
	pt_boot "$run-$i" --devices "$devices" --timeout 300 "${args[@]}" ||
		echo "# round $i: runner exit $?" >&2
done

# complete_s MODE: one "guest_s wall_s" line per boot.
complete_s() {
	local d c w
	for ((i = 1; i <= n; i++)); do
		d=$BP_RESULTS/$run-$i/boots/$1-001
		c=$(sed -n 's/.*bootprobe: BOOT-COMPLETE at \([0-9.]*\) s.*/\1/p' "$d/console.log" 2>/dev/null)
		w=$(json_get "$d/boot.json" wall_s)
		[ -n "$c" ] && echo "$c $w"
	done
}

# Where the time goes, side by side: the median of each stage of
# `bootprobe timeline --json` (tools/bootprobe/analysis/phases.c).
stage_medians() {
	local side st
	printf '# %-12s %8s %8s %8s   (s, medians)\n' stage beside waited none
	for st in firmware_s kernel_s init_s udevd_s coldplug_s settle_s tail_s collector_s; do
		printf '# %-12s' "${st%_s}"
		for side in collector wait none; do
			for ((i = 1; i <= n; i++)); do
				"${BP:-build/bin/bootprobe}" timeline --json \
					"$BP_RESULTS/$run-$i/boots/$side-001" 2>/dev/null |
					jq -r ".stages.$st // empty"
			done | bench_stats 1 | awk '{ printf " %8s", $1 }'
		done
		echo
	done
}
stage_medians | tee "$BP_RESULTS/$run-stages.txt"

with=$(complete_s collector)
waited=$(complete_s wait)
without=$(complete_s none)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.3f" : "nan"), a / b }'; }
summary=$BP_RESULTS/$run-summary.txt
: >"$summary"
line="overhead summary: $devices devices, $n boots a side;"
for col in 1 2; do
	name=$([ $col = 1 ] && echo "guest BOOT-COMPLETE (s)" || echo "host wall time (s)")
	read -r wm wlo whi wn <<<"$(echo "$with" | bench_stats $col)"
	read -r am alo ahi an <<<"$(echo "$waited" | bench_stats $col)"
	read -r om olo ohi on <<<"$(echo "$without" | bench_stats $col)"
	printf '%s: beside %s [%s-%s] n=%s; waited for %s [%s-%s] n=%s; none %s [%s-%s] n=%s\n' \
		"$name" "$wm" "$wlo" "$whi" "$wn" "$am" "$alo" "$ahi" "$an" "$om" "$olo" "$ohi" "$on" |
		tee -a "$summary"
	line="$line $([ $col = 1 ] && echo "guest boot" || echo "; host wall") with/without collector $(ratio "$wm" "$om") (median $wm s vs $om s), when /init waited for it $(ratio "$am" "$om")"
done
echo "$line" | tee -a "$summary"

# Per-event cost side: the collector's own account of the boots.
for ((i = 1; i <= n; i++)); do
	ev=$BP_RESULTS/$run-$i/boots/collector-001/events.jsonl
	[ -s "$ev" ] && jq -s -r '.[-1] | select(.type == "trailer") |
		"# boot \('"$i"'): \(.events_received) events, \(.bpf_drops) BPF drops, \(.events_dropped) user drops"' "$ev"
done | tee -a "$BP_RESULTS/$run-summary.txt"
