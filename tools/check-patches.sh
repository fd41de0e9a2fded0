#!/usr/bin/env bash
# Each patch of kernel-patches/series builds on its own: apply the series one
# patch at a time to a fresh tree and build vmlinux after each (the state with
# every patch applied is the main build, already made by build-kernel.sh).
# Prints one TAP-like line per patch.  ccache makes the unchanged files free.
# A series that passed is not built again: its lines are kept in the cache
# under a hash of the patches, the config and the kernel tarball, and
# printed back (marked "cached") while none of them changes.
#
# usage: tools/check-patches.sh [GUEST_DIR]
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
guest=${1:-$top/build/guest}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
patchdir=$top/kernel-patches
jobs=${JOBS:-$(nproc)}
work=$cache/patchcheck

kdir=$(cat "$guest/kernel-dir" 2>/dev/null)
if [ -z "$kdir" ] || [ ! -e "$kdir/obj/.config" ]; then
	echo "not ok - each patch builds on its own : no kernel build in $guest (make guests)"
	exit 1
fi
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series")

key=$({ cat "$patchdir/series" "$kdir/obj/.config" "$top/tools/check-patches.sh"
	for p in "${patches[@]}"; do cat "$patchdir/$p"; done
	stat -c '%s %Y' "$tarball"; } | sha256sum | cut -c1-16)
stamp=$cache/patchcheck-ok/$key
if [ -s "$stamp" ]; then
	sed "s/\$/ (cached: series $key passed before)/" "$stamp"
	exit 0
fi

rm -rf "$work"
mkdir -p "$work/src" "$work/obj"
tar -xf "$tarball" -C "$work/src" --strip-components=1
cp "$kdir/obj/.config" "$work/obj/.config"
export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1

last=$((${#patches[@]} - 1))
out=$work/result.txt
check_each() {
	for i in "${!patches[@]}"; do
		p=${patches[$i]}
		if ! patch -d "$work/src" -p1 --batch --forward --quiet <"$patchdir/$p" >/dev/null; then
			echo "not ok - $p applies on top of the patches before it"
			break
		fi
		if [ "$i" -eq "$last" ]; then
			echo "ok - $p builds (the whole series: the main kernel build)"
			break
		fi
		start=$SECONDS
		if make -s -C "$work/src" O="$work/obj" ARCH=x86_64 CC="ccache gcc" -j"$jobs" \
			olddefconfig vmlinux >"$work/build-$i.log" 2>&1; then
			echo "ok - $p builds on its own (vmlinux, $((SECONDS - start)) s)"
		else
			echo "not ok - $p builds on its own : see $work/build-$i.log"
			tail -5 "$work/build-$i.log" | sed 's/^/#   /'
		fi
	done
}
check_each | tee "$out"
rm -rf "$work/src"
# Every patch passed: keep the lines for the next run of the same series.
if [ "$(grep -c '^ok - ' "$out")" -eq "${#patches[@]}" ] && ! grep -q '^not ok' "$out"; then
	mkdir -p "$(dirname "$stamp")"
	cp "$out" "$stamp.tmp" && mv "$stamp.tmp" "$stamp"
fi
