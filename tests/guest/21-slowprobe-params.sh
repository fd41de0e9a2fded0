#!/usr/bin/env bash
# slowprobe refuses impossible timings at load, naming the parameter.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "slowprobe parameter checks"

id=$(bp_run_id params)
bp_run "$id" --devices 1 --timeout 60 \
	--mode 'negative:slowprobe.probe_ms=-5' \
	--mode 'beyond:slowprobe.probe_ms=100 slowprobe.kthread_at_ms=200' \
	--mode 'threads:slowprobe.nthreads=9'
boots=$BP_RESULTS/$id/boots
check "a negative probe time is rejected at load" \
	grep -q 'slowprobe: probe_ms\[0\]=-5: must be >= 0' "$boots/negative-001/console.log"
check "a kthread time beyond the probe time is rejected at load" \
	grep -q 'slowprobe: kthread_at_ms\[0\]=200 is beyond probe_ms\[0\]=100' "$boots/beyond-001/console.log"
check "too many threads are rejected at load" \
	grep -q 'slowprobe: nthreads=9: must be 0..8' "$boots/threads-001/console.log"
check "a rejected load leaves the device unbound" \
	grep -q 'bootprobe: device .* driver=none' "$boots/negative-001/console.log"
