#!/usr/bin/env bash
# A sharded run through GNU parallel, the README's one-liner with the local
# machine as its one ssh login (--sshlogin :, one job at a time): three
# shards of tests/fleet/fleet.conf's four boots (1, 1 and 2), fetched back
# with --return, merged; the merged run must be the unsharded plan's boots,
# names and drawn kernel arguments, and report must read it.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fleet/fleet-lib.sh

require_guest "GNU parallel sharded run"
fleet_require "GNU parallel sharded run" parallel jq
fleet_lock "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$BP_RESULTS
id=$(bp_run_id parallel)

# The README's one-liner, with ':' (this machine) for the list of hosts.
parallel --will-cite -j1 --sshlogin : --workdir . --joblog "$tmp/jobs" \
	--return "$results/$id.shard-{}-of-3" \
	"$BP" run --quiet --accel tcg --results "$results" --scenario "$FLEET_CONF" \
	--run-id "$id" --shard {}/3 ::: 1 2 3
rc=$?
check "parallel runs the three shards, every job exit 0 (got $rc)" test "$rc" -eq 0
check "its job log has three jobs, all exit 0" \
	test "$(awk 'NR > 1 && $7 == 0' "$tmp/jobs" | wc -l)" -eq 3
for k in 1 2 3; do
	check "shard $k/3's part is a folder of its own" \
		test -s "$results/$id.shard-$k-of-3/manifest.json"
done
check "the uneven split: 1, 1 and 2 boots" test "$(for k in 1 2 3; do
	jq '.boots | length' "$results/$id.shard-$k-of-3/manifest.json"; done | paste -sd,)" = 1,1,2

"$BP" merge --out "$results/$id" "$results/$id".shard-{1,2,3}-of-3 2>"$tmp/err"
rc=$?
check "bootprobe merge joins the three parts with exit 0 (got $rc)" test "$rc" -eq 0
fleet_same_as_plan "parallel's merged run" "$results/$id"
"$BP" report "$results/$id" >/dev/null 2>"$tmp/err"
check "bootprobe report reads the merged run" test $? -eq 0
check "report.md lists the host" grep -q "^| $(hostname) | async | 2 |" "$results/$id/report/report.md"
