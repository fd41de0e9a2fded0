#!/usr/bin/env bash
# One GRUB command line for every installed kernel gives all but one of
# them the boot-time kprobes of another kernel: net_device.name is at +0 on
# 6.1, +304 on 6.12 and +288 on 7.3, so an interface's name would be read
# from the wrong bytes.  The collector derives this kernel's own arguments
# from its BTF (as --boot-args does) and compares them, event by event,
# with the kprobes the kernel made (tracefs/kprobe_events): an event made
# for another kernel has its records refused, counted and named; the
# others are kept.  Checked without BPF (probetrace --read-boot-trace on a
# copy of tracefs, --btf the kernel it is from) with each pair of kernels
# this machine has the BTF of (Debian 12's 6.1, Debian 13's 6.12, 7.3 from
# trixie-backports; only read), and in the report: the boot stays in every
# statistic, its disks and interfaces marked incomplete, the refusal named.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

PT=${BUILD:-build}/bin/probetrace
if [ ! -x "$PT" ]; then
	skip "boot-time kprobes made for another kernel" "$PT not built (make)"
	exit 0
fi
kernels=()
for f in build/debian/vmlinux build/debian-13/vmlinux build/debian-13-bpo/vmlinux; do
	[ -r "$f" ] && kernels+=("$f")
done
if [ ${#kernels[@]} -lt 2 ]; then
	skip "boot-time kprobes made for another kernel" \
		"fewer than two Debian kernels' vmlinux in build/debian*/ (make guests)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# kprobe_events ARGS: the kprobes of `probetrace --boot-args` output ARGS as
# the kernel lists them once made from kprobe_event= (each ';' entry a
# line, its commas blanks: setup_boot_kprobe_events()).
kprobe_events() {
	sed -n 's/.*kprobe_event=\([^ ]*\).*/\1/p' "$1" | tr ';' '\n' | tr ',' ' '
}

# A boot's trace before the cutover at 4 s: a built-in probe, three
# interfaces registered inside e1000's probes, a disk from virtio_blk's.
fs=$tmp/tracefs
mkdir -p "$fs"
echo 'local global counter uptime perf mono mono_raw [boot] x86-tsc' >"$fs/trace_clock"
{
	echo '# tracer: nop'
	echo '#'
	echo '# entries-in-buffer/entries-written: 23/23   #P:1'
	echo '#'
	echo '       swapper/0-1       [000] .....     0.500000: initcall_start: func=serial8250_init+0x0/0x1a0'
	echo '       swapper/0-1       [000] .....     0.510000: probe_entry: (really_probe+0x0/0x3c0) drv="serial8250" dev="serial8250" owner=(fault)'
	echo '       swapper/0-1       [000] .....     0.520000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0'
	echo '       swapper/0-1       [000] .....     0.530000: initcall_finish: func=serial8250_init+0x0/0x1a0 ret=0'
	echo '        modprobe-100     [000] .....     1.000000: finit_module: (__x64_sys_finit_module+0x0/0xb0)'
	echo '        modprobe-100     [000] .....     1.100000: module_load: e1000'
	for i in 0 1 2; do
		echo "        modprobe-100     [000] .....     1.${i}20000: probe_entry: (really_probe+0x0/0x3c0) drv=\"e1000\" dev=\"0000:00:0$((3 + i)).0\" owner=\"e1000\""
		echo "        modprobe-100     [000] .....     1.${i}30000: netdev_add: (netdev_register_kobject+0x0/0x150) name=\"eth$i\""
		echo "        modprobe-100     [000] .....     1.${i}40000: netdev_added: (register_netdev+0x1c/0x30 <- register_netdevice) ret=0"
		echo "        modprobe-100     [000] .....     1.${i}50000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0"
	done
	echo '        modprobe-100     [000] .....     1.500000: finit_module_ret: (do_syscall_64+0x3d/0x90 <- __x64_sys_finit_module) ret=0'
	echo '    kworker/u2:1-31      [000] .....     2.000000: probe_entry: (really_probe+0x0/0x3c0) drv="virtio_blk" dev="virtio1" owner="virtio_blk"'
	echo '    kworker/u2:1-31      [000] .....     2.100000: disk_add: (device_add_disk+0x4/0x3f0) name="vda" drvp0=0xffffffffc0a43160 up=0xffff888001c0e0c8 drvp1=0xffffffffc0a43260 dev0="virtio1" drv0="virtio_blk" dev1="0000:00:05.0" drv1="virtio-pci"'
	echo '    kworker/u2:1-31      [000] .....     2.200000: disk_added: (virtblk_probe+0x5e1/0x8f0 <- device_add_disk) ret=0'
	echo '    kworker/u2:1-31      [000] .....     2.300000: probe_return: (__driver_probe_device+0x7e/0x140 <- really_probe) ret=0'
} >"$fs/trace"
: >"$fs/trace_pipe"

# read_as ARGS_KERNEL BTF_KERNEL TAG: the trace read with ARGS_KERNEL's
# kprobes made, as the kernel of BTF_KERNEL: records in $tmp/TAG.jsonl,
# its statistics in $tmp/TAG.stats, stderr in $tmp/TAG.err.
read_as() {
	kprobe_events "$tmp/args-$(basename "$(dirname "$1")")" >"$fs/kprobe_events"
	"$PT" --read-boot-trace 4000000000 --tracefs "$fs" --btf "$2" --json \
		>"$tmp/$3.jsonl" 2>"$tmp/$3.err"
	echo $? >"$tmp/$3.rc"
	tail -1 "$tmp/$3.err" >"$tmp/$3.stats"
}

# jqt WHAT FILE FILTER: FILTER over FILE (-s: its records as an array) is true.
jqt() {
	local got
	got=$(jq ${4:-} "$3" "$2" 2>&1)
	if [ "$got" = true ]; then pass "$1"; else fail "$1" "jq: $got"; fi
}

# offset ARGS: the netdev_add name= fetch of `probetrace --boot-args` output.
offset() {
	tr ';' '\n' <"$1" | grep 'bootprobe/netdev_add,' | tr ',' '\n' | sed -n 's/^name=\(.*\):string$/\1/p'
}

for k in "${kernels[@]}"; do
	if ! "$PT" --boot-args --btf "$k" >"$tmp/args-$(basename "$(dirname "$k")")" 2>"$tmp/err"; then
		fail "$k: probetrace --boot-args" "$(head -1 "$tmp/err")"
		exit 0
	fi
done

for args in "${kernels[@]}"; do
	for btf in "${kernels[@]}"; do
		a=$(basename "$(dirname "$args")") b=$(basename "$(dirname "$btf")")
		tag=$a-on-$b
		read_as "$args" "$btf" "$tag"
		check "$a's arguments read as $b: probetrace exits 0 (got $(cat "$tmp/$tag.rc"))" \
			test "$(cat "$tmp/$tag.rc")" = 0
		jqt "$a's arguments read as $b: 12 bootprobe/ kprobes compared" "$tmp/$tag.stats" \
			'.kernel_args.compared == 12'
		jqt "$a's arguments read as $b: the built-in probe, e1000's three and virtio_blk's kept" \
			"$tmp/$tag.jsonl" '[.[] | select(.type == "probe")] | length == 5' -s
		jqt "$a's arguments read as $b: the disk vda kept, named with its driver" \
			"$tmp/$tag.jsonl" '[.[] | select(.type == "devnode" and .kind == "block")] |
			 length == 1 and .[0].name == "vda" and .[0].bound_driver == "virtio_blk"' -s
		ao=$(offset "$tmp/args-$a") bo=$(offset "$tmp/args-$b")
		if [ "$ao" = "$bo" ]; then
			jqt "$a's arguments read as $b (net_device.name $ao on both): nothing refused" \
				"$tmp/$tag.stats" '.records_refused == 0 and
				 (.kernel_args.made_for_another_kernel | length) == 0'
			jqt "$a's arguments read as $b: the three interfaces kept, named" \
				"$tmp/$tag.jsonl" '[.[] | select(.type == "devnode" and .kind == "net") |
				 .name] == ["eth0", "eth1", "eth2"]' -s
			check "$a's arguments read as $b: nothing said on stderr but the statistics" \
				test "$(wc -l <"$tmp/$tag.err")" = 1
			continue
		fi
		jqt "$a's arguments read as $b: netdev_add alone made for another kernel, its 3 devnode records refused" \
			"$tmp/$tag.stats" '.records_refused == 3 and
			 (.kernel_args.made_for_another_kernel | map([.event, .record, .refused])) ==
			 [["netdev_add", "devnode", 3]]'
		why="netdev_add: name=$ao:string on the command line, name=$bo:string for this kernel"
		jqt "$a's arguments read as $b: the difference named ($why)" "$tmp/$tag.stats" \
			".kernel_args.made_for_another_kernel[0].why == \"$why\""
		check "$a's arguments read as $b: stderr names it, with the reason" \
			grep -qxF "probetrace: tracefs/kprobe_events: boot-time trace arguments made for another kernel: $why (its records refused)" \
			"$tmp/$tag.err"
		jqt "$a's arguments read as $b: no interface record with a name read from the wrong bytes" \
			"$tmp/$tag.jsonl" '[.[] | select(.type == "devnode" and .kind == "net")] | length == 0' -s
	done
done

# Without kprobe_events (a copy of tracefs from an older collector's test):
# not checked, said so, nothing refused.
rm -f "$fs/kprobe_events"
"$PT" --read-boot-trace 4000000000 --tracefs "$fs" --btf "${kernels[1]}" --json \
	>"$tmp/none.jsonl" 2>"$tmp/none.err"
tail -1 "$tmp/none.err" >"$tmp/none.stats"
jqt "no kprobe_events: not checked, the reason given, nothing refused" "$tmp/none.stats" \
	'.records_refused == 0 and (.kernel_args.error | startswith("kprobe_events: "))'
# A --btf that is not BTF: one line naming it, exit 1.
echo 'not an ELF' >"$tmp/vmlinuz"
"$PT" --read-boot-trace 4000000000 --tracefs "$fs" --btf "$tmp/vmlinuz" >/dev/null 2>"$tmp/bad.err"
rc=$?
check "a --btf without BTF: exit 1 (got $rc), one line naming the file" \
	bash -c '[ "$1" = 1 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "$3" "$2"' _ "$rc" "$tmp/bad.err" "$tmp/vmlinuz"

# The report: a boot whose trailer counts those refusals stays in every
# statistic, its disks and interfaces incomplete, the refusal named.
if [ ! -x "$BP" ]; then
	skip "the report names the refusal" "$BP not built"
	exit 0
fi
a=$(basename "$(dirname "${kernels[0]}")") b=$(basename "$(dirname "${kernels[1]}")")
stats=$tmp/$a-on-$b.stats
run=$tmp/other-kernel
for n in a-001 a-002; do
	mkdir -p "$run/boots/$n"
	cp tests/data/boots/killed/* "$run/boots/$n/"
	sed -i "s/\"boot\":\"[^\"]*\"/\"boot\":\"$n\"/; s/\"mode\":\"[^\"]*\"/\"mode\":\"a\"/" \
		"$run/boots/$n/boot.json"
done
f=$run/boots/a-002/events.jsonl
last=$(wc -l <"$f")
# The trailer (the last line) with this boot-time trace's statistics.
{ head -n -1 "$f"; tail -1 "$f" | jq -c --slurpfile bt "$stats" '.boot_trace = $bt[0]'; } \
	>"$tmp/events" && mv "$tmp/events" "$f"
"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/stdout"
why="netdev_add: name=$(offset "$tmp/args-$a"):string on the command line, name=$(offset "$tmp/args-$b"):string for this kernel"
kept="other-kernel/boots/a-002: 3 records refused (first: other-kernel/boots/a-002/events.jsonl:$last: boot_trace: 3 devnode records refused: boot-time trace arguments made for another kernel: $why); incomplete: disks and interfaces"
check "report exits 0 (got $rc)" test "$rc" = 0
check "the boot counts: 2 of 2 ok in the headline" grep -qE '^a +2/2 ' "$tmp/stdout"
check "it is named kept, incomplete, with the refusal's reason" grep -qF "kept, incomplete: $kept" "$tmp/stdout"
jqt "summary.json: both boot times counted, none left out" "$tmp/out/summary.json" \
	'.modes.a.metrics.boot_s.n == 2 and (.damaged_boots | length) == 0'
jqt "summary.json: a-002 incomplete, 3 records refused, disks and interfaces" "$tmp/out/summary.json" \
	'[.incomplete_boots[] | select(.boot | endswith("a-002"))] | length == 1 and
	 (.[0] | .records_refused == 3 and (.incomplete | tostring | test("disks and interfaces")))'
check "report.md: the boot under \"What the collector lost\" with 3 refused" \
	grep -qE '^\| *[^|]*a-002[^|]*\|.*\| *3 *\| *disks and interfaces *\|' "$tmp/out/report.md"
