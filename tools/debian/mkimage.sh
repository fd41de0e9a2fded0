#!/usr/bin/env bash
# A real-world guest image of one Debian release (releases.sh): its base
# root (base-root.sh) with the bootprobe-collector package built from
# debian/ (make deb) installed the way a user installs it (dpkg -i, whose
# update-initramfs trigger makes the release's own initrd generator rebuild
# the initrd, with probetrace and its libraries: initramfs-tools' hook, or
# dracut's module 90bootprobe on debian-13-dracut), and slowprobe.ko built
# against the kernel's own linux-headers package (slowprobe.sh) in
# /lib/modules/KVER/updates, where the root's udev loads it for an edu
# device (on debian-13-dracut it is in the initrd too, loaded there with
# bootprobe.slowprobe=initrd: slowprobe-dracut.rules); then an ext4 disk
# image made from the folder with mke2fs -d (no loop mounts).
#
# Cached under a key of the base root and the package's bytes; OUT gets links to
# vmlinuz, initrd.img and root.img, plus image.json (the release and exact
# versions), build-hash (the image key) and boot-args (the collector's
# boot-time trace, made from this kernel's own BTF by PROBETRACE
# --boot-args, the host's build).
#
# usage: tools/debian/mkimage.sh RELEASE OUT_DIR COLLECTOR.deb PROBETRACE
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: mkimage.sh RELEASE OUT_DIR COLLECTOR.deb PROBETRACE"
name=${1:?$usage}
out=${2:?$usage}
deb=${3:?$usage}
probetrace=${4:?$usage}
cache=${BOOTPROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootprobe}
# shellcheck source=releases.sh
. "$top/tools/debian/releases.sh"
# Bump when the way the image is made changes (not its inputs).
recipe=6

die() { echo "debian-image: $*" >&2; exit 1; }
log() { echo "  DEBIAN  $*" >&2; }

release_load "$name" || die "$name: unknown release (known: $RELEASES)"
[ -x "$probetrace" ] || die "$probetrace: missing (make probetrace)"
[ -r "$deb" ] || die "$deb: missing (make debian-image builds it)"
command -v mke2fs >/dev/null || die "mke2fs: not installed (make deps)"

base_tar=$("$top/tools/debian/base-root.sh" "$release")
base_key=$(basename "$(dirname "$base_tar")")
key=$({ echo "recipe $recipe $release $base_key slowprobe $slowprobe"; sha256sum <"$deb"
	cat "$top/kernel-patches/slowprobe/slowprobe.c" "$top/kernel-patches/slowprobe/Kbuild" \
	    "$top/tools/debian/slowprobe.sh" "$top/tools/debian/vmlinux.sh"
	[ "$initrd_gen" = initramfs-tools ] || cat "$top/tools/debian/slowprobe-dracut.rules"
	} | sha256sum | cut -c1-16)
dir=$cache/debian/image-$release-$key

build_image() {
	local work root start=$SECONDS kver size_mb
	work=$(mktemp -d "$cache/debian/work.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	root=$work/root
	mkdir -p "$root"
	log "unpacking the base root $base_key"
	tar -xf "$base_tar" -C "$root"
	kver=$(cd "$root/boot" && ls vmlinuz-* | sed 's/^vmlinuz-//' | sort -V | tail -1)
	[ -n "$kver" ] || die "the base root has no /boot/vmlinuz-*"
	# dracut puts slowprobe into the initrd the package's trigger makes.
	if [ "$initrd_gen" = dracut ] && [ "$slowprobe" != no ]; then
		install_slowprobe "$root" "$kver"
		slowprobe_in_dracut "$root"
	fi
	cp "$deb" "$root/tmp/bootprobe-collector.deb"
	log "dpkg -i bootprobe-collector (its trigger makes $initrd_gen rebuild the initrd)"
	chroot "$root" dpkg -i /tmp/bootprobe-collector.deb >"$work/dpkg.log" 2>&1 ||
		{ cat "$work/dpkg.log" >&2; die "dpkg -i bootprobe-collector failed in the image"; }
	rm -f "$root/tmp/bootprobe-collector.deb"
	# The boot ends at multi-user.target (graphical.target adds nothing here).
	ln -sfn /lib/systemd/system/multi-user.target "$root/etc/systemd/system/default.target"
	if [ "$initrd_gen" = dracut ]; then
		grep -q '^Processing triggers for dracut ' "$work/dpkg.log" ||
			die "installing bootprobe-collector did not make dracut rebuild the initrd (see $work/dpkg.log)"
	else
		grep -q 'update-initramfs' "$work/dpkg.log" ||
			die "installing bootprobe-collector did not run update-initramfs (see $work/dpkg.log)"
	fi
	[ -s "$root/boot/initrd.img-$kver" ] || die "no initrd.img-$kver after update-initramfs"
	check_collector "$root" "$kver"
	[ "$slowprobe" = no ] || [ "$initrd_gen" = dracut ] || install_slowprobe "$root" "$kver"
	mkdir -p "$dir.tmp"
	log "vmlinux of $kver (its BTF gives the boot-time trace's offsets)"
	"$top/tools/debian/vmlinux.sh" "$root/boot/vmlinuz-$kver" "$dir.tmp/vmlinux"
	cp "$root/boot/vmlinuz-$kver" "$dir.tmp/vmlinuz"
	cp "$root/boot/initrd.img-$kver" "$dir.tmp/initrd.img"
	awk '/^Package:/ { p = $2 } /^Version:/ { print p, $2 }' "$root/var/lib/dpkg/status" |
		sort >"$dir.tmp/packages.txt"
	size_mb=$(( $(du -sm "$root" | cut -f1) * 3 / 2 + 256 ))
	log "mke2fs -d: ${size_mb} MB ext4 root image"
	mke2fs -q -t ext4 -L bootprobe-root -d "$root" "$dir.tmp/root.img" "${size_mb}M" \
		>"$work/mke2fs.log" 2>&1 || { cat "$work/mke2fs.log" >&2; false; } ||
		die "mke2fs -d $root failed"
	write_image_json "$dir.tmp" "$kver"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	touch "$dir/done"
	log "image $key in $((SECONDS - start)) s (kernel $kver, initrd $(du -m "$dir/initrd.img" | cut -f1) MB)"
}

# The package's probetrace is linked dynamically: it must start with the
# release's own libraries, and the initrd must hold it and them, and the
# code that starts it: initramfs-tools' scripts (lsinitramfs lists them),
# or dracut's module 90bootprobe, its units and its name "@probetrace"
# (lsinitrd: "PATH", or "PATH -> TARGET" for a link).
check_collector() {
	local root=$1 kver=$2 lib f
	local -a files=(sbin/probetrace usr/lib/bootprobe/start usr/lib/bootprobe/wait)
	chroot "$root" /usr/sbin/probetrace --help >/dev/null 2>"$work/probetrace.err" ||
		die "$release: /usr/sbin/probetrace does not start: $(head -1 "$work/probetrace.err")"
	if [ "$initrd_gen" = dracut ]; then
		chroot "$root" lsinitrd "/boot/initrd.img-$kver" >"$work/initrd.lsinitrd" ||
			die "$release: lsinitrd initrd.img-$kver failed"
		sed -n '/^[-dlcbps][-rwxsStT]\{9\} /{s/ -> .*$//;s/.* //;p;}' \
			"$work/initrd.lsinitrd" >"$work/initrd.list"
		grep -qx bootprobe "$work/initrd.lsinitrd" ||
			die "$release: initrd.img-$kver was made without dracut's module bootprobe"
		[ "$slowprobe" = no ] ||
			files+=(updates/slowprobe.ko etc/udev/rules.d/70-bootprobe-slowprobe.rules)
		files+=(usr/lib/bootprobe/argv0/@probetrace usr/lib/bootprobe/dracut-start
			usr/lib/bootprobe/dracut-handover
			systemd/system/bootprobe-collector.service
			systemd/system/initrd.target.wants/bootprobe-collector.service
			systemd/system/bootprobe-handover.service
			systemd/system/initrd-switch-root.target.wants/bootprobe-handover.service)
	else
		chroot "$root" lsinitramfs "/boot/initrd.img-$kver" >"$work/initrd.list" ||
			die "$release: lsinitramfs initrd.img-$kver failed"
		files+=(scripts/init-top/bootprobe scripts/local-bottom/bootprobe)
	fi
	for f in "${files[@]}"; do
		grep -q "\(^\|/\)$f\$" "$work/initrd.list" ||
			die "$release: initrd.img-$kver has no $f (the $initrd_gen integration did not run)"
	done
	for lib in libbpf.so.1 libjson-c.so.5 libelf.so.1; do
		grep -q "/$lib\$" "$work/initrd.list" ||
			die "$release: initrd.img-$kver has probetrace but not $lib"
	done
}

# dracut: slowprobe.ko and slowprobe-dracut.rules into the initrd too, so
# that a boot can have it loaded by the initrd's udevd
# (bootprobe.slowprobe=initrd) or, by default, the root's.
slowprobe_in_dracut() {
	local root=$1
	install -D -m 0644 "$top/tools/debian/slowprobe-dracut.rules" \
		"$root/etc/udev/rules.d/70-bootprobe-slowprobe.rules"
	printf '%s\n' "# bootprobe image: slowprobe in the initrd (slowprobe-dracut.rules)" \
		'add_drivers+=" slowprobe "' \
		'install_items+=" /etc/udev/rules.d/70-bootprobe-slowprobe.rules "' \
		>"$root/etc/dracut.conf.d/91-bootprobe-slowprobe.conf"
}

# slowprobe.ko where a module from outside the distribution goes; depmod
# gives udev its PCI alias, so the root's udev loads it for an edu device.
install_slowprobe() {
	local root=$1 kver=$2 pver ko
	pver=$(chroot "$root" dpkg-query -W -f '${Version}' "linux-image-$kver")
	ko=$("$top/tools/debian/slowprobe.sh" "$slowprobe_rel" "$kver" "$pver")
	install -D -m 0644 "$ko" "$root/lib/modules/$kver/updates/slowprobe.ko"
	chroot "$root" depmod "$kver"
	grep -q 'pci:v00001234d000011E8' "$root/lib/modules/$kver/modules.alias" ||
		die "depmod did not give slowprobe its PCI alias"
}

# What the manifest records about the guest: exact versions, keys, and
# what made its initrd (initrd.generator, the package: initramfs-tools or
# dracut; every boot.json and the report name it).
write_image_json() {
	local d=$1 kver=$2 genver
	ver() { awk -v p="$1" '$1 == p { print $2 }' "$d/packages.txt"; }
	genver=$(ver "$initrd_gen")
	[ -n "$genver" ] || die "$release: $initrd_gen, its initrd generator, is not installed"
	jq -n --arg image "$release" --arg suite "$suite" --arg key "$key" --arg base "$base_key" \
		--arg kernel "$kver" --arg kpkg "$(ver "linux-image-$kver")" \
		--arg systemd "$(ver systemd)" --arg udev "$(ver udev)" \
		--arg gen "$initrd_gen" --arg genver "$genver" --arg kmod "$(ver kmod)" \
		--arg collector "$(ver bootprobe-collector)" \
		'{image: $image, suite: $suite, image_key: $key, base_key: $base, kernel_release: $kernel,
		  initrd: {generator: $gen, version: $genver},
		  packages: {("linux-image-" + $kernel): $kpkg, systemd: $systemd, udev: $udev,
			     ($gen): $genver, kmod: $kmod,
			     "bootprobe-collector": $collector}}' >"$d/image.json"
}

if [ -e "$dir/done" ]; then
	log "cached image $key"
else
	rm -rf "$dir.tmp"
	build_image
	# Keep the newest two images of each release (about 1.5 GB each, sparse).
	ls -1dt "$cache"/debian/image-"$release"-????????????????/ 2>/dev/null | tail -n +3 | xargs -r rm -rf
fi
touch "$dir"
mkdir -p "$out"
for f in vmlinuz vmlinux initrd.img root.img image.json packages.txt; do
	ln -sfn "$dir/$f" "$out/$f"
done
echo "$key" >"$out/build-hash.tmp" && mv "$out/build-hash.tmp" "$out/build-hash"
"$probetrace" --boot-args --btf "$dir/vmlinux" >"$out/boot-args.tmp" ||
	die "$release: probetrace --boot-args --btf $dir/vmlinux failed"
mv "$out/boot-args.tmp" "$out/boot-args"
