#!/usr/bin/env bash
# probetrace --boot-args derives every offset the boot-time kprobes fetch
# from the kernel's own BTF: checked, for every kernel this machine has the
# BTF of (the lab's build, each Debian image's vmlinux, the running host
# kernel's /sys/kernel/btf/vmlinux, only read), against pahole's reading of
# the same BTF.  Also: a compressed vmlinuz and a missing file are refused
# with one line naming them.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
PT=${BUILD:-build}/bin/probetrace
if [ ! -x "$PT" ] || ! command -v pahole >/dev/null; then
	skip "probetrace --boot-args" "probetrace or pahole missing (make)"
	exit 0
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# pahole_off BTF STRUCT MEMBER: the member's byte offset, as pahole prints it.
pahole_off() {
	pahole -F btf -C "$2" "$1" 2>/dev/null |
		awk -v m="$3" '{ for (i = 1; i <= NF; i++) if ($i ~ "^\\**" m "(\\[[0-9]+\\])?;$") {
			for (j = i; j <= NF; j++) if ($j == "/*") { print $(j + 1); exit } } }'
}

# arg ARGS EVENT FIELD [TYPE]: the fetch of FIELD= (of TYPE, default
# string) in the kprobe EVENT.
arg() {
	tr ';' '\n' <"$1" | grep "bootprobe/$2," | tr ',' '\n' |
		sed -n "s/^$3=\(.*\):${4:-string}\$/\1/p"
}

kernels=()
for f in build/guest/vmlinux build/debian/vmlinux build/debian-*/vmlinux /sys/kernel/btf/vmlinux; do
	[ -r "$f" ] && kernels+=("$f")
done
[ ${#kernels[@]} -gt 0 ] || { skip "probetrace --boot-args" "no BTF on this machine"; exit 0; }

for k in "${kernels[@]}"; do
	out=$t/args
	if ! "$PT" --boot-args --btf "$k" >"$out" 2>"$t/err"; then
		fail "$k: probetrace --boot-args" "$(head -1 "$t/err")"
		continue
	fi
	dev_parent=$(pahole_off "$k" device parent)
	dev_driver=$(pahole_off "$k" device driver)
	drv_owner=$(pahole_off "$k" device_driver owner)
	mod_name=$(pahole_off "$k" module name)
	disk_name=$(pahole_off "$k" gendisk disk_name)
	nd_name=$(pahole_off "$k" net_device name)
	echo "# $k: device.parent +$dev_parent .driver +$dev_driver, device_driver.owner" \
		"+$drv_owner, module.name +$mod_name, gendisk.disk_name +$disk_name," \
		"net_device.name +${nd_name:-none}"
	check "$k: the driver's module name at module.name +$mod_name of device_driver.owner +$drv_owner" \
		test "$(arg "$out" probe_entry owner)" = "+$mod_name(+$drv_owner(%si))"
	check "$k: the disk's name at gendisk.disk_name +$disk_name" \
		test "$(arg "$out" disk_add name)" = "+$disk_name(%si)"
	check "$k: the disk's parent's driver at device.driver +$dev_driver" \
		test "$(arg "$out" disk_add drv0)" = "+0(+0(+$dev_driver(%di)))"
	check "$k: the grandparent through device.parent +$dev_parent" \
		test "$(arg "$out" disk_add drv1)" = "+0(+0(+$dev_driver(+$dev_parent(%di))))"
	check "$k: the pointers that say which strings are real, as numbers" \
		test "$(arg "$out" disk_add drvp0 x64) $(arg "$out" disk_add up x64) $(arg "$out" disk_add drvp1 x64)" = \
			"+$dev_driver(%di) +$dev_parent(%di) +$dev_driver(+$dev_parent(%di))"
	if [ -n "$nd_name" ]; then
		check "$k: the interface's name at net_device.name +$nd_name" \
			test "$(arg "$out" netdev_add name)" = "+$nd_name(%di)"
	else
		check "$k: no net_device: no interface events, and a note says so" \
			sh -c "! grep -q netdev_add '$out' && grep -q 'network interfaces are not traced' '$t/err'"
	fi
	check "$k: the arguments fit the kernel command line with room ($(wc -c <"$out") of 2048 bytes)" \
		test "$(wc -c <"$out")" -lt 1400
done

# refused FILE WHAT: probetrace --boot-args --btf FILE exits 1, prints
# nothing on stdout and one line naming FILE on stderr.
refused() {
	local rc
	"$PT" --boot-args --btf "$1" >"$t/out" 2>"$t/err"
	rc=$?
	check "$2: exit 1, one line naming it ($(head -c 120 "$t/err"))" \
		sh -c "test $rc -eq 1 && test ! -s '$t/out' && test \"\$(wc -l <'$t/err')\" -eq 1 &&
			grep -qF -- '$1: no BTF read' '$t/err'"
}
# A compressed kernel is not BTF.
printf 'MZ\0\0HdrS' >"$t/vmlinuz"
refused "$t/vmlinuz" "a compressed vmlinuz is refused"
refused "$t/none" "a missing BTF file is refused"

# The boot-time trace's buffer: sized for a storm before the attach, within
# 64 MiB for all CPUs together (docs/events.md, "The boot-time trace").
k=${kernels[0]}
bufarg() { "$PT" --boot-args --btf "$k" "$@" 2>/dev/null | tr ' ' '\n' | sed -n 's/^trace_buf_size=//p'; }
check "trace_buf_size=8M per CPU on a machine of up to 8 CPUs" \
	test "$(bufarg --cpus 1) $(bufarg --cpus 8)" = "8M 8M"
check "32 CPUs get 2M each: 64 MiB in all" test "$(bufarg --cpus 32)" = 2M
check "24 CPUs get 2730K each: within 64 MiB" test "$(bufarg --cpus 24)" = 2730K
check "--trace-buf-size wins over the sizing" test "$(bufarg --cpus 64 --trace-buf-size 16M)" = 16M
check "--trace-buf-size 0 leaves the kernel's default: no trace_buf_size=" \
	sh -c "'$PT' --boot-args --btf '$k' --trace-buf-size 0 | grep -qv trace_buf_size="
for bad in 5x -1 2G ''; do
	"$PT" --boot-args --btf "$k" --trace-buf-size "$bad" >"$t/out" 2>"$t/err"
	rc=$?
	check "--trace-buf-size '$bad' is refused with a line naming it" \
		sh -c "test $rc -ne 0 && ! test -s '$t/out' && grep -qF -- \"--trace-buf-size $bad:\" '$t/err'"
done
for bad in 0 x 70000; do
	"$PT" --boot-args --btf "$k" --cpus "$bad" >"$t/out" 2>"$t/err"
	rc=$?
	check "--cpus '$bad' is refused with a line naming it" \
		sh -c "test $rc -ne 0 && ! test -s '$t/out' && grep -qF -- \"--cpus $bad:\" '$t/err'"
done
