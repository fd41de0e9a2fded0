#!/usr/bin/env bash
# bootprobe_start (tools/debian/collector/start), the code both initrd
# integrations run to start the collector (initramfs-tools' init-top and
# dracut's bootprobe-collector.service), run here by dash with a stand-in
# collector: the kernel command line's switches, the boot-time trace
# present or not, the events port, the wait for the ready file and a
# collector that dies.  Each case runs in a mount namespace of its own with
# a tmpfs on /run and a file over /dev/kmsg (the messages are read from
# through a FIFO); /proc/cmdline, the virtio port and tracefs are stand-ins (shell
# functions), nothing is loaded and nothing of this machine is changed.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
what="bootprobe_start"
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v dash >/dev/null; then
	skip "$what" "needs root, unshare and dash"
	exit 0
fi
if ! unshare -m --propagation private true 2>/dev/null; then
	skip "$what" "no mount namespace here"
	exit 0
fi
src=tools/debian/collector
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The code under test, its one absolute path (the wait code's) pointed here.
sed "s|^\. /usr/lib/bootprobe/wait$|. $tmp/wait|" "$src/start" >"$tmp/start"
cp "$src/wait" "$tmp/wait"
grep -q "^\. $tmp/wait\$" "$tmp/start" || { fail "$what" "start no longer sources /usr/lib/bootprobe/wait"; exit 0; }

# The stand-in collector: writes its arguments down and, after
# READY_AFTER seconds, its pid to the --ready-file (or exits 1 at once with
# READY_AFTER=die); then stays a while, as the collector does.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/fake-probetrace" <<'EOF'
#!/bin/sh
echo "$*" >"$ARGS_OUT"
[ "$READY_AFTER" = die ] && exit 1
ready=
while [ $# -gt 0 ]; do
	[ "$1" = --ready-file ] && ready=$2
	shift
done
sleep "$READY_AFTER"
echo $$ >"$ready"
sleep 1
EOF
chmod +x "$tmp/bin/fake-probetrace"
mkdir -p "$tmp/argv0"
ln -s "$tmp/bin/fake-probetrace" "$tmp/argv0/@probetrace"
all4=$(printf '%s\n' 'p:bootprobe/probe_entry really_probe' 'r:bootprobe/probe_return really_probe' \
	'p:bootprobe/disk_add device_add_disk' 'p:bootprobe/netdev_add register_netdevice')

# run_case NAME CMDLINE KPROBE_EVENTS PORT READY_AFTER PROGRAM: one call of
# bootprobe_start in its namespace; leaves $tmp/NAME/{kmsg,args,run,rc,dt}.
run_case() {
	local d=$tmp/$1
	mkdir -p "$d"
	printf '%s\n' "$3" >"$d/kprobe_events"
	: >"$d/kmsg"
		mkfifo "$d/kmsg.fifo"
	CMDLINE=$2 KPROBE_EVENTS=$d/kprobe_events PORT=$4 READY_AFTER=$5 ARGS_OUT=$d/args \
		PROG=$6 TMP=$tmp D=$d unshare -m --propagation private dash -c '
		mount -t tmpfs tmpfs /run && mount --bind "$D/kmsg.fifo" /dev/kmsg || exit 99
		# Each message is one open, write and close of /dev/kmsg: a reader
		# that also holds it open for writing never sees an end.
		command cat <>"$D/kmsg.fifo" >>"$D/kmsg" &
		reader=$!
		. "$TMP/start"
		cat() { if [ "$1" = /proc/cmdline ]; then echo "$CMDLINE"; else command cat "$@"; fi; }
		grep() {
			if [ "$3" = /sys/kernel/tracing/kprobe_events ]; then
				command grep "$1" "$2" "$KPROBE_EVENTS"
			else command grep "$@"; fi
		}
		mount() { echo "mount $*" >>"$D/mounts"; }
		modprobe() { return 0; }
		bootprobe_has_virtio_console() { [ -n "$PORT" ]; }
		bootprobe_events_port() { [ -n "$PORT" ] && echo "$PORT"; }
		PATH=$TMP/argv0:$TMP/bin:$PATH
		read -r t0 _ </proc/uptime
		bootprobe_start "$PROG"
		echo $? >"$D/rc"
		read -r t1 _ </proc/uptime
		echo "$t0 $t1" | awk "{ print \$2 - \$1 }" >"$D/dt"
		ls /run/bootprobe >"$D/run" 2>/dev/null
		command cat /run/bootprobe/output >"$D/output" 2>/dev/null
		sleep 0.1
		kill "$reader"
		wait'
}
said() { grep -q "$2" "$tmp/$1/kmsg"; }
args_have() { grep -q -- "$2" "$tmp/$1/args"; }
args_lack() { [ -e "$tmp/$1/args" ] && ! grep -q -- "$2" "$tmp/$1/args"; }

run_case off "quiet bootprobe.collector=0" "$all4" "" 0 fake-probetrace
check "bootprobe.collector=0: says the collector is off and starts nothing" \
	sh -c "grep -q 'bootprobe: collector off (bootprobe.collector=0)' '$tmp/off/kmsg' && test ! -e '$tmp/off/args'"

run_case absent "quiet" "$all4" "" 0 no-such-probetrace
check "no collector in the initrd: says so and starts nothing" said absent 'collector not in this initrd'

run_case waits "quiet" "" "" 0.5 fake-probetrace
check "no boot-time trace: names the missing event and waits (wait)" \
	sh -c "grep -q 'no boot-time trace event bootprobe/probe_entry: the boot waits' '$tmp/waits/kmsg' &&
		grep -Eq 'collector started at [0-9.]+ s \(wait\), writing to /run/bootprobe/events.jsonl' '$tmp/waits/kmsg'"
check "no boot-time trace: not SCHED_IDLE (no --idle-start), JSON Lines to the file" \
	sh -c "grep -q -- '--output /run/bootprobe/events.jsonl --ready-file' '$tmp/waits/args'"
check "wait: returns once the ready file is there ($(cat "$tmp/waits/dt" 2>/dev/null) s for a 0.5 s start-up)" \
	awk '{ exit !($1 >= 0.5) }' "$tmp/waits/dt"
check "wait: says the collector is ready and leaves no pid file for a second wait" \
	sh -c "grep -Eq 'collector ready at [0-9.]+ s \(waited from [0-9.]+ s\)' '$tmp/waits/kmsg' &&
		! grep -qx pid '$tmp/waits/run'"

run_case beside "quiet" "$all4" "" 1 fake-probetrace
check "boot-time trace on: starts it beside the boot (--idle-start) without waiting ($(cat "$tmp/beside/dt" 2>/dev/null) s)" \
	sh -c "grep -q -- '--idle-start' '$tmp/beside/args' &&
		grep -Eq 'collector started at [0-9.]+ s \(beside\)' '$tmp/beside/kmsg' &&
		awk '{ exit !(\$1 < 1) }' '$tmp/beside/dt'"
check "beside: the pid file stays for the wait before the root (local-bottom, bootprobe-handover)" \
	grep -qx pid "$tmp/beside/run"

run_case force-beside "bootprobe.collector=beside" "" "" 0 fake-probetrace
check "bootprobe.collector=beside without the boot-time trace: beside" args_have force-beside --idle-start
run_case force-wait "bootprobe.collector=wait" "$all4" "" 0 fake-probetrace
check "bootprobe.collector=wait with the boot-time trace: waits (no --idle-start)" \
	sh -c "grep -Eq 'collector started at [0-9.]+ s \(wait\)' '$tmp/force-wait/kmsg' &&
		! grep -q -- --idle-start '$tmp/force-wait/args'"

run_case port "quiet" "$all4" /dev/vport1p1 0 fake-probetrace
check "an events port: the stream goes there, binary" \
	sh -c "grep -q -- '--output /dev/vport1p1 --binary' '$tmp/port/args' && grep -qx /dev/vport1p1 '$tmp/port/output'"
run_case port-json "bootprobe.events=json" "$all4" /dev/vport1p1 0 fake-probetrace
check "bootprobe.events=json: JSON Lines on the port (no --binary)" args_lack port-json --binary
run_case port-file "bootprobe.output=file" "$all4" /dev/vport1p1 0 fake-probetrace
check "bootprobe.output=file: the file even with a port" \
	grep -qx /run/bootprobe/events.jsonl "$tmp/port-file/output"

run_case dies "quiet" "" "" die fake-probetrace
check "a collector that dies before it is ready: said, and the boot goes on" \
	sh -c "grep -q 'collector failed to start; the boot goes on untraced' '$tmp/dies/kmsg' &&
		test \"\$(cat '$tmp/dies/rc')\" = 0"

# dracut's unit runs it as @probetrace, found by PATH (argv[0] '@').
run_case at-name "quiet" "$all4" "" 0 @probetrace
check "dracut: the collector started by its name @probetrace, which PATH finds" \
	sh -c "test -s '$tmp/at-name/args' && grep -Eq 'collector started at [0-9.]+ s \(beside\)' '$tmp/at-name/kmsg'"
