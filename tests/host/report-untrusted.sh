#!/usr/bin/env bash
# A results folder from another machine is untrusted input, read by
# `bootprobe report` without hanging, crashing or overflowing:
#   - a FIFO planted as manifest.json is named, not waited on (the old
#     reader, json_object_from_file(), blocked on it: killed by the timeout
#     here, exit 124), and the boots under boots/ are read instead;
#   - a manifest with a NUL byte is named as such;
#   - times and counts the size of an int64 are refused at their line (the
#     old code subtracted them: under make SANITIZE=1, UBSan stopped it).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "untrusted results folders"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# boot RUN NAME EVENTS: one boot of mode m with the recorded console.
boot() {
	local dir=$1/boots/$2
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"m","outcome":"ok"}\n' "$2" >"$dir/boot.json"
	cp tests/data/console/ok.log "$dir/console.log"
	printf '%s\n' '{"type":"header","schema":1}' "$3" \
		'{"type":"trailer","events_written":1,"events_dropped":0,"bpf_drops":0}' \
		>"$dir/events.jsonl"
}

# report RUN [OPTION...]: `report --json`, at most 10 s; its exit status.
report() {
	local run=$1
	shift
	timeout 10 "$BP" report --json --no-charts --out "$tmp/out" "$@" "$run" \
		>"$tmp/stdout" 2>"$tmp/stderr"
}

probe='{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:03.0","start_ns":4000000000,"end_ns":5000000000,"ret":0}'
boot "$tmp/fifo" m-001 "$probe"
mkfifo "$tmp/fifo/manifest.json"
report "$tmp/fifo" --no-traces
rc=$?
check "a FIFO as manifest.json: report ends by itself, exit 0 (got $rc)" test "$rc" -eq 0
check "the FIFO is named as no regular file" \
	grep -q 'fifo/manifest.json: not a regular file"' "$tmp/stdout"
check "the boot under boots/ is read instead" \
	grep -q '"boots":1,' "$tmp/stdout"

boot "$tmp/nul" m-001 "$probe"
printf '{"boots":[{"dir":"boots/m-001"}]}\0\n' >"$tmp/nul/manifest.json"
report "$tmp/nul" --no-traces
check "a manifest with a NUL byte is named as such, its boots read from boots/" \
	sh -c "grep -q 'manifest.json: a NUL byte; reading every folder under boots/' '$tmp/stdout' &&
		grep -q '\"boots\":1,' '$tmp/stdout'"

boot "$tmp/huge" m-001 '{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:03.0","start_ns":-9223372036854775807,"end_ns":9223372036854775807,"ret":0}'
boot "$tmp/huge" m-002 '{"type":"kthread_end","ts_ns":-9223372036854775807,"pid":44,"wait_ns":9223372036854775807,"ret":-4}'
boot "$tmp/huge" m-003 "$probe"
# No /init start: every probe with a start counts as one in user space.
sed -i '/bootprobe: init start/d' "$tmp/huge/boots/m-001/console.log"
printf '{"boots":[{"dir":"boots/m-001"},{"dir":"boots/m-002"},{"dir":"boots/m-003"}]}\n' >"$tmp/huge/manifest.json"
report "$tmp/huge"
rc=$?
check "times of 2^63 ns beside a clean boot: report and its traces exit 0 (got $rc)" test "$rc" -eq 0
check "each is refused at its line, by field" \
	sh -c "grep -q \"m-001/events.jsonl:2: field 'start_ns' is -9223372036854775807, outside\" '$tmp/stdout' &&
		grep -q \"m-002/events.jsonl:2: field 'ts_ns' is -9223372036854775807, outside\" '$tmp/stdout'"
"$BP" timeline "$tmp/huge/boots/m-002" >"$tmp/stdout" 2>&1
check "timeline of the boot with the kthread_create() wait of 2^63 ns exits 0" test $? -eq 0

# JSON as json-c reads it takes NaN and Infinity: a time scale or a wall
# time that is no number is not printed as one ("nan", "inf").
boot "$tmp/nonum" m-001 "$probe"
sed -i 's/"outcome":"ok"/"outcome":"ok","wall_s":Infinity/' "$tmp/nonum/boots/m-001/boot.json"
printf '{"time_scale":NaN,"boots":[{"dir":"boots/m-001"}]}\n' >"$tmp/nonum/manifest.json"
timeout 10 "$BP" report --no-charts --no-traces --out "$tmp/out-nonum" "$tmp/nonum" >/dev/null 2>&1
check "a NaN time scale and an infinite wall time: no nan or inf in report.md" \
	bash -c '! grep -qiwE "nan|inf|infinity" "$1"' _ "$tmp/out-nonum/report.md"
check "the time scale that is no factor is named" \
	grep -q 'manifest.json: time_scale is no factor bootprobe uses (ignored)' "$tmp/out-nonum/report.md"
"$BP" explain "$tmp/nonum/boots/m-001" >"$tmp/stdout" 2>&1
check "explain says the wall time is unknown" grep -q 'QEMU wall unknown)' "$tmp/stdout"
