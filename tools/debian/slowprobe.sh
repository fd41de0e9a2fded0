#!/usr/bin/env bash
# slowprobe.ko for Debian's stock kernel: built out of tree against the
# linux-headers package of exactly that kernel, as a user builds a module
# without DKMS.  The header packages are fetched with apt-get download (never
# installed here) and unpacked into the cache; the build is cached under a key
# of the kernel package version and slowprobe's source.
#
# Prints the module's path on stdout (progress goes to stderr).
#
# usage: tools/debian/slowprobe.sh KERNEL_RELEASE KERNEL_PACKAGE_VERSION
#   e.g. tools/debian/slowprobe.sh 6.1.0-57-amd64 6.1.192-3
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:?usage: slowprobe.sh KERNEL_RELEASE KERNEL_PACKAGE_VERSION}
pver=${2:?usage: slowprobe.sh KERNEL_RELEASE KERNEL_PACKAGE_VERSION}
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
src=$top/kernel-patches/slowprobe

die() { echo "debian-slowprobe: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

[[ $kver =~ ^[0-9][0-9a-z.+-]*-amd64$ ]] || die "$kver: not a Debian amd64 kernel release"
[[ $pver =~ ^[0-9][0-9a-z.+~-]*$ ]] || die "$pver: not a package version"
abi=${kver%-amd64}			# 6.1.0-57
series=$(echo "$kver" | cut -d. -f1-2)	# 6.1
key=$({ echo "$kver $pver"; cat "$src/slowprobe.c" "$src/Kbuild"; } | sha256sum | cut -c1-16)
dir=$cache/debian/slowprobe-$key

if [ -e "$dir/slowprobe.ko" ]; then
	log "cached slowprobe.ko $key for $kver"
	echo "$dir/slowprobe.ko"
	exit 0
fi

work=$(mktemp -d "$cache/debian/slowprobe-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
log "apt-get download the headers of $kver ($pver)"
# apt's own output goes to a log, shown only when it fails (its status is the
# download's, not a filter's).
(cd "$work" && apt-get download -q "linux-headers-$kver=$pver" \
	"linux-headers-$abi-common=$pver" "linux-kbuild-$series=$pver") >"$work/apt.log" 2>&1 ||
	{ cat "$work/apt.log" >&2; die "apt-get download linux-headers-$kver=$pver failed (apt-get update?)"; }
for deb in "$work"/*.deb; do
	dpkg-deb -x "$deb" "$work/root"
done
# The flavour's Makefile includes the common tree by its absolute path.
hdr=$work/root/usr/src/linux-headers-$kver
[ -e "$hdr/Makefile" ] || die "linux-headers-$kver has no Makefile"
sed -i "s|^include /usr/src/|include $work/root/usr/src/|" "$hdr/Makefile"
mkdir -p "$work/build"
cp "$src/slowprobe.c" "$src/Kbuild" "$work/build/"
log "building slowprobe.ko against linux-headers-$kver"
make -s -C "$hdr" M="$work/build" modules >"$work/build.log" 2>&1 ||
	{ cat "$work/build.log" >&2; die "slowprobe did not build against linux-headers-$kver"; }
modinfo -F vermagic "$work/build/slowprobe.ko" | grep -q "^$kver " ||
	die "slowprobe.ko's vermagic is not $kver"
mkdir -p "$dir.tmp"
cp "$work/build/slowprobe.ko" "$dir.tmp/"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
# Keep the newest two builds.
ls -1dt "$cache"/debian/slowprobe-*/ 2>/dev/null | grep -v work | tail -n +3 | xargs -r rm -rf
echo "$dir/slowprobe.ko"
