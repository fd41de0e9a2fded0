#!/usr/bin/env bash
# What the collector makes of the boot-time trace (probetrace
# --read-boot-trace: no BPF, a copy of tracefs), for a cutover in the middle
# of a module load, as the guest saw it when the collector was not waited
# for.  The trace below has the shape of a 6.1 guest's with --boot-args:
#   - a built-in probe (serial8250, no owner) inside its initcall;
#   - modprobe (pid 100) loading foo entirely before the cutover, whose
#     init probes foo.0;
#   - modprobe (pid 120) loading test_async_driver_probe from 3.0 s, the
#     cutover at 4.0 s: an async probe on a kworker and a sync probe in
#     modprobe begun before it; their ends, the init's and the syscall's
#     return after it (trace_pipe);
#   - disks and interfaces registered: loop0 at an initcall (no driver),
#     eth0 inside foo.0's probe, nvme0n1 from a kworker (its grandparent is
#     the bound device), vda inside the sync probe across the cutover;
#     nvme1n1 and pmem0 with 6.12's shape of a fault (below).
# Each span must come out once, with its module-load origin (the async
# probe's is the thread loading its driver's module, not the kworker),
# the module loads as module_load records (pre-collector, or from the
# trace across the cutover), and the kprobe misses of kprobe_profile.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

PROBETRACE=${PROBETRACE:-build/bin/probetrace}
if [ ! -x "$PROBETRACE" ]; then
	skip "probetrace reads the boot-time trace" "$PROBETRACE not built"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fs=$tmp/tracefs
mkdir -p "$fs"
echo 'local global counter uptime perf mono mono_raw [boot] x86-tsc' >"$fs/trace_clock"
cat >"$fs/trace" <<'TRACE'
# tracer: nop
#
# entries-in-buffer/entries-written: 29/29   #P:1
#
#                                _-----=> irqs-off/BH-disabled
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
       swapper/0-1       [000] .....     0.500000: initcall_start: func=serial8250_init+0x0/0x1a0
       swapper/0-1       [000] .....     0.510000: probe_entry: (really_probe+0x0/0x3c0) drv="serial8250" dev="serial8250" owner=(fault)
       swapper/0-1       [000] .....     0.520000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0
       swapper/0-1       [000] .....     0.530000: initcall_finish: func=serial8250_init+0x0/0x1a0 ret=0
       swapper/0-1       [000] .....     0.540000: probe_entry: (really_probe+0x0/0x3c0) drv="i8042 kbd" dev="00:00" owner=(fault)
       swapper/0-1       [000] .....     0.550000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0
       swapper/0-1       [000] .....     0.600000: disk_add: (device_add_disk+0x0/0x3a0) name="loop0" dev0=(fault) drv0=(fault) dev1=(fault) drv1=(fault)
       swapper/0-1       [000] .....     0.610000: disk_added: (loop_add+0x2a1/0x3a0 <- device_add_disk) ret=0
        modprobe-100     [000] .....     1.000000: finit_module: (__x64_sys_finit_module+0x0/0xb0)
        modprobe-100     [000] .....     1.100000: module_load: foo
        modprobe-100     [000] .....     1.110000: initcall_start: func=foo_init+0x0/0x1000 [foo]
        modprobe-100     [000] .....     1.200000: probe_entry: (really_probe+0x0/0x3c0) drv="foo" dev="foo.0" owner="foo"
        modprobe-100     [000] .....     1.250000: netdev_add: (netdev_register_kobject+0x0/0x150) name="eth0"
        modprobe-100     [000] .....     1.260000: netdev_added: (register_netdev+0x1c/0x30 <- register_netdevice) ret=0
        modprobe-100     [000] .....     1.300000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0
        modprobe-100     [000] .....     1.400000: initcall_finish: func=foo_init+0x0/0x1000 [foo] ret=0
        modprobe-100     [000] .....     1.500000: finit_module_ret: (do_syscall_64+0x3d/0x90 <- __x64_sys_finit_module) ret=0
    kworker/u2:1-31      [000] .....     2.000000: disk_add: (device_add_disk+0x0/0x3a0) name="nvme0n1" dev0="nvme0" drv0=(fault) dev1="0000:00:04.0" drv1="nvme"
    kworker/u2:1-31      [000] .....     2.100000: disk_added: (nvme_alloc_ns+0x5b4/0x9a0 <- device_add_disk) ret=0
    kworker/u2:2-32      [000] .....     2.200000: disk_add: (device_add_disk+0x4/0x3f0) name="nvme1n1" drvp0=0x0 up=0xffff888001c0e0c8 drvp1=0xffffffffc0a43160 dev0="nvme1" drv0="0000:00:09.0" dev1="0000:00:09.0" drv1="nvme"
    kworker/u2:2-32      [000] .....     2.210000: disk_added: (nvme_alloc_ns+0x70b/0x9e0 [nvme_core] <- device_add_disk) ret=0
    kworker/u2:2-32      [000] .....     2.300000: disk_add: (device_add_disk+0x4/0x3f0) name="pmem0" drvp0=0x0 up=0x0 drvp1=0x0 dev0="region0" drv0="region0" dev1="x" drv1="y"
    kworker/u2:2-32      [000] .....     2.310000: disk_added: (pmem_attach_disk+0x2a1/0x3a0 <- device_add_disk) ret=0
        modprobe-120     [000] .....     3.000000: finit_module: (__x64_sys_finit_module+0x0/0xb0)
        modprobe-120     [000] .....     3.100000: module_load: test_async_driver_probe
        modprobe-120     [000] .....     3.110000: initcall_start: func=test_async_probe_init+0x0/0x1000 [test_async_driver_probe]
    kworker/u2:0-30      [000] .....     3.300000: async_entry: (async_run_entry_fn+0x0/0x130)
    kworker/u2:0-30      [000] .....     3.310000: probe_entry: (really_probe+0x0/0x3c0) drv="test_async_driver" dev="test_async_driver.0" owner="test_async_driver_probe"
        modprobe-120     [000] .....     3.400000: probe_entry: (really_probe+0x0/0x3c0) drv="test_sync_driver" dev="test_sync_driver.0" owner="test_async_driver_probe"
        modprobe-120     [000] .....     3.500000: disk_add: (device_add_disk+0x0/0x3a0) name="vda" dev0="virtio1" drv0="virtio_blk" dev1="0000:00:05.0" drv1="virtio-pci"
        modprobe-120     [000] .....     5.000000: disk_added: (virtblk_probe+0x5e1/0x8f0 <- device_add_disk) ret=0
    kworker/u2:0-30      [000] .....     8.310000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0
    kworker/u2:0-30      [000] .....     8.320000: async_return: (process_one_work+0x1e5/0x3b0 <- async_run_entry_fn)
        modprobe-120     [000] .....     8.400000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0
        modprobe-120     [000] .....    13.500000: initcall_finish: func=test_async_probe_init+0x0/0x1000 [test_async_driver_probe] ret=0
        modprobe-120     [000] .....    13.600000: finit_module_ret: (do_syscall_64+0x3d/0x90 <- __x64_sys_finit_module) ret=0
TRACE
# trace_pipe gives the same events (the collector skips those before the cutover).
grep -v '^#' "$fs/trace" >"$fs/trace_pipe"
cat >"$fs/kprobe_profile" <<'PROFILE'
  bootprobe/probe_entry                                      6               0
  bootprobe/probe_return                                     5               2
  kprobe/unrelated                                           9               7
PROFILE
# Enabled events, as set_event lists them: two of the boot-time ones.
printf '%s\n' bootprobe:probe_entry kprobe:unrelated signal:signal_generate >"$fs/set_event"

out=$tmp/records.jsonl
"$PROBETRACE" --read-boot-trace 4000000000 --tracefs "$fs" --json >"$out" 2>"$tmp/stats"
st=$?
check "probetrace --read-boot-trace exits 0 (got $st)" test "$st" = 0
stats=$(tail -1 "$tmp/stats")

# jq_check WHAT FILTER: FILTER over the records (an array) is true.
jq_check() {
	local got
	got=$(jq -s "$2" "$out" 2>&1)
	if [ "$got" = true ]; then pass "$1"; else fail "$1" "jq: $got"; fi
}
stats_check() {
	local got
	got=$(printf '%s\n' "$stats" | jq "$2" 2>&1)
	if [ "$got" = true ]; then pass "$1"; else fail "$1" "jq: $got (stats: $stats)"; fi
}

jq_check "the built-in probe: initcall origin, no owner, not async" \
	'[.[] | select(.type == "probe" and .driver == "serial8250")] | length == 1 and
	 (.[0] | .pre_collector and .owner == "" and (.async | not) and
	  .origin.kind == "initcall" and .origin.initcall == "serial8250_init")'
jq_check "a driver's name with a blank (drv=\"i8042 kbd\", a real 7.3 boot's) is read whole" \
	'[.[] | select(.type == "probe" and .device == "00:00")] | length == 1 and
	 (.[0] | .driver == "i8042 kbd" and .duration_ns == 10000000)'
jq_check "foo's load before the cutover: one pre-collector module_load, 0.5 s, ret 0" \
	'[.[] | select(.type == "module_load" and .name == "foo")] | length == 1 and
	 (.[0] | .pre_collector and .syscall == "finit_module" and .pid == 100 and
	  .duration_ns == 500000000 and .ret == 0)'
jq_check "foo.0's probe: origin modprobe[100] loading foo" \
	'[.[] | select(.type == "probe" and .device == "foo.0")] | length == 1 and
	 (.[0].origin | .kind == "module_load" and .module == "foo" and .pid == 100 and .comm == "modprobe")'
jq_check "the async probe: one span, async, on the kworker, from the trace across the cutover" \
	'[.[] | select(.type == "probe" and .device == "test_async_driver.0")] | length == 1 and
	 (.[0] | .async and .comm == "kworker/u2:0" and .start_ns == 3310000000 and
	  .end_ns == 8310000000 and .start_from == "boot_trace" and .end_from == "boot_trace")'
jq_check "its origin is modprobe[120] loading its driver's module, not the kworker" \
	'[.[] | select(.type == "probe" and .device == "test_async_driver.0")][0].origin |
	 .kind == "module_load" and .module == "test_async_driver_probe" and .pid == 120 and .comm == "modprobe"'
jq_check "the sync probe: one span in modprobe, not async, same origin" \
	'[.[] | select(.type == "probe" and .device == "test_sync_driver.0")] | length == 1 and
	 (.[0] | (.async | not) and .pid == 120 and .duration_ns == 5000000000 and
	  .origin.kind == "module_load" and .origin.pid == 120)'
jq_check "the module load across the cutover: one module_load from the trace, 10.6 s, ret 0" \
	'[.[] | select(.type == "module_load" and .name == "test_async_driver_probe")] | length == 1 and
	 (.[0] | (.pre_collector | not) and .start_from == "boot_trace" and .end_from == "boot_trace" and
	  .start_ns == 3000000000 and .duration_ns == 10600000000 and .ret == 0 and .syscall == "finit_module")'
jq_check "and its start as a pre-collector module_load_start, named" \
	'[.[] | select(.type == "module_load_start")] | length == 1 and
	 (.[0] | .pre_collector and .name == "test_async_driver_probe" and .start_ns == 3000000000)'
jq_check "the starts open at the cutover are written once each (2 probes, 1 initcall)" \
	'([.[] | select(.type == "probe_start")] | length) == 2 and
	 ([.[] | select(.type == "initcall_start")] | length) == 1'
jq_check "no async or module span leaks out as a record of its own" \
	'all(.[]; .type | IN("probe", "probe_start", "initcall", "initcall_start", "module_load",
		"module_load_start", "devnode"))'
# devnode NAME KIND TS DRIVER DEVICE: one record of it, as the collector's.
devnode() {
	jq_check "devnode $1: one $2 record at $3 ns, made by '$4' on '$5'" \
		"[.[] | select(.type == \"devnode\" and .name == \"$1\")] | length == 1 and
		 (.[0] | .kind == \"$2\" and .ts_ns == $3 and .ret == 0 and
		  .bound_driver == \"$4\" and .bound_device == \"$5\")"
}
devnode loop0 block 610000000 "" ""
devnode eth0 net 1260000000 foo foo.0
devnode nvme0n1 block 2100000000 nvme 0000:00:04.0
# 6.12 and 7.x show a string fetched through a NULL pointer as the next
# string's bytes: nvme1's driver pointer is NULL, its "driver" the next
# string (its parent's name); pmem0's parent is NULL.  The pointers decide.
devnode nvme1n1 block 2210000000 nvme 0000:00:09.0
devnode pmem0 block 2310000000 "" ""
devnode vda block 5000000000 virtio_blk virtio1
jq_check "the ones registered before the cutover are pre-collector, vda from trace_pipe" \
	'[.[] | select(.type == "devnode") | {(.name): (if .pre_collector then "pre"
		else .from end)}] | add == {"loop0": "pre", "eth0": "pre", "nvme0n1": "pre",
		"nvme1n1": "pre", "pmem0": "pre", "vda": "boot_trace"}'
stats_check "statistics: every followed span ended, none lost, 5 ends from trace_pipe" \
	'.after_cutover | .open == 5 and .still_open == 0 and .lost == 0 and .ends_from_trace == 5'
stats_check "statistics: 2 bootprobe kprobe misses read from kprobe_profile (not the other group's 7)" \
	'.kprobe_missed == 2 and .unparsed == 0 and .clock == "boot"'
stats_check "statistics: 2 boot-time events still on, from set_event (not the other group's)" \
	'.events_left_on == 2'
# Each end event is followed only while a span of its kind is open: the
# probes' kretprobe until the last probe ended (8.4 s), not until the module
# load (13.6 s); a kretprobe left on runs in every later probe, outside BPF's span.
stats_check "statistics: each end event followed until the last end of its own kind" \
	'.after_cutover.ends_followed_until == {"initcall_finish": 13500000000,
	 "probe_return": 8400000000, "finit_module_ret": 13600000000,
	 "init_module_ret": 13600000000, "disk_added": 5000000000}'

# A trace cut in the middle of the load: the syscall never returns.
head -n -1 "$fs/trace_pipe" >"$fs/trace_pipe.cut" && mv "$fs/trace_pipe.cut" "$fs/trace_pipe"
"$PROBETRACE" --read-boot-trace 4000000000 --tracefs "$fs" --json >"$out" 2>"$tmp/stats"
stats=$(tail -1 "$tmp/stats")
stats_check "a load whose return never comes is counted still open" \
	'.after_cutover.still_open == 1'
jq_check "and has no module_load record, only its start" \
	'[.[] | select(.type == "module_load" and .name == "test_async_driver_probe")] | length == 0'

# 80 disks registering at once (async probes on 80 kworkers), all before
# the cutover: every start is kept until its end (64 were, once).
{
	echo '# tracer: nop'
	for i in $(seq 1 80); do
		printf '    kworker/u2:%d-%d [000] .....     2.%06d: disk_add: (device_add_disk+0x0/0x3a0) name="sd%d" dev0="0:0:%d:0" drv0="sd" dev1=(fault) drv1=(fault)\n' \
			"$i" $((1000 + i)) "$i" "$i" "$i"
	done
	for i in $(seq 1 80); do
		printf '    kworker/u2:%d-%d [000] .....     3.%06d: disk_added: (sd_probe+0x3a1/0x4c0 <- device_add_disk) ret=0\n' \
			"$i" $((1000 + i)) "$i"
	done
} >"$fs/trace"
: >"$fs/trace_pipe"
"$PROBETRACE" --read-boot-trace 4000000000 --tracefs "$fs" --json >"$out" 2>"$tmp/stats"
stats=$(tail -1 "$tmp/stats")
jq_check "80 disks registering at once: 80 devnode records, each made by sd" \
	'[.[] | select(.type == "devnode" and .bound_driver == "sd")] | length == 80'
stats_check "and no start dropped or unmatched" '.starts_dropped == 0 and .unmatched == 0'

for bad in -1 0 12x ''; do
	"$PROBETRACE" --read-boot-trace "$bad" --tracefs "$fs" >/dev/null 2>"$tmp/err"
	st=$?
	check "--read-boot-trace '$bad' is refused with one line naming it (exit $st)" \
		sh -c "[ $st -ne 0 ] && grep -q -- \"--read-boot-trace $bad\" '$tmp/err'"
done
"$PROBETRACE" --read-boot-trace 4000000000 --tracefs "$tmp/none" >/dev/null 2>"$tmp/err"
st=$?
check "a missing tracefs copy is an error naming its trace file (exit $st)" \
	sh -c "[ $st -eq 1 ] && grep -q '$tmp/none/trace: No such file' '$tmp/err'"
