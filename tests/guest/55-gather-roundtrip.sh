#!/usr/bin/env bash
# The log reader checked against the instrument: one boot of each Debian
# image (debian-12: 6.1, debian-13: 6.12, debian-13-bpo: 7.3) with
# initcall_debug, the collector waited for (bootprobe.collector=wait) and
# bootprobe.gather=1: the finish service runs bootprobe-gather (the
# package's copy) before the collector ends and its folder travels in the
# stream as gather.* attachments, which the runner keeps as
# BOOT/gathered/.  `bootprobe import` of that folder is the same boot read
# from its logs alone: one boot id, two sources, two
# runs that `bootprobe compare` puts side by side.  Per device, the span the
# import read from the kernel's line against the collector's span of the same
# probe; the drivers, failed probes and udevd kills found both ways.  On
# debian-12 the boot also has slowprobe killed by udevd (51-debian-kill's
# settings), so that failed probes and kills are there to be found.
#
# RECORD=1 copies each gathered folder and the collector's probe, signal and
# trailer records into tests/data/gathered/IMAGE/, read by
# tests/host/import-gathered.sh (tests/data/gathered/README.md).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# BP_DEBIAN_IMAGES="debian-13-bpo" runs one of them.
read -r -a images <<<"${BP_DEBIAN_IMAGES:-debian-12 debian-13 debian-13-bpo}"
for image in "${images[@]}"; do
	dir=build/$image
	[ "$image" = debian-12 ] && dir=build/debian
	if [ ! -x "$BP" ] || [ ! -e "$dir/root.img" ] || [ ! -e "$dir/image.json" ]; then
		fail "$image gather round trip" "$dir/root.img missing: make debian-image did not run or failed"
		continue
	fi
	kver=$(jq -r .kernel_release "$dir/image.json")
	t="$image ($kver)"
	id=$(bp_run_id "$image-gather")
	# loglevel=6 keeps initcall_debug's lines off the slow serial console (53);
	# bootprobe.analyze=time: blame and critical-chain, each run twice (finish's
	# and the script's), would add half a minute of TCG to the tail.
	# bootprobe.collector=wait: udev's probes are BPF's, however long the
	# collector takes to start (beside the boot, in one CI run on 7.3 it
	# was up after all of them but one: 1 BPF span to compare).
	args="initcall_debug loglevel=6 log_buf_len=4M bootprobe.gather=1 bootprobe.analyze=time"
	args="$args bootprobe.collector=wait"
	kill=0 devices=0
	if [ "$image" = debian-12 ]; then
		kill=1 devices=1
		args="$args udev.event_timeout=3 slowprobe.probe_ms=5000 slowprobe.kthread_at_ms=5000"
	fi
	bp_run "$id" --image "$image" --devices "$devices" --boots 1 --timeout 600 --mode "gather:$args"
	run=$BP_RESULTS/$id
	b=$run/boots/gather-001
	ev=$b/events.jsonl
	g=$b/gathered

	check "$t: the boot completes (ok)" test "$(boot_outcome "$b")" = ok
	sed -n 's/.*bootprobe: \(bootprobe-gather.*\)/#   \1/p' "$b/console.log"
	check "$t: finish ran bootprobe-gather and its folder came back as gathered/" \
		bash -c 'for f in gather.txt boot-id.txt kernel.log udevd.log drivers.txt kernel-cmdline.txt \
			uname-r.txt systemd-analyze-time.txt; do test -s "$1/$f" || exit 1; done' _ "$g"
	check "$t: no gather.* attachment was cut or left out (limits: 32 files, 1 MiB each)" \
		test "$(jq -s '[.[] | select(.type == "attachment" and (.name | startswith("gather.")) and .truncated)]
			| length' "$ev") $(jq -r 'select(.type == "trailer") | .attachments.skipped' "$ev")" = "0 0"
	echo "# $t: the kernel log gathered: $(wc -c <"$g/kernel.log") bytes, $(wc -l <"$g/kernel.log") lines"
	check "$t: the kernel log kept its beginning (log_buf_len=4M: no advice in gather.txt)" \
		bash -c 'grep -q "\] Linux version " "$1/kernel.log" && ! grep -q "^advice" "$1/gather.txt"' _ "$g"
	sid=$(jq -r 'select(.type == "attachment" and .name == "boot-id.txt") | .text' "$ev" | head -1)
	gid=$(head -1 "$g/boot-id.txt")
	check "$t: one boot id, from the stream's own attachment and from the gathered folder ($sid)" \
		bash -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$sid" "$gid"

	# The gathered run: the same boot read from its logs, under the same mode.
	lid=$id-log
	"$BP" import --results "$BP_RESULTS" --run-id "$lid" --mode gather "$g" >"$run.import" 2>&1
	rc=$?
	sed 's/^/#   /' "$run.import"
	check "$t: import of gathered/ makes a run of one boot (rc $rc)" \
		bash -c '[ "$1" -eq 0 ] && [ -d "$2/boots/gather-001" ]' _ "$rc" "$BP_RESULTS/$lid"
	check "$t: import refused no line of the real kernel and udevd logs" \
		bash -c '! grep -q "records* refused" "$1"' _ "$run.import"
	lb=$BP_RESULTS/$lid/boots/gather-001
	"$BP" compare "$run" "$BP_RESULTS/$lid" >"$run.compare" 2>&1
	rc=$?
	sed 's/^/#   /' "$run.compare" | head -20
	check "$t: compare puts the collector's run beside the gathered run (rc $rc, not 2)" test "$rc" -ne 2
	tmp=$(mktemp -d)
	cp "$ev" "$tmp/$sid.jsonl"
	"$BP" import --results "$tmp" --run-id both "$tmp/$sid.jsonl" "$g" >"$tmp/both.out" 2>&1
	sed 's/^/#   /' "$tmp/both.out"
	check "$t: the stream and its gathered folder given to one import: two sources of one boot id" \
		grep -qF "boot $sid is also given as a collector's stream: a second source of one boot" "$tmp/both.out"
	rm -rf "$tmp"

	check_log_against_collector "$t" "$g" "$lb" "$ev" "$run.import" "$b"
	kc=$(udevd_kills "$ev")
	if [ "$kill" = 1 ]; then
		check "$t: slowprobe's kill is found both ways (a kill, a probe failed with -EINTR)" \
			bash -c '[ "$1" -ge 1 ] && grep -q " -4$" "$2" && grep -q " -4$" "$3"' \
			_ "$kc" "$b/failed-collector.txt" "$b/failed-log.txt"
	fi

	if [ "${RECORD:-0}" = 1 ]; then
		fx=tests/data/gathered/$image
		rm -rf "$fx" && mkdir -p "$fx/gathered"
		cp "$g"/* "$fx/gathered/"
		jq -c 'select(.type == "header" or .type == "trailer" or .type == "probe" or
			(.type == "signal_generate" and .sig == 9))' "$ev" >"$fx/collector.jsonl"
		echo "# $t: recorded into $fx ($(du -sk "$fx" | cut -f1) KiB)"
	fi
done
