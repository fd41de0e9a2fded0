#!/usr/bin/env bash
# The Debian 12 base root of the real-world guest: mmdebstrap with the stock
# linux-image-amd64, initramfs-tools, systemd and udev, as a tar in the cache.
#
# Cached under a key of the recipe, the package list and the candidate
# versions apt offers for the packages that matter; rebuilt only when one of
# them changes.  Nothing is installed on this machine: the kernel lives in
# the tar.  Prints the tar's path on stdout (progress goes to stderr).
#
# usage: tools/debian/base-root.sh [--print-key]
set -euo pipefail

cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
suite=bookworm
# Bump when the way the root is made changes (not its inputs).
recipe=1
packages=systemd-sysv,udev,kmod,linux-image-amd64,initramfs-tools,busybox
# Versions that make the key; the kernel's is resolved through the metapackage.
keyed=(linux-image-amd64 systemd udev kmod initramfs-tools busybox)

die() { echo "debian-base: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (make deps)"

candidate() {
	apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p'
}

# apt's lists may never have been read on a fresh machine: once, as root.
refresh_lists() {
	[ -z "${lists_refreshed:-}" ] && [ "$(id -u)" -eq 0 ] || return 1
	lists_refreshed=1
	log "apt-get update (apt knows no version of $1)"
	apt-get update -qq >&2
}

compute_key() {
	local p v
	{
		echo "recipe $recipe suite $suite packages $packages"
		for p in "${keyed[@]}"; do
			v=$(candidate "$p")
			if { [ -z "$v" ] || [ "$v" = "(none)" ]; } && refresh_lists "$p"; then
				v=$(candidate "$p")
			fi
			[ -n "$v" ] && [ "$v" != "(none)" ] ||
				die "$p: apt knows no candidate version (run apt-get update)"
			echo "$p $v"
		done
	} | sha256sum | cut -c1-16
}

key=$(compute_key)
if [ "${1:-}" = --print-key ]; then
	echo "$key"
	exit 0
fi
dir=$cache/debian/base-$key
tar=$dir/rootfs.tar
if [ -e "$dir/done" ]; then
	log "cached base root $key"
	touch "$dir"
	echo "$tar"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
start=$SECONDS
log "mmdebstrap $suite ($packages); about 3-4 min"
# The apt timers would start work at random boots: masked for repeatable
# boots.  fstab names the root so systemd remounts it read-write.
mmdebstrap --quiet --variant=apt --include="$packages" \
	--customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer >/dev/null 2>&1 || true' \
	--customize-hook='echo "/dev/vda / ext4 defaults 0 1" >"$1/etc/fstab"' \
	--customize-hook='echo bootprobe-guest >"$1/etc/hostname"' \
	"$suite" "$dir/rootfs.tmp.tar" >&2 || die "mmdebstrap $suite failed"
mv "$dir/rootfs.tmp.tar" "$tar"
tar -xOf "$tar" ./var/lib/dpkg/status |
	awk '/^Package:/ { p = $2 } /^Version:/ { print p, $2 }' | sort >"$dir/packages.txt"
grep -q '^linux-image-[0-9].*-amd64 ' "$dir/packages.txt" ||
	die "$tar: no linux-image package in the root"
touch "$dir/done"
log "base root $key in $((SECONDS - start)) s ($(du -m "$tar" | cut -f1) MB)"
# Keep the newest two base roots.
ls -1dt "$cache"/debian/base-*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
echo "$tar"
