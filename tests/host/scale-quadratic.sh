#!/usr/bin/env bash
# Work that grew as the square of the input is gone: three inputs, each
# sized so that the quadratic code took minutes (measured on the code before
# the indexes: see docs/scale.md) while the indexed code takes about a
# second, run under a generous timeout (SCALE_TIMEOUT, default 30 s: a
# busy machine does not fail it, the old code never passes it).  No time is
# asserted below that; the work itself is counted by tests/unit/test_scale.c.
#   - a manifest listing 150001 boots (the duplicate check scanned the list
#     per entry: ~10^10 string compares);
#   - two modes' boots of 40009 probes, each by a driver of its own (report
#     found each driver and device by a scan of the mode's, then of the other
#     mode's: ~10^9 string compares several times over);
#   - 100003 SIGKILLs to one task, then 100003 exits of it before them (each
#     exit scanned every kept signal: ~10^10).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "scale"
# Under ASan every allocation costs many times more: a timeout says nothing
# there (the work is counted by tests/unit/test_scale.c, which runs there too).
case "$BP" in
*sanitize*) skip "scale-quadratic" "$BP is a sanitizer build: its times are no measure"; exit 0 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
limit=${SCALE_TIMEOUT:-30}

# boot DIR NAME [MODE]: a finished boot's boot.json.
boot() {
	mkdir -p "$1"
	printf '{"schema":1,"boot":"%s","mode":"%s","index":1,"outcome":"ok"}\n' "$2" "${3:-sync}" \
		>"$1/boot.json"
}

# A run whose manifest lists 150001 boots, of which one exists.
run=$tmp/listed
boot "$run/boots/sync-000001" sync-000001
awk 'BEGIN { printf "{\"schema\":1,\"run_id\":\"listed\",\"scenario\":\"s\",\"modes\":[{\"name\":\"sync\"}],\"boots\":["
	for (i = 1; i <= 150001; i++)
		printf "%s{\"boot\":\"sync-%06d\",\"mode\":\"sync\",\"dir\":\"boots/sync-%06d\",\"outcome\":\"ok\"}", (i > 1 ? "," : ""), i, i
	print "]}" }' >"$run/manifest.json"
timeout "$limit" "$BP" explain "$run" >/dev/null 2>"$tmp/err1"
rc=$?
check "a manifest of 150001 boots: explain within ${limit} s (rc $rc; 124 is the timeout)" \
	test "$rc" -eq 0
check "its 150000 missing boots are each named left out" \
	test "$(grep -c 'left out: .*/boots/sync-' "$tmp/err1")" -eq 150000

# Two boots of 40009 probes, each by a driver of its own, in two modes
# (the drivers and devices of one are looked up in the other's).
run=$tmp/drivers
for b in sync-001 async-001; do
	boot "$run/boots/$b" "$b" "${b%-*}"
	awk 'BEGIN { print "{\"type\":\"header\",\"schema\":1}"
		for (i = 0; i < 40009; i++)
			printf "{\"type\":\"probe\",\"ts_ns\":%d,\"pid\":%d,\"driver\":\"drv%d\",\"device\":\"dev%d\",\"start_ns\":%d,\"end_ns\":%d,\"ret\":0}\n", 2000000 + i, 100 + i % 1000, i, i, 1000000 + i, 2000000 + i
		print "{\"type\":\"trailer\",\"events_written\":40011}" }' >"$run/boots/$b/events.jsonl"
done
timeout "$limit" "$BP" report --no-charts --no-traces --out "$tmp/rep" "$run" >/dev/null 2>"$tmp/err2"
rc=$?
check "two boots of 40009 drivers: report within ${limit} s (rc $rc)" test "$rc" -eq 0
n=$(grep -c '^sync,driver_probe_s:drv' "$tmp/rep/summary.csv" 2>/dev/null)
check "summary.csv has a row per driver: 40009 (got $n)" test "${n:-0}" -eq 40009

# 100003 SIGKILLs to one task, then 100003 exits of it before any of them.
b=$tmp/signals/boots/sync-001
boot "$b" sync-001
awk 'BEGIN { print "{\"type\":\"header\",\"schema\":1}"
	for (i = 0; i < 100003; i++)
		printf "{\"type\":\"signal_generate\",\"ts_ns\":%d,\"sig\":9,\"pid\":3,\"comm\":\"init\",\"target\":{\"pid\":7,\"comm\":\"w\"}}\n", 1000000000 + i
	for (i = 0; i < 100003; i++)
		printf "{\"type\":\"exit\",\"ts_ns\":%d,\"pid\":7,\"exit_code\":0}\n", i
	print "{\"type\":\"exit\",\"ts_ns\":2000000000,\"pid\":7,\"exit_code\":9}"
	print "{\"type\":\"trailer\",\"events_written\":200008}" }' >"$b/events.jsonl"
timeout "$limit" "$BP" explain --json "$b" >"$tmp/explain.json" 2>"$tmp/err3"
rc=$?
check "100003 SIGKILLs and 100004 exits of one task: explain within ${limit} s (rc $rc)" \
	test "$rc" -eq 0
timeout "$limit" "$BP" report --no-charts --no-traces --out "$tmp/rep3" "$tmp/signals" \
	>/dev/null 2>&1
check "and report counts them: 100003 SIGKILLs in the boot" \
	grep -q '^sync,kills,1,100003,' "$tmp/rep3/summary.csv"
