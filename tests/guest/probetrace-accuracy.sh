#!/usr/bin/env bash
# A probe span against the kernel's own measure of the same probe.  With
# initcall_debug, really_probe_debug() takes ktime_get() before and after
# really_probe() and prints "probe of DEV returned RET after N usecs"
# (drivers/base/dd.c): an independent in-kernel measurement of the very
# function boundaries probetrace's fentry/fexit programs time.  23 edu
# devices (a prime) with odd, unequal probe times, 31 + 17 * index ms.
#
# The kernel's window holds probetrace's own work.  The fentry program
# takes its time first, the fexit program last (it fills its record before,
# so that its work falls inside the span): left outside are the BPF
# trampoline's entry and exit and the fexit record's submit.  So a span is
# never longer than the kernel's figure (which is truncated to whole
# microseconds: +1 us at most) and shorter by that work.  Under TCG that is
# 10-18 us a probe (five runs: medians 11.5-17.5 us), the first probe
# 0.10-0.40 ms while QEMU translates the trampoline's code (0.40 in a CI
# rehearsal), at most 0.11 ms for another.  The test holds every span but
# the first within [-0.25 ms, +1 us] of the kernel's figure, the first
# within [-1 ms, +1 us], and the median within 0.03 ms (before the fexit
# program took its time last: median 50-79 us in four runs, worst
# 0.36-0.63 ms), and prints how many fall within 0.1 ms.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "probe spans against the kernel's own measure"

n=23 tol_ns=250000 first_tol_ns=1000000 median_tol_ns=30000
ms=()
for ((i = 0; i < n; i++)); do ms+=($((31 + 17 * i))); done
list=$(IFS=,; echo "${ms[*]}")

id=$(bp_run_id pt-accuracy)
# /init waits for the collector: these are BPF's spans.  Beside the boot
# (idle start-up) the first probes come from the boot-time trace's kprobes,
# a coarser instrument: median 0.20 ms, worst 1.2 ms from the kernel's figure
# in one CI run.
pt_boot "$id" --devices $n --timeout 240 \
	--mode "accuracy:bootprobe.collector=wait slowprobe.probe_ms=$list slowprobe.nthreads=1 initcall_debug loglevel=8"
boot=$BP_RESULTS/$id/boots/accuracy-001
ev=$boot/events.jsonl

check "the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "the event stream is whole" "$ev"

# DEVICE NS START of every slowprobe span, and DEVICE US of the kernel's lines.
pt_q "$ev" '[.[] | select(.type == "probe" and .driver == "slowprobe")] | .[] |
	"\(.device) \(.duration_ns) \(.start_ns)"' | sort >"$boot/spans.txt"
sed -n 's/.*probe of \([0-9a-f:.]*\) returned [-0-9]* after \([0-9]*\) usecs.*/\1 \2/p' \
	"$boot/console.log" | sort >"$boot/kernel-probes.txt"
check "exactly $n slowprobe spans" test "$(wc -l <"$boot/spans.txt")" -eq $n

# One line per device: DEVICE SPAN_NS START_NS KERNEL_US, then the differences.
join "$boot/spans.txt" "$boot/kernel-probes.txt" >"$boot/accuracy.txt"
check "the kernel printed its measure of each of the $n probes" \
	test "$(wc -l <"$boot/accuracy.txt")" -eq $n
# kernel - span in ns per probe, sorted: the collector's work in the window;
# the first probe's (the earliest start) apart.
first=$(sort -k3,3n "$boot/accuracy.txt" | head -1 | cut -d' ' -f1)
awk '{ print $4 * 1000 - $2 }' "$boot/accuracy.txt" | sort -n >"$boot/diff-ns.txt"
first_diff=$(awk -v d="$first" '$1 == d { print $4 * 1000 - $2 }' "$boot/accuracy.txt")
awk -v d="$first" '$1 != d { print $4 * 1000 - $2 }' "$boot/accuracy.txt" | sort -n >"$boot/diff-rest-ns.txt"
read -r least median worst within <<<"$(awk '{ v[NR] = $1
		if ($1 <= 100000 && $1 >= -1000) within++ }
	END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	      printf "%d %d %d %d\n", v[1], m, v[NR], within }' "$boot/diff-ns.txt")"
rest_worst=$(tail -1 "$boot/diff-rest-ns.txt")
echo "# kernel's measure - span over $n probes: least ${least:-?} ns, median ${median:-?} ns," \
	"worst ${worst:-?} ns; ${within:-?} of $n within 0.1 ms; the first ($first) ${first_diff:-?} ns"
check "no span is longer than the kernel's measure of it (+1 us of truncation; least gap ${least:-?} ns)" \
	test "${least:--1000000}" -ge -1000
check "every span but the first within 0.25 ms of the kernel's own measure (worst ${rest_worst:-?} ns)" \
	test "${rest_worst:-$tol_ns}" -le "$tol_ns" -a "$(wc -l <"$boot/diff-rest-ns.txt")" -eq $((n - 1))
check "the first span within 1 ms of the kernel's own measure (${first_diff:-?} ns)" \
	test "${first_diff:-$first_tol_ns}" -le "$first_tol_ns"
check "the median span within 0.03 ms of the kernel's own measure (${median:-?} ns)" \
	test "${median:-$median_tol_ns}" -lt "$median_tol_ns" -a "$(wc -l <"$boot/accuracy.txt")" -eq $n
check "the spans are the configured times, not one figure: $n distinct kernel measures" \
	test "$(cut -d' ' -f4 "$boot/accuracy.txt" | sort -u | wc -l)" -eq $n

# The default configuration: the collector starts beside the boot and the
# probes before its programs are attached come from the boot-time trace
# (the kprobe and kretprobe on really_probe()), those after from BPF.  The
# same 23 probes are judged per instrument: the boot-time trace's each
# within 1.5 ms (measured 36-69 us: its handlers run inside the kernel's
# window), BPF's each within 0.5 ms but one, as in 53 and 55 (in CI on
# 7 December the worst of 16 was 0.43 ms, the first apart; in the next CI
# run one was 1.59 ms: the host can deschedule the vCPU's thread), the
# first within 2 ms (it
# begins at the attach: 0.66-1.04 ms in three boots on the evening of
# 7 December) and their median within 0.25 ms.  In eight such boots BPF's
# median was 9-15 us (as in wait mode), 67-101 us, or (all three that
# evening) 128-151 us, with the boot-time trace's end events followed after
# the cutover (docs/accuracy.md: what was tried, and what is not known).
# The probes' own kretprobe is turned off once no probe is open, checked
# through ends_followed_until.
id=$(bp_run_id pt-accuracy-beside)
pt_boot "$id" --devices $n --timeout 240 \
	--mode "beside:slowprobe.probe_ms=$list slowprobe.nthreads=1 initcall_debug loglevel=8"
boot=$BP_RESULTS/$id/boots/beside-001
ev=$boot/events.jsonl
check "beside: the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "beside: the event stream is whole" "$ev"
# DEVICE NS START INSTRUMENT: "bpf" when both ends are BPF's, else "trace".
pt_q "$ev" '[.[] | select(.type == "probe" and .driver == "slowprobe")] | .[] |
	"\(.device) \(.duration_ns) \(.start_ns) \(if (.pre_collector or .start_from or .end_from)
		then "trace" else "bpf" end)"' | sort >"$boot/spans.txt"
sed -n 's/.*probe of \([0-9a-f:.]*\) returned [-0-9]* after \([0-9]*\) usecs.*/\1 \2/p' \
	"$boot/console.log" | sort >"$boot/kernel-probes.txt"
join "$boot/spans.txt" "$boot/kernel-probes.txt" >"$boot/accuracy.txt"
check "beside: the kernel's measure and a span of each of the $n probes" \
	test "$(wc -l <"$boot/accuracy.txt")" -eq $n
# INSTRUMENT: LEAST MEDIAN WORST COUNT of kernel - span (ns); BPF's first apart.
stats() {
	awk -v i="$1" -v skip="${2:-}" '$4 == i && $1 != skip { print $5 * 1000 - $2 }' \
		"$boot/accuracy.txt" | sort -n | awk '{ v[NR] = $1 }
		END { if (!NR) { print "0 0 0 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%d %d %d %d\n", v[1], m, v[NR], NR }'
}
first_bpf=$(awk '$4 == "bpf"' "$boot/accuracy.txt" | sort -k3,3n | head -1 | cut -d' ' -f1)
read -r t_least t_median t_worst t_n <<<"$(stats trace)"
read -r b_least b_median b_worst b_n <<<"$(stats bpf "$first_bpf")"
b_first=$(awk -v d="$first_bpf" '$1 == d { print $5 * 1000 - $2 }' "$boot/accuracy.txt")
echo "# beside: $t_n spans from the boot-time trace: kernel - span least $t_least ns," \
	"median $t_median ns, worst $t_worst ns; $((b_n + ${first_bpf:+1})) from BPF: the first" \
	"(${first_bpf:-none}) ${b_first:-?} ns, the rest least $b_least, median $b_median, worst $b_worst ns"
check "beside: both instruments timed some of the probes ($t_n trace, $((b_n + ${first_bpf:+1})) BPF)" \
	test "$t_n" -gt 0 -a -n "$first_bpf"
check "beside: every boot-time trace span within 1.5 ms of the kernel's measure ($t_least..$t_worst ns)" \
	test "$t_least" -ge -1500000 -a "$t_worst" -le 1500000
check "beside: no BPF span longer than the kernel's measure (+1 us; least $b_least ns)" \
	test "$b_least" -ge -1000 -a "${b_first:--1000000}" -ge -1000
# bpf_within DIFFS FIRST_NS: the BPF bounds of the check below.
bpf_within() { within "$1" 500000 0 >/dev/null && [ "$2" -le 2000000 ]; }
awk -v f="$first_bpf" '$4 == "bpf" && $1 != f { print $5 * 1000 - $2 }' "$boot/accuracy.txt" |
	sort -n >"$boot/diff-bpf.txt"
check "beside: BPF spans but the first each within 0.5 ms ($(within "$boot/diff-bpf.txt" 500000 0); worst $b_worst ns), the first within 2 ms (${b_first:-?} ns)" \
	bpf_within "$boot/diff-bpf.txt" "${b_first:-2000000}"
check "beside: the median BPF span (the first apart) within 0.25 ms ($b_median ns)" \
	test "$b_n" -gt 0 -a "$b_median" -lt 250000
until=$(pt_q "$ev" '.[-1].boot_trace.after_cutover.ends_followed_until | to_entries |
	map("\(.key)=\(.value)") | join(" ")')
last_probe_end=$(pt_q "$ev" '[.[] | select(.type == "probe" and .end_from == "boot_trace") |
	.start_ns + .duration_ns] | max // 0')
echo "# beside: end events followed after the cutover, until (ns): ${until:-none}"
check "beside: the trailer says until when each end event was followed" \
	test "$(pt_q "$ev" '.[-1].boot_trace.after_cutover | has("ends_followed_until")')" = true
check "beside: the probes' kretprobe followed no longer than the last probe open at the cutover" \
	test "$(pt_q "$ev" '.[-1].boot_trace.after_cutover.ends_followed_until.probe_return // 0')" \
	-le "${last_probe_end:-0}"
