#!/usr/bin/env bash
# Build the bootprobe guest kernel from Debian's linux-source-6.1 tarball.
#
# The tree is extracted into a cache outside the repository, patched with
# kernel-patches/series, configured as tinyconfig + kernel-patches/bootprobe.config
# and built with ccache.  The cache is keyed by a hash of every input, so an
# unchanged input set is never rebuilt.  Results are copied into OUT:
#   bzImage vmlinux kernel.release build-hash config modules/
#
# usage: tools/build-kernel.sh OUT_DIR
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: build-kernel.sh OUT_DIR}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
patchdir=$top/kernel-patches
fragment=$patchdir/bootprobe.config
jobs=${JOBS:-$(nproc)}
# Bump when the way the kernel is built changes (not its inputs).
recipe=1

die() { echo "build-kernel: $*" >&2; exit 1; }
log() { echo "  KERNEL  $*"; }

[ -r "$tarball" ] || die "$tarball: not readable (install linux-source-6.1: make deps)"
[ -r "$fragment" ] || die "$fragment: missing config fragment"
[ -r "$patchdir/series" ] || die "$patchdir/series: missing patch series"

series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series"
}

# The key: tarball identity, every patch in series order, the fragment, the recipe.
compute_key() {
	{
		echo "recipe $recipe"
		stat -c 'tarball %s %Y' "$tarball"
		sha256sum "$tarball" | cut -d' ' -f1
		local p
		for p in $(series_patches); do
			[ -r "$patchdir/$p" ] || die "series names $p, which is not in kernel-patches/"
			echo "patch $p"
			cat "$patchdir/$p"
		done
		cat "$fragment"
	} | sha256sum | cut -c1-16
}

extract_and_patch() {
	local src=$1 p
	log "extracting $(basename "$tarball")"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	for p in $(series_patches); do
		log "applying $p"
		patch -d "$src" -p1 --batch --forward --quiet <"$patchdir/$p" >/dev/null ||
			die "patch $p does not apply to $(basename "$tarball")"
	done
}

# tinyconfig + fragment; then every fragment line must have stuck.
configure() {
	local src=$1 obj=$2 line opt
	log "configuring (tinyconfig + $(basename "$fragment"))"
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >"$obj/merge_config.log" 2>&1
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" >>"$obj/merge_config.log" 2>&1
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >>"$obj/merge_config.log" 2>&1
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		grep -qx "$line" "$obj/.config" ||
			die "$fragment: $opt did not stick (have: $(grep -E "^$opt=|# $opt is not set" "$obj/.config" || echo unset))"
	done <"$fragment"
}

build() {
	local src=$1 obj=$2 mods=$3 start=$SECONDS
	log "building bzImage + modules (-j$jobs, ccache)"
	export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
	make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" -j"$jobs" bzImage modules
	make -s -C "$src" O="$obj" ARCH=x86_64 INSTALL_MOD_PATH="$mods" INSTALL_MOD_STRIP=1 \
		modules_install >/dev/null
	log "built in $((SECONDS - start)) s"
}

# Keep the newest three builds; a kernel tree with objects is about 1.5 GB.
prune_cache() {
	ls -1dt "$cache"/kernel/*/ 2>/dev/null | tail -n +4 | while read -r old; do
		log "pruning old build $(basename "$old")"
		rm -rf "$old"
	done
}

publish() {
	local dir=$1
	rm -rf "$out/modules"
	mkdir -p "$out"
	cp "$dir/obj/arch/x86/boot/bzImage" "$dir/obj/vmlinux" "$dir/obj/.config" "$out/"
	mv "$out/.config" "$out/config"
	cp -r "$dir/mods/lib/modules" "$out/modules"
	cat "$dir/obj/include/config/kernel.release" >"$out/kernel.release"
	echo "$key" >"$out/build-hash"
	echo "$dir" >"$out/kernel-dir"
}

key=$(compute_key)
dir=$cache/kernel/$key
if [ -e "$dir/done" ]; then
	log "cached build $key"
else
	rm -rf "$dir"
	mkdir -p "$dir"
	extract_and_patch "$dir/src"
	configure "$dir/src" "$dir/obj"
	build "$dir/src" "$dir/obj" "$dir/mods"
	touch "$dir/done"
	prune_cache
fi
touch "$dir"
# Publishing copies vmlinux; skip it when OUT already holds this build.
if [ "$(cat "$out/build-hash" 2>/dev/null)" != "$key" ] || [ ! -e "$out/bzImage" ]; then
	publish "$dir"
fi
