#!/usr/bin/env bash
# A bad record never sinks a boot.  Three copies of a recorded boot: one
# clean; one whose stream holds 4 devnode records without a kind, a
# signal_generate with signal 99 and a signal_deliver whose pid is a
# string (as a new kernel's collector may write them); one whose probe
# record is refused.  The report is written; the second boot counts in the
# boot-time statistics with its SIGKILLs, signal ends and disks marked
# incomplete and its 6 refusals named at FILE:LINE; the third is left out,
# its probe spans named unusable.  report, summary.json, compare and explain
# each say which of the two happened to which boot.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "a refused record costs what depends on its type"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/killed

# boot RUN NAME: a copy of the fixture as boot NAME of mode "a"; prints its events.jsonl.
boot() {
	local dir=$1/boots/$2
	mkdir -p "$dir"
	cp "$fixture"/* "$dir/"
	sed -i "s/\"boot\":\"[^\"]*\"/\"boot\":\"$2\"/; s/\"mode\":\"[^\"]*\"/\"mode\":\"a\"/" "$dir/boot.json"
	echo "$dir/events.jsonl"
}
boot "$tmp/clean" a-001 >/dev/null
boot "$tmp/clean" a-002 >/dev/null
run=$tmp/mixed
boot "$run" a-001 >/dev/null
# Lines 3-8: four devnodes of a kind bootprobe does not know, two bad signal records.
f=$(boot "$run" a-002)
for _ in 1 2 3 4; do
	sed -i '2a {"type":"devnode","ts_ns":5000000000,"kind":"disk","name":"vda","ret":0}' "$f"
done
sed -i '6a {"type":"signal_generate","ts_ns":6000000000,"pid":66,"comm":"x","sig":99,"target":{"pid":78,"comm":"y"}}' "$f"
sed -i '7a {"type":"signal_deliver","ts_ns":6100000000,"pid":"78","sig":9}' "$f"
# The slowprobe probe's pid a string: the probe spans cannot be trusted.
f=$(boot "$run" a-003)
probe_line=$(grep -n '"type":"probe".*"driver":"slowprobe"' "$f" | grep -v pre_collector | cut -d: -f1)
sed -i "${probe_line}s/\"pid\":78,/\"pid\":\"78\",/" "$f"

"$BP" report --no-charts --no-traces --out "$tmp/out-clean" "$tmp/clean" >/dev/null 2>&1
"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/stdout"
md=$tmp/out/report.md
sum=$tmp/out/summary.json
# A run's boots are named by the run's id, its folder's name, wherever it lies.
kept="mixed/boots/a-002: 6 records refused (first: mixed/boots/a-002/events.jsonl:3: devnode without kind, name or time (skipped)); incomplete: SIGKILLs, signal ends, disks and interfaces"
out="mixed/boots/a-003: probe spans unusable (mixed/boots/a-003/events.jsonl:$probe_line: field 'pid' is string, want int (record skipped))"

check "report exits 0 and writes report.md and summary.json (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ -s "$2" ] && [ -s "$3" ]' _ "$rc" "$md" "$sum"
check "the headline counts the boot with refused records: 2 of 2 ok" grep -qE '^a +2/2 ' "$tmp/stdout"
check "summary.json: 2 boots, 2 boot times, 1 left out" \
	test "$(jq -c '[.boots, .modes.a.metrics.boot_s.n, (.damaged_boots | length)]' "$sum")" = '[2,2,1]'
check "its boot time counts as a clean copy's would (the median of two clean boots)" \
	test "$(jq '.modes.a.metrics.boot_s.median' "$sum")" = \
	"$(jq '.modes.a.metrics.boot_s.median' "$tmp/out-clean/summary.json")"
check "its good SIGKILL still counts: 2 of 2 boots killed, marked a lower bound" \
	grep -qE '^a +2/2 .* 2/2\* ' "$tmp/stdout"
check "the headline says it was kept, incomplete, naming the first refusal at FILE:LINE" \
	grep -qxF "kept, incomplete: $kept" "$tmp/stdout"
check "the headline says the boot with a refused probe was left out, and why" \
	grep -qxF "left out: $out" "$tmp/stdout"
check "report.md: the kept boot's SIGKILLs, signal ends and disks are incomplete (6 refused)" \
	grep -qF '| a-002 | 0 | 0 | 0 | 0 | yes | 6 | SIGKILLs, signal ends, disks and interfaces |' "$md"
check "report.md: the refused column counts the collector's refusals too (d9f74d4), not the reader's alone" \
	grep -qF "or by the collector (boot-time trace records made for another kernel's arguments)" "$md"
check "report.md: both verdicts in \"Boots left out or incomplete\"" \
	bash -c 'grep -qF "| a-003 | a | left out | probe spans unusable (" "$1" &&
		grep -qF "| a-002 | a | kept, incomplete | 6 records refused (first: " "$1"' _ "$md"
for line in 3 4 5 6; do
	check "report.md names refused devnode $line at its line" \
		grep -qF "a-002/events.jsonl:$line: devnode without kind, name or time" "$md"
done
check "report.md names the refused signal records at their lines" \
	bash -c 'grep -qF "a-002/events.jsonl:7: field '"'sig'"' is 99, outside 1..64" "$1" &&
		grep -qF "a-002/events.jsonl:8: field '"'pid'"' is string" "$1"' _ "$md"
check "summary.json lists the kept boot: 6 refused, the first named, what is incomplete" \
	test "$(jq -c '.incomplete_boots[] | [.boot, .records_refused, (.first_refused | test("a-002/events.jsonl:3: devnode")), .incomplete]' "$sum")" = \
	'["a-002",6,true,["SIGKILLs","signal ends","disks and interfaces"]]'
check "summary.json's headline counts its SIGKILLs as incomplete and its 6 refusals" \
	test "$(jq -c '.headline[0] | [.boots_kills_incomplete, .boots_refused, .records_refused]' "$sum")" = '[1,1,6]'
check "summary.json says why the left-out boot was left out" \
	test "$(jq -r '.damaged_boots[0].why' "$sum")" = "${out#*: }"

# The issue's case: a run whose only boot has refused devnode records is reported.
mkdir -p "$tmp/only/boots" && cp -r "$run/boots/a-002" "$tmp/only/boots/"
"$BP" report --no-charts --no-traces --out "$tmp/out-only" "$tmp/only" >"$tmp/stdout-only" 2>&1
rc=$?
check "a run of that boot alone is reported, exit 0 (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ -s "$2" ]' _ "$rc" "$tmp/out-only/summary.json"
check "and its boot time is the clean boot's" \
	test "$(jq '.modes.a.metrics.boot_s.median' "$tmp/out-only/summary.json" 2>/dev/null)" = \
	"$(jq '.modes.a.metrics.boot_s.median' "$tmp/out-clean/summary.json")"

# The gate: compare names both; a boot left out is one the gate could not
# judge (exit 3, docs/security.md); without the gate the boots kept compare.
"$BP" compare --fail-if-slower 50 "$tmp/clean" "$run" >"$tmp/cmp" 2>"$tmp/cmp-err"
rc=$?
sed 's/^/#   /' "$tmp/cmp-err"
check "compare --fail-if-slower with a boot left out cannot pass: exit 3 (rc $rc)" test "$rc" -eq 3
"$BP" compare "$tmp/clean" "$run" >/dev/null 2>&1
rc=$?
check "compare without a gate compares the boots kept, exit 0 (rc $rc)" test "$rc" -eq 0
check "compare names the boot left out and the boot kept, incomplete" \
	bash -c 'grep -qxF "bootprobe compare: left out: $2" "$1" &&
		grep -qxF "bootprobe compare: kept, incomplete: $3" "$1"' _ "$tmp/cmp-err" "$out" "$kept"

"$BP" explain "$run" >"$tmp/expl" 2>"$tmp/expl-err"
rc=$?
check "explain RUN explains the kept boot, not the one left out (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && grep -q "^boot a-002 " "$2" && ! grep -q "^boot a-003 " "$2"' \
	_ "$rc" "$tmp/expl"
check "explain RUN names both on stderr" \
	bash -c 'grep -qxF "bootprobe explain: left out: $2" "$1" &&
		grep -qxF "bootprobe explain: kept, incomplete: $3" "$1"' _ "$tmp/expl-err" "$out" "$kept"
"$BP" explain "$run/boots/a-003" >/dev/null 2>"$tmp/expl-err"
rc=$?
# A boot folder read alone is named as the user named it.
check "explain of the boot left out alone: exit 2, and why (rc $rc)" \
	bash -c '[ "$1" -eq 2 ] && grep -qxF "bootprobe explain: left out: $3" "$2"' _ "$rc" "$tmp/expl-err" \
	"${out//mixed/$run}"
