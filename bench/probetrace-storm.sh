#!/usr/bin/env bash
# What one event costs: a synthetic signal storm (/bin/storm, one
# signal_generate record per iteration) in N boots with probetrace and N
# with bootprobe.collector=0, alternating (/init waits for the collector:
# what is measured is the attached collector's drain).  Per storm size the median ns per
# iteration on each side and their difference, the collector's cost per
# event; and from each trailer the exact account: the storm's records plus
# its counted BPF drops must equal the signals sent.
#
#   rt:997   SCHED_FIFO, fits in the ring buffer: the collector cannot run
#            during the loop, so the cost is the BPF side alone
#   1009     normal priority: the collector may drain concurrently on the
#            one vCPU (its user-space work then counts)
#   100003   as fast as one task can: must fit in the 16 MiB ring buffer
#            (96-byte records), 0 drops
#
# The last line is the summary the README quotes: the BPF cost per event
# under TCG, the TCG factor of the same loop (/bin/storm run on this host,
# without any collector, against the guest without one), the consumer's
# CPU per event (the trailer's drain_cpu_ns / events_received), and what
# they make on hardware.
#
# usage: bench/probetrace-storm.sh [N] [STORMS]   (default 3 boots, "rt:997,1009,100003")
#   env: PROBETRACE, PT_INITRD, BP_RESULTS as for tests/guest/probetrace-*.sh
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/guest/probetrace-lib.sh
. bench/lib.sh
n=${1:-3}
storms=${2:-rt:997,1009,100003}
pt_require "probetrace storm benchmark"

run=$(date -u +%Y%m%d-%H%M%S)-probetrace-storm
for ((i = 1; i <= n; i++)); do
	pt_boot "$run-$i" --timeout 300 \
		--mode "collector:bootprobe.collector=wait bootprobe.storm=$storms" \
		--mode "none:bootprobe.storm=$storms bootprobe.collector=0 bootprobe.bench_format=${storms##*[,:]}" ||
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

stats() { bench_stats 1 %.0f; }

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

# The summary line.  BPF side: the first (rt) storm, with minus without.
# Consumer side: the trailer's drain CPU per event in the guest (samples
# framed as they came, probetrace --binary).  The TCG factor is that of the
# same formatting code (probetrace --bench-format) timed on this host and in
# the guest without a collector; the kill loop's own factor (storm on this
# host, no BPF: this host never loads any) is shown beside it.  Decoding the
# samples into JSON happens on the host, after the boot: timed here on the
# same number of framed samples (probetrace --input).
big=${storms##*,}
big=${big#rt:}
first=${storms%%,*}
host_fmt=$(bench_format_ns "$big")
guest_fmt=$(for ((i = 1; i <= n; i++)); do
	bench_format_parse <"$BP_RESULTS/$run-$i/boots/none-001/console.log"
done | stats)
host_kill=$(for _ in 1 2 3; do "${STORM:-build/bin/storm}" "$big"; done |
	sed -n 's/.*per_iter_ns=\([0-9.]*\).*/\1/p' | stats)
frames=$(mktemp)
host_decode=$(for _ in 1 2 3; do
	"$PROBETRACE" --bench-format "$big" --binary --output "$frames" 2>/dev/null
	t0=$(date +%s%N)
	"$PROBETRACE" --input "$frames" --json >/dev/null 2>&1
	echo $((($(date +%s%N) - t0) / big))
done | stats)
rm -f "$frames"
read -r hf _ <<<"$host_fmt"
read -r gf _ <<<"$guest_fmt"
read -r hk _ <<<"$host_kill"
read -r hd _ <<<"$host_decode"
read -r bw _ <<<"$(per_iter collector "$first" | stats)"
read -r bo _ <<<"$(per_iter none "$first" | stats)"
read -r gk _ <<<"$(per_iter none "$big" | stats)"
read -r dm _ <<<"$(for ((i = 1; i <= n; i++)); do
	pt_q "$BP_RESULTS/$run-$i/boots/collector-001/events.jsonl" \
		'.[-1] | select(.type == "trailer" and .events_received > 0) |
		 .drain_cpu_ns / .events_received' 2>/dev/null
done | stats)"
lost=$(for ((i = 1; i <= n; i++)); do
	pt_q "$BP_RESULTS/$run-$i/boots/collector-001/events.jsonl" '.[-1].bpf_drops // "?"'
done | paste -sd+)
awk -v bw="$bw" -v bo="$bo" -v gk="$gk" -v hk="$hk" -v gf="$gf" -v hf="$hf" -v dm="$dm" \
	-v hd="$hd" -v big="$big" -v lost="$lost" 'BEGIN {
	f = gf / hf; bpf = bw - bo
	printf "storm summary: %d signals a boot, BPF drops %s; under TCG: BPF %.0f ns/event, consumer %.0f ns CPU/event (binary samples); TCG factor %.1f (formatting: %.0f ns guest, %.0f ns host; the kill loop: %.1f); on this host'"'"'s hardware: BPF ~%.0f ns + consumer ~%.0f ns = %.2f M events/s on one CPU; decoding to JSON on the host afterwards %.0f ns/event\n",
		big, lost, bpf, dm, f, gf, hf, gk / hk, bpf / f, dm / f, 1000 / (bpf / f + dm / f), hd
}' | tee -a "$summary"
