# The Debian releases the real-world guest is built for: sourced by
# base-root.sh and mkimage.sh.  One name per image; `debian` stays the name
# of Debian 12, the first one.  debian-13-dracut is Debian 13 with its
# initrd made by dracut instead of initramfs-tools.  Everything of a release comes from that
# release's own archive: its packages are resolved by apt with the release's
# sources and a state folder of its own, never by this machine's apt.
#
# release_load NAME sets:
#   release       the image's name (debian-12 for debian)
#   suite         the suite mmdebstrap installs
#   sources       the archive lines, one per line
#   kernel_pkg    the kernel package as mmdebstrap's --include takes it
#   default_rel   the release apt prefers for the kernel ("" = the suite's)
#   slowprobe     yes when slowprobe.ko is built for its kernel (slowprobe.sh:
#                 here for 6.1, in a root of the release for the others)
#   initrd_gen    the package that makes the initrd: initramfs-tools or dracut
#   slowprobe_rel the release whose root slowprobe.sh builds the module in
#                 (debian-13-dracut has debian-13's kernel: its module)
# and returns 1 for an unknown NAME.

RELEASES="debian-12 debian-13 debian-13-bpo debian-13-dracut debian-sid"
release_mirror=${BOOTPROBE_DEBIAN_MIRROR:-http://deb.debian.org}

release_load() {
	local m=$release_mirror kr=/usr/share/keyrings/debian-archive-keyring.gpg
	release=$1 default_rel= kernel_pkg=linux-image-amd64 slowprobe=yes initrd_gen=initramfs-tools
	slowprobe_rel=$1
	case $1 in
	debian | debian-12)
		release=debian-12 suite=bookworm slowprobe_rel=debian-12 ;;
	debian-13 | debian-13-bpo)
		suite=trixie ;;
	debian-13-dracut)
		suite=trixie initrd_gen=dracut slowprobe_rel=debian-13 ;;
	debian-sid)
		suite=sid ;;
	*)
		return 1 ;;
	esac
	sources="deb [signed-by=$kr] $m/debian $suite main"
	if [ "$suite" != sid ]; then
		sources+=$'\n'"deb [signed-by=$kr] $m/debian $suite-updates main"
		sources+=$'\n'"deb [signed-by=$kr] $m/debian-security $suite-security main"
	fi
	if [ "$release" = debian-13-bpo ]; then
		sources+=$'\n'"deb [signed-by=$kr] $m/debian $suite-backports main"
		kernel_pkg=linux-image-amd64/$suite-backports
		default_rel=$suite-backports
	fi
	return 0
}

# release_apt CACHE_DIR ARGS...: apt-get with the loaded release's sources
# and its own state under CACHE_DIR/apt-RELEASE (lists fetched once per call
# of release_apt_update).
release_apt_opts() {
	local d=$1/apt-$release
	printf '%s\n' -o "Dir::State=$d/state" -o "Dir::Cache=$d/cache" \
		-o "Dir::Etc::SourceList=$d/sources.list" -o "Dir::Etc::SourceParts=/dev/null" \
		-o "Dir::State::status=$d/state/status" -o "APT::Get::List-Cleanup=0" \
		-o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
	[ -z "$default_rel" ] || printf '%s\n' -o "APT::Default-Release=$default_rel"
}

release_apt_update() {
	local d=$1/apt-$release
	local -a opts
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial"
	: >"$d/state/status"
	printf '%s\n' "$sources" >"$d/sources.list"
	mapfile -t opts < <(release_apt_opts "$1")
	apt-get "${opts[@]}" update -qq
}

# release_candidate CACHE_DIR PACKAGE: the version apt would install.
release_candidate() {
	local -a opts
	mapfile -t opts < <(release_apt_opts "$1")
	apt-cache "${opts[@]}" policy "$2" 2>/dev/null | sed -n 's/^ *Candidate: //p'
}
