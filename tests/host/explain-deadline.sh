#!/usr/bin/env bash
# explain reckons with the kill deadline the boot's udevd had: its event
# timeout, plus from systemd 256 $SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC (10 s
# unless a systemd.setenv= on the kernel command line says otherwise, the
# last one winning; docs/debian.md, "When systemd-udevd kills").  One real
# boot (tests/data/boots/killed: udevd 252, 3 s timeout, a 5.03 s
# synchronous probe, SIGKILL at 6.68 s), told four ways: as it was (252:
# the deadline is the timeout), as a Debian 13 boot (boot.json's
# udev_version 257, a 1 s timeout: the deadline is 11 s, so the SIGKILL at
# 6.68 s cannot be the event timeout's), the same with the extra time set
# to 0 (1 s), and with udevd's version unknown (3 to 13 s).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "explain uses udevd's kill deadline"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# variant NAME JQ-FILTER [SED-ON-CONSOLE]: the killed boot with boot.json
# changed by JQ-FILTER; its explain text in NAME.txt, its --json in NAME.json.
variant() {
	mkdir -p "$tmp/$1"
	cp tests/data/boots/killed/* "$tmp/$1/"
	jq -c "$2" tests/data/boots/killed/boot.json >"$tmp/$1/boot.json"
	[ -n "${3:-}" ] && sed -i "$3" "$tmp/$1/console.log"
	"$BP" explain "$tmp/$1" >"$tmp/$1.txt" 2>&1
	"$BP" explain --json "$tmp/$1" >"$tmp/$1.json" 2>&1
	sed -n 's/^\(boot\|kill\|at risk\)/#   &/p' "$tmp/$1.txt" | cut -c1-230
}
# jqv NAME FILTER: a value of NAME's explain --json.
jqv() { jq -r ".[0] | $2" "$tmp/$1.json" 2>/dev/null; }

d13='.kernel_cmdline |= sub("udev.event_timeout=3"; "udev.event_timeout=1") |
     .udev_version = "257.13-1~deb13u1"'

variant d12 '.'
check "systemd 252 (udevd's log): udevd kills at the timeout, 3 s" \
	grep -q '^boot .*; udev event timeout 3 s; udevd kills at it (systemd 252, from udevd.s log)$' "$tmp/d12.txt"
check "systemd 252: the SIGKILL came after the udev event timeout (3 s), no extra time" \
	grep -q '^kill 1: .* after the udev event timeout (3 s); the worker was' "$tmp/d12.txt"
check "systemd 252: explain --json gives the deadline 3 s and no extra time" \
	test "$(jqv d12 '"\(.udevd_version) \(.udev_extra_timeout_s) \(.udev_kill_deadline_s)"')" = "252.39-1~deb12u2 0 3"
check "systemd 252: the 5.03 s probe is past the deadline" \
	test "$(jqv d12 '.at_risk[0].past_kill_deadline')" = true

variant d13 "$d13"
check "systemd 257, 1 s timeout: udevd kills 10 s after it, at 11 s (boot.json)" \
	grep -q '; udev event timeout 1 s; udevd kills 10 s after it, at 11 s (systemd 257, from boot.json)$' "$tmp/d13.txt"
check "systemd 257: a SIGKILL at 6.68 s is not the event timeout's (11 s)" \
	grep -q '^kill 1: .* sent SIGKILL at 6.68 s to (udev-worker) \[78\], not at the udev event timeout (1 s) and udevd.s extra 10 s (systemd 257): 6.68 s into the boot they cannot have run out; the worker was' "$tmp/d13.txt"
check "systemd 257: the 5.03 s probe keeps its worker (udevd kills at 11 s)" \
	grep -q '^at risk: .* took 5.03 s = 503 % of the udev event timeout (1 s; udevd warns from one third); udevd (systemd 257) kills only at 11 s, the timeout and its extra 10 s: a synchronous probe this long keeps its worker$' "$tmp/d13.txt"
check "systemd 257: explain --json gives the deadline 11 s, the probe short of it" \
	test "$(jqv d13 '"\(.udev_extra_timeout_s) \(.udev_kill_deadline_s) \(.at_risk[0].past_kill_deadline)"')" = "10 11 false"

variant d13-0 "$d13"' | .kernel_cmdline += " systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=0"'
check "systemd 257, SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=0: udevd kills at the 1 s timeout" \
	grep -q '; udev event timeout 1 s; udevd kills at it (systemd 257, SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=0, from boot.json)$' "$tmp/d13-0.txt"
check "systemd 257, extra 0: the SIGKILL came after the timeout and udevd's extra 0 s" \
	grep -q '^kill 1: .* after the udev event timeout (1 s) and udevd.s extra 0 s (systemd 257, systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=0); the worker was' "$tmp/d13-0.txt"
check "systemd 257, extra 0: explain --json gives the deadline 1 s, the probe past it" \
	test "$(jqv d13-0 '"\(.udev_extra_timeout_s) \(.udev_kill_deadline_s) \(.at_risk[0].past_kill_deadline)"')" = "0 1 true"

# PID 1 keeps the last systemd.setenv= of a name; udevd parses it with parse_sec().
variant d13-last "$d13"' | .kernel_cmdline += " systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=0 systemd.setenv=OTHER=1 systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=1min30s"'
check "the last systemd.setenv= wins, read as parse_sec() reads it (1min30s: 90 s)" \
	test "$(jqv d13-last '"\(.udev_extra_timeout_s) \(.udev_kill_deadline_s)"')" = "90 91"
variant d13-soon "$d13"' | .kernel_cmdline += " systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=soon"'
check "a value udevd cannot parse leaves its 10 s, with a warning" \
	bash -c 'test "$(jq -r ".[0].udev_kill_deadline_s" "$1")" = 11 &&
		grep -q "^warning: .*SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=soon is no time up to 5 h" "$2"' \
	_ "$tmp/d13-soon.json" "$tmp/d13-soon.txt"

# An imported log without udevd's version: the deadline is a range.
variant unknown '.' '/systemd-udevd version/d'
check "udevd's version unknown: udevd kills at the 3 s timeout or up to 10 s after it" \
	grep -q '; udev event timeout 3 s; udevd kills at it or up to 10 s after it (its version unknown: systemd 256 and later add 10 s)$' "$tmp/unknown.txt"
check "udevd's version unknown: the SIGKILL is after the timeout, or up to 10 s after" \
	grep -q '^kill 1: .* after the udev event timeout (3 s) or up to 10 s after it (udevd.s version unknown' "$tmp/unknown.txt"
check "udevd's version unknown: the 5.03 s probe is killed by udevd up to 255, not from 256" \
	grep -q '; a synchronous probe this long gets its worker killed by udevd up to systemd 255, not from 256 (it kills at 13 s; udevd.s version unknown)$' "$tmp/unknown.txt"
check "udevd's version unknown: explain --json gives no deadline and no verdict" \
	test "$(jqv unknown '"\(.udevd_version) \(.udev_kill_deadline_s) \(.at_risk[0].past_kill_deadline)"')" = "null null null"
