#!/usr/bin/env bash
# Build the bootprobe guest initramfs: static busybox, Debian's real
# systemd-udevd/udevadm and kmod with their shared libraries (as
# initramfs-tools copies them), the guest kernel's modules with depmod
# output, udev's module-autoload rules, the collector and /init.
#
# The archive is left uncompressed: under TCG the guest unpacks 13 MB of
# cpio in about half the time it needs to gunzip the same archive.
#
# usage: tools/mkinitramfs.sh GUEST_DIR OUT.cpio [EXTRA.ko|BINARY ...]
#   GUEST_DIR  holds modules/ and kernel.release from build-kernel.sh
#   EXTRA      *.ko files go to /lib/modules/RELEASE/extra, others to /bin
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
guest=${1:?usage: mkinitramfs.sh GUEST_DIR OUT.cpio [EXTRA ...]}
out=${2:?usage: mkinitramfs.sh GUEST_DIR OUT.cpio [EXTRA ...]}
shift 2

die() { echo "mkinitramfs: $*" >&2; exit 1; }

release=$(cat "$guest/kernel.release" 2>/dev/null) || die "$guest/kernel.release: missing (build the kernel first)"
[ -d "$guest/modules/$release" ] || die "$guest/modules/$release: missing"
busybox=$(command -v busybox) || die "busybox: not installed (make deps)"
ldd "$busybox" >/dev/null 2>&1 && die "$busybox: not static (install busybox-static)"
udevadm=/usr/bin/udevadm
[ -x "$udevadm" ] || udevadm=/bin/udevadm
[ -x "$udevadm" ] || die "udevadm: not installed (install udev)"
kmod=$(command -v kmod || echo /bin/kmod)
[ -x "$kmod" ] || die "kmod: not installed (install kmod)"

root=$(mktemp -d "${TMPDIR:-/tmp}/bootprobe-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,run,tmp,etc/udev/rules.d,lib/systemd,lib/udev/rules.d,lib/modules}

# A binary and every shared library it needs, at the same paths.
copy_with_libs() {
	local bin=$1 dest=$2 lib
	install -D -m 0755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$lib" "$root$lib"
	done
}

# busybox applets as symlinks.
install -m 0755 "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# systemd-udevd is udevadm under another name (systemd 252).
copy_with_libs "$udevadm" /bin/udevadm
ln -s /bin/udevadm "$root/lib/systemd/systemd-udevd"
install -m 0644 /lib/udev/rules.d/80-drivers.rules "$root/lib/udev/rules.d/"
printf 'udev_log=info\n' >"$root/etc/udev/udev.conf"

# kmod and its tools, replacing busybox's module applets.
copy_with_libs "$kmod" /bin/kmod
for tool in modprobe insmod rmmod lsmod modinfo depmod; do
	rm -f "$root/bin/$tool" "$root/sbin/$tool"
	ln -s /bin/kmod "$root/sbin/$tool"
done

# Modules, the extra ones, and depmod's indexes for the guest's release.
cp -r "$guest/modules/$release" "$root/lib/modules/"
rm -f "$root/lib/modules/$release/build" "$root/lib/modules/$release/source"
for extra in "$@"; do
	[ -e "$extra" ] || die "$extra: missing"
	# Debug info stays in build/; the guest loads every byte through fw_cfg.
	case "$extra" in
	*.ko)
		install -D -m 0644 "$extra" "$root/lib/modules/$release/extra/$(basename "$extra")"
		strip --strip-debug "$root/lib/modules/$release/extra/$(basename "$extra")"
		;;
	*)
		install -m 0755 "$extra" "$root/bin/"
		strip --strip-unneeded "$root/bin/$(basename "$extra")"
		;;
	esac
done
depmod -b "$root" "$release"

install -m 0755 "$top/tools/guest/init" "$root/init"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRAMFS $out ($(du -h "$out" | cut -f1))"
