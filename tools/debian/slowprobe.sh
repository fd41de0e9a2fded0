#!/usr/bin/env bash
# slowprobe.ko for Debian's stock kernel: built out of tree against the
# linux-headers package of exactly that kernel, as a user builds a module
# without DKMS.  Debian 12's headers build with this machine's gcc: they are
# fetched with apt-get download (never installed here) and unpacked into the
# cache.  A newer release's headers want that release's compiler (gcc-14 on
# Debian 13): they are installed, with it, into a root of that release made
# by mmdebstrap from its own archive, and the module is built there.  The
# build is cached under a key of the release, the kernel package version and
# slowprobe's source.
#
# Prints the module's path on stdout (progress goes to stderr).
#
# usage: tools/debian/slowprobe.sh RELEASE KERNEL_RELEASE KERNEL_PACKAGE_VERSION
#   e.g. tools/debian/slowprobe.sh debian-12 6.1.0-57-amd64 6.1.192-3
#        tools/debian/slowprobe.sh debian-13 6.12.118+deb13-amd64 6.12.118-1
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/debian/releases.sh"
usage="usage: slowprobe.sh RELEASE KERNEL_RELEASE KERNEL_PACKAGE_VERSION"
name=${1:?$usage}
kver=${2:?$usage}
pver=${3:?$usage}
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
src=$top/kernel-patches/slowprobe

die() { echo "debian-slowprobe: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

release_load "$name" || die "$name: unknown release (known: $RELEASES)"
[[ $kver =~ ^[0-9][0-9a-z.+-]*-amd64$ ]] || die "$kver: not a Debian amd64 kernel release"
[[ $pver =~ ^[0-9][0-9a-z.+~-]*$ ]] || die "$pver: not a package version"
abi=${kver%-amd64}			# 6.1.0-57
series=$(echo "$kver" | cut -d. -f1-2)	# 6.1
key=$({ echo "$kver $pver"; [ "$release" = debian-12 ] || echo "in a $release root"
	cat "$src/slowprobe.c" "$src/Kbuild"; } | sha256sum | cut -c1-16)
dir=$cache/debian/slowprobe-$kver-$key

if [ -e "$dir/slowprobe.ko" ]; then
	log "cached slowprobe.ko $key for $kver"
	echo "$dir/slowprobe.ko"
	exit 0
fi

work=$(mktemp -d "$cache/debian/slowprobe-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build"
cp "$src/slowprobe.c" "$src/Kbuild" "$work/build/"

# Against headers unpacked here, with this machine's compiler (Debian 12).
build_here() {
	local deb hdr
	log "apt-get download the headers of $kver ($pver)"
	# apt's own output goes to a log, shown only when it fails (its status is
	# the download's, not a filter's).
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
	log "building slowprobe.ko against linux-headers-$kver"
	make -s -C "$hdr" M="$work/build" modules >"$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; die "slowprobe did not build against linux-headers-$kver"; }
}

# In a root of the release with its headers and compiler installed, built by
# one of mmdebstrap's hooks (it mounts /proc there: objtool reads it).
build_in_root() {
	local start=$SECONDS
	local -a mirrors
	command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (make deps)"
	mapfile -t mirrors <<<"$sources"
	mkdir -p "$work/out"
	log "mmdebstrap a $release root with linux-headers-$kver ($pver) and build slowprobe.ko there; about 1-2 min"
	mmdebstrap --variant=apt --include="make,binutils,linux-headers-$kver=$pver" \
		--customize-hook="copy-in $work/build /" \
		--customize-hook="chroot \"\$1\" make -s -C /usr/src/linux-headers-$kver M=/build modules" \
		--customize-hook="copy-out /build/slowprobe.ko $work/out" \
		"$suite" "$work/root" "${mirrors[@]}" >"$work/mmdebstrap.log" 2>&1 ||
		{ tail -20 "$work/mmdebstrap.log" >&2
		  die "slowprobe did not build against linux-headers-$kver=$pver in a $release root"; }
	mv "$work/out/slowprobe.ko" "$work/build/"
	log "built in the $release root in $((SECONDS - start)) s"
}

if [ "$release" = debian-12 ]; then
	build_here
else
	build_in_root
fi
modinfo -F vermagic "$work/build/slowprobe.ko" | grep -q "^$kver " ||
	die "slowprobe.ko's vermagic is not $kver"
mkdir -p "$dir.tmp"
cp "$work/build/slowprobe.ko" "$dir.tmp/"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
# Keep the newest two builds for this kernel.
ls -1dt "$cache/debian/slowprobe-$kver-"*/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
echo "$dir/slowprobe.ko"
