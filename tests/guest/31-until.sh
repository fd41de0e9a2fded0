#!/usr/bin/env bash
# run --until-ci on real boots of the minimal guest (no slow device, ~4 s a
# boot under TCG; 14 boots in all): a generous width stops after the first
# check, round 3; a width no run reaches is stopped by the budget, round 4.
# Each run says which condition ended it, on stderr and in the manifest, and
# its boots are the first rounds of a fixed run (same names, in order).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "run --until-ci on real boots"

# until ID ARGS...: a run with its progress kept in BP_RESULTS/ID.stderr.
until_run() {
	local id=$1
	shift
	"$BP" run --accel tcg --results "$BP_RESULTS" --run-id "$id" --timeout 60 \
		--mode sync --mode async "$@" 2>"$BP_RESULTS/$id.stderr"
}
boots_of() { grep -o '"boot":"[^"]*"' "$BP_RESULTS/$1/manifest.json" | cut -d'"' -f4 | tr '\n' ' '; }

id=$(bp_run_id until-wide)
until_run "$id" --until-ci 5 --max-boots 6
rc=$?
sed 's/^/#   /' "$BP_RESULTS/$id.stderr" | grep -v 'bootprobe: boot '
check "until-ci 5: the run exits 0" test "$rc" -eq 0
check "until-ci 5: the rule is checked after round 3, with a width for async" \
	grep -qE '^bootprobe: round 3: 95 % CI width of the boot-time difference from sync \(target < 5 s\): async [0-9.]+ s$' \
	"$BP_RESULTS/$id.stderr"
check "until-ci 5: it says the CIs ended it, after 3 rounds" \
	grep -q '^bootprobe: --until-ci: every mode.s 95 % CI of its boot-time difference from sync is narrower than 5 s after 3 rounds' \
	"$BP_RESULTS/$id.stderr"
check "until-ci 5: the manifest keeps why it ended" \
	grep -q '"ended":"every mode.s 95 % CI .* narrower than 5 s after 3 rounds' "$BP_RESULTS/$id/manifest.json"
check "until-ci 5: its boots are a fixed run's first 3 rounds, interleaved" \
	test "$(boots_of "$id")" = "sync-001 async-001 sync-002 async-002 sync-003 async-003 "
check "until-ci 5: no boot of round 4 was started" test ! -e "$BP_RESULTS/$id/boots/sync-004"

id=$(bp_run_id until-budget)
until_run "$id" --until-ci 0.001 --max-boots 4
rc=$?
sed 's/^/#   /' "$BP_RESULTS/$id.stderr" | grep -v 'bootprobe: boot '
check "until-ci 0.001: the run exits 0" test "$rc" -eq 0
check "until-ci 0.001: a width per round, rounds 3 and 4" \
	sh -c "grep -c '^bootprobe: round [34]: ' '$BP_RESULTS/$id.stderr' | grep -qx 2"
check "until-ci 0.001: it says the budget of 4 boots per mode ended it" \
	grep -q '^bootprobe: --until-ci: the budget of 4 boots per mode is spent' "$BP_RESULTS/$id.stderr"
check "until-ci 0.001: 8 boots, the 4 rounds of a fixed run" \
	test "$(boots_of "$id")" = "sync-001 async-001 sync-002 async-002 sync-003 async-003 sync-004 async-004 "
