#!/usr/bin/env bash
# A root of one Debian release (releases.sh) to check the packages of
# debian/ in: that release's own lintian, and the libraries `bootprobe`
# links to, so that the package installs there by dpkg -i without a network.
# mmdebstrap --variant=apt from the release's own archive, a folder (root/)
# cached under a key of the recipe, the package list and the versions the
# release's archive offers for them, like base-root.sh's; done marks it whole.
# The root is never changed by its users: tests/host/debian-package.sh
# mounts it as the lower layer of an overlay.
#
# usage: tools/debian/check-root.sh [--print-dir] RELEASE
#   prints the folder; --print-dir does not make it (its done may be absent).
#   Without the archive (no network) the newest cached root of the release.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=releases.sh
. "$top/tools/debian/releases.sh"
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
print_dir=
[ "${1:-}" = --print-dir ] && { print_dir=1; shift; }
name=${1:?usage: check-root.sh [--print-dir] RELEASE}
# Bump when the way the root is made changes (not its inputs).
recipe=1
# lintian, and bootprobe's run-time libraries (its shlibs Depends: libc6 and
# libjson-c5); the versions of these make the key.
packages=(lintian libjson-c5)

die() { echo "check-root: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

release_load "$name" || die "$name: unknown release (known: $RELEASES)"

# Its own apt state, apart from base-root.sh's, which may run at the same time.
apt_dir=$cache/debian/apt-check
compute_key() {
	local p v
	mkdir -p "$apt_dir"
	release_apt_update "$apt_dir" >&2 || return 1
	{
		echo "recipe $recipe release $release suite $suite packages ${packages[*]}"
		printf '%s\n' "$sources" | sed "s|$release_mirror||"
		for p in "${packages[@]}"; do
			v=$(release_candidate "$apt_dir" "$p")
			[ -n "$v" ] && [ "$v" != "(none)" ] ||
				die "$release: $p: its archive offers no version"
			echo "$p $v"
		done
	} | sha256sum | cut -c1-16
}

if ! key=$(compute_key); then
	# No archive: the newest root already made, if any.
	dir=$(ls -1dt "$cache"/debian/check-"$release"-????????????????/ 2>/dev/null | head -1)
	[ -n "$dir" ] || die "$release: its archive cannot be reached and no root is cached"
	log "$release: archive unreachable, the cached root $(basename "$dir")"
	echo "${dir%/}"
	exit 0
fi
dir=$cache/debian/check-$release-$key
if [ -n "$print_dir" ] || [ -e "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "mmdebstrap into a folder needs root"
command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (make deps-package)"

rm -rf "$dir"
mkdir -p "$dir"
start=$SECONDS
log "mmdebstrap $release ($suite) with ${packages[*]}; about 1-3 min"
mapfile -t mirrors <<<"$sources"
IFS=,
mmdebstrap --quiet --variant=apt --include="${packages[*]}" \
	"$suite" "$dir/root.tmp" "${mirrors[@]}" >&2 || die "mmdebstrap $release failed"
unset IFS
mv "$dir/root.tmp" "$dir/root"
touch "$dir/done"
log "check root $key in $((SECONDS - start)) s ($(du -sm "$dir/root" | cut -f1) MB)"
# Keep the newest two roots of each release.
ls -1dt "$cache"/debian/check-"$release"-????????????????/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
echo "$dir"
