#!/usr/bin/env bash
# The story, replayed with the real systemd-udevd doing the killing.
#
# Time-scaled: udev's event timeout is 3 s (udevd kills the module-loading
# worker then) and slowprobe's single probe is slower than that.  Each mode
# is one boot; the assertions read the console (kernel log, slowprobe's
# lines, udevd's own log lines and /init's report of the device).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "kthread_create SIGKILL policies"

common="udev.event_timeout=3 bootprobe.expect=1"
id=$(bp_run_id killpolicy)
bp_run "$id" --devices 1 --timeout 120 --append "$common" \
	--mode 'killable:slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000 bootprobe.monitor=1' \
	--mode 'unkillable:slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000 kthread.sigkill_policy=unkillable' \
	--mode 'grace-inside:slowprobe.probe_ms=4000 slowprobe.kthread_at_ms=4000 kthread.sigkill_policy=grace=2000' \
	--mode 'grace-after:slowprobe.probe_ms=6000 slowprobe.kthread_at_ms=6000 kthread.sigkill_policy=grace=2000' \
	--mode 'async-module:slowprobe.probe_ms=5000 slowprobe.async_probe=1' \
	--mode 'async-driver:slowprobe.probe_ms=5000 driver_async_probe=slowprobe' \
	--mode 'runtime-knob:slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000 bootprobe.set=/sys/module/kthread/parameters/sigkill_policy:bogus bootprobe.set=/sys/module/kthread/parameters/sigkill_policy:unkillable' \
	--mode 'timeout-sigterm:slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000 udev.timeout_signal=SIGTERM' \
	--mode 'timeout-sigabrt:slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000 udev.timeout_signal=SIGABRT'
boots=$BP_RESULTS/$id/boots

con() { cat "$boots/$1-001/console.log" 2>/dev/null; }
has() { con "$1" | grep -q -- "$2"; }
# Absent from a console that is there and complete (an empty one proves nothing).
hasnt() { has "$1" 'bootprobe: BOOT-COMPLETE' && ! has "$1" "$2"; }
bound() { has "$1" 'bootprobe: device 0000:00:.* driver=slowprobe'; }
unbound() { has "$1" 'bootprobe: device 0000:00:.* driver=none'; }
worker_killed() { has "$1" 'Worker \[[0-9]*\] processing SEQNUM=[0-9]* killed'; }
warned() { has "$1" 'kthread_create() interrupted by SIGKILL: caller slowprobe_probe+'; }
# Kernel timestamp of the first console line matching $2.
stamp() { con "$1" | grep -m1 -- "$2" | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }

for m in killable unkillable grace-inside grace-after async-module async-driver runtime-knob \
	timeout-sigterm timeout-sigabrt; do
	check "$m: the boot completes" test "$(boot_outcome "$boots/$m-001")" = ok
done

check "killable + sync: udevd kills the module-loading worker" worker_killed killable
check "killable + sync: kthread_create fails with -EINTR and the probe fails" \
	has killable 'probe failed: -EINTR in kthread_create'
check "killable + sync: the device is left unbound" unbound killable
seq=$(con killable | sed -n 's/.*Worker \[[0-9]*\] processing SEQNUM=\([0-9]*\) killed.*/\1/p' | head -1)
check "killable + sync: udevd re-broadcasts the killed event (SEQNUM=$seq) with UDEV_WORKER_FAILED=1 and UDEV_WORKER_SIGNAL=9" \
	has killable "udev-monitor SEQNUM=$seq .*UDEV_WORKER_FAILED=1.*UDEV_WORKER_SIGNAL=9.*UDEV_WORKER_SIGNAL_NAME=KILL"
check "killable + sync: the kernel warns, naming slowprobe's probe function and module" \
	has killable 'caller slowprobe_probe+.* (module slowprobe) in (udev-worker)\[[0-9]*\], waited on by systemd-udevd\['

check "unkillable + sync: udevd still kills the worker" worker_killed unkillable
check "unkillable + sync: the probe completes" has unkillable 'probe done in'
check "unkillable + sync: the device is bound" bound unkillable
check "unkillable + sync: no kill warning" hasnt unkillable 'interrupted by SIGKILL'

check "grace=2000, threads created 1 s after the kill: udevd kills the worker" worker_killed grace-inside
check "grace=2000, threads created 1 s after the kill: the probe survives and binds" bound grace-inside
check "grace=2000, threads created 1 s after the kill: no kill warning" hasnt grace-inside 'interrupted by SIGKILL'
check "grace=2000, threads created 3 s after the kill: the probe fails with -EINTR" \
	has grace-after 'probe failed: -EINTR in kthread_create'
check "grace=2000, threads created 3 s after the kill: the device is unbound" unbound grace-after
check "grace=2000, threads created 3 s after the kill: the kernel warns" warned grace-after

check "async_probe=1: no worker is killed" hasnt async-module 'killed'
check "async_probe=1: the probe runs on a kernel worker" \
	has async-module 'probe start: .* in kworker/'
check "async_probe=1: the device is bound" bound async-module
done_at=$(stamp async-module 'probe done in')
coldplug_at=$(stamp async-module 'bootprobe: coldplug done')
check "async_probe=1: coldplug (modprobe) returned before the probe ended ($coldplug_at s < $done_at s)" \
	awk -v a="$coldplug_at" -v b="$done_at" 'BEGIN { exit !(a != "" && b != "" && a + 0 < b + 0) }'

check "driver_async_probe: the probe runs on a kernel worker" \
	has async-driver 'probe start: .* in kworker/'
check "driver_async_probe: the probe survives and the device is bound" bound async-driver
check "driver_async_probe: udevd still kills the worker, blocked in do_init_module's async_synchronize_full" \
	worker_killed async-driver
check "no kill warning in any async mode" \
	bash -c "hasnt() { grep -q 'bootprobe: BOOT-COMPLETE' \"\$1\" && ! grep -q 'interrupted by SIGKILL' \"\$1\"; }
		hasnt '$boots/async-module-001/console.log' && hasnt '$boots/async-driver-001/console.log'"

knob=/sys/module/kthread/parameters/sigkill_policy
check "the run-time knob refuses an unknown policy" has runtime-knob "set $knob: 'bogus' refused"
check "the run-time knob reads back the policy written to it" has runtime-knob "set $knob = unkillable"
check "unkillable set at run time: the probe survives the kill and binds" bound runtime-knob
check "killable is the default policy (no boot parameter given)" has killable "kthread sigkill_policy: killable"
check "the boot parameter sets the policy" has grace-after "kthread sigkill_policy: grace=2000"

# udev.timeout_signal: udevd's event timeout sends another signal, and
# explain follows it: SIGTERM the worker never takes (the probe binds),
# SIGABRT kills it only after the probe (no fatal_signal_pending()).
check "timeout_signal=SIGTERM: udevd logs the worker killed, the device is bound anyway" \
	bash -c "$(declare -f con has worker_killed bound); boots='$boots'; worker_killed timeout-sigterm && bound timeout-sigterm"
check "timeout_signal=SIGTERM: explain names udevd's SIGTERM to the probing worker, not fatal" \
	bash -c 'e=$("$@"); grep -q "^signal 1: systemd-udevd \[[0-9]*\] sent SIGTERM at .* after the udev event timeout (3 s); the worker was in finit_module(slowprobe) .*SIGTERM was not fatal" <<<"$e" && ! grep -q "^kill " <<<"$e"' _ "$BP" explain "$boots/timeout-sigterm-001"
check "timeout_signal=SIGABRT: explain says it was fatal after the probe, and killed the worker" \
	bash -c 'e=$("$@"); grep -q "^signal 1: systemd-udevd \[[0-9]*\] sent SIGABRT .*SIGABRT was fatal only on the way back to user space.*the probe completed at .*, killed by it\.$" <<<"$e"' _ "$BP" explain "$boots/timeout-sigabrt-001"
