#!/usr/bin/env bash
# Every kernel people run: Debian 13's 6.12 (debian-13) and the
# trixie-backports 7.x (debian-13-bpo), each its release's stock kernel,
# initramfs-tools and systemd with the collector package, booted once
# plainly, the collector beside the boot (the default), and once with
# initcall_debug and the collector waited for (bootprobe.collector=wait:
# beside the boot it came up after all of udev's probes but one on 6.12
# this evening, 27 s after its start, so nothing was left for BPF's spans
# to be compared on).  The boot-time trace's arguments were made from that kernel's
# own BTF (probetrace --boot-args --btf); a wrong offset shows here as a
# disk or interface without a name or named with the wrong driver.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

# BP_DEBIAN_IMAGES="debian-13-bpo" runs one of them.
read -r -a images <<<"${BP_DEBIAN_IMAGES:-debian-13 debian-13-bpo}"
for image in "${images[@]}"; do
	dir=build/$image
	if [ ! -x "$BP" ] || [ ! -e "$dir/root.img" ] || [ ! -e "$dir/image.json" ]; then
		fail "$image image" "$dir/root.img missing: make debian-image did not run or failed"
		continue
	fi
	kver=$(jq -r .kernel_release "$dir/image.json")
	id=$(bp_run_id "$image")
	# On 6.12 the machine also gets a user's own controllers and card
	# (qemu_devices): their drivers must probe like the built-in set's.
	extra=
	[ "$image" = debian-13 ] && extra="qemu_devices = megasas, pvscsi, vmxnet3"
	conf=$BP_RESULTS/$id.conf
	printf '[scenario]\nname = %s\nimage = %s\n%s\n[mode sync]\n[mode icd]\ncmdline = %s\n' \
		"$image" "$image" "$extra" \
		"initcall_debug loglevel=6 log_buf_len=4M bootprobe.dmesg=1 bootprobe.analyze=time bootprobe.collector=wait" >"$conf"
	bp_run "$id" --scenario "$conf" --boots 1 --timeout 600
	b=$BP_RESULTS/$id/boots/sync-001
	ev=$b/events.jsonl
	t="$image ($kver)"

	check "$t: the boot completes (ok)" test "$(boot_outcome "$b")" = ok
	check "$t: boot.json records the image's kernel" \
		test "$(jq -r .kernel_release "$b/boot.json")" = "$kver"
	check "$t: the manifest records the release and the kernel package" \
		test "$(jq -r '.image_info | "\(.image) \(.packages["linux-image-" + .kernel_release] != null)"' \
			"$BP_RESULTS/$id/manifest.json")" = "$image true"
	check "$t: the stream's header names the same kernel" \
		test "$(jq -r 'select(.type == "header") | .kernel' "$ev")" = "$kver"
	drivers=$(jq -r 'select(.type == "probe" and .start_ns != null) | .driver' "$ev" | sort -u | wc -l)
	check "$t: at least 30 distinct real drivers with probe spans ($drivers)" test "$drivers" -ge 30
	check "$t: systemd reached multi-user.target" \
		grep -Eq 'bootprobe: system (running|degraded); multi-user.target reached at [1-9]' \
		"$b/console.log"
	for f in time blame critical-chain; do
		check "$t: systemd-analyze-$f.txt was kept" test -s "$b/systemd-analyze-$f.txt"
	done
	check "$t: no kallsyms load during the boot (no record needed one)" \
		test "$(jq -r 'select(.type == "trailer") | .startup.kallsyms_loads' "$ev")" = 0
	check "$t: the trailer shows no drops" \
		test "$(jq -r 'select(.type == "trailer") | "\(.bpf_drops) \(.events_dropped)"' "$ev")" = "0 0"
	check "$t: no stream record refused" \
		test "$(jq -r '.event_port.refused' "$b/boot.json")" = 0
	# Every disk and interface has a name, and the probe named as the one
	# that made it is a probe of that device by that driver in the stream.
	bad=$(jq -s -r '[.[] | select(.type == "probe") | "\(.device) \(.driver)"] as $p |
		[.[] | select(.type == "devnode" and .ret == 0) |
		 select(.name == "" or (.bound_driver != "" and
			("\(.bound_device) \(.bound_driver)" | IN($p[]) | not))) |
		 "\(.name):\(.bound_device):\(.bound_driver):\(.from // (if .pre_collector then "pre" else "bpf" end))"] |
		join(" ")' "$ev")
	check "$t: every disk and interface named, made by a probe the stream saw ($bad)" test -z "$bad"
	if [ -n "$extra" ]; then
		for drv in megaraid_sas vmw_pvscsi vmxnet3; do
			check "$t: the added QEMU devices: $drv probed, with a span" \
				test "$(jq -s --arg d "$drv" '[.[] | select(.type == "probe" and .driver == $d
					and .start_ns != null and .ret == 0)] | length' "$ev")" -ge 1
		done
	fi
	for nd in vda:virtio_blk nvme0n1:nvme; do
		n=${nd%%:*} drv=${nd#*:}
		got=$(jq -r --arg n "$n" 'select(.type == "devnode" and .name == $n and .ret == 0)
			| .bound_driver' "$ev" | head -1)
		check "$t: $n appears, made by $drv's probe ($got)" test "$got" = "$drv"
	done
	echo "# $t: disks and interfaces by source:" \
		"$(jq -s -c '[.[] | select(.type == "devnode") | if .pre_collector then "pre_collector"
			else .from // "bpf" end] | group_by(.) | map({(.[0]): length}) | add' "$ev")"
	echo "# $t: collector start-up: $(jq -c 'select(.type == "trailer") | .startup' "$ev")"

	rep=$BP_RESULTS/$id/report-test
	check "$t: bootprobe report writes a report" "$BP" report "$BP_RESULTS/$id" -o "$rep" --quiet
	check "$t: report.md exists and names no damaged boot" \
		sh -c "test -s '$rep/report.md' && ! grep -qi 'damaged' '$rep/report.md'"

	# Spans against the kernel's own figure (initcall_debug): 6.1 and 6.12
	# print "probe of DEV returned RET after N usecs", 7.x "probe of DEV
	# with driver DRV returned RET after N usecs".  A device probed more
	# than once (a deferral) is left out: which line is which span is not
	# known.  The lines are read from the kernel log the boot sends
	# (bootprobe.dmesg=1), not the console: loglevel=6 keeps them and the
	# drivers' own info lines off the slow serial console, which would
	# otherwise print hundreds of debug lines during the boot it judges.
	#
	# 7.x builds PREEMPT_LAZY ("Dynamic Preempt: lazy"; it refuses
	# preempt=voluntary), 6.12 PREEMPT_VOLUNTARY.  On the guest's one CPU a
	# lazy kernel may preempt the probing thread in the few µs between
	# initcall_debug's clock and the instrument's (the BPF trampoline's or
	# kprobe handler's exit is a preemption point), and the kernel's figure
	# then holds other tasks' time.  In five 7.3 boots here 0-5 of 31-33
	# BPF spans were 0.5-20 ms short of it (one boot: 5, median 88 µs; the
	# others: median 14-21 µs), never on 6.12.  So on a lazy kernel up to
	# 20 % of the probes (named below) may pass the per-probe bounds and
	# the BPF median may be 0.15 ms; on other kernels none, and 0.05 ms.
	# (7.3's BPF medians on 7 December, with the package's dynamically
	# linked collector and probe records carrying the initcall's %pS: 69, 74
	# and 108 us in three boots, against 14-21 us before; the cause is not
	# isolated, and 6.12's stayed at 19-24 us.)
	bi=$BP_RESULTS/$id/boots/icd-001
	evi=$bi/events.jsonl
	check "$t initcall_debug: the boot completes (ok)" test "$(boot_outcome "$bi")" = ok
	# That boot asked for systemd-analyze time alone (bootprobe.analyze=time):
	# blame and critical-chain are most of the tail after multi-user.target.
	check "$t initcall_debug: bootprobe.analyze=time kept time, not blame or critical-chain" \
		sh -c "test -s '$bi/systemd-analyze-time.txt' && ! test -e '$bi/systemd-analyze-blame.txt' &&
			! test -e '$bi/systemd-analyze-critical-chain.txt'"
	echo "# $t: the tail after multi-user.target (s), with all three views and with time alone:" \
		"$(jq -r '.modes | to_entries[] | "\(.key) \(.value.phases.bootprobe.tail_s.median)"' \
			"$rep/summary.json" | tr '\n' ' ')"
	kernel_probe_us "$bi/dmesg.txt" >"$bi/kernel-probes.txt"
	collector_spans "$evi" >"$bi/spans.txt"
	# SRC |KERNEL - SPAN| DEVICE START, one line per probe measured both ways.
	join "$bi/spans.txt" "$bi/kernel-probes.txt" |
		awk '{ d = $5 * 1000 - $2; if (d < 0) d = -d; print $3, d, $1, $4 }' >"$bi/accuracy.txt"
	# The first boot-time-trace span is apart: the first hit of the boot-time
	# kprobes runs their handler's code for the first time, which TCG
	# translates first (with tp_printk on 6.12 the entry event fired 7 ms
	# after really_probe_debug() took its start, the next probes' within
	# 0.2 ms).
	# So is the first BPF span after the attach, for the same reason: the
	# new trampoline and program run for the first time (on 6.12 here:
	# 0.68 ms off, the 19 after it at most 77 µs).
	first=$(awk '$1 == "trace"' "$bi/accuracy.txt" | sort -k4,4n | head -1)
	firstb=$(awk '$1 == "bpf"' "$bi/accuracy.txt" | sort -k4,4n | head -1)
	for src in bpf trace; do
		awk -v s="$src" -v f="$first" -v g="$firstb" '$1 == s && $0 != f && $0 != g { print $2 }' \
			"$bi/accuracy.txt" |
			sort -n >"$bi/diff-$src.txt"
		n=$(wc -l <"$bi/diff-$src.txt")
		med=$(median_of "$bi/diff-$src.txt")
		max=$(tail -1 "$bi/diff-$src.txt")
		echo "# $t: $src spans against initcall_debug: $n probes, |kernel - span| median ${med} ns, max ${max:-0} ns"
	done
	echo "# $t: the first boot-time-trace span: ${first:-none}; the first BPF span: ${firstb:-none}" \
		"(src |kernel - span| ns, device, start ns)"
	nb=$(wc -l <"$bi/diff-bpf.txt") nt=$(wc -l <"$bi/diff-trace.txt")
	check "$t: at least 10 BPF spans matched to the kernel's figure ($nb)" test "$nb" -ge 10
	lazy=$(is_lazy "$bi/dmesg.txt")
	check_bpf_medians "$t" "$bi/accuracy.txt" "$evi" "$first" "$firstb" "$lazy" "the kernel's figure"
	# within (tests/lib.sh): none past the bound, on a lazy kernel up to 20 %.
	for src in bpf:500000 trace:1500000; do
		awk -v s="${src%%:*}" -v b="${src#*:}" '$1 == s && $2 > b { print "#   over:", $0 }' \
			"$bi/accuracy.txt"
	done
	check "$t: BPF spans after the first: each within 0.5 ms of the kernel's figure ($(within "$bi/diff-bpf.txt" 500000 "$lazy"))" \
		within "$bi/diff-bpf.txt" 500000 "$lazy"
	check "$t: boot-time-trace spans after the first ($nt): each within 1.5 ms of the kernel's figure ($(within "$bi/diff-trace.txt" 1500000 "$lazy"))" \
		within "$bi/diff-trace.txt" 1500000 "$lazy"
	check "$t: the first boot-time-trace span within 10 ms of the kernel's figure" \
		test -n "$first" -a "$(echo "$first" | cut -d' ' -f2)" -le 10000000
	# On a lazy kernel the first may also be preempted (kernels.md: up to
	# 20 ms; 7.3's first BPF span was 9.98 ms off on 7 December).
	fb=10000000
	[ "$lazy" = 1 ] && fb=30000000
	check "$t: the first BPF span within $((fb / 1000000)) ms of the kernel's figure" \
		test -n "$firstb" -a "$(echo "$firstb" | cut -d' ' -f2)" -le "$fb"
done
