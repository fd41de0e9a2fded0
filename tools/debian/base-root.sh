#!/usr/bin/env bash
# The base root of a real-world guest: mmdebstrap of one Debian release
# (releases.sh) with its stock kernel, its initrd generator (initramfs-tools,
# or dracut for debian-13-dracut), systemd and udev, as a tar in the cache.
#
# Cached under a key of the recipe, the package list and the versions the
# release's own archive offers for the packages that matter (resolved by apt
# with that release's sources, not this machine's lists); rebuilt only when
# one of them changes.  Nothing is installed on this machine: the kernel
# lives in the tar.  Prints the tar's path on stdout (progress on stderr).
#
# usage: tools/debian/base-root.sh [--print-key] [RELEASE]   (default debian-12)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=releases.sh
. "$top/tools/debian/releases.sh"
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
print_key=
[ "${1:-}" = --print-key ] && { print_key=1; shift; }
name=${1:-debian-12}
# Bump when the way the root is made changes (not its inputs).
recipe=2
# With the libraries the collector's package (debian/) links probetrace to,
# so that mkimage.sh installs it by dpkg -i, without a network; libelf
# comes with libbpf1 (libelf1, libelf1t64 from Debian 13).
packages=systemd-sysv,udev,kmod,initramfs-tools,busybox,libbpf1,libjson-c5
# Versions that make the key.
keyed=(linux-image-amd64 systemd udev kmod initramfs-tools busybox libbpf1 libjson-c5)

die() { echo "debian-base: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

release_load "$name" || die "$name: unknown release (known: $RELEASES)"
command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (make deps)"
# dracut in place of initramfs-tools (it conflicts with it, provides
# linux-initramfs-tool for the kernel and takes the update-initramfs
# trigger) and of busybox (a dracut initrd has its own tools), with zstd for
# its compressed initrd.  hostonly=no, set before the kernel's first initrd
# is made, so that the image's initrd boots any machine, not only the one
# the image was made on.
hooks=()
if [ "$initrd_gen" = dracut ]; then
	packages=systemd-sysv,udev,kmod,dracut,zstd,libbpf1,libjson-c5
	keyed=(linux-image-amd64 systemd udev kmod dracut zstd libbpf1 libjson-c5)
	hooks+=(--setup-hook='mkdir -p "$1/etc/dracut.conf.d" && echo hostonly=no >"$1/etc/dracut.conf.d/90-bootprobe-generic.conf"')
fi

compute_key() {
	local p v
	mkdir -p "$cache/debian"
	release_apt_update "$cache/debian" >&2 ||
		die "$release: apt-get update with its own sources failed"
	{
		echo "recipe $recipe release $release suite $suite packages $packages $kernel_pkg"
		printf '%s\n' "$sources" | sed "s|$release_mirror||"
		for p in "${keyed[@]}"; do
			v=$(release_candidate "$cache/debian" "$p")
			[ -n "$v" ] && [ "$v" != "(none)" ] ||
				die "$release: $p: its archive offers no version"
			echo "$p $v"
		done
	} | sha256sum | cut -c1-16
}

key=$(compute_key)
if [ -n "$print_key" ]; then
	echo "$key"
	exit 0
fi
dir=$cache/debian/base-$release-$key
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
log "mmdebstrap $release ($suite, $kernel_pkg, $packages); about 1-4 min"
# The apt timers would start work at random boots: masked for repeatable
# boots.  fstab names the root so systemd remounts it read-write.
mapfile -t mirrors <<<"$sources"
mmdebstrap --quiet --variant=apt --include="$packages,$kernel_pkg" \
	"${hooks[@]}" \
	--customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer >/dev/null 2>&1 || true' \
	--customize-hook='echo "/dev/vda / ext4 defaults 0 1" >"$1/etc/fstab"' \
	--customize-hook='echo bootprobe-guest >"$1/etc/hostname"' \
	"$suite" "$dir/rootfs.tmp.tar" "${mirrors[@]}" >&2 || die "mmdebstrap $release failed"
mv "$dir/rootfs.tmp.tar" "$tar"
tar -xOf "$tar" ./var/lib/dpkg/status |
	awk '/^Package:/ { p = $2 } /^Version:/ { print p, $2 }' | sort >"$dir/packages.txt"
grep -q '^linux-image-[0-9].*-amd64 ' "$dir/packages.txt" ||
	die "$tar: no linux-image package in the root"
touch "$dir/done"
log "base root $key in $((SECONDS - start)) s ($(du -m "$tar" | cut -f1) MB)"
# Keep the newest two base roots of each release.
ls -1dt "$cache"/debian/base-"$release"-????????????????/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
echo "$tar"
