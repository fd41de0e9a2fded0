#!/usr/bin/env bash
# One damaged boot does not sink a run, nor move its numbers: boots whose
# boot.json is unreadable or whose header or probe spans had a record
# refused (an INT64-sized time, a second header, a probe after the trailer,
# a span that ends before it starts) are named with why and left out; a
# boot whose only refused line holds a NUL byte (its type unknown) is kept,
# every count incomplete (tests/host/report-refused.sh has the other
# types).  The clean boots' numbers are what they give alone.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "damaged boots are left out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/killed

# boot RUN NAME: a clean copy of the fixture in mode "a"; prints its folder.
boot() {
	local dir=$1/boots/$2
	mkdir -p "$dir"
	cp "$fixture"/* "$dir/"
	sed -i "s/\"boot\":\"[^\"]*\"/\"boot\":\"$2\"/; s/\"mode\":\"[^\"]*\"/\"mode\":\"a\"/" "$dir/boot.json"
	echo "$dir"
}
for run in "$tmp/clean" "$tmp/mixed"; do
	boot "$run" a-001 >/dev/null
	boot "$run" a-005 >/dev/null
done
ev() { echo "$(boot "$tmp/mixed" "$1")/events.jsonl"; }
probe_end=$(sed -n 's/.*"type":"probe".*"driver":"slowprobe".*"end_ns":\([0-9]*\).*/\1/p' "$fixture/events.jsonl")
sed -i "s/\"end_ns\":$probe_end/\"end_ns\":9223372036854775000/" "$(ev a-002)"
echo '{"boot":' >"$(dirname "$(ev a-003)")/boot.json"
f=$(ev a-004) && sed -i '3i {"type":"header","schema":1}' "$f"
f=$(ev a-006) && echo '{"type":"probe","driver":"late","device":"x","start_ns":1,"end_ns":2}' >>"$f"
f=$(ev a-007) && sed -i "s/\"end_ns\":$probe_end/\"end_ns\":1/" "$f"
f=$(ev a-008) && printf '{"type":"probe",\0"x":1}\n' >>"$f"

"$BP" report --no-traces --out "$tmp/out-clean" "$tmp/clean" >/dev/null 2>&1
"$BP" report --no-traces --out "$tmp/out" "$tmp/mixed" >"$tmp/stdout" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/stdout"
md=$tmp/out/report.md
check "report exits 0 with 5 boots left out of 8" test "$rc" -eq 0
check "the headline counts the 2 clean boots and the one kept" grep -qE '^a +3/3 ' "$tmp/stdout"
# A run's boots are named by the run's id, its folder's name, wherever it lies.
m=mixed/boots
for why in "a-002: probe spans unusable ($m/a-002/events.jsonl:[0-9]*: field 'end_ns' is 9223372036854775000, outside" \
	"a-003: $m/a-003/boot.json: not a JSON object" \
	"a-004: header unusable ($m/a-004/events.jsonl:3: a second header" \
	"a-006: probe spans unusable ($m/a-006/events.jsonl:[0-9]*: a record after the trailer" \
	"a-007: probe spans unusable ($m/a-007/events.jsonl:[0-9]*: end_ns before start_ns"; do
	check "the headline names ${why%%:*} as left out, and why" grep -q "^left out: $m/$why" "$tmp/stdout"
done
check "the headline names a-008 as kept, every count incomplete" \
	grep -qF "kept, incomplete: $m/a-008: 1 record refused (first: $m/a-008/events.jsonl:66: NUL byte (line skipped)); incomplete: every count" "$tmp/stdout"
for why in "a-002 | a | left out | probe spans unusable (.*field 'end_ns' is 9223372036854775000, outside" \
	"a-003 | ? | left out | .*boot.json: not a JSON object" \
	"a-004 | a | left out | header unusable (.*events.jsonl:3: a second header" \
	"a-006 | a | left out | probe spans unusable (.*a record after the trailer" \
	"a-007 | a | left out | probe spans unusable (.*end_ns before start_ns" \
	"a-008 | a | kept, incomplete | 1 record refused (first: .*NUL byte"; do
	check "report.md names ${why%% |*} and why" grep -q "^| $why" "$md"
done
check "summary.json lists 5 boots left out, 1 kept incomplete, and counts 3" \
	test "$(jq '[(.damaged_boots | length), (.incomplete_boots | length), .boots] | @csv' "$tmp/out/summary.json")" = '"5,1,3"'
check "the boot time is the clean boots' own (damage moved no number)" \
	test "$(jq '.modes.a.metrics.boot_s.median' "$tmp/out/summary.json")" = \
	"$(jq '.modes.a.metrics.boot_s.median' "$tmp/out-clean/summary.json")"
check "every chart was drawn" test "$(ls "$tmp/out/charts/"*.svg | wc -l)" -eq 4

# Nothing usable: one line that says why.
mkdir -p "$tmp/none" && cp -r "$tmp/mixed/boots" "$tmp/none/" && rm -r "$tmp/none/boots/a-001" "$tmp/none/boots/a-005" "$tmp/none/boots/a-008"
"$BP" report --no-charts --no-traces --out "$tmp/out-none" "$tmp/none" >"$tmp/stdout-none" 2>&1
rc=$?
check "a run of boots left out only: exit 2 (an input error) and one line naming the first (rc $rc)" \
	bash -c '[ "$1" -eq 2 ] && [ $(wc -l <"$2") -eq 1 ] && grep -q "no usable boot: 5 left out, the first a-002: probe spans unusable (" "$2"' _ "$rc" "$tmp/stdout-none"
