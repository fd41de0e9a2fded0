#!/usr/bin/env bash
# A real boot: the guest loads the kernel's own test_async_driver_probe.ko,
# which must report success, and the boot folder holds every promised file.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "real boot with test_async_driver_probe"

id=$(bp_run_id boot)
bp_run "$id" --mode 'probe:bootprobe.modprobe=test_async_driver_probe' --timeout 240
rc=$?
dir=$BP_RESULTS/$id/boots/probe-001
check "bootprobe run exits 0 when every boot is ok" test "$rc" -eq 0
check "the boot's outcome is ok" test "$(boot_outcome "$dir")" = ok
check "test_async_driver_probe reports 'completed successfully' on the console" \
	grep -q 'test_async_driver_probe: completed successfully' "$dir/console.log"
for f in qemu-cmdline.txt console.log events.jsonl qemu.log boot.json; do
	check "the boot folder holds $f" test -e "$dir/$f"
done
check "qemu-cmdline.txt holds the exact QEMU command line" \
	grep -q "^qemu-system-x86_64 .*-kernel build/guest/bzImage.*bootprobe.modprobe=test_async_driver_probe" \
	"$dir/qemu-cmdline.txt"
check "systemd-udevd ran in the guest (real coldplug)" grep -q 'Starting systemd-udevd version' "$dir/console.log"
check "the manifest names the boot and its outcome" \
	grep -q '"dir":"boots/probe-001"' "$BP_RESULTS/$id/manifest.json"
check "the manifest records the kernel build hash" \
	grep -q "\"kernel_build_hash\":\"$(cat build/guest/build-hash)\"" "$BP_RESULTS/$id/manifest.json"

# The minimal boot (real udevd coldplug, no slow driver): report its wall time.
id=$(bp_run_id minimal)
bp_run "$id" --mode sync --boots 3 --timeout 60
for b in "$BP_RESULTS/$id"/boots/*; do
	echo "# minimal boot $(basename "$b"): $(json_get "$b/boot.json" wall_s) s wall (QEMU start to exit, TCG)"
done
check "three minimal boots are ok" test "$(grep -l '"outcome":"ok"' "$BP_RESULTS/$id"/boots/*/boot.json | wc -l)" -eq 3

# The SIGTERM that ends the stream keeps no stack: symbolising the collector's
# own stack would load kallsyms at the end of every boot (0.25 s under TCG).
ev=$BP_RESULTS/$id/boots/sync-001/events.jsonl
term=$(jq -c 'select(.type == "signal_generate" and .sig == 15 and
	.target.comm == "probetrace") | .target_stack' "$ev" 2>/dev/null)
check "the collector's own SIGTERM is recorded, with an empty stack ($term)" test "$term" = "[]"
