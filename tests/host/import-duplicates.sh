#!/usr/bin/env bash
# bootprobe import takes one boot once: the same log given three times is
# one boot (three would narrow every CI as if the machine had booted three
# times), a log whose file name is the boot id of one imported before is the
# same boot whatever its folder, and so is a renamed copy.  Each one left out
# is named on stderr, one line each, and counted in the import's summary.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "import"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/sigterm
id=0b7c4c2e-8a1d-4f3e-9c55-2d6a1e3f4b70

# log FILE MACHINE: the fixture's stream with the finish service's attachments.
log() {
	local att
	att=$(jq -nc --arg m "$2" '{type:"attachment",name:"uname-r.txt",text:"6.1.0-57-amd64\n"},
		 {type:"attachment",name:"dmi-product-name.txt",text:($m + "\n")}')
	{ grep -v '"type":"trailer"' "$fixture/events.jsonl"; echo "$att"
	  grep '"type":"trailer"' "$fixture/events.jsonl"; } >"$1"
}
log "$tmp/a.jsonl" "Machine A"
mkdir -p "$tmp/host1" "$tmp/host2"
log "$tmp/host1/$id.jsonl" "Machine B"
# The same boot id copied again later: its stream has grown (another attachment).
log "$tmp/host2/$id.jsonl" "Machine B, copied later"
cp "$tmp/a.jsonl" "$tmp/a-renamed.jsonl"

"$BP" import -q -o "$tmp/res" --run-id thrice "$tmp/a.jsonl" "$tmp/a.jsonl" "$tmp/a.jsonl" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/#   /' "$tmp/out" "$tmp/err"
check "the same log three times: one boot in the manifest and in boots/ (got $(jq '.boots | length' "$tmp/res/thrice/manifest.json" 2>/dev/null))" \
	bash -c '[ "$(jq ".boots | length" "$1/manifest.json")" = 1 ] &&
		[ "$(ls "$1/boots" | wc -l)" = 1 ]' _ "$tmp/res/thrice"
check "each left out is named once on stderr, with the boot it repeats" \
	test "$(grep -cF "$tmp/a.jsonl: left out: the same boot as $tmp/a.jsonl (the same content), imported as boots/6.1.0-57-amd64-001" "$tmp/err")" = 2
check "the summary counts them, and import exits 1 (rc $rc)" \
	bash -c '[ "$1" -eq 1 ] && grep -qF "(1 boot imported, 0 refused, 2 left out as duplicates)" "$2"' \
	_ "$rc" "$tmp/out"

"$BP" import -q -o "$tmp/res" --run-id ids "$tmp/host1/$id.jsonl" "$tmp/host2/$id.jsonl" \
	"$tmp/a.jsonl" "$tmp/a-renamed.jsonl" >"$tmp/out" 2>"$tmp/err"
sed 's/^/#   /' "$tmp/out" "$tmp/err"
check "a boot id seen before is the same boot, whatever its folder and content" \
	grep -qF "$tmp/host2/$id.jsonl: left out: the same boot as $tmp/host1/$id.jsonl (boot id $id)" "$tmp/err"
check "a renamed copy is the same boot (the same content)" \
	grep -qF "$tmp/a-renamed.jsonl: left out: the same boot as $tmp/a.jsonl (the same content)" "$tmp/err"
check "two boots imported of four logs" \
	test "$(jq '.boots | length' "$tmp/res/ids/manifest.json" 2>/dev/null)" = 2
