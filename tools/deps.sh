#!/usr/bin/env bash
# Install the Debian packages bootprobe needs, when any is missing.
# Quiet and quick when everything is there.
set -euo pipefail

packages=(
	linux-source-6.1 qemu-system-x86 gcc make clang llvm libbpf-dev bpftool
	libelf-dev zlib1g-dev dwarves flex bison bc libssl-dev busybox-static udev
	kmod cpio gnuplot-nox libjson-c-dev pkg-config ccache xz-utils lz4 zstd patch
	libclang-rt-14-dev jq mmdebstrap e2fsprogs gcc-12
	chromium	# tests/host/report-layout.sh renders report.html headless
	slurm-wlm munge parallel	# tests/fleet: a sharded run on Slurm and GNU parallel
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install packages (run: sudo make deps)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
