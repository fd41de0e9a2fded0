#!/usr/bin/env bash
# The default benchmark's matrix, one boot per mode: each position of the
# 2014 debate must end as it did, judged from the collected events (the
# SIGKILL records, the probe records and their return values), with the
# console only for what no event carries (udevd ignoring a rules line).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "the default matrix"
if ! command -v jq >/dev/null; then
	skip "the default matrix" "no jq"
	exit 0
fi

id=$(bp_run_id matrix)
bp_run "$id" --scenario bench/scenarios/default.conf --boots 1
boots=$BP_RESULTS/$id/boots
ev() { echo "$boots/$1-001/events.jsonl"; }

# SIGKILLs systemd-udevd sent to its workers.
udev_kills() {
	jq -s '[.[] | select(.type == "signal_generate" and .sig == 9 and
		.comm == "systemd-udevd")] | length' "$(ev "$1")"
}
# slowprobe probes by result: ok, failed, or failed with the driver's -EINTR (-4).
probes() {
	local sel
	case $2 in
	ok) sel='.ret == 0' ;;
	failed) sel='.ret != 0' ;;
	eintr) sel='.probe_error == -4' ;;
	async) sel='.ret == 0 and .async == true' ;;
	esac
	jq -s "[.[] | select(.type == \"probe\" and .driver == \"slowprobe\" and ($sel))] | length" \
		"$(ev "$1")"
}
# "MODE KILLS OK FAILED": KILLS is "yes" (at least one) or "no".
expect() {
	local m=$1 kills=$2 ok=$3 failed=$4 k
	if [ "$(boot_outcome "$boots/$m-001")" != ok ]; then
		fail "$m: the boot completes" "outcome $(boot_outcome "$boots/$m-001")"
		return
	fi
	if [ ! -s "$(ev "$m")" ] || ! tail -1 "$(ev "$m")" | jq -e '.type == "trailer"' >/dev/null; then
		fail "$m: a complete event stream" "no trailer in $(ev "$m")"
		return
	fi
	k=$(udev_kills "$m")
	if [ "$kills" = yes ]; then
		check "$m: udevd SIGKILLs a worker ($k)" test "$k" -ge 1
	else
		check "$m: nobody is killed" test "$k" -eq 0
	fi
	check "$m: $ok slowprobe probes succeed" test "$(probes "$m" ok)" -eq "$ok"
	check "$m: $failed slowprobe probes fail" test "$(probes "$m" failed)" -eq "$failed"
}

# 1. 2014: killable kthread_create, 3 s timeout: every probe fails with -EINTR.
expect sync-killable yes 0 4
check "sync-killable: the failures are -EINTR" test "$(probes sync-killable eintr)" -eq 4
# 2. Before 786235eeba0e: killed, yet bound.
expect sync-unkillable yes 4 0
# 3. Grace: 3 s covers the slow device's thread only; 12 s covers all.
expect grace-30s yes 1 3
expect grace-120s yes 4 0
check "grace-30s: explain ties each failed probe to udevd's SIGKILL and its -EINTR kthread_create()" \
	test "$("$BP" explain --json "$boots/grace-30s-001" | jq -c '[.[0].failed_probes[] |
		select(.killed_by == "systemd-udevd" and .kthread_ret == -4 and .kill_s < .kthread_end_s)] | length')" -eq 3
# 4. The LVM rules line is ignored (the worker is killed); udev.conf and
#    the kernel command line raise the timeout (nothing killed).
expect lvm-rules-180 yes 0 4
check "lvm-rules-180: udevd says it ignores OPTIONS+=\"event_timeout=...\"" \
	test "$("$BP" explain --json "$boots/lvm-rules-180-001" |
		jq '[.[0].udev_ignored[] | select(test("Invalid value for OPTIONS key"))] | length')" -ge 1
expect udev-conf-180 no 4 0
expect sync-180 no 4 0
# 5. Asynchronous probing.
expect async-probe no 4 0
check "async-probe: the probes ran asynchronously" test "$(probes async-probe async)" -eq 4
expect module-async no 4 0
expect driver-async yes 4 0
check "driver-async: the probes ran asynchronously, so the kill did not reach them" \
	test "$(probes driver-async async)" -eq 4

# The report over the run, and its headline.
out=$(mktemp -d)
check "bootprobe report writes the run's report" \
	sh -c "'$BP' report --out '$out' '$BP_RESULTS/$id' >'$out/stdout.txt'"
check "the headline names all ten modes" \
	test "$(grep -cE '^ *(sync-|grace-|lvm-|udev-conf|async-probe|module-async|driver-async)' "$out/stdout.txt")" -eq 10
rm -rf "$out"
