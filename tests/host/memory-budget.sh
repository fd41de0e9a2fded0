#!/usr/bin/env bash
# What a boot and a run may hold is a budget: a boot past
# BOOTPROBE_MAX_BOOT_MEM is left out, named on one line, and the rest of the
# run is read (a gate then cannot judge: 3); a single boot past it is an
# input error (2); a run past BOOTPROBE_MAX_RUN_MEM stops with exit 2 naming
# the boot; a value that is no size is a bad argument (2).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "memory budget"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run

# boot NAME PROBES: a finished boot of that many probe spans (about 200 bytes each).
boot() {
	mkdir -p "$run/boots/$1"
	printf '{"schema":1,"boot":"%s","mode":"sync","index":1,"outcome":"ok"}\n' "$1" \
		>"$run/boots/$1/boot.json"
	awk -v n="$2" 'BEGIN { print "{\"type\":\"header\",\"schema\":1}"
		for (i = 0; i < n; i++)
			printf "{\"type\":\"probe\",\"ts_ns\":%d,\"pid\":%d,\"driver\":\"drv%d\",\"device\":\"dev%d\",\"start_ns\":%d,\"end_ns\":%d,\"ret\":0}\n", 2000000 + i, 100 + i, i % 7, i, 1000000 + i, 2000000 + i
		print "{\"type\":\"trailer\",\"events_written\":1}" }' >"$run/boots/$1/events.jsonl"
}
boot sync-001 11
boot sync-002 13
boot sync-003 17011	# about 3 MB of records

BOOTPROBE_MAX_BOOT_MEM=1M "$BP" explain "$run" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/#   /' "$tmp/err"
# A run's boots are named by the run's id ("run"), wherever it lies.
check "a boot past 1 MiB is left out, named on one line (rc $rc)" \
	grep -qF "bootprobe explain: left out: run/boots/sync-003: run/boots/sync-003: over a boot's memory budget of 1.0 MiB while reading it (BOOTPROBE_MAX_BOOT_MEM)" "$tmp/err"
check "the other two boots are explained" test "$(grep -c '^boot sync-00[12] ' "$tmp/out")" -eq 2
BOOTPROBE_MAX_BOOT_MEM=1M "$BP" compare --fail-if-slower 5 "$run" "$run" >/dev/null 2>&1
check "compare's gate cannot judge a run with a boot left out: 3" test $? -eq 3
BOOTPROBE_MAX_BOOT_MEM=1M "$BP" timeline "$run/boots/sync-003" >/dev/null 2>"$tmp/err"
rc=$?
check "timeline of that boot alone: exit 2 (rc $rc), named" \
	bash -c '[ "$1" -eq 2 ] && grep -qF "over a boot'"'"'s memory budget" "$2"' _ "$rc" "$tmp/err"
"$BP" explain "$run" >/dev/null 2>"$tmp/err"
check "under the default budget every boot is read" test $? -eq 0 -a ! -s "$tmp/err"

# The run's budget: the small boots fit, the large one does not.
mv "$run/boots/sync-003" "$run/boots/sync-000"
BOOTPROBE_MAX_RUN_MEM=2M "$BP" report --no-charts --no-traces --out "$tmp/rep" "$run" \
	>/dev/null 2>"$tmp/err"
rc=$?
sed 's/^/#   /' "$tmp/err"
check "a run past 2 MiB stops with exit 2 (rc $rc), naming the boot" \
	bash -c '[ "$1" -eq 2 ] && grep -qF "$3: over the run'"'"'s memory budget of 2.0 MiB at run/boots/sync-000" "$2"' \
	_ "$rc" "$tmp/err" "$run"

BOOTPROBE_MAX_RUN_MEM=lots "$BP" explain "$run" >/dev/null 2>"$tmp/err"
rc=$?
check "a budget that is no size is a bad argument (rc $rc), named" \
	bash -c '[ "$1" -eq 2 ] && grep -qF "BOOTPROBE_MAX_RUN_MEM=lots: not a size" "$2"' _ "$rc" "$tmp/err"
