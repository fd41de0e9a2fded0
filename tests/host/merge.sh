#!/usr/bin/env bash
# bootprobe merge: parts of a sharded run, laid out as the runner writes them
# (names and plan hash from `run --shard K/N --dry-run`, boots from a recorded
# boot), join into one run equal to the unsharded plan that report reads with
# a Hosts table; parts that do not belong together are refused, naming the
# part and the field, with nothing written; missing boots are named; a part's
# links and odd files are never followed or copied.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "merge"
command -v jq >/dev/null || { skip "merge" "jq not installed (make deps)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/killed

# A scenario with drawn probe times: each boot's kernel arguments are its own.
cat >"$tmp/drawn.conf" <<'EOF'
[scenario]
name = drawn
devices = 2
boots = 3
seed = 5
probe_ms = uniform 100 900

[mode sync]

[mode async]
cmdline = driver_async_probe=*
EOF
plan() { "$BP" run --scenario "$tmp/drawn.conf" --dry-run "$@"; }
plan >"$tmp/whole.plan"
hash=$(sed -n 's/^plan \([0-9a-f]*\): .*/\1/p' "$tmp/whole.plan")
check "--dry-run names the plan's hash" test -n "$hash"

# part K N HOST [BOOTS...]: RESULTS/shared.shard-K-of-N as `run --shard K/N`
# writes it, from HOST, with the boots its dry run plans (or those given).
part() {
	local k=$1 n=$2 host=$3 dir=$tmp/shared.shard-$1-of-$2 names b entries=()
	shift 3
	plan --shard "$k/$n" >"$tmp/shard-$k-of-$n.plan"
	if [ $# -gt 0 ]; then names=("$@"); else
		mapfile -t names < <(sed -n 's/^\([a-z]*-[0-9]*\): .*/\1/p' "$tmp/shard-$k-of-$n.plan")
	fi
	mkdir -p "$dir/boots"
	for b in "${names[@]}"; do
		mkdir -p "$dir/boots/$b"
		cp "$fixture/console.log" "$fixture/events.jsonl" "$dir/boots/$b/"
		args=$(sed -n "s/^$b: 2 edu devices; //p" "$tmp/whole.plan")
		jq --arg b "$b" --arg m "${b%-*}" --arg h "$host" --arg a "$args" \
			'.boot=$b | .mode=$m | .host=$h | .kernel_cmdline=$a' \
			"$fixture/boot.json" >"$dir/boots/$b/boot.json"
		entries+=("$(jq -nc --arg b "$b" --arg m "${b%-*}" --arg h "$host" \
			'{boot:$b, mode:$m, dir:("boots/" + $b), outcome:"ok", wall_s:9.2, host:$h}')")
	done
	jq -n --argjson k "$k" --argjson n "$n" --arg h "$host" --arg hash "$hash" \
		--argjson boots "[$(IFS=,; echo "${entries[*]}")]" \
		'{schema:1, run_id:"shared", scenario:"drawn", time_scale:1, image:"lab",
		  host:{hostname:$h}, qemu_version:"QEMU emulator version 7.2.22",
		  accel:{requested:"tcg", used:"tcg"}, kernel_build_hash:"8d1f303c76b92667",
		  guest_args:"bootprobe.monitor=1", boots_per_mode:3, jobs:1, timeout_s:300,
		  modes:[{name:"sync"}, {name:"async", kernel_args:"driver_async_probe=*"}],
		  boots_planned:($boots | length), plan_hash:$hash, plan_boots:6,
		  shard:{k:$k, n:$n}, boots:$boots, started_at:("2026-12-05T0" + ($k|tostring) + ":00:00Z"),
		  ended_at:("2026-12-05T0" + ($k|tostring) + ":30:00Z"), interrupted:false}' \
		>"$dir/manifest.json"
}
P() { echo "$tmp/shared.shard-$1-of-$2"; }

part 1 3 alpha
part 2 3 beta
part 3 3 alpha
"$BP" merge --quiet --out "$tmp/merged" "$(P 3 3)" "$(P 1 3)" "$(P 2 3)" 2>"$tmp/err"
rc=$?
check "three parts of three merge with exit 0 (got $rc)" test "$rc" -eq 0
check "and say nothing with --quiet" test ! -s "$tmp/err"
sed -n 's/^\([a-z]*-[0-9]*\): .*/\1/p' "$tmp/whole.plan" >"$tmp/want"
jq -r '.boots[].boot' "$tmp/merged/manifest.json" >"$tmp/got"
check "the merged run's boots are the unsharded plan's, in its order" cmp -s "$tmp/want" "$tmp/got"
for b in $(cat "$tmp/want"); do
	want=$(sed -n "s/^$b: 2 edu devices; //p" "$tmp/whole.plan")
	got=$(jq -r .kernel_cmdline "$tmp/merged/boots/$b/boot.json")
	[ "$want" = "$got" ] || break
done
check "every merged boot has the unsharded plan's kernel arguments (last: $b)" test "$want" = "$got"
check "the merged manifest keeps the run id, the plan hash and the whole plan's size" \
	test "$(jq -r '[.run_id, .plan_hash, .boots_planned, (.shard == null)] | join(" ")' \
		"$tmp/merged/manifest.json")" = "shared $hash 6 true"
check "each boot keeps its host" test "$(jq -r '[.boots[].host] | join(",")' \
	"$tmp/merged/manifest.json")" = "alpha,alpha,beta,beta,alpha,alpha"
check "the parts are listed with their hosts, shards and times" \
	test "$(jq -r '[.parts[] | "\(.k)/\(.n)@\(.hostname)"] | join(" ")' \
		"$tmp/merged/manifest.json")" = "3/3@alpha 1/3@alpha 2/3@beta"
check "the merged run spans its parts' times" test "$(jq -r '.started_at + " " + .ended_at' \
	"$tmp/merged/manifest.json")" = "2026-12-05T01:00:00Z 2026-12-05T03:30:00Z"
check "boot folders are copied whole" cmp -s "$fixture/events.jsonl" \
	"$tmp/merged/boots/async-003/events.jsonl"
"$BP" report "$tmp/merged" >/dev/null 2>"$tmp/err"
check "report reads the merged run" test $? -eq 0
md=$tmp/merged/report/report.md
check "report.md has a Hosts table" grep -q '^## Hosts' "$md"
check "which splits the boots by host and mode" \
	bash -c 'grep -q "^| alpha | sync | 2 |" "$1" && grep -q "^| beta | async | 1 |" "$1"' _ "$md"
"$BP" explain "$tmp/merged/boots/sync-001" >/dev/null 2>&1
check "explain reads a merged boot" test $? -eq 0

# refused PART-MUTATION WANT: a part changed by a jq filter is refused, exit 2, nothing written.
refused() {
	local what=$1 filter=$2 want=$3
	cp -r "$(P 2 3)" "$tmp/bad"
	jq "$filter" "$(P 2 3)/manifest.json" >"$tmp/bad/manifest.json"
	"$BP" merge --out "$tmp/out" "$(P 1 3)" "$tmp/bad" "$(P 3 3)" 2>"$tmp/err"
	rc=$?
	check "a part with $what is refused (exit 2, got $rc)" test "$rc" -eq 2
	check "  named with the field: $want" grep -qF "$tmp/bad: $want" "$tmp/err"
	check "  and nothing is written" test ! -e "$tmp/out"
	rm -rf "$tmp/bad"
}
refused "another kernel build" '.kernel_build_hash="0000"' \
	"kernel_build_hash is '0000', $(P 1 3) has '8d1f303c76b92667'"
refused "another QEMU" '.qemu_version="QEMU emulator version 8.0"' "qemu_version is"
refused "another accelerator" '.accel.used="kvm"' "accel is 'kvm'"
refused "another scenario" '.scenario="other"' "scenario is 'other'"
refused "another plan (draws, boots, time scale)" '.plan_hash="0123456789abcdef"' \
	"plan_hash is '0123456789abcdef'"
refused "another run id" '.run_id="other"' "run_id is 'other'"
refused "another shard count" '.shard.n=4' "shard 2/4 of 6 boots"
refused "another mode list" '.modes[1].name="async-module"' "mode 2 is 'async-module'"
refused "the same shard as another" '.shard.k=1' "shard 1/3 again"
refused "a boot of another shard" '.boots[0].boot="sync-001" | .boots[0].dir="boots/sync-001"' \
	"boot sync-001 is not shard 2/3's"
refused "a boot the plan does not have" '.boots[0].boot="sync-009" | .boots[0].dir="boots/sync-009"' \
	"manifest.json: boot 1 ('sync-009' in 'boots/sync-009') is no boot of the plan"
refused "a boot listed twice" '.boots[1]=.boots[0]' "boot sync-002 is also in $tmp/bad"
refused "a boot whose folder is a path" '.boots[0].dir="boots/../../etc"' \
	"manifest.json: boot 1 ('sync-002' in 'boots/../../etc') is no boot of the plan"
refused "no shard (not a part)" 'del(.shard)' "not a part of a sharded run"
refused "a boot under another mode" '.boots[0].mode="async"' \
	"manifest.json: boot sync-002 has mode 'async', the plan's is 'sync'"

# A shard not given, and a boot a part did not finish: merged, named, exit 1.
"$BP" merge --out "$tmp/partial" "$(P 1 3)" "$(P 3 3)" 2>"$tmp/err"
rc=$?
check "two parts of three merge with exit 1 (got $rc)" test "$rc" -eq 1
check "naming the shard not given and its boots" \
	grep -q "shard 2/3 not given; its boots are missing: sync-002 async-002" "$tmp/err"
check "the merged run has the other four boots" \
	test "$(jq '.boots | length' "$tmp/partial/manifest.json")" -eq 4
rm -rf "$(P 2 3)"
part 2 3 beta sync-002
mkdir "$(P 2 3)/boots/async-002"
"$BP" merge --out "$tmp/unfinished" "$(P 1 3)" "$(P 2 3)" "$(P 3 3)" 2>"$tmp/err"
rc=$?
check "a part with an unfinished boot merges with exit 1 (got $rc)" test "$rc" -eq 1
check "naming the boot not finished" grep -q "boot async-002 not finished in $(P 2 3); missing" "$tmp/err"
check "and its folder, not in the manifest" grep -q "$(P 2 3)/boots/async-002: not in its manifest" "$tmp/err"
rm -rf "$(P 2 3)"
part 2 3 beta

# A part is untrusted: links and odd files are named, never followed or copied.
echo secret >"$tmp/secret"
ln -s "$tmp/secret" "$(P 1 3)/boots/sync-001/qemu.log"
mkfifo "$(P 1 3)/boots/async-001/fifo.txt"
mkdir "$(P 1 3)/boots/async-001/sub"
mv "$(P 3 3)/boots/sync-003" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$(P 3 3)/boots/sync-003"
jq '.mode="sync"' "$(P 3 3)/boots/async-003/boot.json" >"$tmp/b.json"
mv "$tmp/b.json" "$(P 3 3)/boots/async-003/boot.json"
timeout 20 "$BP" merge --out "$tmp/hostile" "$(P 1 3)" "$(P 2 3)" "$(P 3 3)" 2>"$tmp/err"
rc=$?
check "a part with links and a FIFO merges with exit 1, no wait on the FIFO (got $rc)" \
	test "$rc" -eq 1
check "a link in a boot folder is not followed" test ! -e "$tmp/hostile/boots/sync-001/qemu.log"
check "  and is named" grep -q "sync-001/qemu.log: a symbolic link (not followed); not copied" "$tmp/err"
check "a FIFO is not copied, named" grep -q "async-001/fifo.txt: not a regular file; not copied" "$tmp/err"
check "a folder inside a boot is not copied, named" grep -q "async-001/sub: not a regular file" "$tmp/err"
check "the rest of those boots is copied" test -s "$tmp/hostile/boots/async-001/boot.json"
check "a boot folder that is a link is not followed, the boot named" \
	grep -q "boots/sync-003: a symbolic link (not followed); boot sync-003 not merged" "$tmp/err"
check "  and is not in the merged manifest" \
	test "$(jq '[.boots[].boot] | index("sync-003")' "$tmp/hostile/manifest.json")" = null

# A part whose boots/ is a link: no boot is read through it (docs/security.md).
rm -rf "$(P 2 3)"
part 2 3 beta
mv "$(P 2 3)/boots" "$tmp/boots-elsewhere"
ln -s "$tmp/boots-elsewhere" "$(P 2 3)/boots"
timeout 20 "$BP" merge --out "$tmp/linked-boots" "$(P 1 3)" "$(P 2 3)" "$(P 3 3)" 2>"$tmp/err"
rc=$?
check "a part whose boots/ is a link merges none of its boots, exit 1 (got $rc)" \
	bash -c '[ "$1" -eq 1 ] && [ ! -e "$2/boots/sync-002" ]' _ "$rc" "$tmp/linked-boots"
check "  and names the link" \
	grep -q "shard-2-of-3/boots/sync-002: a symbolic link (not followed); boot sync-002 not merged" "$tmp/err"
check "a boot whose boot.json says another mode is not merged, named" grep -q \
	"async-003: boot.json: its boot.json names another boot or mode; boot async-003 not merged" \
	"$tmp/err"
check "  and leaves no folder in the merged run" test ! -e "$tmp/hostile/boots/async-003"
check "the merged manifest lists the four boots merged" \
	test "$(jq -c '[.boots[].boot]' "$tmp/hostile/manifest.json")" = \
	'["sync-001","async-001","sync-002","async-002"]'

# A part whose manifest.json is a link: refused, named, nothing read through it.
rm -rf "$(P 2 3)"
part 2 3 beta
mv "$(P 2 3)/manifest.json" "$tmp/manifest-elsewhere.json"
ln -s "$tmp/manifest-elsewhere.json" "$(P 2 3)/manifest.json"
timeout 20 "$BP" merge --out "$tmp/linked-manifest" "$(P 1 3)" "$(P 2 3)" "$(P 3 3)" 2>"$tmp/err"
rc=$?
check "a part whose manifest.json is a link is refused, exit 2 (got $rc)" \
	bash -c '[ "$1" -eq 2 ] && [ ! -e "$2" ]' _ "$rc" "$tmp/linked-manifest"
check "  and names the link" \
	grep -q "shard-2-of-3/manifest.json: a symbolic link (not followed)" "$tmp/err"
rm -rf "$(P 2 3)"
part 2 3 beta

"$BP" merge --out "$tmp/merged" "$(P 1 3)" 2>"$tmp/err"
check "an existing run is never written into (exit 2)" test $? -eq 2
check "  and says so" grep -q "$tmp/merged: already exists" "$tmp/err"
"$BP" merge "$(P 1 3)" 2>"$tmp/err"
check "merge without --out is a usage error (exit 2)" test $? -eq 2
check "merge --help shows an example" sh -c "'$BP' merge --help | grep -q 'bootprobe merge --out'"
