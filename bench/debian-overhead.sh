#!/usr/bin/env bash
# What the collector costs a real boot: the Debian image (stock kernel,
# initramfs-tools, systemd) booted N times with the collector as installed
# (started beside the boot: udev starts while it starts up, the boot-time
# trace records until it is attached, local-bottom waits for the rest), N
# times with bootprobe.collector=0 (the package stays installed, its
# init-top script returns at once), and N times with
# bootprobe.collector=wait (init-top waits for the attach before udev).
# The runner interleaves the modes, so host drift hits all alike.  Measures
# multi-user.target as systemd timestamps it and QEMU's host wall time;
# prints one summary line with the ratios of the medians (with / without,
# waited / without), which the README quotes.
#
# usage: bench/debian-overhead.sh [N]   (default 5 boots each side)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
[ -e build/debian/root.img ] || { echo "debian-overhead: make debian-image first" >&2; exit 2; }

run=$(date -u +%Y%m%d-%H%M%S)-debian-overhead
rc=0
build/bin/bootprobe run --image debian --boots "$n" --timeout 400 --run-id "$run" \
	--mode 'collector:bootprobe.collector=1' --mode 'none:bootprobe.collector=0' \
	--mode 'wait:bootprobe.collector=wait' || rc=$?
build/bin/bootprobe report "results/$run" --quiet || rc=$?
sum=results/$run/report/summary.json

# median MODE PATH: a median from summary.json, or "nan".
median() {
	jq -r --arg m "$1" ".modes[\$m]$2.median // \"nan\"" "$sum"
}
line=$(awk -v tw="$(median collector .phases.bootprobe.to_target_s)" \
	-v to="$(median none .phases.bootprobe.to_target_s)" \
	-v ww="$(median collector .metrics.wall_s)" -v wo="$(median none .metrics.wall_s)" \
	-v tx="$(median wait .phases.bootprobe.to_target_s)" -v wx="$(median wait .metrics.wall_s)" \
	-v nw="$(jq -r '.modes.collector.ok' "$sum")" -v no="$(jq -r '.modes.none.ok' "$sum")" \
	-v nx="$(jq -r '.modes.wait.ok' "$sum")" \
	'function r(a, b) { return (a + 0 > 0 && b + 0 > 0) ? sprintf("%.3f", a / b) : "nan" }
	 BEGIN { printf "debian-overhead: multi-user.target median %.2f s with the collector, " \
		"%.2f s without (ratio %s), %.2f s waited for before udev (ratio %s); " \
		"QEMU wall %.2f s vs %.2f s (ratio %s), waited %.2f s (ratio %s); ok boots %s + %s + %s\n",
		tw, to, r(tw, to), tx, r(tx, to), ww, wo, r(ww, wo), wx, r(wx, wo), nw, no, nx }')
echo "$line" | tee "results/$run/summary.txt"
echo "debian-overhead: report in results/$run/report/report.html"
exit "$rc"
