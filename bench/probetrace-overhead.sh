#!/usr/bin/env bash
# What the collector costs a boot: N boots with probetrace and N with
# bootprobe.collector=0, same kernel, initramfs, devices and kernel
# arguments (including probetrace --boot-args on both sides), alternating
# so that drift of the host hits both alike.  The measure is the guest's
# own "BOOT-COMPLETE at X s" (uptime when /init is done) and the host wall
# time of each boot; the report is the ratio of the medians with the
# min-max spread of each side.
#
# usage: bench/probetrace-overhead.sh [N] [DEVICES]   (default 5 boots, 23 devices)
#   env: PROBETRACE, PT_INITRD, BP_RESULTS as for tests/guest/probetrace-*.sh
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/guest/probetrace-lib.sh
n=${1:-5}
devices=${2:-23}
pt_require "probetrace overhead benchmark"

run=$(date -u +%Y%m%d-%H%M%S)-probetrace-overhead
# N runs of one boot per mode, so that the two modes alternate.
for ((i = 1; i <= n; i++)); do
	pt_boot "$run-$i" --devices "$devices" --timeout 300 \
		--mode 'collector:slowprobe.probe_ms=20' \
		--mode 'none:slowprobe.probe_ms=20 bootprobe.collector=0' ||
		echo "# boot pair $i: runner exit $?" >&2
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

# stats COLUMN: "median min max count" of the given column of stdin.
stats() {
	sort -g -k"$1","$1" | awk -v c="$1" '{ v[NR] = $c }
		END { if (!NR) { print "nan nan nan 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f %d\n", m, v[1], v[NR], NR }'
}

with=$(complete_s collector)
without=$(complete_s none)
for col in 1 2; do
	name=$([ $col = 1 ] && echo "guest BOOT-COMPLETE (s)" || echo "host wall time (s)")
	read -r wm wlo whi wn <<<"$(echo "$with" | stats $col)"
	read -r om olo ohi on <<<"$(echo "$without" | stats $col)"
	ratio=$(awk -v a="$wm" -v b="$om" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "nan" }')
	printf '%s: with collector median %s [%s-%s] n=%s; without %s [%s-%s] n=%s; ratio %s\n' \
		"$name" "$wm" "$wlo" "$whi" "$wn" "$om" "$olo" "$ohi" "$on" "$ratio"
done | tee "$BP_RESULTS/$run-summary.txt"

# Per-event cost side: the collector's own account of the boots.
for ((i = 1; i <= n; i++)); do
	ev=$BP_RESULTS/$run-$i/boots/collector-001/events.jsonl
	[ -s "$ev" ] && jq -s -r '.[-1] | select(.type == "trailer") |
		"# boot \('"$i"'): \(.events_received) events, \(.bpf_drops) BPF drops, \(.events_dropped) user drops"' "$ev"
done | tee -a "$BP_RESULTS/$run-summary.txt"
