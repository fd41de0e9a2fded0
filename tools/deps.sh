#!/usr/bin/env bash
# The Debian packages bootprobe needs, in sets, each wanted only by the
# make targets that use it (the Makefile's "packages" section).
#
# usage: tools/deps.sh check SET...     name what is missing, exit 1 if any
#        tools/deps.sh install SET...   install what is missing (root)
#        tools/deps.sh list SET...      the packages of the sets, one a line
#
# SET: build guest image run test fleet package, or all.  Quiet and quick when
# everything is there.  `check` never installs: plain `make` uses it, as
# any user, and stops on one line naming the packages to install.
set -euo pipefail

declare -A sets=(
	# The host CLI and the collector: C, the CO-RE BPF programs, the
	# skeletons, a static link (libc6-dev: gcc only recommends it).
	[build]="gcc libc6-dev make clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libjson-c-dev"
	# The lab guest: the patched kernel (tools/build-kernel.sh) and the
	# initramfs with busybox, Debian's udevd and kmod (tools/mkinitramfs.sh).
	[guest]="linux-source-6.1 dwarves flex bison bc libssl-dev pkg-config ccache xz-utils lz4 patch
		 busybox-static udev kmod cpio"
	# The Debian images (tools/debian/): a root by mmdebstrap, the ext4
	# image, slowprobe built with the stock kernel's compiler, its vmlinux.
	[image]="mmdebstrap e2fsprogs jq gcc-12 xz-utils zstd lz4 kmod"
	# Booting and reporting: QEMU, gnuplot for the report's charts.
	[run]="qemu-system-x86 gnuplot-nox"
	# The tests: libFuzzer's runtime, jq, report.html rendered headless
	# (tests/host/report-layout.sh), checkbashisms for the POSIX sh of
	# bootprobe-gather (tests/host/import-gathered.sh; devscripts without
	# its recommends: 8 packages, 3 MB on bookworm).
	[test]="libclang-rt-14-dev jq python3 chromium devscripts"
	# tests/fleet: a sharded run on Slurm and GNU parallel.
	[fleet]="slurm-wlm munge parallel"
	# The Debian packages (debian/, make deb) and their checks: lintian,
	# and the throw-away roots tests/host/debian-package.sh installs into.
	[package]="dpkg-dev debhelper fakeroot lintian mmdebstrap"
)
order=(build guest image run test fleet package)

usage() {
	echo "usage: tools/deps.sh check|install|list SET... (SET: ${order[*]} all)" >&2
	exit 2
}

[ $# -ge 2 ] || usage
action=$1
shift
case "$action" in check | install | list) ;; *) usage ;; esac

want=()
for set in "$@"; do
	if [ "$set" = all ]; then
		for s in "${order[@]}"; do
			# shellcheck disable=SC2206 # the lists are words
			want+=(${sets[$s]})
		done
	elif [ -n "${sets[$set]+x}" ]; then
		# shellcheck disable=SC2206
		want+=(${sets[$set]})
	else
		echo "deps: $set: no such set (${order[*]} all)" >&2
		exit 2
	fi
done
mapfile -t want < <(printf '%s\n' "${want[@]}" | awk '!seen[$0]++')

if [ "$action" = list ]; then
	printf '%s\n' "${want[@]}"
	exit 0
fi

# Sets installed by make -j at once: one apt-get at a time, each seeing
# what the one before it installed.
if [ "$action" = install ] && [ "$(id -u)" -eq 0 ] && command -v flock >/dev/null; then
	exec 9>>/run/lock/bootprobe-deps.lock 2>/dev/null || exec 9>>/tmp/bootprobe-deps.lock
	flock 9
fi

# Which of them is not installed: one dpkg-query for them all.
if ! command -v dpkg-query >/dev/null; then
	[ "$action" = check ] && exit 0	# not Debian: the compiler will say what is missing
	echo "deps: dpkg-query not found: install the packages of '$*' by hand" >&2
	exit 1
fi
missing=()
declare -A installed=()
while read -r pkg status; do
	[ "$status" = installed ] && installed[${pkg%%:*}]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${want[@]}" 2>/dev/null || true)
for p in "${want[@]}"; do
	[ -n "${installed[$p]+x}" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# How the user gets them: the make target of the sets asked for.
target=deps
[ $# -eq 1 ] && [ "$1" != all ] && target=deps-$1
if [ ${#missing[@]} -eq 1 ]; then are=is; else are=are; fi
hint="${missing[*]} $are missing (sudo make $target, or apt-get install ${missing[*]})"

if [ "$action" = check ]; then
	echo "make: $hint" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: $hint; installing needs root" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
