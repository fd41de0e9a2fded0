#!/usr/bin/env bash
# A count the collector could not complete is never shown as a confident 0:
# a boot whose trailer says 90 000 events were dropped and signal_generate
# was not attached, beside a whole one.  The headline marks the SIGKILL and
# failed-probe counts as lower bounds, report.md names the boot and what
# it lost and does not claim that no SIGKILL hit, summary.json counts it.
# A boot whose boot-time trace lost spans has its probes marked, not its
# SIGKILLs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "losses are shown"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run

# boot NAME MODE TRAILER
boot() {
	local dir=$run/boots/$1
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"%s","outcome":"ok"}\n' "$1" "$2" >"$dir/boot.json"
	cp tests/data/console/ok.log "$dir/console.log"
	{
		echo '{"type":"header","schema":1}'
		echo '{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:03.0","start_ns":4000000000,"end_ns":5000000000,"ret":0}'
		echo "$3"
	} >"$dir/events.jsonl"
	list+=("{\"boot\":\"$1\",\"mode\":\"$2\",\"dir\":\"boots/$1\"}")
}
list=()
boot lossy-001 lossy '{"type":"trailer","events_written":2,"events_dropped":0,"bpf_drops":90000,"not_attached":[{"program":"signal_generate","target":"signal_generate","reason":"not in the kernel'"'"'s BTF"}]}'
# The boot-time trace kept no entry overwritten, but 3 kprobe hits went
# unrecorded, 1 start was dropped and 2 spans were not followed: 6 lost,
# the probe spans incomplete, the SIGKILLs not.
boot traced-001 traced '{"type":"trailer","events_written":2,"events_dropped":0,"bpf_drops":0,"boot_trace":{"lost_entries":0,"kprobe_missed":3,"starts_dropped":1,"after_cutover":{"lost":2}}}'
boot whole-001 whole '{"type":"trailer","events_written":2,"events_dropped":0,"bpf_drops":0}'
(IFS=,; echo "{\"boots\":[${list[*]}]}") >"$run/manifest.json"

"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
check "report exits 0" test $? -eq 0
check "the headline marks the lossy mode's SIGKILL count as a lower bound (0/1*)" \
	grep -qE '^lossy +1/1 .* 0/1\* +0 \(0/1\)\* ' "$tmp/stdout"
check "the whole mode's counts are not marked" grep -qE '^whole +1/1 .* 0/1 +0 \(0/1\) ' "$tmp/stdout"
check "the traced mode's failed-probe count is a lower bound, its SIGKILL count not" \
	grep -qE '^traced +1/1 .* 0/1 +0 \(0/1\)\* ' "$tmp/stdout"
check "a footnote says what the mark means" grep -q '^\* lower bounds: the collector lost' "$tmp/stdout"
md=$tmp/out/report.md
check "report.md lists the boot with its 90000 BPF drops, no record refused, every count incomplete" \
	grep -q '^| lossy-001 | 90000 | 0 | 0 | 0 | yes | 0 | every count |$' "$md"
check "report.md lists the boot whose boot-time trace lost 6 spans, its probes incomplete" \
	grep -q '^| traced-001 | 0 | 0 | 0 | 6 | yes | 0 | probes |$' "$md"
check "summary.json counts the boot-time trace's 6 among the traced mode's events lost" \
	test "$(jq '.headline[] | select(.mode == "traced") | .events_lost' "$tmp/out/summary.json")" = 6
check "report.md does not claim that no SIGKILL hit" \
	bash -c '! grep -q "^No SIGKILL hit a task" "$1" && grep -q "kills there are unknown" "$1"' _ "$md"
check "the lossy mode's section calls its counts lower bounds" \
	grep -q '^\*\*Incomplete counts\*\*: the collector lost 90000 events' "$md"
check "summary.json's headline counts the boot whose kills are unknown" \
	test "$(jq '.headline[] | select(.mode == "lossy") | .boots_kills_incomplete' "$tmp/out/summary.json")" = 1
