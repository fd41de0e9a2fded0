#!/usr/bin/env bash
# probetrace sees the real systemd-udevd kill a module-loading worker.
#
# udev.event_timeout=3 and one slowprobe probe of 4000 ms: udevd SIGKILLs
# the (udev-worker) that runs finit_module(slowprobe) about 3 s into the
# event, while the probe sleeps in plain msleep(); the probe then calls
# kthread_create() with SIGKILL pending and gets -EINTR.  The SIGKILL
# record must name udevd as sender and the worker as target, carry the
# target's state at that instant (in finit_module of slowprobe, in the
# probe of the edu device) and its kernel stack; udevd's own log line
# "Worker [PID] processing SEQNUM=N killed" must name the same worker.
#
# Mode kill waits for the collector (bootprobe.collector=wait): the chain
# is the BPF programs' own.  Mode late starts the collector only once the
# probe has begun (bootprobe.collector_after=1): the worker's module load
# and probe were already running when the programs attached, which never
# see them end (fexit wraps only calls that enter after it), so the state
# at the kill and the probe's end come from the boot-time trace.  Mode kill
# sends the samples as they came (the default, probetrace --binary, decoded
# by the runner), mode late JSON Lines formatted in the guest
# (bootprobe.events=json): both ways, the same chain.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "probetrace records udevd's SIGKILL of a module-loading worker"

id=$(bp_run_id pt-kill)
pt_boot "$id" --devices 1 --timeout 120 \
	--mode 'kill:udev.event_timeout=3 slowprobe.probe_ms=4000 slowprobe.nthreads=1 bootprobe.collector=wait' \
	--mode 'late:udev.event_timeout=3 slowprobe.probe_ms=4000 slowprobe.nthreads=1 bootprobe.collector_after=1 bootprobe.events=json'
boot=$BP_RESULTS/$id/boots/kill-001
ev=$boot/events.jsonl
con=$boot/console.log

check "the boot completes" test "$(boot_outcome "$boot")" = ok
check "the port carried binary samples, decoded on the host, none refused" \
	test "$(jq -r '.event_port | "\(.samples > 0) \(.refused) \(.skipped_bytes) \(.cut_bytes)"' \
		"$boot/boot.json")" = "true 0 0 0"
pt_check_stream "the event stream is whole" "$ev"
pt_check_no_drops "no event dropped in BPF or user space" "$ev"

# udevd's own record of the kill, and the device being probed.
wpid=$(sed -n 's/.*systemd-udevd\[\([0-9]*\)\]: .*Worker \[\([0-9]*\)\] processing SEQNUM=[0-9]* killed.*/\2/p' "$con" | head -1)
upid=$(sed -n 's/.*systemd-udevd\[\([0-9]*\)\]: .*Worker \[[0-9]*\] processing SEQNUM=[0-9]* killed.*/\1/p' "$con" | head -1)
dev=$(sed -n 's/.*slowprobe \([0-9a-f:.]*\): probe start:.*/\1/p' "$con" | head -1)
if [ -z "$wpid" ] || [ -z "$dev" ]; then
	fail "udevd logs the kill of a worker probing slowprobe" "no 'Worker [PID] ... killed' or no probe start in $con"
	exit 0
fi
pass "udevd logs the kill of worker $wpid (udevd $upid) probing $dev"

kill='[.[] | select(.type == "signal_generate" and .sig == 9 and .target.pid == '"$wpid"')]'
pt_q "$ev" "$kill | .[0] | \"# sender \(.comm)[\(.pid)] -> \(.target.comm)[\(.target.pid)]: \(.target_state)\""
check_jq "exactly one SIGKILL record names worker $wpid as target" "$ev" "$kill | length == 1"
check_jq "its sender is systemd-udevd, pid $upid as in udevd's log" "$ev" \
	"$kill | .[0] | .comm == \"systemd-udevd\" and .pid == $upid and .result == \"delivered\""
check_jq "its target is the (udev-worker)" "$ev" "$kill | .[0].target.comm == \"(udev-worker)\""
check_jq "target state: in finit_module of slowprobe for 2-6 s" "$ev" \
	"$kill | .[0].target_state.module_load | .name == \"slowprobe\" and .file == \"slowprobe.ko\" and
	 .for_ns >= 2000000000 and .for_ns <= 6000000000"
check_jq "target state: in slowprobe's probe of $dev for 2-4.2 s, within the module load" "$ev" \
	"$kill | .[0].target_state | .probe.driver == \"slowprobe\" and .probe.device == \"$dev\" and
	 .probe.for_ns >= 2000000000 and .probe.for_ns <= 4200000000 and .probe.for_ns <= .module_load.for_ns"
check_jq "target state: not in kthread_create at the kill (it sleeps in msleep)" "$ev" \
	"$kill | .[0].target_state.kthread_create == null"
check_jq "target stack: msleep inside slowprobe_probe inside finit_module" "$ev" \
	"$kill | .[0].target_stack | (.[0] | startswith(\"msleep+\")) and
	 any(startswith(\"slowprobe_probe+\")) and any(startswith(\"__x64_sys_finit_module+\"))"

after='select(.pid == '"$wpid"')'
check_jq "then kthread_create in the probe starts with SIGKILL pending and returns -EINTR" "$ev" \
	"[.[] | $after | select(.type == \"kthread_end\")] | length == 1 and .[0].ret == -4 and
	 .[0].fatal_signal and .[0].probe_device == \"$dev\" and (.[0].caller | startswith(\"slowprobe_probe+\"))"
check_jq "the probe span of $dev ends with the driver's -EINTR" "$ev" \
	"[.[] | $after | select(.type == \"probe\" and .device == \"$dev\")] | length == 1 and .[0].probe_error == -4"
check_jq "finit_module(slowprobe) returns with the fatal signal pending" "$ev" \
	"[.[] | $after | select(.type == \"module_load\")] | length == 1 and .[0].name == \"slowprobe\" and .[0].fatal_signal"
check_jq "SIGKILL is delivered only after finit_module returned" "$ev" \
	"([.[] | $after | select(.type == \"module_load\")][0].end_ns) as \$e |
	 [.[] | $after | select(.type == \"signal_deliver\" and .sig == 9)] | length == 1 and .[0].ts_ns >= \$e"
check_jq "the worker exits by signal 9" "$ev" \
	"[.[] | $after | select(.type == \"exit\")] | length == 1 and .[0].exit_signal == 9"
check "the kernel's kill warning names the same worker and udevd" \
	grep -q "in (udev-worker)\[$wpid\], waited on by systemd-udevd\[$upid\]" "$con"

# The collector attached in the middle of the probe.
boot=$BP_RESULTS/$id/boots/late-001
ev=$boot/events.jsonl
con=$boot/console.log
check "late collector: the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "late collector: the event stream is whole" "$ev"
check "late collector: with bootprobe.events=json the port carried JSON Lines, kept as they came" \
	test "$(jq -r '.event_port // "none"' "$boot/boot.json")" = none
wpid=$(sed -n 's/.*systemd-udevd\[[0-9]*\]: .*Worker \[\([0-9]*\)\] processing SEQNUM=[0-9]* killed.*/\1/p' "$con" | head -1)
dev=$(sed -n 's/.*slowprobe \([0-9a-f:.]*\): probe start:.*/\1/p' "$con" | head -1)
kill='[.[] | select(.type == "signal_generate" and .sig == 9 and .target.pid == '"${wpid:-0}"')]'
probe='[.[] | select(.type == "probe" and .pid == '"${wpid:-0}"' and .device == "'"$dev"'")]'
attach='(.[] | select(.type == "header") | .attach_ns)'
pt_q "$ev" "$attach as \$a | $probe | .[0] | \"# attach at \(\$a), probe \(.start_ns)..\(.end_ns) from \(.start_from)/\(.end_from)\""
check_jq "late collector: the probe of $dev began before the programs were attached and ended after" \
	"$ev" "$attach as \$a | $probe | length == 1 and .[0].start_ns < \$a and .[0].end_ns > \$a"
check_jq "late collector: its end comes from the boot-time trace, once, with the driver's -EINTR" \
	"$ev" "$probe | .[0] | .start_from == \"boot_trace\" and .end_from == \"boot_trace\" and
	 .probe_error == -4 and .origin.kind == \"module_load\" and .origin.module == \"slowprobe\""
check_jq "late collector: the SIGKILL finds the worker loading slowprobe for 2-6 s (boot-time trace)" "$ev" \
	"$kill | length == 1 and (.[0].target_state.module_load | .name == \"slowprobe\" and
	 .from == \"boot_trace\" and .for_ns >= 2000000000 and .for_ns <= 6000000000)"
check_jq "late collector: and in the probe of $dev for 2-4.2 s" "$ev" \
	"$kill | .[0].target_state.probe | .driver == \"slowprobe\" and .device == \"$dev\" and
	 .for_ns >= 2000000000 and .for_ns <= 4200000000"
check_jq "late collector: no span is left open, no end is lost" "$ev" \
	"[.[] | select(.type == \"trailer\")][0].boot_trace.after_cutover |
	 .still_open == 0 and .lost == 0 and .ends_from_trace >= 1"
check "late collector: explain tells the whole chain" sh -c \
	"'$BP' explain '$boot' | grep -q 'the worker was in finit_module(slowprobe) for [0-9.]* s, in probe of $dev (slowprobe) for .*the probe failed (-EINTR)'"
