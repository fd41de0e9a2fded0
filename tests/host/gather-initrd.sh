#!/usr/bin/env bash
# What made a gathered boot's initrd (issue 27): bootprobe-gather says it in
# gather.txt ("initrd_generator NAME [VERSION]", "unknown", "none", and
# "initrd_evidence WHY") from evidence on the machine only, and import puts
# it in the boot's boot.json initrd_generator, which report's "initrd made
# by" column shows.  The script runs here for real, in a mount namespace
# whose /proc/cmdline is a fixture's, with journalctl, systemctl, dmesg,
# dpkg-query and friends replaced by stubs that say what a dracut, an
# initramfs-tools and an initrd-less machine would.  A bad value in
# gather.txt is refused at FILE:LINE, counted, and the boot kept; a folder
# from before the line imports as before.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "what made a gathered boot's initrd"
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT; echo "# $tmp"
g=$PWD/tools/gather/bootprobe-gather

# ---- the script, on fake machines ------------------------------------------------------

# machine NAME CMDLINE SD_INITRD DRACUT_UNITS(0|1) PKG=VER... : a stub folder
# $tmp/NAME/bin whose commands say what that machine would.  SD_INITRD is
# what systemctl says of initrd.target ("fail": systemctl fails).  The
# kernel log is $tmp/NAME/dmesg, written by the caller.
machine() {
	local m=$tmp/$1 cmdline=$2 sd=$3 units=$4 p
	shift 4
	mkdir -p "$m/bin" "$m/out"
	printf '%s\n' "$cmdline" >"$m/cmdline"
	: >"$m/pkgs"
	for p in "$@"; do echo "$p" >>"$m/pkgs"; done
	cat >"$m/bin/dmesg" <<EOF
#!/bin/sh
cat '$m/dmesg'
EOF
	if [ "$sd" = fail ]; then
		printf '#!/bin/sh\necho "Failed to connect to bus" >&2\nexit 1\n' >"$m/bin/systemctl"
	else
		cat >"$m/bin/systemctl" <<EOF
#!/bin/sh
case "\$*" in *"ActiveEnterTimestampMonotonic initrd.target"*) echo $sd ;; *) exit 1 ;; esac
EOF
	fi
	# journalctl: dracut's units when asked for them on a dracut machine, else nothing.
	cat >"$m/bin/journalctl" <<EOF
#!/bin/sh
case "\$*" in
*"-u dracut-cmdline.service"*) [ $units = 1 ] && echo "Starting dracut-cmdline.service - dracut cmdline hook..." ;;
*" -k "*) echo "-- No entries --" ;;
esac
exit 0
EOF
	cat >"$m/bin/dpkg-query" <<EOF
#!/bin/sh
for a; do p=\$a; done
v=\$(sed -n "s/^\$p=//p" '$m/pkgs')
[ -n "\$v" ] || { echo "dpkg-query: no packages found matching \$p" >&2; exit 1; }
echo "installed \$v"
EOF
	printf '#!/bin/sh\nexit 127\n' >"$m/bin/rpm"
	printf '#!/bin/sh\nexit 127\n' >"$m/bin/pacman"
	printf '#!/bin/sh\nexit 127\n' >"$m/bin/dracut"
	printf '#!/bin/sh\necho "Startup finished in 1.000s (kernel) + 2.000s (userspace) = 3.000s"\necho "multi-user.target reached after 1.900s in userspace."\n' \
		>"$m/bin/systemd-analyze"
	chmod +x "$m/bin/"*
}

# gather NAME: the script on machine NAME, its /proc/cmdline the machine's; the folder in $tmp/NAME/dir.
gather() {
	local m=$tmp/$1
	unshare -m sh -c 'mount --bind "$1/cmdline" /proc/cmdline && PATH="$1/bin:$PATH" "$2" -a time -o "$1/out"' \
		_ "$m" "$g" >"$m/stdout" 2>"$m/stderr"
	echo $? >"$m/rc"
	ln -sfn "$(tail -n 1 "$m/stdout")" "$m/dir"
	sed 's/^/#   /' "$m/dir/gather.txt" 2>/dev/null | grep '#   initrd_'
}

# klog UNPACK(0|1) INIT: a kernel log with its first line, a probe line, an
# initrd unpacked or not, and the kernel's "Run INIT as init process".
klog() {
	echo '[    0.000000] Linux version 6.12.118+deb13-amd64 (debian-kernel@lists.debian.org) #1 SMP'
	echo '[    0.000000] Command line: BOOT_IMAGE=/vmlinuz root=/dev/vda1 initcall_debug'
	[ "$1" = 1 ] && echo '[    0.412345] Trying to unpack rootfs image as initramfs...'
	[ "$1" = 1 ] && echo '[    0.601234] Freeing initrd memory: 31744K'
	echo '[    0.700000] probe of 0000:00:01.0 returned 0 after 1234 usecs'
	echo "[    0.900000] Run $2 as init process"
}

# initrd_line NAME: gather.txt's initrd_generator value.
initrd_line() { sed -n 's/^initrd_generator //p' "$tmp/$1/dir/gather.txt"; }
evidence() { sed -n 's/^initrd_evidence //p' "$tmp/$1/dir/gather.txt"; }

if ! unshare -m true 2>/dev/null; then
	skip "bootprobe-gather on fake machines" "unshare -m fails here (needs root and mount namespaces)"
else
	machine dracut "BOOT_IMAGE=/vmlinuz-6.12 root=/dev/vda1 ro" 2345678 1 dracut=106-6 systemd=257.9-1
	klog 1 /init >"$tmp/dracut/dmesg"
	gather dracut
	check "dracut (its units in the journal, systemd in the initrd): 'dracut 106-6' (rc $(cat "$tmp/dracut/rc"))" \
		test "$(initrd_line dracut)" = "dracut 106-6"
	check "... saying how it knew: the journal's dracut units, initrd.target, dpkg-query" \
		bash -c 'grep -q "^initrd_evidence dracut.s initrd units in this boot.s journal; initrd.target reached at 2345678 us; the version is the installed package.s (dpkg-query)$" "$1"' \
		_ "$tmp/dracut/dir/gather.txt"

	machine itools "BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda1 ro" 0 0 initramfs-tools=0.142+deb12u3
	klog 1 /init >"$tmp/itools/dmesg"
	gather itools
	check "initramfs-tools (an initrd unpacked, no systemd in it, the only generator installed): 'initramfs-tools 0.142+deb12u3'" \
		test "$(initrd_line itools)" = "initramfs-tools 0.142+deb12u3"
	check "... saying how it knew" bash -c '[[ $1 == "the kernel unpacked an initrd, without systemd (initrd.target not reached); initramfs-tools is the only initrd generator installed (dpkg-query, its version now)" ]]' _ "$(evidence itools)"

	machine both "root=/dev/vda1 ro" 0 0 initramfs-tools=0.142 dracut=106-6
	klog 1 /init >"$tmp/both/dmesg"
	gather both
	check "an initrd without systemd, two generators installed, no dracut line: unknown, not a guess" \
		bash -c '[ "$1" = unknown ] && [[ $2 == *"more than one generator installed: initramfs-tools dracut" ]]' \
		_ "$(initrd_line both)" "$(evidence both)"

	machine noinitrd "root=/dev/mmcblk0p2 rootwait" 0 0 initramfs-tools=0.142
	klog 0 /sbin/init >"$tmp/noinitrd/dmesg"
	gather noinitrd
	check "no initrd (none unpacked or given, the kernel ran /sbin/init itself): 'none'" \
		bash -c '[ "$1" = none ] && [[ $2 == "the kernel ran /sbin/init itself:"* ]]' \
		_ "$(initrd_line noinitrd)" "$(evidence noinitrd)"

	machine initrdarg "initrd=\\initrd.img root=/dev/vda1" 0 0
	klog 0 /sbin/init >"$tmp/initrdarg/dmesg"
	gather initrdarg
	check "initrd= on the command line: not 'none' (unknown: no generator installed)" \
		bash -c '[ "$1" = unknown ] && [[ $2 == "initrd= on the command line, without systemd"* ]]' \
		_ "$(initrd_line initrdarg)" "$(evidence initrdarg)"

	machine nosystemctl "root=/dev/vda1" fail 0 initramfs-tools=0.142
	klog 0 /sbin/init >"$tmp/nosystemctl/dmesg"
	gather nosystemctl
	check "systemctl cannot say whether systemd ran in the initrd: unknown, and why" \
		bash -c '[ "$1" = unknown ] && [[ $2 == *"systemctl could not say whether systemd ran in the initrd" ]]' \
		_ "$(initrd_line nosystemctl)" "$(evidence nosystemctl)"

	machine sdother "root=/dev/vda1" 1500000 0 mkinitcpio=39.2-2
	klog 1 /init >"$tmp/sdother/dmesg"
	gather sdother
	check "systemd in the initrd without dracut's units: unknown (not dracut)" \
		test "$(initrd_line sdother)" = unknown

	# The script's own folders import with their generator (one boot id: the host's, so two runs).
	for m in dracut noinitrd; do
		"$BP" import -o "$tmp/res" --run-id "script-$m" --mode m "$tmp/$m/dir" >"$tmp/script-$m.out" 2>&1
		echo $? >"$tmp/script-$m.rc"
		sed 's/^/#   /' "$tmp/script-$m.out"
	done
	check "the script's folders import (rc $(cat "$tmp/script-dracut.rc") $(cat "$tmp/script-noinitrd.rc")), boot.json says 'dracut 106-6' and 'none'" \
		bash -c '[ "$(cat "$1/script-dracut.rc")$(cat "$1/script-noinitrd.rc")" = 00 ] &&
			grep -q "\"initrd_generator\":\"dracut 106-6\"" "$1/res/script-dracut/boots/m-001/boot.json" &&
			grep -q "\"initrd_generator\":\"none\"" "$1/res/script-noinitrd/boots/m-001/boot.json"' _ "$tmp"
fi

# ---- import: gather.txt's line into boot.json and the report -----------------------------

# folder NAME [GATHER.TXT LINE...]: the recorded Debian 12 folder, with these lines added.
folder() {
	local d=$tmp/$1 l
	shift
	rm -rf "$d"
	cp -r tests/data/gathered/debian-12/gathered "$d"
	for l in "$@"; do printf '%s\n' "$l" >>"$d/gather.txt"; done
}
# import_one NAME: its import into run NAME; the output in $tmp/NAME.out, rc in $tmp/NAME.rc.
import_one() {
	"$BP" import -o "$tmp/res" --run-id "$1" --mode m "$tmp/$1" >"$tmp/$1.out" 2>&1
	echo $? >"$tmp/$1.rc"
	sed 's/^/#   /' "$tmp/$1.out" | grep -v 'from the kernel log:' | head -6
}
bootjson() { echo "$tmp/res/$1/boots/m-001/boot.json"; }
report() { "$BP" report --no-charts --no-traces --out "$tmp/rep-$1" "$tmp/res/$1" >/dev/null 2>&1; }

folder good "initrd_generator initramfs-tools 0.142+deb12u3" "initrd_evidence the kernel unpacked an initrd"
import_one good
report good
check "a folder with initrd_generator: imported (rc $(cat "$tmp/good.rc")), nothing refused" \
	bash -c '[ "$1" -eq 0 ] && ! grep -q "records* refused" "$2"' _ "$(cat "$tmp/good.rc")" "$tmp/good.out"
check "... boot.json's initrd_generator is gather.txt's" \
	grep -q '"initrd_generator":"initramfs-tools 0.142+deb12u3"' "$(bootjson good)"
check "... and report's Modes table says what made the initrd" \
	bash -c 'grep -q "| mode | initrd made by |" "$1" && grep -q "| m | initramfs-tools 0.142+deb12u3 |" "$1"' \
	_ "$tmp/rep-good/report.md"

folder old
import_one old
report old
check "a folder from before the line imports as before (rc $(cat "$tmp/old.rc")): no initrd_generator, no column" \
	bash -c '[ "$1" -eq 0 ] && ! grep -q initrd_generator "$2" && ! grep -q "initrd made by" "$3"' \
	_ "$(cat "$tmp/old.rc")" "$(bootjson old)" "$tmp/rep-old/report.md"

folder unknown "initrd_generator unknown"
import_one unknown
report unknown
check "'unknown' is said as such" bash -c 'grep -q "\"initrd_generator\":\"unknown\"" "$1" &&
	grep -q "| m | unknown |" "$2"' _ "$(bootjson unknown)" "$tmp/rep-unknown/report.md"

# bad NAME LINE WHY-PATTERN: a bad initrd_generator line is refused at
# gather.txt:LINE, counted, and the boot kept without it.
bad() {
	local name=$1 what=$3 line
	folder "$name" "$2"
	line=$(wc -l <"$tmp/$name/gather.txt")
	import_one "$name"
	check "$name: refused at gather.txt:$line ($what), counted, the boot kept without it (rc $(cat "$tmp/$name.rc"))" \
		bash -c '[ "$1" -eq 0 ] && grep -q "$2/gather.txt:$3: initrd_generator: $4.* (refused)" "$5" &&
			grep -q "kept, incomplete: .*: 1 record refused (first: .*gather.txt:$3: initrd_generator" "$5" &&
			[ -f "$6" ] && ! grep -q initrd_generator "$6"' \
		_ "$(cat "$tmp/$name.rc")" "$name" "$line" "$what" "$tmp/$name.out" "$(bootjson "$name")"
}
bad toolong "initrd_generator dracut $(printf '1%.0s' $(seq 70))" "7[0-9] bytes, more than 63"
bad control "$(printf 'initrd_generator dracut 106\033[31m')" "a control byte (0x1b)"
bad nonutf8 "$(printf 'initrd_generator dracut 10\xff6')" "bytes that are not UTF-8 text"
bad pipe "initrd_generator dracut | 106" "not NAME \[VERSION\]"
bad empty "initrd_generator " "not NAME \[VERSION\]"

folder twice "initrd_generator dracut 106-6" "initrd_generator initramfs-tools 0.142"
import_one twice
check "a second initrd_generator line is refused, the first kept" \
	bash -c 'grep -q "twice/gather.txt:[0-9]*: a second initrd_generator line (line [0-9]*.s is read; refused)" "$1" &&
		grep -q "\"initrd_generator\":\"dracut 106-6\"" "$2"' _ "$tmp/twice.out" "$(bootjson twice)"

folder otherboot "initrd_generator dracut 106-6"
sed -i 's/^boot_id .*/boot_id 99999999-2222-4333-8444-000000000612/' "$tmp/otherboot/gather.txt"
import_one otherboot
check "gather.txt of another boot than its kernel log: named, its initrd_generator not read" \
	bash -c 'grep -q "otherboot/gather.txt:2: boot id 99999999-2222-4333-8444-000000000612, not the kernel log.s .*: its initrd_generator is another boot.s (not read)" "$1" &&
		! grep -q initrd_generator "$2"' _ "$tmp/otherboot.out" "$(bootjson otherboot)"

# ---- a collector's stream that carried its gathered folder (bootprobe.gather=1) --------

# stream NAME BOOT_ID [GATHER.TXT LINE...]: a real stream (tests/data/boots/killed)
# with the attachments finish adds: boot-id.txt and gather.gather.txt.
stream() {
	local f=$tmp/$1.jsonl id=$2 g
	shift 2
	g=$(printf '%s\n' "bootprobe-gather 1" "boot_id $id" "$@")
	jq -c 'select(.type != "trailer")' tests/data/boots/killed/events.jsonl >"$f"
	jq -nc --arg t "$id" '{type: "attachment", name: "boot-id.txt", bytes: ($t | length + 1),
		truncated: false, text: ($t + "\n")}' >>"$f"
	jq -nc --arg t "$g" '{type: "attachment", name: "gather.gather.txt", bytes: ($t | length + 1),
		truncated: false, text: ($t + "\n")}' >>"$f"
	jq -c 'select(.type == "trailer")' tests/data/boots/killed/events.jsonl >>"$f"
}
sid=5b2c8d10-7e4f-4a61-9d3b-2f7c1e0a9b44
stream sgood "$sid" "initrd_generator dracut 106-6" "initrd_evidence dracut's initrd units in this boot's journal"
"$BP" import -o "$tmp/res" --run-id sgood --mode m "$tmp/sgood.jsonl" >"$tmp/sgood.out" 2>&1
echo "# stream import (rc $?): $(tr '\n' ' ' <"$tmp/sgood.out")"
report sgood
check "a stream with its gathered folder: boot.json's initrd_generator is its gather.txt's" \
	grep -q '"initrd_generator":"dracut 106-6"' "$(bootjson sgood)"
check "... and report's Modes table says it" grep -q "| m | dracut 106-6 |" "$tmp/rep-sgood/report.md"

stream sother "$sid" "initrd_generator dracut 106-6"
sed -i "s/boot_id $sid/boot_id 99999999-2222-4333-8444-000000000612/" "$tmp/sother.jsonl"
"$BP" import -o "$tmp/res" --run-id sother --mode m "$tmp/sother.jsonl" >"$tmp/sother.out" 2>&1
sed 's/^/#   /' "$tmp/sother.out"
check "a stream whose gather.txt is another boot's: named, its initrd_generator not read" \
	bash -c 'grep -q "gather.gather.txt:2: boot id 99999999-2222-4333-8444-000000000612, not the stream.s '"$sid"': its initrd_generator is another boot.s (not read)" "$1" &&
		! grep -q initrd_generator "$2"' _ "$tmp/sother.out" "$(bootjson sother)"
