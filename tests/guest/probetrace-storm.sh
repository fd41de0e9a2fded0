#!/usr/bin/env bash
# probetrace under a synthetic event storm: /bin/storm sends itself N
# ignored SIGUSR1, exactly one signal_generate record each.  499 of them
# as SCHED_FIFO (the collector cannot run meanwhile) and then 100003 as
# fast as one task can (primes: a lost or doubled record cannot hide) must
# all arrive: 0 drops.  Records + counted drops = N exactly stays as a
# second check.  /init waits for the collector (bootprobe.collector=wait):
# this is the attached collector's drain.  Started beside the boot, its
# SCHED_IDLE start-up would wait out the storms, which then land in the
# boot-time trace's buffer (its overflow counted as boot_trace.lost_entries).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "probetrace under a synthetic signal storm"
if ! pt_initrd_files "$PT_INITRD" | grep -qx 'bin/storm'; then
	skip "probetrace under a synthetic signal storm" "$PT_INITRD has no bin/storm (make guests)"
	exit 0
fi

small=499 big=100003
id=$(bp_run_id pt-storm)
pt_boot "$id" --timeout 180 --mode "storm:bootprobe.collector=wait bootprobe.storm=rt:$small,$big"
boot=$BP_RESULTS/$id/boots/storm-001
ev=$boot/events.jsonl

check "the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "the event stream is whole" "$ev"

# storm N: "pid per_iter_ns" of the storm of N signals, from the console.
storm_line() {
	sed -n "s/.*bootprobe: storm n=$1 pid=\([0-9]*\) .*per_iter_ns=\([0-9.]*\).*/\1 \2/p" \
		"$boot/console.log" | head -1
}
read -r pid1 ns1 <<<"$(storm_line $small)"
read -r pid2 ns2 <<<"$(storm_line $big)"
if [ -n "${pid1:-}" ] && [ -n "${pid2:-}" ]; then
	pass "both storms ran ($small: $ns1 ns per signal, $big: $ns2 ns per signal)"
else
	fail "both storms ran" "no 'bootprobe: storm' line for each in $boot/console.log"
	exit 0
fi

# Records of one storm: signal_generate, SIGUSR1, sent by and to itself, ignored.
recs() {
	pt_q "$ev" "[.[] | select(.type == \"signal_generate\" and .pid == $1 and .sig == 10 and
		.target.pid == $1 and .result == \"ignored\")] | length"
}
r1=$(recs "$pid1")
r2=$(recs "$pid2")
others=$(pt_q "$ev" "[.[] | select(.type == \"signal_generate\" and .sig == 10 and
	.pid != $pid1 and .pid != $pid2)] | length")
read -r drops usr1_drops sg_drops all_by_type recv written udrops <<<"$(pt_q "$ev" '.[-1] |
	"\(.bpf_drops) \(.bpf_signal_drops["10"] // 0) \(.bpf_drops_by_type.signal_generate)
	 \(.bpf_drops_by_type | add) \(.events_received) \(.events_written) \(.events_dropped)"' |
	tr '\n' ' ')"
echo "# storm $small: $r1 records; storm $big: $r2 records; SIGUSR1 drops $usr1_drops;" \
	"signal_generate drops $sg_drops; all BPF drops $drops"

check "all $small records of the SCHED_FIFO storm arrive" test "$r1" = "$small"
check "no SIGUSR1 in the boot but the storms'" test "$others" = 0
check "storm $big: all $big records arrive, none dropped" test "$r2" = "$big" -a "$usr1_drops" = 0
check "storm $big: records + SIGUSR1 drops = $big exactly ($r2 + $usr1_drops)" \
	test $((r2 + usr1_drops)) -eq "$big"
check "the BPF drops by type add up to the BPF drops ($all_by_type = $drops)" \
	test "$all_by_type" = "$drops"
check "every record received is written, none dropped in user space" \
	test "$recv" = "$written" -a "$udrops" = 0
# The collector sent the samples as they came (probetrace --binary); the
# runner decoded them: each storm record is a sample, none refused.
read -r samples refused skipped cut <<<"$(jq -r '.event_port |
	"\(.samples) \(.refused) \(.skipped_bytes) \(.cut_bytes)"' "$boot/boot.json")"
check "the storms came as binary samples decoded on the host ($samples of $written records)" \
	test "${samples:-0}" -ge $((small + big)) -a "$samples" -le "$written"
check "no frame refused, skipped or cut ($refused, $skipped, $cut)" \
	test "$refused $skipped $cut" = "0 0 0" -a ! -e "$boot/events.port"

# The default configuration: the collector starts beside the boot, as
# SCHED_IDLE, and a storm right after it (bootprobe.early_storm, before
# coldplug) keeps it from attaching until the storm ends: the boot-time
# trace must hold all of it (trace_buf_size= from probetrace --boot-args,
# 8 MiB per CPU here).  With the kernel's default buffer (1.4 MB) the lab
# kept 27 547 of the 100 003 and counted 73 084 entries lost.
id=$(bp_run_id pt-storm-beside)
pt_boot "$id" --timeout 180 --mode "beside:bootprobe.early_storm=$big"
boot=$BP_RESULTS/$id/boots/beside-001
ev=$boot/events.jsonl
check "beside: the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "beside: the event stream is whole" "$ev"
read -r pid3 ns3 <<<"$(storm_line $big)"
if [ -z "${pid3:-}" ]; then
	fail "beside: the storm ran" "no 'bootprobe: storm' line in $boot/console.log"
	exit 0
fi
r3=$(recs "$pid3")
read -r lost from_boot attach_s <<<"$(pt_q "$ev" '.[-1] as $t |
	"\($t.boot_trace.lost_entries // "none") \([.[] | select(.type == "signal_generate" and
	 .pid == '"$pid3"' and .pre_collector == true)] | length) \($t.startup.attached_ns / 1e9)"' |
	tr '\n' ' ')"
buf=$(grep -o 'trace_buf_size=[^ "]*' "$boot/qemu-cmdline.txt" | head -1)
echo "# beside: storm of $big: $r3 records, $from_boot of them from the boot-time trace;" \
	"lost entries $lost; attached at $attach_s s; ${buf:-no trace_buf_size}"
check "beside: the boot had the buffer of probetrace --boot-args (${buf:-none})" test -n "$buf"
check "beside: the storm ran before the attach: all its records from the boot-time trace" \
	test "${from_boot:-0}" = "$big"
check "beside: the boot-time trace lost nothing (lost_entries $lost)" test "$lost" = 0
check "beside: all $big records of the storm arrive" test "$r3" = "$big"
