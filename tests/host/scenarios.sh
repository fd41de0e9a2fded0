#!/usr/bin/env bash
# Scenario files through the CLI: every shipped scenario loads, and every
# bad one is refused before any boot starts, with one line naming file and
# line (tests/data/scenarios/bad-*.conf say what they expect on line 1).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_bp "scenario files"

for f in bench/scenarios/*.conf; do
	check "$f loads and plans its boots" \
		sh -c "'$BP' run --scenario '$f' --boots 1 --dry-run | grep -q '^scenario '"
done

results=$(mktemp -d)
for f in tests/data/scenarios/bad-*.conf; do
	want=$(sed -n '1s/^# want: //p' "$f")
	err=$("$BP" run --scenario "$f" --results "$results" 2>&1 >/dev/null)
	rc=$?
	check "$(basename "$f"): refused with exit 2" test "$rc" -eq 2
	check "$(basename "$f"): one line naming file and line: $want" \
		test "$(echo "$err" | wc -l)" -eq 1 -a -n "$want" -a -z "${err##*"$want"*}"
done
check "no bad scenario left a results folder behind" test -z "$(ls -A "$results")"
rmdir "$results"

err=$("$BP" run --scenario bench/scenarios/default.conf --time-scale 0.01 --dry-run 2>&1)
check "a --time-scale that makes udev's timeout under 1 s is refused, naming the mode" \
	test -z "${err##*"mode 'sync-killable': event_timeout 30 s at time_scale 0.01"*}"
err=$("$BP" run --scenario bench/scenarios/default.conf --devices 2 --dry-run 2>&1)
check "--devices that no longer matches the probe_ms list is refused at its line" \
	test -z "${err##*"default.conf:"*"probe_ms lists 4 values but devices = 2"*}"

# refused WHAT WANT_RC WANT_TEXT [run options...]: one line, before any boot.
refused() {
	local what=$1 want_rc=$2 want=$3 err rc
	shift 3
	err=$("$BP" run --accel tcg "$@" 2>&1 >/dev/null)
	rc=$?
	check "$what: exit $want_rc" test "$rc" -eq "$want_rc"
	check "$what: one line: $want" \
		test -n "$err" -a "$(echo "$err" | wc -l)" -eq 1 -a -z "${err##*"$want"*}"
}

refused "--append with an unbalanced quote, checked as a cmdline" 2 \
	"bootprobe run: --append: unbalanced double quote at byte 5" --append 'foo="bar' --dry-run
refused "--append with a control byte" 2 "--append: control byte 0x0d at byte 4" \
	--append "$(printf 'a=1\rb=2')" --dry-run
refused "--append that sets what a mode's event_timeout sets" 2 \
	"mode 'sync-killable': event_timeout and a cmdline udev.event_timeout= both set the timeout" \
	--scenario bench/scenarios/default.conf --append udev.event_timeout=9 --dry-run

# The runner joins the initramfs's boot-args to every mode's arguments: a
# line that is then too long is refused before any results folder or QEMU.
t=$(mktemp -d)
echo kernel >"$t/bzImage"
echo initrd >"$t/initramfs.cpio"
printf 'g%04d=1 ' $(seq 1 248) | sed 's/ $/\n/' >"$t/boot-args"	# 1983 bytes
refused "boot-args that make a mode's command line too long: named, by how much" 1 \
	"boot m-001: kernel command line is 2085 bytes, 38 over the 2047 bytes x86 takes" \
	--kernel "$t/bzImage" --initrd "$t/initramfs.cpio" --qemu "$t/no-qemu" \
	--results "$t/results" --mode sync --mode 'm:slowprobe.probe_ms=123456789012345678901234567890'
printf 'a="b\n' >"$t/boot-args"
refused "boot-args with an unbalanced quote" 1 "$t/boot-args: unbalanced double quote at byte 3" \
	--kernel "$t/bzImage" --initrd "$t/initramfs.cpio" --qemu "$t/no-qemu" \
	--results "$t/results" --mode sync
check "no refused run left a results folder" test ! -e "$t/results"
rm -rf "$t"
