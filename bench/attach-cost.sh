#!/usr/bin/env bash
# What each kind of BPF attach point costs per event in the guest kernel:
# /bin/attachcost (tools/guest/attachcost.c) attaches the same one-increment
# program as fentry, fexit, tp_btf, raw_tp, tp and kprobe, one at a time,
# and times N kill(2) with it against N without, in alternating rounds.
# N boots without the collector; per kind, the median over boots.
#
# The TCG factor comes from the same boots: probetrace --bench-format (the
# collector's formatting, no BPF) in the guest against the same on this
# host (which never loads BPF).  The last line, which the README quotes,
# divides the guest's costs by it and sets them beside the published
# hardware figures (fentry ~3 ns, raw tracepoint ~8 ns, tracepoint ~41 ns).
#
# usage: bench/attach-cost.sh [BOOTS] [KILLS]   (default 3 boots, 20011 kills a measure)
#   env: PROBETRACE, PT_INITRD, BP_RESULTS as for tests/guest/probetrace-*.sh
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/guest/probetrace-lib.sh
. bench/lib.sh
n=${1:-3}
kills=${2:-20011}
fmt=100003
pt_require "BPF attach cost benchmark"
if ! pt_initrd_files "$PT_INITRD" | grep -qx 'bin/attachcost'; then
	echo "bench/attach-cost.sh: $PT_INITRD has no bin/attachcost (make guests)" >&2
	exit 1
fi

run=$(date -u +%Y%m%d-%H%M%S)-attach-cost
for ((i = 1; i <= n; i++)); do
	echo "# boot $i of $n" >&2
	pt_boot "$run-$i" --timeout 600 \
		--mode "cost:bootprobe.collector=0 bootprobe.attachcost=$kills bootprobe.bench_format=$fmt" ||
		echo "# boot $i: runner exit $?" >&2
done

median() { bench_stats 1 %.1f | cut -d' ' -f1; }
consoles() {
	for ((i = 1; i <= n; i++)); do cat "$BP_RESULTS/$run-$i/boots/cost-001/console.log"; done 2>/dev/null
}

summary=$BP_RESULTS/$run-summary.txt
: >"$summary"
guest_fmt=$(consoles | bench_format_parse | median)
host_fmt=$(bench_format_ns $fmt)
factor=$(awk -v g="$guest_fmt" -v h="$host_fmt" 'BEGIN { printf "%.1f", g / h }')
line="attach cost summary: per event under TCG (median of $n boots, $kills kills a measure):"
hw=""
for kind in fentry fexit tp_btf raw_tp tp kprobe; do
	c=$(consoles | sed -n "s/.*attachcost kind=$kind .*cost_ns=\([-0-9.]*\).*/\1/p" | median)
	ok=$(consoles | grep -c "attachcost kind=$kind .*hits_ok=1")
	echo "# $kind: cost ${c} ns per event under TCG, hit count exact in $ok of $n boots" | tee -a "$summary"
	line="$line $kind $c ns,"
	hw="$hw $kind $(awk -v c="$c" -v f="$factor" 'BEGIN { printf "%.0f", c / f }') ns,"
done
echo "# formatting: $guest_fmt ns a record in the guest, $host_fmt ns on this host" | tee -a "$summary"
echo "${line%,}; TCG factor $factor; so on this host's hardware ~${hw%,} (published: fentry ~3 ns, raw tracepoint ~8 ns, tracepoint ~41 ns)" |
	tee -a "$summary"
