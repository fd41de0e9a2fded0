#!/usr/bin/env bash
# The minimal measured boot, phase by phase: the lab kernel, real udevd
# coldplug, the collector, no slow device.  N boots of the current build;
# with OLD given, N boots of that build too, interleaved one by one so drift
# falls on both.  Prints the median of each phase per side, then one line.
#
# usage: bench/minimal-boot.sh N [OLD-BOOTPROBE OLD-KERNEL OLD-INITRD]
#   bench/minimal-boot.sh 10
#   bench/minimal-boot.sh 10 /tmp/old/build/bin/bootprobe /tmp/old/bzImage /tmp/old/initramfs.cpio
#
# Phases (guest times from the console's printk stamps; "outside" is QEMU's
# wall time less the guest's time at its reboot line: QEMU start, firmware,
# loading and decompressing the kernel, and QEMU's exit):
#   kernel      kernel start to "Run /init"
#   collector   /init's start to the collector ready
#   udevd       collector ready to coldplug start
#   coldplug    coldplug start to udevadm settle returning
#   tail        settle to the end of the stream and the reboot line
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "minimal-boot: $*" >&2; exit 2; }
n=${1:-}
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || die "usage: bench/minimal-boot.sh N [OLD-BOOTPROBE OLD-KERNEL OLD-INITRD]"
old=()
if [ $# -ge 4 ]; then
	for f in "$2" "$3" "$4"; do [ -r "$f" ] || die "$f: not readable"; done
	old=("$2" --kernel "$3" --initrd "$4")
elif [ $# -ne 1 ]; then
	die "OLD needs three files: bootprobe, kernel, initrd"
fi
BP=${BP:-build/bin/bootprobe}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# stamp FILE PATTERN: the printk time of the first console line matching.
stamp() { sed -n "s#^\[ *\([0-9.]*\)\] .*$2.*#\1#p" "$1" | head -1; }

# phases BOOT-DIR: "wall outside kernel collector udevd coldplug tail guest-end"
phases() {
	local c=$1/console.log wall init ready cps cpd fin end
	wall=$(sed -n 's/.*"wall_s":\([0-9.]*\).*/\1/p' "$1/boot.json")
	init=$(stamp "$c" 'Run /init')
	ready=$(stamp "$c" 'bootprobe: collector ready')
	cps=$(stamp "$c" 'bootprobe: coldplug start')
	cpd=$(stamp "$c" 'bootprobe: coldplug done')
	start=$(stamp "$c" 'bootprobe: init start')
	end=$(stamp "$c" 'reboot: Restarting system')
	[ -n "$wall" ] && [ -n "$init" ] && [ -n "$ready" ] && [ -n "$cps" ] && [ -n "$cpd" ] &&
		[ -n "$end" ] && [ -n "$start" ] || return 1
	awk -v w="$wall" -v i="$init" -v s="$start" -v r="$ready" -v a="$cps" -v d="$cpd" -v e="$end" \
		'BEGIN { printf "%.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", w, w - e, i, r - s, a - r, d - a, e - d }'
}

boot_one() {	# SIDE BOOTPROBE [OPTIONS]: one boot, its phases appended to SIDE's file
	local side=$1 bp=$2 id
	shift 2
	id=$side-$(date +%s%N)
	"$bp" run --accel tcg --quiet --results "$results" --run-id "$id" --mode sync --boots 1 \
		--timeout 60 "$@" >/dev/null 2>&1 || true
	phases "$results/$id/boots/sync-001" >>"$results/$side.txt" ||
		echo "minimal-boot: $side boot $id: not ok or phases missing" >&2
}

for i in $(seq 1 "$n"); do
	[ ${#old[@]} -gt 0 ] && boot_one old "${old[@]}"
	boot_one new "$BP"
	printf '\rminimal-boot: %d of %d' "$i" "$n" >&2
done
echo >&2

median_cols() {	# FILE: the median of every column
	local f=$1 cols k
	cols=$(head -1 "$f" | wc -w)
	for k in $(seq 1 "$cols"); do
		cut -d' ' -f"$k" "$f" | sort -n | awk '{ v[NR] = $1 } END {
			printf "%.2f ", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	done
	echo
}
printf '%-5s %5s %7s %8s %7s %10s %7s %9s %5s\n' side boots wall outside kernel collector udevd coldplug tail
for side in old new; do
	[ -s "$results/$side.txt" ] || continue
	read -r w o k c u p t <<<"$(median_cols "$results/$side.txt")"
	printf '%-5s %5s %7s %8s %7s %10s %7s %9s %5s\n' "$side" "$(wc -l <"$results/$side.txt")" \
		"$w" "$o" "$k" "$c" "$u" "$p" "$t"
done
new_w=$(median_cols "$results/new.txt" | cut -d' ' -f1)
if [ -s "$results/old.txt" ]; then
	old_w=$(median_cols "$results/old.txt" | cut -d' ' -f1)
	echo "minimal-boot: host wall median $new_w s now vs $old_w s before, $(wc -l <"$results/new.txt")+$(wc -l <"$results/old.txt") boots interleaved"
else
	echo "minimal-boot: host wall median $new_w s, $(wc -l <"$results/new.txt") boots"
fi
