#!/usr/bin/env bash
# The 2014 story on Debian's stock kernel: slowprobe built against the
# kernel's own linux-headers package, in /lib/modules/KVER/updates, loaded
# for an edu device by the root's own systemd-udevd, whose event timeout
# (3 s here) is shorter than the probe (5 s, threads created at its end).
# A stock kernel lets SIGKILL interrupt kthread_create(): explain must show
# the whole chain from the stream, and say what a stock kernel hides.
# Debian 12 only: udevd 252 kills at the timeout.  Debian 13's udevd (257)
# kills 10 s after it ($SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC, systemd 256 and
# later; docs/debian.md, "When systemd-udevd kills"), so this mode kills
# nothing there; tests/guest/54-debian-dracut.sh provokes it on 6.12.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

for image in debian; do
	dir=build/$image
	if [ ! -x "$BP" ] || [ ! -e "$dir/root.img" ]; then
		fail "$image kill" "$dir/root.img missing: make debian-image did not run or failed"
		continue
	fi
	id=$(bp_run_id "$image-kill")
	bp_run "$id" --image "$image" --devices 1 --boots 1 --timeout 400 \
		--mode 'stock-kill:udev.event_timeout=3 slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000'
	b=$BP_RESULTS/$id/boots/stock-kill-001
	ev=$b/events.jsonl
	"$BP" explain "$b" >"$b/explain.txt" 2>&1
	grep -E '^(kill [0-9]+: .*slowprobe|failed probe|seen on)' "$b/explain.txt" | sed 's/^/#   /'
	# Under TCG the 3 s timeout also kills workers loading real drivers early in
	# the boot; they are counted, the slowprobe one is judged.
	echo "#   $(grep -c '^kill [0-9]*: ' "$b/explain.txt") workers killed in all"

	check "$image stock kill: the boot completes (ok)" test "$(boot_outcome "$b")" = ok
	check "$image stock kill: the root's udev loaded slowprobe.ko from updates/ (finit_module by a worker)" \
		test "$(jq -r 'select(.type == "module_load" and .name == "slowprobe") | .comm' "$ev")" = '(udev-worker)'
	check "$image stock kill: kthread_create() seen through fentry (a stock kernel)" \
		test "$(jq -r 'select(.type == "header") | .kthread_source' "$ev")" = fentry
	check "$image stock kill: explain names udevd's SIGKILL to the worker in finit_module and the probe" \
		grep -Eq '^kill [0-9]+: systemd-udevd \[[0-9]+\] sent SIGKILL at [0-9.]+ s to \(udev-worker\) \[[0-9]+\] after the udev event timeout \(3 s\); the worker was in finit_module\(slowprobe\) for [0-9.]+ s, in probe of [0-9a-f:.]+ \(slowprobe\)' \
		"$b/explain.txt"
	check "$image stock kill: kthread_create() returned -EINTR and the probe failed with it" \
		grep -Eq '; kthread_create returned -EINTR at [0-9.]+ s; the probe failed \(-EINTR\)' "$b/explain.txt"
	check "$image stock kill: the device is left without a driver" \
		grep -q 'is left without a driver (no later probe bound it)' "$b/explain.txt"
	check "$image stock kill: the failed probe names a stock kernel's kill policy" \
		grep -q 'kill policy none (a stock kernel: kthread_create() is always killable)' "$b/explain.txt"
	check "$image stock kill: explain says what a stock kernel does not show" \
		grep -q '^seen on a stock kernel: kthread_create() through fentry/fexit' "$b/explain.txt"
done
