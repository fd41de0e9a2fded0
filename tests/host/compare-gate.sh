#!/usr/bin/env bash
# `bootprobe compare` as a gate judges every mode or fails: a mode with no
# ok boot on one side, or in one run only, is not a pass (exit 3, a line
# naming the mode), and --json never prints NaN or Infinity.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "compare as a gate"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# boot RUN NAME MODE OUTCOME COLDPLUG_DONE
boot() {
	local dir=$tmp/$1/boots/$2
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"%s","outcome":"%s"}\n' "$2" "$3" "$4" >"$dir/boot.json"
	sed -e "s/coldplug done at 13.44 s/coldplug done at $5 s/" tests/data/console/ok.log \
		>"$dir/console.log"
	: >"$dir/events.jsonl"
	echo "{\"boot\":\"$2\",\"mode\":\"$3\",\"dir\":\"boots/$2\"}" >>"$tmp/$1/list"
}
manifest() { (IFS=,; echo "{\"boots\":[$(paste -sd, "$tmp/$1/list")]}") >"$tmp/$1/manifest.json"; }

for i in 1 2 3; do
	boot A "sync-00$i" sync ok "1$i.00"
	boot B "sync-00$i" sync timeout "1$i.00"
	boot C "sync-00$i" sync ok "1$i.00"
	boot C "extra-00$i" extra ok "1$i.00"
done
manifest A
manifest B
manifest C

err=$("$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/B" 2>&1 >/dev/null)
rc=$?
check "a gate against a run whose every boot timed out fails with exit 3 (got $rc)" test "$rc" -eq 3
check "and names the mode it could not judge" \
	grep -q "mode 'sync' has no ok boot with a boot time in $tmp/B" <<<"$err"
"$BP" compare "$tmp/A" "$tmp/B" >/dev/null 2>&1
check "without a gate, a mode with no ok boot on one side is still exit 3" test $? -eq 3
out=$("$BP" compare --json "$tmp/A" "$tmp/B" 2>/dev/null)
check "compare --json prints no NaN or Infinity" bash -c '! grep -qiE "nan|infinity" <<<"$1"' _ "$out"
check "compare --json is valid JSON with null medians for B" \
	test "$(jq -r '.comparisons[0].median_b' <<<"$out")" = null

"$BP" compare --fail-if-slower 5 "$tmp/C" "$tmp/A" >/dev/null 2>"$tmp/err"
rc=$?
check "a gate where a mode is in one run only fails with exit 3 (got $rc)" test "$rc" -eq 3
check "and names that mode" grep -q "mode 'extra' is in A only" "$tmp/err"
"$BP" compare "$tmp/C" "$tmp/A" >/dev/null 2>&1
check "without a gate, comparing the shared modes only is a pass (exit 0)" test $? -eq 0
"$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/A" >/dev/null 2>&1
check "a run against itself passes the gate (exit 0)" test $? -eq 0
