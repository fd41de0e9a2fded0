#!/usr/bin/env bash
# Faults: a guest that never finishes is killed at its timeout and the next
# boot still runs; a panic is recognised; Ctrl-C keeps finished boots and
# leaves no QEMU behind.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "runner fault handling"

# A hang, then a normal boot: the hang is killed at 20 s, the next one runs.
id=$(bp_run_id timeout)
start=$SECONDS
bp_run "$id" --mode 'hang:bootprobe.hang=1' --mode sync --timeout 20
rc=$?
check "a run with a non-ok boot exits 1" test "$rc" -eq 1
check "the hanging guest is recorded as timeout" test "$(boot_outcome "$BP_RESULTS/$id/boots/hang-001")" = timeout
check "the hanging guest reached its hang before it was killed" \
	grep -q 'hanging on request' "$BP_RESULTS/$id/boots/hang-001/console.log"
check "the boot after the hang still runs and is ok" test "$(boot_outcome "$BP_RESULTS/$id/boots/sync-001")" = ok
check "no QEMU of that run survives" no_qemu_left "$BP_RESULTS/$id/"

# A real kernel panic (no init) ends QEMU through panic=-1 and is named.
id=$(bp_run_id panic)
bp_run "$id" --mode 'nopanic:rdinit=/nonexistent init=/nonexistent' --timeout 60
check "a guest kernel panic is recorded as panic" \
	test "$(boot_outcome "$BP_RESULTS/$id/boots/nopanic-001")" = panic

# Ctrl-C during the second boot: the first stays intact, nothing survives.
id=$(bp_run_id interrupt)
"$BP" run --accel tcg --quiet --results "$BP_RESULTS" --run-id "$id" \
	--mode sync --mode 'hang:bootprobe.hang=1' --timeout 120 &
runner=$!
if wait_for 120 grep -qs 'hanging on request' "$BP_RESULTS/$id/boots/hang-001/console.log"; then
	kill -INT "$runner"
	wait "$runner"
	rc=$?
	check "the interrupted runner exits 130" test "$rc" -eq 130
	check "the boot finished before Ctrl-C is kept as ok" \
		test "$(boot_outcome "$BP_RESULTS/$id/boots/sync-001")" = ok
	check "the boot running at Ctrl-C is recorded as interrupted" \
		test "$(boot_outcome "$BP_RESULTS/$id/boots/hang-001")" = interrupted
	check "the manifest says the run was interrupted" \
		grep -q '"interrupted":true' "$BP_RESULTS/$id/manifest.json"
	check "no QEMU survives an interrupted run" no_qemu_left "$BP_RESULTS/$id/"
else
	kill -KILL "$runner" 2>/dev/null
	fail "the hanging boot started within 120 s" "no 'hanging on request' in its console"
fi
