#!/usr/bin/env bash
# What one event costs: a synthetic signal storm (/bin/storm, one
# signal_generate record per iteration) in N boots with probetrace and N
# with bootprobe.collector=0, alternating.  Per storm size the median ns per
# iteration on each side and their difference, the collector's cost per
# event; and from each trailer the exact account: the storm's records plus
# its counted BPF drops must equal the signals sent.
#
#   rt:997   SCHED_FIFO, fits in the ring buffer: the collector cannot run
#            during the loop, so the cost is the BPF side alone
#   1009     normal priority: the collector may drain concurrently on the
#            one vCPU (its user-space work then counts); measured here, it
#            did not get to: the ring buffer filled at ~1985 records
#   20011    overruns the 1 MiB ring buffer: drops, each one counted
#
# usage: bench/probetrace-storm.sh [N] [STORMS]   (default 3 boots, "rt:997,1009,20011")
#   env: PROBETRACE, PT_INITRD, BP_RESULTS as for tests/guest/probetrace-*.sh
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/guest/probetrace-lib.sh
n=${1:-3}
storms=${2:-rt:997,1009,20011}
pt_require "probetrace storm benchmark"

run=$(date -u +%Y%m%d-%H%M%S)-probetrace-storm
for ((i = 1; i <= n; i++)); do
	pt_boot "$run-$i" --timeout 300 \
		--mode "collector:bootprobe.storm=$storms" \
		--mode "none:bootprobe.storm=$storms bootprobe.collector=0" ||
		echo "# boot pair $i: runner exit $?" >&2
done

# per_iter MODE SIZE: the ns per iteration of that storm, one line per boot.
per_iter() {
	local rt=0 size=$2 i
	case "$size" in rt:*) rt=1 size=${size#rt:} ;; esac
	for ((i = 1; i <= n; i++)); do
		sed -n "s/.*bootprobe: storm n=$size pid=[0-9]* sig=10 rt=$rt .*per_iter_ns=\([0-9.]*\).*/\1/p" \
			"$BP_RESULTS/$run-$i/boots/$1-001/console.log" 2>/dev/null | head -1
	done
}

# stats: "median min max count" of stdin.
stats() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) { print "nan nan nan 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.0f %.0f %.0f %d\n", m, v[1], v[NR], NR }'
}

summary=$BP_RESULTS/$run-summary.txt
{
	echo "# ns per storm iteration (one ignored SIGUSR1 = one signal_generate record), TCG guest"
	for s in ${storms//,/ }; do
		read -r wm wlo whi wn <<<"$(per_iter collector "$s" | stats)"
		read -r om olo ohi on <<<"$(per_iter none "$s" | stats)"
		printf 'storm %s: with collector median %s [%s-%s] n=%s; without %s [%s-%s] n=%s; cost per event %s ns\n' \
			"$s" "$wm" "$wlo" "$whi" "$wn" "$om" "$olo" "$ohi" "$on" \
			"$(awk -v a="$wm" -v b="$om" 'BEGIN { printf "%.0f", a - b }')"
	done
	# The exact account, per boot and storm: records + SIGUSR1 drops = sent.
	for ((i = 1; i <= n; i++)); do
		d=$BP_RESULTS/$run-$i/boots/collector-001
		[ -s "$d/events.jsonl" ] || { echo "# boot $i: no event stream"; continue; }
		sent=0 recs=0
		while read -r size pid; do
			r=$(pt_q "$d/events.jsonl" "[.[] | select(.type == \"signal_generate\" and
				.pid == $pid and .sig == 10)] | length")
			echo "# boot $i: storm $size (pid $pid): $r records"
			sent=$((sent + size)) recs=$((recs + r))
		done < <(sed -n 's/.*bootprobe: storm n=\([0-9]*\) pid=\([0-9]*\) .*/\1 \2/p' "$d/console.log")
		drops=$(pt_q "$d/events.jsonl" '.[-1].bpf_signal_drops["10"] // 0')
		verdict=$([ $((recs + drops)) -eq "$sent" ] && echo "exact" || echo "NOT exact")
		echo "# boot $i: $sent sent = $recs records + $drops counted drops: $verdict;" \
			"$(pt_q "$d/events.jsonl" '.[-1] | "trailer: \(.events_written) written, \(.bpf_drops) BPF drops, \(.events_dropped) user drops"')"
	done
} | tee "$summary"
