#!/usr/bin/env bash
# The Debian packages of debian/ (bootprobe and bootprobe-collector), built
# the way Debian builds them, dpkg-buildpackage -b -us -uc, in a copy of the
# tree (its tracked and new files, without build/), so that the work tree
# gets no build droppings.  debian/ is the one recipe of both packages; this
# only makes the copy.  The .debs land in OUT_DIR (make deb: build/deb), the
# copy in OUT_DIR/src, dpkg-buildpackage's output in OUT_DIR/build.log.
#
# usage: tools/debian/mkdeb.sh OUT_DIR
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: mkdeb.sh OUT_DIR}

die() { echo "mkdeb: $*" >&2; exit 1; }
command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage: not installed (make deps-package)"
[ -r "$top/debian/control" ] || die "$top/debian/control: missing"

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src
case "$src/" in
"$top"/build/* | "$top"/build/) ;;
"$top"/*) die "$out: inside the tree but not under build/ (the copy would copy itself)" ;;
esac
# Nothing of an earlier build: its packages, its copy.
rm -rf "$src"
rm -f "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo "$out"/*.changes "$out/build.log"
mkdir -p "$src"
cd "$top"
if git rev-parse --git-dir >/dev/null 2>&1; then
	# Tracked files deleted in the work tree are left out.
	git ls-files -z -co --exclude-standard | grep -zv '^build/' |
		while IFS= read -r -d '' f; do
			if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
		done | xargs -0 -r cp -P --parents -t "$src"
else
	tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi

cd "$src"
echo "  DEB       dpkg-buildpackage -b in $src" >&2
if ! dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1; then
	tail -20 "$out/build.log" >&2
	die "dpkg-buildpackage failed (the whole log: $out/build.log)"
fi
ls -1 "$out"/*.deb
