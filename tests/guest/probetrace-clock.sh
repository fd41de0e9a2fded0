#!/usr/bin/env bash
# One clock: the collector's records (bpf_ktime_get_boot_ns()), user
# space's CLOCK_BOOTTIME and CLOCK_MONOTONIC, the boot-time trace
# (trace_clock=boot) and the console's printk timestamps (local_clock()).
#
# /bin/clockcheck (bootprobe.clockcheck=N) takes N samples 50 ms apart: two
# CLOCK_BOOTTIME readings bracket a SIGUSR2 to itself (one signal_generate
# record), a /dev/kmsg line and a trace_marker line; it reads the printk
# and trace times back.  The same clock means: the record's ts_ns inside
# its bracket to the ns; CLOCK_MONOTONIC inside it (no suspend in a boot);
# the trace time inside it to its printed resolution (1 us, truncated);
# and printk, a different clock source (sched_clock), inside it once the
# offset the collector measured at its start is taken off (docs/events.md).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "one clock for records, printk and the boot-time trace"

N=20
id=$(bp_run_id pt-clock)
pt_boot "$id" --timeout 120 --mode "clock:bootprobe.collector=wait bootprobe.clockcheck=$N"
boot=$BP_RESULTS/$id/boots/clock-001
ev=$boot/events.jsonl
check "the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "the event stream is whole" "$ev"
pt_check_no_drops "no event dropped" "$ev"

# "bootprobe: clock i=3 pid=81 boot_before_ns=... trace_us=..." as JSON.
samples=$BP_RESULTS/$id/clock-samples.json
sed -n 's/.*bootprobe: clock \(i=[0-9]* pid=[0-9]* .*\)$/\1/p' "$boot/console.log" |
	tr -d '\r' | jq -R -s '[split("\n")[] | select(length > 0) |
		[split(" ")[] | split("=") | {(.[0]): (.[1] | tonumber)}] | add]' >"$samples"
check "clockcheck printed $N samples" test "$(jq length "$samples")" = "$N"
pid=$(jq '.[0].pid // 0' "$samples")

# The collector's SIGUSR2 records of clockcheck, in time order: sample i's is the i-th.
jq -s --slurpfile s "$samples" --argjson pid "$pid" '
	[.[] | select(.type == "signal_generate" and .pid == $pid and .sig == 12)] |
	sort_by(.ts_ns) | [., $s[0]] | transpose' "$ev" >"$BP_RESULTS/$id/clock-pairs.json"
pairs=$BP_RESULTS/$id/clock-pairs.json
q() { jq -r "$1" "$pairs"; }
check "one collector record per sample (SIGUSR2 from pid $pid)" \
	test "$(q '[.[] | select(.[0] != null and .[1] != null)] | length')" = "$N"
check "each record's ts_ns is inside its CLOCK_BOOTTIME bracket, to the ns" \
	test "$(q 'all(.[]; .[1].boot_before_ns <= .[0].ts_ns and .[0].ts_ns <= .[1].boot_after_ns)')" = true
check "CLOCK_MONOTONIC reads inside the same bracket (no suspend: one clock)" \
	test "$(q 'all(.[]; .[1].boot_before_ns <= .[1].mono_ns and .[1].mono_ns <= .[1].boot_after_ns)')" = true
check "each trace_marker time is inside the bracket to 1 us (trace_clock=boot)" \
	test "$(q 'all(.[]; .[1].trace_us >= 0 and .[1].trace_us * 1000 >= .[1].boot_before_ns - 1000 and
		.[1].trace_us * 1000 <= .[1].boot_after_ns)')" = true
# printk is stamped by another clock source (sched_clock): the collector
# measures its offset at start (the header's printk_offset_ns, +/- its
# printk_offset_error_ns), and the host takes it off every console time.
hdr=$(jq -c 'select(.type == "header")' "$ev" | head -n 1)
off=$(jq '.printk_offset_ns // "none"' <<<"$hdr")
err=$(jq '.printk_offset_error_ns // "none"' <<<"$hdr")
echo "# header: printk_offset_ns $off +/- $err ($(jq -r '.printk_offset_error // "measured"' <<<"$hdr"))"
check "the collector measured printk's offset (header printk_offset_ns)" \
	test "$(jq 'has("printk_offset_ns") and has("printk_offset_error_ns") and
		.printk_offset_error_ns >= 0' <<<"$hdr")" = true
[ "$off" = none ] && off=0 err=0
q "[.[] | .[1] | (.printk_us * 1000 - $off - (.boot_before_ns + .boot_after_ns) / 2) / 1000] as \$d |
	[.[] | .[1] | (.printk_us * 1000 - (.boot_before_ns + .boot_after_ns) / 2) / 1000] as \$r |
	[.[] | .[1] | (.boot_after_ns - .boot_before_ns) / 1000] as \$w |
	\"# printk - bracket middle (us): raw median \(\$r | sort | .[length / 2 | floor]); less the offset: min \(\$d | min), median \(\$d | sort | .[length / 2 | floor]), max \(\$d | max); bracket width (us): median \(\$w | sort | .[length / 2 | floor]), max \(\$w | max)\""
# Stamp inside [before, after], printed truncated to the us, offset known to
# +/- err: printk - offset is in [before - err - 1 us, after + err].
check "each printk time less the offset is inside its bracket (+/- the offset's error + 1 us)" \
	test "$(jq -r --argjson o "$off" --argjson e "$err" 'all(.[]; .[1].printk_us >= 0 and
		.[1].printk_us * 1000 - $o >= .[1].boot_before_ns - $e - 1000 and
		.[1].printk_us * 1000 - $o <= .[1].boot_after_ns + $e)' "$pairs")" = true

# Where the boot's time goes (timeline, report): stage after stage from
# QEMU's start, which is placed on the host's clock from console.log's last
# write less that line's printk stamp.  Checked against the host's own
# measure of the same boot: QEMU's lifetime (wall_s) holds QEMU start ->
# BOOT-COMPLETE, and what is left is only the shutdown (0.12 s measured here;
# up to 2 s allowed for a loaded host: a QEMU start misplaced by more fails).
tl=$BP_RESULTS/$id/timeline.json
"$BP" timeline --json "$boot" >"$tl" 2>/dev/null
st() { jq -r ".stages.$1 // \"null\"" "$tl"; }
wall=$(jq -r '.wall_s // "null"' "$boot/boot.json")
echo "# stages (s): firmware $(st firmware_s), kernel $(st kernel_s), init $(st init_s)," \
	"udevd $(st udevd_s), coldplug $(st coldplug_s), tail $(st tail_s);" \
	"collector $(st collector_s); wall $wall"
check "boot.json has the console's last write on the host's clock, within QEMU's lifetime" \
	test "$(jq '.console_last_write_s > 0 and .console_last_write_s <= .wall_s' "$boot/boot.json")" = true
check "every stage of our /init's boot is measured (timeline --json)" \
	test "$(jq '[.stages | .firmware_s, .kernel_s, .init_s, .udevd_s, .coldplug_s, .tail_s,
		.collector_s] | all(. != null and . > 0)' "$tl")" = true
# QEMU start -> BOOT-COMPLETE: QEMU start to kernel start, then the records'
# clock from printk's 0 (-offset) to BOOT-COMPLETE's mark.
check "QEMU start -> boot complete fits in QEMU's lifetime, leaving 0-2 s for the shutdown" \
	test "$(jq --argjson w "$wall" '[.stages | .firmware_s, .kernel_s, .init_s, .udevd_s,
		.coldplug_s, (.settle_s // 0), .tail_s] | add | . <= $w and . >= $w - 2' "$tl")" = true
rep=$BP_RESULTS/$id/report
"$BP" report "$BP_RESULTS/$id" -o "$rep" --quiet >/dev/null 2>&1
check "the report says where the boot's time goes, the firmware stage measured" \
	grep -Eq '^\| QEMU start → kernel start [^|]*\| [0-9]+\.[0-9]+ \|' "$rep/report.md"
