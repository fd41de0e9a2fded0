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

# A mode whose boot time is defined one way in one run and the other way in
# the other is not judged: F's sync boots are systemd's (multi-user.target
# reached, no coldplug mark of the lab's /init), A's are the lab's.
for i in 1 2 3; do
	boot F "sync-00$i" sync ok "1$i.00"
	sed -i -e '/coldplug done at/d' "$tmp/F/boots/sync-00$i/console.log"
	echo "[   2$i.000000] bootprobe: system running; multi-user.target reached at 1$i.00 s" \
		>>"$tmp/F/boots/sync-00$i/console.log"
done
manifest F
"$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/F" >/dev/null 2>"$tmp/err"
rc=$?
check "a gate across runs whose boot time is defined differently fails with exit 3 (got $rc)" \
	test "$rc" -eq 3
want="mode 'sync': boot time is not defined the same way in $tmp/A (lab boots)"
check "and says the mode's boot time is defined differently (lab against systemd)" \
	grep -qF "$want and $tmp/F (systemd boots)" "$tmp/err"
"$BP" compare --fail-if-slower 5 "$tmp/F" "$tmp/F" >/dev/null 2>&1
check "a systemd run against itself passes the gate (exit 0)" test $? -eq 0

# Holm over the shared modes: D and E share two modes of 5 boots each; E's
# "moved" boots all come 3 s later (exact p 2 / C(10, 5) = 0.00794, Holm over
# 2 modes 0.0159), its "same" boots are D's (p 1).
for i in 1 2 3 4 5; do
	boot D "moved-00$i" moved ok "10.$i"
	boot E "moved-00$i" moved ok "13.$i"
	boot D "same-00$i" same ok "11.$i"
	boot E "same-00$i" same ok "11.$i"
done
manifest D
manifest E
out=$("$BP" compare --json "$tmp/D" "$tmp/E" 2>/dev/null)
row() { jq -r ".comparisons[] | select(.mode == \"$1\" and .metric == \"boot_s\") | $2" <<<"$out"; }
check "compare: the moved mode's p is exact, 2/252" \
	test "$(row moved '.p * 1e5 | round')" = 794
check "compare: its Holm p over the 2 shared modes is 0.0159, and significant" \
	test "$(row moved '[(.p_holm * 1e4 | round), .holm_family, .significant] | join(" ")')" = "159 2 true"
check "compare: the same mode has p 1, Holm p 1, not significant" \
	test "$(row same '[.p, .p_holm, .significant] | join(" ")')" = "1 1 false"
check "compare: each row carries its MDD and the level it was computed at (0.05 / 2)" \
	test "$(row moved '[(.mdd > 0), .mdd_alpha] | join(" ")')" = "true 0.025"
check "compare's table shows the raw and Holm p and the MDD, and says what they are" \
	sh -c "'$BP' compare '$tmp/D' '$tmp/E' | grep -q '^p: Mann-Whitney; Holm p: adjusted over the 2 modes'"

# One writer of a comparison: a row of compare --json holds every field a
# row of summary.json's comparisons does, by the same names (D's "moved"
# against its "same" there; E's "moved" against D's here).
"$BP" report --json --no-charts --no-traces --out "$tmp/D-report" "$tmp/D" >"$tmp/D.json" 2>/dev/null
want=$(jq -c '.comparisons[0] | del(.baseline, .mode, .metric) | keys' "$tmp/D.json")
have=$(row moved '[keys[]] | tojson')
check "compare --json writes a comparison as summary.json does ($want)" \
	test "$(jq -n --argjson w "$want" --argjson h "$have" '$w - $h')" = "[]"
