#!/usr/bin/env bash
# Real drivers through the real coldplug: mptsas on QEMU's SAS1068 with 8
# disks and virtio-scsi with 32, synchronous and with DRIVER.async_probe=1,
# one boot each, judged from the event stream and /init's disk count.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "real drivers"
if ! command -v jq >/dev/null; then
	skip "real drivers" "no jq"
	exit 0
fi

# probe_of EVENTS DRIVER: "ret async" of DRIVER's probe of its PCI device.
probe_of() {
	jq -r -s --arg d "$2" '[.[] | select(.type == "probe" and .driver == $d)] |
		if length == 1 then "\(.[0].ret) \(.[0].async)" else "count \(length)" end' "$1"
}
disks_present() {
	grep -o 'bootprobe: [0-9]* of [0-9]* expected disks present' "$1/console.log" |
		awk '{ print $2 "/" $4 }'
}

for s in mptsas:mptsas:8 virtio-scsi:virtio_scsi:32; do
	IFS=: read -r name driver n <<<"$s"
	id=$(bp_run_id "$name")
	bp_run "$id" --scenario "bench/scenarios/$name.conf" --boots 1 --timeout 120
	for m in sync async-probe; do
		b=$BP_RESULTS/$id/boots/$m-001
		check "$name $m: the boot completes" test "$(boot_outcome "$b")" = ok
		check "$name $m: all $n disks appear" test "$(disks_present "$b")" = "$n/$n"
		want="0 false"
		[ "$m" = async-probe ] && want="0 true"
		check "$name $m: one $driver probe, returning 0, async=${want#* }" \
			test "$(probe_of "$b/events.jsonl" "$driver")" = "$want"
		check "$name $m: sd probed all $n disks" \
			test "$(jq -s '[.[] | select(.type == "probe" and .driver == "sd" and .ret == 0)] | length' \
				"$b/events.jsonl")" -eq "$n"
	done
done
