#!/usr/bin/env bash
# One damaged boot does not sink a run, nor move its numbers: boots whose
# boot.json is unreadable or whose stream holds records that must be refused
# (an INT64-sized time, a second header, a record after the trailer, a span
# that ends before it starts, a NUL byte) are named with why and left out;
# the clean boots are reported with the numbers they give alone.
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
check "report exits 0 with 6 damaged boots of 8" test "$rc" -eq 0
check "the headline counts the 2 clean boots only" grep -qE '^a +2/2 ' "$tmp/stdout"
check "the headline names the damaged boots" \
	grep -q '^left out, damaged: a-002, a-003, a-004, a-006, a-007, …' "$tmp/stdout"
for why in "a-002 | a | 1 record of its event stream refused, the first: .*field 'end_ns' is 9223372036854775000, outside" \
	"a-003 | ? | .*boot.json: not a JSON object" \
	"a-004 | a | .*events.jsonl:3: a second header" \
	"a-006 | a | .*a record after the trailer" \
	"a-007 | a | .*end_ns before start_ns" \
	"a-008 | a | .*NUL byte"; do
	check "report.md names ${why%% |*} and why" grep -q "^| $why" "$md"
done
check "summary.json lists 6 damaged boots and counts 2" \
	test "$(jq '[(.damaged_boots | length), .boots] | @csv' "$tmp/out/summary.json")" = '"6,2"'
check "the boot time is the clean boots' own (damage moved no number)" \
	test "$(jq '.modes.a.metrics.boot_s.median' "$tmp/out/summary.json")" = \
	"$(jq '.modes.a.metrics.boot_s.median' "$tmp/out-clean/summary.json")"
check "every chart was drawn" test "$(ls "$tmp/out/charts/"*.svg | wc -l)" -eq 4

# Nothing usable: one line that says why.
mkdir -p "$tmp/none" && cp -r "$tmp/mixed/boots" "$tmp/none/" && rm -r "$tmp/none/boots/a-001" "$tmp/none/boots/a-005"
"$BP" report --no-charts --no-traces --out "$tmp/out-none" "$tmp/none" >"$tmp/stdout-none" 2>&1
rc=$?
check "a run of damaged boots only: exit 2 (an input error) and one line naming the first (rc $rc)" \
	bash -c '[ "$1" -eq 2 ] && [ $(wc -l <"$2") -eq 1 ] && grep -q "no usable boot: 6 damaged, the first a-002: " "$2"' _ "$rc" "$tmp/stdout-none"
