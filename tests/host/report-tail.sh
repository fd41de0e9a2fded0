#!/usr/bin/env bash
# The tail: what a systemd boot costs after multi-user.target (systemd-
# analyze, the collector's end, the reset, QEMU's exit), as a boot phase.
# It is QEMU's wall time less the firmware (QEMU start to kernel start)
# and multi-user.target's time, all three of which summary.json also
# gives; a recorded Debian 13 boot must give the same within 0.1 s (the
# tail counts from kernel start on printk's clock, which starts 43 ms
# from CLOCK_BOOTTIME's 0 in that boot).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "the tail after multi-user.target"
src=results/20261207-054712-kernels/boots/debian-13-001
[ -r "$src/events.jsonl" ] || { skip "the tail after multi-user.target" "$src missing"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/run/boots/t-001"
cp "$src"/* "$tmp/run/boots/t-001/"
"$BP" report "$tmp/run" >"$tmp/out" 2>&1
check "report exits 0" test $? -eq 0
s=$tmp/run/report/summary.json
read -r tail fw mu <<<"$(jq -r '.modes[] |
	"\(.phases.bootprobe.tail_s.median) \(.stages.firmware_s.median) \(.phases.bootprobe.to_target_s.median)"' "$s")"
wall=$(jq -r .wall_s "$src/boot.json")
echo "# tail $tail s; wall $wall s, firmware $fw s, multi-user.target $mu s"
check "summary.json: the tail is a phase of the boot ($tail s)" \
	awk -v t="$tail" 'BEGIN { exit !(t + 0 > 0) }'
check "the tail is QEMU's wall time less the firmware and multi-user.target, within 0.1 s" \
	awk -v t="$tail" -v w="$wall" -v f="$fw" -v m="$mu" \
		'BEGIN { d = t - (w - f - m); exit !(d < 0.1 && d > -0.1) }'
check "report.md names the tail among the boot's phases" \
	grep -q "^| multi-user.target → QEMU's exit (the tail) | [0-9]" "$tmp/run/report/report.md"
