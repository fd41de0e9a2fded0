#!/usr/bin/env bash
# The Debian packages of debian/: make deb builds bootprobe and
# bootprobe-collector (dpkg-buildpackage -b in a copy of the tree); each
# holds what it should (the collector's probetrace linked dynamically, its
# initramfs-tools scripts and its dracut module, its unit where systemd
# looks since the /usr merge, no systemctl of its own in a maintainer
# script, the update-initramfs trigger); lintian at its default
# level says nothing, this machine's and that of Debian 12 and 13, each run
# in a root of its release (tools/debian/check-root.sh, cached; made here
# when missing, 1-3 min each, as root with the archive reachable); there
# bootprobe installs by dpkg -i, its man page and bash completion are found,
# `bootprobe report` writes the report of a committed run, and dpkg -r
# removes it.  The releases' roots are mounted as the lower layer of an
# overlay, never changed.  Skips what the machine cannot do, saying why.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
what="the Debian packages"
# It builds its own packages: once, in the host stage, not again in the sanitize one.
if [ "${BUILD:-build}" != build ]; then
	skip "$what" "BUILD=$BUILD: the host stage runs it"
	exit 0
fi
for c in dpkg-buildpackage dh; do
	if ! command -v "$c" >/dev/null; then
		skip "$what" "$c not installed (make deps-package)"
		exit 0
	fi
done
# The committed run `bootprobe report` reads in each root (its boots, no report).
fixture=results/20261207-054712-kernels

tmp=$(mktemp -d)
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		mountpoint -q "${mounts[i]}" && umount "${mounts[i]}"
	done
	for i in "${mounts[@]}"; do
		if mountpoint -q "$i"; then
			echo "# left $tmp: $i still mounted" >&2
			return
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

# ---- the build ----------------------------------------------------------------
start=$SECONDS
if ! make -s deb >"$tmp/make.out" 2>&1; then
	fail "make deb builds the packages" "$(tail -3 "$tmp/make.out" | tr '\n' ' ')"
	exit 0
fi
pass "make deb builds the packages in build/deb/ ($((SECONDS - start)) s)"
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
bp_deb=build/deb/bootprobe_${version}_amd64.deb
col_deb=build/deb/bootprobe-collector_${version}_amd64.deb
for d in "$bp_deb" "$col_deb"; do
	check "$d is there" test -s "$d"
done
[ -s "$bp_deb" ] && [ -s "$col_deb" ] || exit 0
changes=build/deb/bootprobe_${version}_amd64.changes

# ---- what each package holds ----------------------------------------------------
dpkg-deb -c "$bp_deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/bp.list"
dpkg-deb -c "$col_deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/col.list"
has() {	# has LIST PATH
	grep -qxF "$2" "$1"
}
for f in /usr/bin/bootprobe /usr/share/man/man1/bootprobe.1.gz \
	/usr/share/bash-completion/completions/bootprobe /usr/share/doc/bootprobe/copyright; do
	check "bootprobe holds $f" has "$tmp/bp.list" "$f"
done
# dh_compress leaves a file under 4 kB as it is.
for f in README.md docs/*.md; do
	d=/usr/share/doc/bootprobe/$(basename "$f")
	has "$tmp/bp.list" "$d.gz" || has "$tmp/bp.list" "$d" || echo "$f" >>"$tmp/nodoc"
done
check "bootprobe holds README.md and every docs/*.md ($(ls docs/*.md | wc -l))" test ! -e "$tmp/nodoc"
[ -e "$tmp/nodoc" ] && echo "# not in the package: $(tr '\n' ' ' <"$tmp/nodoc")"
if [ -e tools/gather/bootprobe-gather ]; then
	check "bootprobe holds /usr/bin/bootprobe-gather (tools/gather/)" \
		has "$tmp/bp.list" /usr/bin/bootprobe-gather
fi
i=/usr/share/initramfs-tools
m=/usr/lib/dracut/modules.d/90bootprobe
for f in /usr/sbin/probetrace /usr/share/man/man8/probetrace.8.gz $i/hooks/bootprobe \
	$i/scripts/init-top/bootprobe $i/scripts/init-bottom/bootprobe \
	$i/scripts/local-bottom/bootprobe $i/scripts/nfs-bottom/bootprobe /usr/lib/bootprobe/finish \
	/usr/lib/bootprobe/start /usr/lib/bootprobe/wait $m/module-setup.sh $m/bootprobe-start.sh \
	$m/bootprobe-handover.sh $m/bootprobe-handover.service /usr/lib/systemd/system/bootprobe-collector.service \
	/usr/lib/bootprobe/bootprobe-gather \
	/usr/lib/systemd/system/bootprobe-finish.service /usr/share/doc/bootprobe-collector/copyright; do
	check "bootprobe-collector holds $f" has "$tmp/col.list" "$f"
done
check "neither package has a file under /lib, /bin or /sbin (aliased since the /usr merge)" \
	sh -c '! grep -qE "^/(lib|bin|sbin)/" "$1" "$2"' sh "$tmp/bp.list" "$tmp/col.list"

mkdir -p "$tmp/col" "$tmp/bp"
dpkg-deb -x "$col_deb" "$tmp/col"
dpkg-deb -e "$col_deb" "$tmp/col/DEBIAN"
dpkg-deb -x "$bp_deb" "$tmp/bp"
needed=$(readelf -d "$tmp/col/usr/sbin/probetrace" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' |
	tr '\n' ' ')
check "probetrace is linked dynamically to libbpf and json-c, which copy_exec copies (NEEDED: $needed)" \
	test -n "$needed" -a -z "${needed##*libbpf.so.1*}" -a -z "${needed##*libjson-c.so.5*}"
deps=$(dpkg-deb -f "$col_deb" Depends)
check "bootprobe-collector depends on its libraries and initramfs-tools or dracut ($deps)" \
	test -z "${deps##*libbpf1*}" -a -z "${deps##*"initramfs-tools | dracut"*}"
check "bootprobe-collector triggers update-initramfs" \
	grep -qx 'activate-noawait update-initramfs' "$tmp/col/DEBIAN/triggers"
# A maintainer script's own lines: those outside debhelper's snippets.
own_lines() {
	awk '/^# Automatically added by dh_/ { dh = 1 } !dh { print } /^# End automatically added section/ { dh = 0 }' "$1" |
		grep -vE '^(#!/bin/sh|set -e|#.*|)$'
}
own=
for s in preinst postinst prerm postrm; do
	[ -e "$tmp/col/DEBIAN/$s" ] && own+=$(own_lines "$tmp/col/DEBIAN/$s")
done
check "bootprobe-collector's maintainer scripts are debhelper's alone (no systemctl of ours)" \
	test -z "$own"
check "the postinst enables bootprobe-finish.service (deb-systemd-helper) and starts nothing" \
	sh -c 'grep -q "deb-systemd-helper enable .bootprobe-finish.service" "$1" &&
		! grep -q "deb-systemd-invoke start" "$1"' sh "$tmp/col/DEBIAN/postinst"
maint=$(dpkg-deb -f "$bp_deb" Maintainer)
check "the maintainer is a real address, not localhost ($maint)" \
	test -n "$maint" -a -n "${maint##*@localhost*}"
check "debian/copyright is machine-readable (DEP-5)" \
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
	"$tmp/bp/usr/share/doc/bootprobe/copyright"

# The completion offers every command of this bootprobe's --help.
complete_words() {	# complete_words BOOTPROBE WORD...: the completion's answer
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _bootprobe
		printf "%s\n" "${COMPREPLY[@]}"' sh "$tmp/bp/usr/share/bash-completion/completions/bootprobe" "$@"
}
bin=$tmp/bp/usr/bin/bootprobe
cmds=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' |
	sort | tr '\n' ' ')
got=$(complete_words "$bin" "" | grep -v '^-' | sort | tr '\n' ' ')
check "the bash completion offers every command of bootprobe --help ($cmds)" \
	test -n "$cmds" -a "$cmds" = "$got"
got=$(complete_words "$bin" report --no- | tr '\n' ' ')
check "the bash completion offers report's options (--no-: $got)" \
	test "$got" = "--no-charts --no-traces "

# ---- lintian ----------------------------------------------------------------------
# lintian_clean WHO OUTPUT: nothing at the default level (no E: or W: line).
lintian_clean() {
	local ew
	ew=$(grep -E '^[EW]: ' "$2")
	if [ -z "$ew" ]; then
		pass "lintian ($1) has nothing to say about the packages"
	else
		fail "lintian ($1) has nothing to say about the packages" \
			"$(echo "$ew" | wc -l) tags: $(echo "$ew" | head -3 | tr '\n' ' ')"
	fi
}
if command -v lintian >/dev/null; then
	lintian "$changes" >"$tmp/lintian.out" 2>&1
	lintian_clean "this machine's, $(lintian --version)" "$tmp/lintian.out"
else
	skip "lintian (this machine's)" "not installed (make deps-package)"
fi

# ---- each release: lintian, install, report -------------------------------------
# in_root ROOT COMMAND: COMMAND by sh in ROOT, a clean environment.
in_root() {
	chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh -c "$2"
}
release_checks() {
	local rel=$1 dir m out
	if [ "$(id -u)" -ne 0 ]; then
		skip "$rel: lintian, install, report in a root of the release" "needs root (mount, chroot)"
		return
	fi
	if ! dir=$(tools/debian/check-root.sh "$rel" 2>"$tmp/root-$rel.err"); then
		skip "$rel: lintian, install, report in a root of the release" \
			"no root: $(tail -1 "$tmp/root-$rel.err")"
		return
	fi
	m=$tmp/$rel/merged
	mkdir -p "$tmp/$rel/upper" "$tmp/$rel/work" "$m"
	if ! mount -t overlay overlay \
		-o "lowerdir=$dir/root,upperdir=$tmp/$rel/upper,workdir=$tmp/$rel/work" "$m"; then
		skip "$rel: lintian, install, report in a root of the release" "an overlay mount failed here"
		return
	fi
	mounts+=("$m")
	mount -t proc proc "$m/proc" && mounts+=("$m/proc")
	mkdir -p "$m/tmp/deb" "$m/tmp/run"
	cp build/deb/*.deb build/deb/*.changes build/deb/*.buildinfo "$m/tmp/deb/"
	out=$tmp/$rel/lintian.out
	in_root "$m" "cd /tmp/deb && lintian --version && lintian $(basename "$changes")" >"$out" 2>&1
	lintian_clean "$rel's, $(head -1 "$out")" "$out"

	if in_root "$m" "dpkg -i /tmp/deb/$(basename "$bp_deb")" >"$tmp/$rel/dpkg.out" 2>&1; then
		pass "$rel: dpkg -i bootprobe installs it (no network: its libraries are in the root)"
	else
		fail "$rel: dpkg -i bootprobe installs it" "$(grep -m2 -E 'depends|error' "$tmp/$rel/dpkg.out" |
			tr '\n' ' ')"
		return
	fi
	check "$rel: man finds bootprobe(1)" in_root "$m" 'man -w bootprobe >/dev/null'
	# The committed run, its boots without its report, into the root.
	cp "$fixture/manifest.json" "$m/tmp/run/"
	cp -r "$fixture/boots" "$m/tmp/run/"
	if in_root "$m" 'bootprobe report --no-charts --no-traces /tmp/run' >"$tmp/$rel/report.out" 2>&1; then
		pass "$rel: bootprobe report on $fixture exits 0"
	else
		fail "$rel: bootprobe report on $fixture exits 0" "$(tail -2 "$tmp/$rel/report.out" | tr '\n' ' ')"
	fi
	for f in report.md report.html summary.json; do
		check "$rel: the report wrote $f" test -s "$m/tmp/run/report/$f"
	done
	# The headline: 3 modes of 5 boots, all ok.
	check "$rel: the headline has the run's 3 modes, 5/5 ok each" \
		test "$(grep -cE '^debian-1[23](-bpo)? +5/5 ' "$tmp/$rel/report.out")" -eq 3
	if in_root "$m" 'dpkg -r bootprobe' >"$tmp/$rel/remove.out" 2>&1 &&
		[ ! -e "$m/usr/bin/bootprobe" ]; then
		pass "$rel: dpkg -r bootprobe removes it"
	else
		fail "$rel: dpkg -r bootprobe removes it" "$(tail -1 "$tmp/$rel/remove.out")"
	fi
}
release_checks debian-12
release_checks debian-13
