#!/usr/bin/env bash
# probetrace on a slowprobe fleet: 23 QEMU edu devices (a prime, so that a
# lost or doubled record cannot hide), each probe configured with its own
# duration, 40 + 20 * index ms (40 ... 480 ms; ~6 s in all, sync in one
# udev worker).  Exactly 23 slowprobe spans, each lasting its configured
# time within [+0, +150] ms and slowprobe's own measure of itself within
# [+0, +20] ms, 23 kthread_create calls that succeeded, and no drop.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/guest/probetrace-lib.sh
pt_require "probetrace on a fleet of 23 slowprobe devices"

n=23
ms=()
for ((i = 0; i < n; i++)); do ms+=($((40 + 20 * i))); done
list=$(IFS=,; echo "${ms[*]}")

id=$(bp_run_id pt-fleet)
pt_boot "$id" --devices $n --timeout 240 \
	--mode "fleet:slowprobe.probe_ms=$list slowprobe.nthreads=1"
boot=$BP_RESULTS/$id/boots/fleet-001
ev=$boot/events.jsonl

check "the boot completes" test "$(boot_outcome "$boot")" = ok
pt_check_stream "the event stream is whole" "$ev"
pt_check_no_drops "no event dropped in BPF or user space" "$ev"

spans='[.[] | select(.type == "probe" and .driver == "slowprobe")] | sort_by(.device)'
check_jq "exactly $n slowprobe spans, one per device" "$ev" \
	"$spans | length == $n and (map(.device) | unique | length) == $n"
check_jq "every slowprobe probe succeeded and bound" "$ev" "$spans | all(.ret == 0)"
check_jq "every span's origin is the udev worker loading slowprobe" "$ev" \
	"$spans | all(.origin.kind == \"module_load\" and .origin.module == \"slowprobe\")"

# Device index = position in bus/devfn order = order of the PCI names.
bad=0
i=0
while read -r dev ns; do
	want=${ms[$i]}
	got=$((ns / 1000000))
	# slowprobe's own total for this device, from /init's report.
	own=$(sed -n "s/.*bootprobe: slowprobe $dev index=$i .*total_us=\([0-9]*\).*/\1/p" \
		"$boot/console.log")
	echo "# index $i $dev: configured $want ms, span ${got} ms, slowprobe says $((${own:-0} / 1000)) ms"
	if [ "$got" -lt "$want" ] || [ "$got" -gt $((want + 150)) ] ||
		[ -z "$own" ] || [ "$ns" -lt $((own * 1000)) ] ||
		[ "$ns" -gt $((own * 1000 + 20000000)) ]; then
		bad=$((bad + 1))
	fi
	i=$((i + 1))
done < <(pt_q "$ev" "$spans | .[] | \"\(.device) \(.duration_ns)\"")
if [ "$i" -eq $n ] && [ "$bad" -eq 0 ]; then
	pass "each span lasts its configured time (+0..150 ms) and slowprobe's own measure (+0..20 ms)"
else
	fail "each span lasts its configured time (+0..150 ms) and slowprobe's own measure (+0..20 ms)" \
		"$bad of $i spans out of range"
fi

check_jq "$n kthread_create calls from slowprobe's probes, each ret 0, no fatal signal" "$ev" \
	"[.[] | select(.type == \"kthread_end\" and (.caller | startswith(\"slowprobe_probe+\")))] |
	 length == $n and all(.ret == 0 and (.fatal_signal | not))"
check_jq "each kthread_create is attributed to the probe it ran in" "$ev" \
	"[.[] | select(.type == \"kthread_end\" and (.caller | startswith(\"slowprobe_probe+\"))) | .probe_device] |
	 unique | length == $n"
