#!/usr/bin/env bash
# A Debian 12 root holding only the build set of tools/deps.sh (mmdebstrap
# --variant=apt: essential packages, apt and that set), cached under a key of
# the package list: tests/host/makefile-chroot.sh builds the tools in it, to
# prove the set is all plain `make` needs.  About 2-4 min the first time.
#
# usage: tools/build-chroot.sh [--print-dir]   (make build-chroot)
#   prints the cached folder; its root/ is the root, done marks it whole.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=bookworm
# Bump when the way the root is made changes (not its inputs).
recipe=1
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
mapfile -t packages < <(tools/deps.sh list build)
key=$(echo "recipe $recipe suite $suite packages ${packages[*]}" | sha256sum | cut -c1-16)
dir=$cache/build-chroot-$key

die() { echo "build-chroot: $*" >&2; exit 1; }

if [ "${1:-}" = --print-dir ]; then
	echo "$dir"
	exit 0
fi
if [ -e "$dir/done" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "mmdebstrap into a folder needs root"
command -v mmdebstrap >/dev/null || die "mmdebstrap: not installed (make deps-image)"

rm -rf "$dir"
mkdir -p "$dir"
echo "  CHROOT  mmdebstrap $suite with ${packages[*]} (about 2-4 min)" >&2
IFS=,
mmdebstrap --quiet --variant=apt --include="${packages[*]}" "$suite" "$dir/root.tmp" >&2 ||
	die "mmdebstrap $suite failed"
unset IFS
mv "$dir/root.tmp" "$dir/root"
touch "$dir/done"
echo "$dir"
