#!/usr/bin/env bash
# Package the collector the way a user installs it: a Debian package with the
# static probetrace, its initramfs-tools hook and init-top script, and the
# systemd unit that ends the trace at multi-user.target.
#
# usage: tools/debian/mkdeb.sh PROBETRACE OUT.deb
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
probetrace=${1:?usage: mkdeb.sh PROBETRACE OUT.deb}
out=${2:?usage: mkdeb.sh PROBETRACE OUT.deb}
src=$top/tools/debian/collector
version=1.0

die() { echo "mkdeb: $*" >&2; exit 1; }
[ -x "$probetrace" ] || die "$probetrace: missing (make probetrace)"
ldd "$probetrace" >/dev/null 2>&1 && die "$probetrace: not static"

pkg=$(mktemp -d "${TMPDIR:-/tmp}/bootprobe-deb.XXXXXX")
chmod 0755 "$pkg"
trap 'rm -rf "$pkg"' EXIT
install -D -m 0755 "$probetrace" "$pkg/usr/sbin/probetrace"
install -D -m 0755 "$src/hook" "$pkg/usr/share/initramfs-tools/hooks/bootprobe"
install -D -m 0755 "$src/init-top" "$pkg/usr/share/initramfs-tools/scripts/init-top/bootprobe"
install -D -m 0644 "$src/wait" "$pkg/usr/share/initramfs-tools/scripts/bootprobe-wait"
install -D -m 0755 "$src/local-bottom" "$pkg/usr/share/initramfs-tools/scripts/local-bottom/bootprobe"
# A root on NFS runs nfs-bottom instead: the same wait.
install -D -m 0755 "$src/local-bottom" "$pkg/usr/share/initramfs-tools/scripts/nfs-bottom/bootprobe"
install -D -m 0755 "$src/init-bottom" "$pkg/usr/share/initramfs-tools/scripts/init-bottom/bootprobe"
install -D -m 0755 "$src/finish" "$pkg/usr/lib/bootprobe/finish"
install -D -m 0644 "$src/bootprobe-finish.service" "$pkg/lib/systemd/system/bootprobe-finish.service"
install -D -m 0644 "$src/README" "$pkg/usr/share/doc/bootprobe-collector/README"
install -D -m 0755 "$src/postinst" "$pkg/DEBIAN/postinst"
install -D -m 0755 "$src/postrm" "$pkg/DEBIAN/postrm"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: bootprobe-collector
Version: $version
Architecture: amd64
Maintainer: bootprobe developers <bootprobe@localhost>
Depends: initramfs-tools, systemd
Section: admin
Priority: optional
Description: trace driver probes of every boot (bootprobe)
 Starts the probetrace BPF collector from the initramfs, before udev, and
 ends its trace once the boot reaches multi-user.target.  The stream goes
 to a bootprobe virtio-serial port, or to /var/log/bootprobe/BOOT_ID.jsonl.
CONTROL
# Reproducible: the same inputs give the same bytes (the image cache key).
find "$pkg" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
SOURCE_DATE_EPOCH=0 dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out.tmp" >/dev/null
mv "$out.tmp" "$out"
