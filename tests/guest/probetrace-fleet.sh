#!/usr/bin/env bash
# probetrace on a slowprobe fleet: 23 QEMU edu devices (a prime, so that a
# lost or doubled record cannot hide), each probe configured with its own
# duration, 40 + 20 * index ms (40 ... 480 ms; ~6 s in all, sync in one
# udev worker).  Exactly 23 slowprobe spans, each lasting its configured
# time within [+0, +150] ms and slowprobe's own measure of itself within
# [+0, +20] ms, 23 kthread_create calls that succeeded, and no drop.
#
# Twice: with the collector started beside the boot as /init does, and
# with a collector that starts only once 7 devices are probed
# (bootprobe.collector_after=7).  The late one must give the same answer:
# the probes before its programs were attached come from the boot-time
# trace, the one running across the cutover gets its start from there, and
# no probe or kthread_create is reported twice.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "probetrace on a fleet of 23 slowprobe devices"

n=23
late_after=7
ms=()
for ((i = 0; i < n; i++)); do ms+=($((40 + 20 * i))); done
list=$(IFS=,; echo "${ms[*]}")

id=$(bp_run_id pt-fleet)
pt_boot "$id" --devices $n --timeout 240 \
	--mode "fleet:slowprobe.probe_ms=$list slowprobe.nthreads=1" \
	--mode "late:slowprobe.probe_ms=$list slowprobe.nthreads=1 bootprobe.collector_after=$late_after"

spans='[.[] | select(.type == "probe" and .driver == "slowprobe")] | sort_by(.device)'

# fleet_checks WHO BOOT: the checks every fleet boot must pass.
fleet_checks() {
	local who=$1 boot=$2 ev=$2/events.jsonl bad=0 i=0 dev ns want got own
	check "$who: the boot completes" test "$(boot_outcome "$boot")" = ok
	pt_check_stream "$who: the event stream is whole" "$ev"
	pt_check_no_drops "$who: no event dropped in BPF or user space" "$ev"
	check_jq "$who: exactly $n slowprobe spans, one per device" "$ev" \
		"$spans | length == $n and (map(.device) | unique | length) == $n"
	check_jq "$who: every slowprobe probe succeeded and bound" "$ev" "$spans | all(.ret == 0)"
	check_jq "$who: every span's origin is the udev worker loading slowprobe" "$ev" \
		"$spans | all(.origin.kind == \"module_load\" and .origin.module == \"slowprobe\")"

	# Device index = position in bus/devfn order = order of the PCI names.
	while read -r dev ns; do
		want=${ms[$i]}
		got=$((ns / 1000000))
		# slowprobe's own total for this device, from /init's report.
		own=$(sed -n "s/.*bootprobe: slowprobe $dev index=$i .*total_us=\([0-9]*\).*/\1/p" \
			"$boot/console.log")
		echo "# $who index $i $dev: configured $want ms, span ${got} ms, slowprobe says $((${own:-0} / 1000)) ms"
		if [ "$got" -lt "$want" ] || [ "$got" -gt $((want + 150)) ] ||
			[ -z "$own" ] || [ "$ns" -lt $((own * 1000)) ] ||
			[ "$ns" -gt $((own * 1000 + 20000000)) ]; then
			bad=$((bad + 1))
		fi
		i=$((i + 1))
	done < <(pt_q "$ev" "$spans | .[] | \"\(.device) \(.duration_ns)\"")
	if [ "$i" -eq $n ] && [ "$bad" -eq 0 ]; then
		pass "$who: each span lasts its configured time (+0..150 ms) and slowprobe's own measure (+0..20 ms)"
	else
		fail "$who: each span lasts its configured time (+0..150 ms) and slowprobe's own measure (+0..20 ms)" \
			"$bad of $i spans out of range"
	fi
	# One worker probes them one after the other: in order, never overlapping.
	check_jq "$who: the spans follow one another in device order, none overlapping" "$ev" \
		"$spans | [range(1; length) as \$k | .[\$k].start_ns >= .[\$k - 1].end_ns] | all"

	check_jq "$who: $n kthread_create calls from slowprobe's probes, each ret 0, no fatal signal" "$ev" \
		"[.[] | select(.type == \"kthread_end\" and (.caller | startswith(\"slowprobe_probe+\")))] |
		 length == $n and all(.ret == 0 and (.fatal_signal | not))"
	check_jq "$who: each kthread_create is attributed to the probe it ran in" "$ev" \
		"[.[] | select(.type == \"kthread_end\" and (.caller | startswith(\"slowprobe_probe+\"))) | .probe_device] |
		 unique | length == $n"
	# The kernel prints the callers (%pS in BPF): the collector reads no
	# /proc/kallsyms for them (a quarter second of the guest's CPU).
	check_jq "$who: kthread callers in the kernel's form, sym+0xoff [module]" "$ev" \
		"[.[] | select(.type == \"kthread_end\" and (.caller | startswith(\"slowprobe_probe+\")))] |
		 all(.caller | test(\"^slowprobe_probe\\\\+0x[0-9a-f]+ \\\\[slowprobe\\\\]$\"))"
	check_jq "$who: no /proc/kallsyms read (no kill, so no stack to symbolise)" "$ev" \
		"[.[] | select(.type == \"trailer\") | .startup.kallsyms_loads] == [0]"
}

fleet_checks "collector beside the boot" "$BP_RESULTS/$id/boots/fleet-001"

late=$BP_RESULTS/$id/boots/late-001
fleet_checks "late collector" "$late"
read -r pre ours cut <<<"$(pt_q "$late/events.jsonl" "($spans | map(select(.pre_collector)) | length),
	($spans | map(select(.pre_collector | not)) | length),
	(.[] | select(.type == \"header\") | .attach_ns)" | tr '\n' ' ')"
echo "# late collector: $pre spans from the boot-time trace, $ours from BPF, cutover at ${cut:-?} ns"
check "late collector: the first $late_after probes ended before its programs were attached (boot-time trace)" \
	test "${pre:-0}" -ge "$late_after" -a "${ours:-0}" -ge 1
check_jq "late collector: every span is on one side of the cutover or bridges it, each once" \
	"$late/events.jsonl" \
	"(.[] | select(.type == \"header\") | .attach_ns) as \$cut | $spans |
	 all(if .pre_collector then .end_ns < \$cut else .end_ns >= \$cut end)"
