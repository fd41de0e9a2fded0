#!/usr/bin/env bash
# The Makefile keeps its required flags whatever CFLAGS the user gives
# (make CFLAGS=-O0 still warns and still tracks headers), and `make all`
# names the collector, which tools/probetrace/probetrace.mk defines.
#
# Plain `make` builds the tools and nothing else: no kernel, no guest image,
# no package installed.  In a copy of the tree under /tmp it builds them as
# an unprivileged user (nobody, when run as root) with an empty build/; and
# with a build package missing it stops on one line naming it, as root
# too, without running apt-get.  The real builds run only when a dry run
# shows that make would not start a kernel or image build.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

obj=$tmp/obj/bootprobe/main.o
make -n --no-print-directory BUILD="$tmp" CFLAGS=-O0 "$obj" >"$tmp/cc" 2>&1
line=$(grep -e ' -c tools/bootprobe/main.c' "$tmp/cc")
for flag in -O0 -Wall -Wextra -std=gnu11 -MMD -MP; do
	check "make CFLAGS=-O0: the compile of main.c still has $flag" \
		grep -q -e " $flag\( \|$\)" <<<"$line"
done

# The rule as make read it: all's prerequisites, expanded when it was parsed.
make -pnq --no-print-directory BUILD="$tmp" all >"$tmp/db" 2>/dev/null
all=$(grep -m1 '^all:' "$tmp/db")
check "make all names the collector $tmp/bin/probetrace ($all)" \
	grep -q -e " $tmp/bin/probetrace\( \|$\)" <<<"$all"

# What make check and make bench build: every guest, the test programs.
make -pnq --no-print-directory BUILD="$tmp" check-build >"$tmp/db" 2>/dev/null
cb=$(grep -m1 '^check-build:' "$tmp/db")
for want in guests all "$tmp/bin/tests/test_" "$tmp/bin/fuzz/fuzz_" "$tmp/.deps/fleet"; do
	check "make check-build (tests/check.sh) builds $want" grep -q -e " $want" <<<"$cb"
done
bench=$(grep -m1 '^bench:' "$tmp/db")
check "make bench depends on guests ($bench)" grep -q -e ' guests\( \|$\)' <<<"$bench"
check "tests/check.sh makes check-build" grep -q 'make .*check-build' tests/check.sh

# A dry run of plain make into an empty build folder: the commands it would run.
make -n --no-print-directory BUILD="$tmp/dry" >"$tmp/dry.out" 2>&1
heavy=$(grep -E -m3 'build-kernel\.sh|mkinitramfs\.sh|tools/debian/|mmdebstrap|apt-get|tools/deps\.sh( install|$| *;)' "$tmp/dry.out" | tr '\n' ' ')
check "make (no target) would build no kernel, guest or image and install nothing${heavy:+: $heavy}" \
	test -z "$heavy"
check "make (no target) checks the build packages only (tools/deps.sh check build)" \
	grep -q 'tools/deps.sh check build' "$tmp/dry.out"

# A copy of the tree as it is (tracked and new files), without its build/.
copy=$tmp/tree
mkdir -p "$copy"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$copy" 2>/dev/null
else
	tar --exclude=./build --exclude=./results -cf - . | tar -xf - -C "$copy"
fi

# apt-get, apt and sudo that only say they were called.
shim=$tmp/shim
mkdir -p "$shim"
for c in apt-get apt sudo; do
	printf '#!/bin/sh\necho "%s $*" >>%s/called\nexit 1\n' "$c" "$tmp" >"$shim/$c"
done
chmod 755 "$shim"/*

# As nobody when root: the user of the issue, with no right to install.
as_user=()
who=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
	who=nobody
	as_user=(runuser -u nobody --)
	chown -R nobody "$copy"
fi

# They build their own tools: once, in the host stage, not again in the sanitize one.
if [ "${BUILD:-build}" != build ]; then
	skip "make as $who in a copy" "BUILD=$BUILD: the host stage builds it"
	exit 0
fi
if [ -n "$heavy" ]; then
	fail "make as $who in a copy: not run" "a dry run shows it would build a kernel or image"
	fail "a missing build package named: not run" "a dry run shows make would build a kernel or image"
	exit 0
fi

start=$SECONDS
if "${as_user[@]}" env PATH="$shim:$PATH" HOME="$tmp" make -C "$copy" --no-print-directory -j2 \
	>"$tmp/user.out" 2>&1; then
	pass "make as $who in a copy with an empty build/: built in $((SECONDS - start)) s"
else
	fail "make as $who in a copy with an empty build/" "$(tail -3 "$tmp/user.out" | tr '\n' ' ')"
fi
for f in bin/bootprobe bin/probetrace man/man1/bootprobe.1 man/man8/probetrace.8; do
	check "make as $who made build/$f" test -s "$copy/build/$f"
done
check "make as $who: the collector built from the tree's vmlinux.h, with no build/guest" \
	test ! -e "$copy/build/guest"
check "make as $who: the tools run (bootprobe --help)" \
	sh -c '"$1" --help >/dev/null' sh "$copy/build/bin/bootprobe"
check "make as $who ran neither apt-get nor sudo" test ! -e "$tmp/called"

# libjson-c-dev missing, as dpkg-query reports it; the same user, then root.
cat >"$shim/dpkg-query" <<EOF
#!/bin/sh
$(command -v dpkg-query) "\$@" | sed 's/^libjson-c-dev .*/libjson-c-dev not-installed/'
EOF
chmod 755 "$shim/dpkg-query"
want="make: libjson-c-dev is missing (sudo make deps-build, or apt-get install libjson-c-dev)"
users=("$who")
[ "$(id -u)" -eq 0 ] && users+=(root)
for u in "${users[@]}"; do
	runas=()
	[ "$u" = nobody ] && runas=("${as_user[@]}")
	rm -f "$tmp/called"
	if "${runas[@]}" env PATH="$shim:$PATH" HOME="$tmp" make -C "$copy" --no-print-directory \
		BUILD="$copy/build-$u" >"$tmp/miss.out" 2>&1; then
		fail "make as $u without libjson-c-dev fails" "it succeeded"
	else
		pass "make as $u without libjson-c-dev fails"
	fi
	check "make as $u without libjson-c-dev says: $want" grep -qxF "$want" "$tmp/miss.out"
	check "make as $u without libjson-c-dev compiles nothing" \
		test ! -e "$copy/build-$u/obj"
	check "make as $u without libjson-c-dev runs neither apt-get nor sudo" test ! -e "$tmp/called"
done

# The tree's vmlinux.h is the lab kernel's BTF, when a kernel was built here
# (-o: the kernel is taken as it stands, never rebuilt by this test).
if [ -e build/guest/vmlinux ] && [ -e build/guest/build-hash ] && command -v bpftool >/dev/null; then
	if make --no-print-directory -o build/guest/build-hash BUILD="$tmp/vm" GUEST=build/guest \
		vmlinux-h-check >"$tmp/vm.out" 2>&1; then
		pass "bpf/vmlinux/x86_64/vmlinux.h is the lab kernel's (make vmlinux-h-check)"
	else
		fail "bpf/vmlinux/x86_64/vmlinux.h is the lab kernel's (make vmlinux-h-check)" \
			"$(tail -1 "$tmp/vm.out")"
	fi
else
	skip "bpf/vmlinux/x86_64/vmlinux.h is the lab kernel's" "no lab kernel built here (make guest)"
fi
