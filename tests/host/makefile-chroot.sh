#!/usr/bin/env bash
# The build set of tools/deps.sh is all plain `make` needs: in a Debian 12
# root holding only that set (tools/build-chroot.sh, cached; make
# build-chroot), make builds both programs as an unprivileged user (uid
# 65534, the tree its own); with libjson-c-dev removed (by root) it fails
# naming it.  The root is mounted as the lower layer of an
# overlay, so the cached copy is never changed.  Skips, saying why, without
# the cached root or without root.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
what="make in a root with only the build packages"
# It builds its own tools: once, in the host stage, not again in the sanitize one.
if [ "${BUILD:-build}" != build ]; then
	skip "$what" "BUILD=$BUILD: the host stage runs it"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "$what" "needs root (mount, chroot)"
	exit 0
fi
dir=$(tools/build-chroot.sh --print-dir)
if [ ! -e "$dir/done" ]; then
	skip "$what" "no cached root $dir (make build-chroot: mmdebstrap, under a minute to 4 min)"
	exit 0
fi

tmp=$(mktemp -d)
m=$tmp/merged
# Unmount before anything is removed: an rm through a bind of /dev would empty it.
cleanup() {
	local p
	for p in "$m/dev" "$m/proc" "$m"; do
		mountpoint -q "$p" && umount "$p"
	done
	if mountpoint -q "$m/dev" || mountpoint -q "$m/proc" || mountpoint -q "$m"; then
		echo "# left $tmp: still mounted" >&2
		return
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/upper" "$tmp/work" "$m"
if ! mount -t overlay overlay -o "lowerdir=$dir/root,upperdir=$tmp/upper,workdir=$tmp/work" "$m"; then
	skip "$what" "an overlay mount failed here"
	exit 0
fi
mount --bind /dev "$m/dev" && mount -t proc proc "$m/proc" || {
	fail "$what" "could not mount /dev and /proc in the root"
	exit 0
}

# The tree as it is, tracked and new files, without build/.
mkdir -p "$m/src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$m/src" 2>/dev/null
else
	tar --exclude=./build --exclude=./results -cf - . | tar -xf - -C "$m/src"
fi

chown -R 65534:65534 "$m/src"
# as_user CMD: CMD in the tree as uid 65534; in_root CMD: as root.
as_user() {
	chroot --userspec=65534:65534 "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/tmp sh -c "cd /src && $1"
}
in_root() { chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c "cd /src && $1"; }

# A dry run first: make must not start a kernel or image build here.
as_user 'make -n' >"$tmp/dry.out" 2>&1
heavy=$(grep -E -m3 'build-kernel\.sh|mkinitramfs\.sh|tools/debian/|mmdebstrap|apt-get' "$tmp/dry.out" |
	tr '\n' ' ')
if [ -n "$heavy" ]; then
	fail "$what: not run" "a dry run shows make would build a kernel or image: $heavy"
	exit 0
fi

start=$SECONDS
if as_user 'make -j2' >"$tmp/make.out" 2>&1; then
	pass "$what: make as uid 65534 built in $((SECONDS - start)) s"
else
	fail "$what: make" "$(tail -3 "$tmp/make.out" | tr '\n' ' ')"
fi
for f in bin/bootprobe bin/probetrace man/man1/bootprobe.1 man/man8/probetrace.8; do
	check "$what: build/$f" test -s "$m/src/build/$f"
done

in_root 'dpkg -r libjson-c-dev' >/dev/null 2>&1
check "$what: libjson-c-dev removed" \
	sh -c '! chroot "$1" dpkg-query -W -f="\${db:Status-Status}" libjson-c-dev 2>/dev/null | grep -qx installed' \
	sh "$m"
want="make: libjson-c-dev is missing (sudo make deps-build, or apt-get install libjson-c-dev)"
if as_user 'make BUILD=build-nojson' >"$tmp/nojson.out" 2>&1; then
	fail "$what, without libjson-c-dev: make fails" "it succeeded"
else
	pass "$what, without libjson-c-dev: make fails"
fi
check "$what, without libjson-c-dev: make says $want" grep -qxF "$want" "$tmp/nojson.out"
