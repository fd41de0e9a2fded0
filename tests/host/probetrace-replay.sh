#!/usr/bin/env bash
# The host side of probetrace reads recorded streams back
# (probetrace --input FILE).  A stream cut anywhere or corrupted in any way
# is an input like any other: it must be reported (exit 2, "malformed" or
# "truncated"), never crash the reader (exit >= 128) nor hang it, in JSON
# and in table mode.  The sample below is a real guest recording (the kill
# test), trimmed to 14 records.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

PROBETRACE=${PROBETRACE:-build/bin/probetrace}
if [ ! -x "$PROBETRACE" ]; then
	skip "probetrace reads corrupted streams without crashing" "$PROBETRACE not built"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/good.jsonl" <<'SAMPLE'
{"type":"header","schema":1,"tool":"probetrace","clock":"boottime","ts_ns":3441015477,"attach_ns":3438103586,"kernel":"6.1.192","pid":29,"kthread_source":"tracepoint","sigchld_traced":false,"attached":["probe_enter","probe_exit"],"not_attached":[{"program":"kthread_fentry","target":"__kthread_create_on_node","reason":"superseded by the kthread:kthread_create_* tracepoints"},{"program":"kthread_fexit","target":"__kthread_create_on_node","reason":"superseded by the kthread:kthread_create_* tracepoints"}]}
{"type":"probe","ts_ns":718394000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":715779000,"end_ns":718394000,"duration_ns":2615000,"ret":0,"probe_error":0,"driver":"processor","device":"cpu0","origin":{"kind":"initcall","initcall":"acpi_processor_driver_init"}}
{"type":"probe","ts_ns":1123863000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":728662000,"end_ns":1123863000,"duration_ns":395201000,"ret":0,"probe_error":0,"driver":"virtio-pci","device":"0000:00:02.0","origin":{"kind":"initcall","initcall":"virtio_pci_driver_init"}}
{"type":"probe","ts_ns":1298747000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":1295439000,"end_ns":1298747000,"duration_ns":3308000,"ret":0,"probe_error":0,"driver":"serial","device":"00:03","origin":{"kind":"initcall","initcall":"serial8250_init"}}
{"type":"probe","ts_ns":1300676000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":1300461000,"end_ns":1300676000,"duration_ns":215000,"ret":0,"probe_error":0,"driver":"serial8250","device":"serial8250","origin":{"kind":"initcall","initcall":"serial8250_init"}}
{"type":"initcall","ts_ns":1300776000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":1294590000,"end_ns":1300776000,"duration_ns":6186000,"ret":0,"func":"serial8250_init"}
{"type":"probe","ts_ns":1313861000,"pre_collector":true,"clock":"boot","pid":1,"comm":"swapper","start_ns":1301601000,"end_ns":1313861000,"duration_ns":12260000,"ret":0,"probe_error":0,"driver":"virtio_console","device":"virtio0","origin":{"kind":"initcall","initcall":"virtio_console_init"}}
{"type":"probe_start","ts_ns":4291327705,"cpu":0,"pid":152,"tgid":152,"comm":"(udev-worker)","driver":"slowprobe","device":"0000:00:03.0","bus":"pci","owner":"slowprobe","async":false,"depth":0,"dev_addr":"0xffff8880004380b8","origin":{"kind":"module_load","pid":152,"comm":"(udev-worker)","module":"slowprobe"}}
{"type":"signal_generate","ts_ns":8226440602,"cpu":0,"pid":139,"tgid":139,"comm":"systemd-udevd","sig":9,"sig_name":"SIGKILL","errno":0,"code":0,"group":1,"result":"delivered","target":{"pid":152,"tgid":152,"comm":"(udev-worker)"},"target_state":{"module_load":{"name":"slowprobe","file":"slowprobe.ko","for_ns":3994477113,"init_for_ns":3935854247},"probe":{"driver":"slowprobe","device":"0000:00:03.0","for_ns":3935112897,"depth":1,"async":false}},"target_stack":["msleep+0x1c","slowprobe_probe+0x16d [slowprobe]","pci_device_probe+0x8a","really_probe+0x106","bpf_trampoline_6442474363+0x76 [bpf]","really_probe+0x5","driver_probe_device+0x23","__driver_attach+0xd6","bus_for_each_dev+0x77","driver_attach+0x1e","bus_add_driver+0xd8","driver_register+0xa0","__pci_register_driver+0x5e","slowprobe_init+0x1bc [slowprobe]","do_one_initcall+0x6d","bpf_trampoline_6442453088+0x6e [bpf]","do_one_initcall+0x5","bpf_trampoline_6442459366+0x6e [bpf]","do_init_module+0x5","__do_sys_finit_module+0xa4","__x64_sys_finit_module+0x18","bpf_trampoline_6442458224+0x6e [bpf]","__x64_sys_finit_module+0x5","do_syscall_64+0x3d"]}
{"type":"kthread_end","ts_ns":8313231406,"cpu":0,"pid":152,"tgid":152,"comm":"(udev-worker)","caller":"slowprobe_probe+0x1ce [slowprobe]","source":"tracepoint","fatal_signal":true,"wait_ns":75081,"ret":-4,"oom_victim":false,"probe_device":"0000:00:03.0"}
{"type":"probe","ts_ns":8316051173,"cpu":0,"pid":152,"tgid":152,"comm":"(udev-worker)","driver":"slowprobe","device":"0000:00:03.0","bus":"pci","owner":"slowprobe","async":false,"depth":0,"dev_addr":"0xffff8880004380b8","start_ns":4291327705,"end_ns":8316051173,"duration_ns":4024723468,"ret":4,"probe_error":-4,"origin":{"kind":"module_load","pid":152,"comm":"(udev-worker)","module":"slowprobe"}}
{"type":"module_load","ts_ns":8333022076,"cpu":0,"pid":152,"tgid":152,"comm":"(udev-worker)","syscall":"finit_module","fd":6,"name":"slowprobe","file":"slowprobe.ko","start_ns":4231963489,"end_ns":8333022076,"duration_ns":4101058587,"ret":0,"fatal_signal":true}
{"type":"exit","ts_ns":8335959664,"cpu":0,"pid":152,"tgid":152,"comm":"(udev-worker)","exit_code":9,"exit_status":0,"exit_signal":9,"leader":true}
{"type":"trailer","ts_ns":9446266016,"exit_reason":"SIGTERM","records_written":309,"events_received":47,"events_written":47,"events_dropped":0,"events_malformed":0,"events_write_failed":0,"bpf_drops":0,"bpf_counters":{"ringbuf_reserve_failed":0,"thread_ctx_full":0,"sigchld_filtered":69,"thread_exits_filtered":0,"probes_too_deep":0},"records_by_type":{"header":1,"initcall":256,"probe":6,"exit":36,"module_load_start":1,"probe_start":1,"signal_generate":2,"kthread_start":1,"kthread_end":1,"module_init":1,"module_load":1,"signal_deliver":2},"not_attached":[{"program":"kthread_fentry","target":"__kthread_create_on_node","reason":"superseded by the kthread:kthread_create_* tracepoints"},{"program":"kthread_fexit","target":"__kthread_create_on_node","reason":"superseded by the kthread:kthread_create_* tracepoints"}],"boot_trace":{"source":"/sys/kernel/tracing","clock":"boot","lines":522,"records":261,"skipped_after_attach":0,"unparsed":0,"unmatched":0,"lost_entries":0}}
SAMPLE

# read FILE MODE: the reader's exit status (124: hung, killed after 10 s).
read_back() {
	timeout 10 "$PROBETRACE" --input "$1" "--$2" >"$tmp/out" 2>"$tmp/err"
}

# Runs the reader on FILE in both modes; prints the worst status seen.
worst_status() {
	local mode rc worst=0
	for mode in json table; do
		read_back "$1" "$mode"
		rc=$?
		[ "$rc" -gt "$worst" ] && worst=$rc
	done
	echo "$worst"
}

read_back "$tmp/good.jsonl" json
check "a whole stream reads back with exit 0" test $? -eq 0
check "every record of it comes back" test "$(wc -l <"$tmp/out")" -eq 14
check "the reader reports 14 records and no malformed line" \
	grep -q '14 records, 0 malformed lines$' "$tmp/err"
read_back "$tmp/good.jsonl" table
check "table mode shows the SIGKILL with the victim's state and stack" \
	grep -q 'SIGKILL -> (udev-worker)\[[0-9]*\] delivered; target in module load of slowprobe' "$tmp/out"

# Cut at every 5th byte offset and at each of the last 64: exit 2 (a cut
# of the final newline alone leaves the stream whole, so it is not made).
size=$(stat -c %s "$tmp/good.jsonl")
crashes=0 wrong=0 cuts=0
for ((cut = 0; cut < size - 1; cut++)); do
	[ $((cut % 5)) -ne 0 ] && [ "$cut" -lt $((size - 64)) ] && continue
	cuts=$((cuts + 1))
	head -c "$cut" "$tmp/good.jsonl" >"$tmp/cut.jsonl"
	rc=$(worst_status "$tmp/cut.jsonl")
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1))
	[ "$rc" -ne 2 ] && [ "$rc" -lt 124 ] && wrong=$((wrong + 1))
done
check "cut at $cuts of its $size byte offsets: never a crash or a hang" test "$crashes" -eq 0
check "cut anywhere: always reported as truncated or malformed (exit 2)" test "$wrong" -eq 0

# Corruptions: each must give exit 2 and no crash.
corrupt() {
	local name=$1 rc
	rc=$(worst_status "$tmp/bad.jsonl")
	if [ "$rc" -ge 124 ]; then
		fail "corrupted stream ($name): no crash" "exit $rc"
	elif [ "$rc" -ne 2 ]; then
		fail "corrupted stream ($name): reported" "exit $rc, not 2"
	else
		pass "corrupted stream ($name): reported, no crash"
	fi
}

: >"$tmp/bad.jsonl"; corrupt "empty file"
printf '\0\0\0\0' >"$tmp/bad.jsonl"; corrupt "NUL bytes only"
{ head -3 "$tmp/good.jsonl"; printf '{"type":"probe",\0"driver":"x"}\n'; tail -n +4 "$tmp/good.jsonl"; } >"$tmp/bad.jsonl"
corrupt "a NUL inside a record"
head -c 4096 /dev/urandom >"$tmp/bad.jsonl"; corrupt "4 KiB of random bytes"
{ head -5 "$tmp/good.jsonl"; printf '%*s' 200000 '' | tr ' ' '['; echo; tail -n +6 "$tmp/good.jsonl"; } >"$tmp/bad.jsonl"
corrupt "200000 nested arrays"
{ head -5 "$tmp/good.jsonl"; printf '{"type":"probe","driver":"'; head -c 1048576 /dev/zero | tr '\0' 'a'; echo '"'; tail -n +6 "$tmp/good.jsonl"; } >"$tmp/bad.jsonl"
corrupt "an unterminated 1 MiB string"
{ cat "$tmp/good.jsonl"; echo '[1,2,3]'; echo '"type"'; echo '{"type":5}'; echo 'null'; } >"$tmp/bad.jsonl"
corrupt "values that are not records after the trailer"
{ head -1 "$tmp/good.jsonl"; echo '{"type":"signal_generate","sig":"nine","target":"x","target_stack":{"a":1},"target_state":[1]}';
  echo '{"type":"header","not_attached":"none","attached":7}';
  echo '{"type":"signal_generate","sig":9,"target_stack":[null,1,{"x":[]}]}';
  echo '{"type":"probe","duration_ns":"x","origin":[],"async":"maybe"}';
  echo '{"type":"trailer","not_attached":{"program":1}}'; echo '{"type":"probe"'; } >"$tmp/bad.jsonl"
corrupt "fields of the wrong type, then a cut record"
printf '\xff\xfe{"type":"exit","comm":"\xc3\x28"}\n' >"$tmp/bad.jsonl"; corrupt "invalid UTF-8"

# flip_crashes FILE: one byte set to 0x7f at 64 spread positions, each on
# its own copy; prints how many of them crashed or hung the reader.
flip_crashes() {
	local size crashes=0 k rc
	size=$(stat -c %s "$1")
	for ((k = 1; k <= 64; k++)); do
		cp "$1" "$tmp/flipped"
		printf '\x7f' | dd of="$tmp/flipped" bs=1 seek=$(((k * 7919) % size)) \
			conv=notrunc status=none
		rc=$(worst_status "$tmp/flipped")
		[ "$rc" -ge 124 ] && crashes=$((crashes + 1))
	done
	echo "$crashes"
}
check "64 single-byte corruptions: never a crash or a hang" \
	test "$(flip_crashes "$tmp/good.jsonl")" -eq 0

# The binary stream (probetrace --binary): the same records as frames, the
# header, trailer and the sample's other records as JSON frames, 40 storm
# samples (probetrace --bench-format --binary) among them.  Frame header:
# "PTBF", kind (u16: 1 sample, 2 JSON), 0 (u16), payload length (u32 LE).
le32() {
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}
frame_json() {
	printf 'PTBF\x02\x00\x00\x00'
	# shellcheck disable=SC2059	# le32 prints escapes for printf
	printf "$(le32 "$(printf '%s' "$1" | wc -c)")"
	printf '%s' "$1"
}
# Made as on a host up for two days (a time namespace moves its boot clock):
# the samples must carry a guest's times, which the reader takes (< 1 day),
# not this host's uptime.
two_days_up() {
	if unshare --user --map-root-user --time --boottime 172800 true 2>/dev/null; then
		unshare --user --map-root-user --time --boottime 172800 "$@"
	else
		echo "# no time namespace here: the samples carry this host's own uptime"
		"$@"
	fi
}
two_days_up "$PROBETRACE" --bench-format 40 --binary --output "$tmp/samples.bin" 2>/dev/null
{
	frame_json "$(head -1 "$tmp/good.jsonl")"
	cat "$tmp/samples.bin"
	sed -n '2,13p' "$tmp/good.jsonl" | while IFS= read -r line; do frame_json "$line"; done
	frame_json "$(tail -1 "$tmp/good.jsonl")"
} >"$tmp/good.bin"
read_back "$tmp/good.bin" json
check "binary: a whole stream of frames reads back with exit 0" test $? -eq 0
check "binary: its 14 records and 40 samples come back as 54 JSON lines" \
	test "$(jq -c . "$tmp/out" 2>/dev/null | wc -l)" -eq 54
check "binary: the samples are the storm's signal_generate records" \
	test "$(jq -r 'select(.type == "signal_generate" and .comm == "storm") | .sig_name' \
		"$tmp/out" 2>/dev/null | grep -c SIGUSR1)" -eq 40
read_back "$tmp/good.bin" table
check "binary: table mode shows the SIGKILL with the victim's state" \
	grep -q 'SIGKILL -> (udev-worker)\[[0-9]*\] delivered; target in module load of slowprobe' "$tmp/out"

bsize=$(stat -c %s "$tmp/good.bin")
crashes=0 wrong=0 cuts=0
for ((cut = 1; cut < bsize; cut += 7)); do
	cuts=$((cuts + 1))
	head -c "$cut" "$tmp/good.bin" >"$tmp/cut.bin"
	rc=$(worst_status "$tmp/cut.bin")
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1))
	[ "$rc" -ne 2 ] && [ "$rc" -lt 124 ] && wrong=$((wrong + 1))
done
check "binary: cut at $cuts of its $bsize byte offsets: never a crash or a hang" test "$crashes" -eq 0
check "binary: cut anywhere: always reported (exit 2)" test "$wrong" -eq 0
check "binary: 64 single-byte corruptions: never a crash or a hang" \
	test "$(flip_crashes "$tmp/good.bin")" -eq 0
head -c 4096 /dev/urandom >"$tmp/bad.bin"
{ frame_json "$(head -1 "$tmp/good.jsonl")"; cat "$tmp/bad.bin"; } >"$tmp/bad2.bin"
rc=$(worst_status "$tmp/bad2.bin")
check "binary: a header frame then 4 KiB of random bytes: reported, no crash" test "$rc" -eq 2
read_back "$tmp/bad2.bin" json
check "binary: the reader says what it skipped" grep -q 'bytes between frames skipped' "$tmp/err"
"$PROBETRACE" --binary --input "$tmp/good.bin" >/dev/null 2>"$tmp/err"
check "binary: --binary with --input is a usage error, said in one line" \
	test $? -eq 64 -a "$(wc -l <"$tmp/err")" -eq 1
