#!/usr/bin/env bash
# bootprobe import: logs a collector kept on machines (the stream with its
# attachments: uname -r, the command line, the kernel log) become a run that
# report and compare read.  Built from a recorded boot: two kernel releases
# give two modes, --mode names them, a log that is no stream is refused and
# named, an existing run is never written into.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "import"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/sigterm
# dmesg's text: the serial console's lines without their carriage returns.
tr -d '\r' <"$fixture/console.log" >"$tmp/dmesg.txt"

# log FILE RELEASE [MACHINE]: the fixture's stream with the finish service's
# attachments before its trailer, as a machine keeps it.  Two boots of one
# release are two machines' (the same log twice is one boot: import-duplicates.sh).
log() {
	local att
	att=$(jq -nc --arg r "$2" --arg m "${3:-Test Machine 3000}" --rawfile d "$tmp/dmesg.txt" \
		'{type:"attachment",name:"uname-r.txt",text:($r + "\n")},
		 {type:"attachment",name:"kernel-cmdline.txt",text:"root=/dev/sda1 udev.event_timeout=3\n"},
		 {type:"attachment",name:"dmi-product-name.txt",text:($m + "\n")},
		 {type:"attachment",name:"dmesg.txt",text:$d}')
	{ grep -v '"type":"trailer"' "$fixture/events.jsonl"; echo "$att"
	  grep '"type":"trailer"' "$fixture/events.jsonl"; } >"$1"
}
log "$tmp/a.jsonl" 6.1.0-56-amd64
log "$tmp/b.jsonl" 6.1.0-57-amd64
log "$tmp/c.jsonl" 6.1.0-57-amd64 "Test Machine 3001"
echo '{"not":"a stream"}' >"$tmp/junk.jsonl"

"$BP" import -o "$tmp/res" --run-id fleet "$tmp/a.jsonl" "$tmp/b.jsonl" "$tmp/c.jsonl" \
	"$tmp/junk.jsonl" "$tmp/missing.jsonl" >"$tmp/out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/out"
check "import exits 1: three imported, two refused (rc $rc)" \
	bash -c '[ "$1" -eq 1 ] && grep -q "(3 boots imported, 2 refused, 0 left out as duplicates)" "$2"' _ "$rc" "$tmp/out"
check "the log that is no stream is named with why" \
	grep -q 'junk.jsonl: refused: no header record: not a bootprobe-collector stream' "$tmp/out"
check "the missing log is named with why" grep -q 'missing.jsonl: refused: No such file or directory' "$tmp/out"
run=$tmp/res/fleet
check "two kernel releases, two modes: 6.1.0-56-amd64-001, 6.1.0-57-amd64-001 and -002" \
	test -d "$run/boots/6.1.0-56-amd64-001" -a -d "$run/boots/6.1.0-57-amd64-002"
check "the stream is copied as it was" cmp -s "$tmp/a.jsonl" "$run/boots/6.1.0-56-amd64-001/events.jsonl"
check "the kernel log is the boot's console.log" \
	cmp -s "$tmp/dmesg.txt" "$run/boots/6.1.0-56-amd64-001/console.log"
check "boot.json says the command line, the release and the machine" \
	test "$(jq -r '"\(.kernel_cmdline)|\(.kernel_release)|\(.machine)|\(.outcome)"' "$run/boots/6.1.0-57-amd64-001/boot.json")" = \
	"root=/dev/sda1 udev.event_timeout=3|6.1.0-57-amd64|Test Machine 3000|ok"

"$BP" report --no-charts --no-traces --out "$tmp/rep" "$run" >"$tmp/rep.out" 2>&1
check "report reads the imported run" test $? -eq 0
check "report: mode 6.1.0-57-amd64 has 2 ok boots with a boot time from the kernel log" \
	test "$(jq -r '.headline[] | select(.mode == "6.1.0-57-amd64") | "\(.ok) \(.boot_s.median != null)"' "$tmp/rep/summary.json")" = "2 true"
check "explain on an imported boot follows udevd's SIGTERM" \
	bash -c '"$1" explain "$2" | grep -q "^signal 1: systemd-udevd \[82\] sent SIGTERM"' _ "$BP" "$run/boots/6.1.0-57-amd64-001"

"$BP" import -o "$tmp/res" --run-id fleet "$tmp/a.jsonl" >"$tmp/out2" 2>&1
check "an existing run is never written into (exit 2, named)" \
	bash -c '[ "$1" -eq 2 ] && grep -q "fleet: File exists" "$2"' _ $? "$tmp/out2"
"$BP" import -q -o "$tmp/res" --run-id before --mode before "$tmp/a.jsonl" &&
	"$BP" import -q -o "$tmp/res" --run-id after --mode before "$tmp/b.jsonl" "$tmp/c.jsonl"
check "--mode names the mode: before/after an update is a compare" \
	bash -c '"$1" compare "$2" "$3" >/dev/null 2>&1; [ $? -ne 2 ]' _ "$BP" "$tmp/res/before" "$tmp/res/after"

# A log with a devnode the reader refuses is imported and named as kept,
# incomplete; one whose probe record is refused cannot be a boot: refused,
# its probe spans named unusable at FILE:LINE.
sed '3i {"type":"devnode","ts_ns":5,"kind":"disk","name":"vda"}' "$tmp/a.jsonl" >"$tmp/devnode.jsonl"
sed '2s/"pid":1,/"pid":"1",/' "$tmp/a.jsonl" >"$tmp/probe.jsonl"
"$BP" import -q -o "$tmp/res" --run-id refused "$tmp/devnode.jsonl" "$tmp/probe.jsonl" >"$tmp/out3" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/out3"
check "a refused devnode: imported, and named as kept, incomplete (rc $rc)" \
	bash -c '[ "$1" -eq 1 ] && [ -d "$3/boots/6.1.0-56-amd64-001" ] &&
		grep -qF "bootprobe import: kept, incomplete: $2: 1 record refused (first: $2:3: devnode without kind, name or time (skipped)); incomplete: disks and interfaces" "$4"' \
	_ "$rc" "$tmp/devnode.jsonl" "$tmp/res/refused" "$tmp/out3"
check "a refused probe: the log is refused, its probe spans named unusable" \
	grep -qF "bootprobe import: $tmp/probe.jsonl: refused: probe spans unusable ($tmp/probe.jsonl:2: field 'pid' is string, want int (record skipped))" "$tmp/out3"
