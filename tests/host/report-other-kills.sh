#!/usr/bin/env bash
# A SIGKILL to a task that was neither loading a module nor probing is not
# a killed probe.  systemd 257's journald kills its (sd-mkuserns) helper on
# every Debian 13 boot (a recorded 6.12 boot of results/*-kernels); the
# headline, the kill rate and summary.json must not count it as a kill,
# and must say it apart.  The lab fixture's SIGKILL hits a module load and
# still counts.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "SIGKILLs to other tasks said apart"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
debian=results/20261207-054712-kernels/boots/debian-13-001
[ -r "$debian/events.jsonl" ] || { skip "SIGKILLs to other tasks said apart" "$debian missing"; exit 0; }

# copy SRC RUN NAME MODE: a recorded boot as boot NAME of mode MODE.
copy() {
	mkdir -p "$2/boots/$3"
	cp "$1"/* "$2/boots/$3/"
	sed -i "s/\"boot\": *\"[^\"]*\"/\"boot\":\"$3\"/; s/\"mode\": *\"[^\"]*\"/\"mode\":\"$4\"/" \
		"$2/boots/$3/boot.json"
}
# Two modes, one boot each: the headline's answer compares them.
copy "$debian" "$tmp/deb" j-001 j
copy "${debian%-001}-002" "$tmp/deb" i-001 i
copy tests/data/boots/killed "$tmp/lab" k-001 k
copy tests/data/boots/killed "$tmp/lab" l-001 l

"$BP" report "$tmp/deb" >"$tmp/deb.out" 2>&1
"$BP" report "$tmp/lab" >"$tmp/lab.out" 2>&1
md=$tmp/deb/report/report.md
check "the journald kill is in the stream (1 SIGKILL to (sd-mkuserns))" \
	test "$(jq -s '[.[] | select(.type == "signal_generate" and .sig == 9 and .target.comm == "(sd-mkuserns)")] | length' \
		"$debian/events.jsonl")" = 1
check "report.md: no SIGKILL hit a task loading a module or probing" \
	grep -q '^\*\*Killed\*\*: no SIGKILL hit a task loading a module or probing' "$md"
check "report.md: the other SIGKILL is said apart, with its target and sender" \
	sh -c "grep -qF 'Other SIGKILLs, neither from udevd nor to a task loading a module or probing: ' '$md' &&
		grep -qF 'j in 1 of 1 boots (the first: (sd-mkuserns), sent by (journald))' '$md'"
check "summary.json: kill rate 0, no boot with a kill, one with another SIGKILL" \
	test "$(jq -c '.headline[] | select(.mode == "j") | [.boots_with_kills, .boots_with_other_kills]' \
		"$tmp/deb/report/summary.json") $(jq -c '.modes.j.kill_rate' "$tmp/deb/report/summary.json")" = '[0,1] 0'
check "the headline's SIGKILL column: 0/1" grep -Eq '^j +1/1 .* 0/1 ' "$tmp/deb.out"
check "the lab's killed module load still counts (kill rate 1/1)" \
	test "$(jq -c '.headline[] | select(.mode == "k") | [.boots_with_kills, .boots_with_other_kills]' \
		"$tmp/lab/report/summary.json")" = '[1,0]'
check "lab report.md: k, a SIGKILL in 1 of 1 boots" \
	grep -q '^\*\*Killed\*\*: k, a SIGKILL in 1 of 1 boots' "$tmp/lab/report/report.md"
