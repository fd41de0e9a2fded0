#!/usr/bin/env bash
# bootprobe import reads boots bootprobe never instrumented: folders of
# tools/gather/bootprobe-gather and bare kernel logs of boots with
# initcall_debug.  Fixtures (tests/data/gather/README.md): the real kernel
# logs of Debian 12 (6.1), 13 (6.12) and 13 backports (7.3) boots, with
# initcall_debug, driver-core and udevd lines constructed from the kernels'
# and udevd's printk formats.  Each probe line is a span whose start is its
# stamp less its duration; each failure format names its driver; deferrals,
# initcalls and udevd's kills are read; report, explain and compare work on
# the run; and every bad input is refused or marked at FILE:LINE.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "import of gathered boots"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The gather script is POSIX sh: it must run under any /bin/sh.
g=tools/gather/bootprobe-gather
check "bootprobe-gather: sh -n" sh -n "$g"
if command -v dash >/dev/null; then check "bootprobe-gather: dash -n" dash -n "$g"
else skip "bootprobe-gather: dash -n" "no dash"; fi
if command -v shellcheck >/dev/null; then check "bootprobe-gather: shellcheck -s sh" shellcheck -s sh "$g"
else skip "bootprobe-gather: shellcheck -s sh" "no shellcheck (tools/deps.sh test set)"; fi
if command -v checkbashisms >/dev/null; then check "bootprobe-gather: checkbashisms" checkbashisms "$g"
else skip "bootprobe-gather: checkbashisms" "no checkbashisms (devscripts, tools/deps.sh test set: make deps-test)"; fi
check "bootprobe-gather -h says how to use it" bash -c '"$1" -h | grep -q "^Usage: bootprobe-gather"' _ "$g"
real=results/20261207-054712-kernels/boots
data=tests/data/gather

# gathered DIR FIXTURE REAL-BOOT ID: a folder as bootprobe-gather makes it.
gathered() {
	local d=$1 fx=$data/$2 rb=$real/$3 id=$4 f
	mkdir -p "$d"
	printf 'bootprobe-gather 1\nboot_id %s\n' "$id" >"$d/gather.txt"
	echo "$id" >"$d/boot-id.txt"
	{ echo "# bootprobe-gather: boot_id=$id source=dmesg"
	  { tr -d '\r' <"$rb/console.log" | grep -a '^\[ *[0-9]*\.[0-9]*\]'; cat "$fx/constructed.log"; } |
		LC_ALL=C sort -s -t ']' -k1,1; } >"$d/kernel.log"
	for f in udevd.log drivers.txt devices-deferred.txt; do
		sed "s/BOOT_ID/$id/" "$fx/$f" >"$d/$f"
	done
	for f in systemd-analyze-time.txt systemd-analyze-blame.txt uname-r.txt kernel-cmdline.txt \
		dmi-product-name.txt; do
		cp "$rb/$f" "$d/$f"
	done
}
id12=11111111-2222-4333-8444-000000000612
id13=11111111-2222-4333-8444-000000006120
idbpo=11111111-2222-4333-8444-000000000730
gathered "$tmp/g12" debian-12 debian-12-001 $id12
gathered "$tmp/g13" debian-13 debian-13-001 $id13
gathered "$tmp/gbpo" debian-13-bpo debian-13-bpo-001 $idbpo

"$BP" import -o "$tmp/res" --run-id gathered "$tmp/g12" "$tmp/g13" "$tmp/gbpo" >"$tmp/out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/out"
run=$tmp/res/gathered
check "three gathered folders, three boots, three modes by release (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ -d "$2/boots/6.1.0-57-amd64-001" ] && [ -d "$2/boots/6.12.118_deb13-amd64-001" ] &&
		[ -d "$2/boots/7.3.4_deb13-amd64-001" ]' _ "$rc" "$run"
for k in 6.1.0-57-amd64 6.12.118_deb13-amd64 7.3.4_deb13-amd64; do
	check "$k: 11 probe spans, 1 failed, 1 deferred (1 pending), 3 initcalls, 1 udevd kill, 1 udevd timeout" \
		grep -qF "boots/$k-001: from the kernel log: 11 probe spans, 1 failed, 1 deferred (1 pending), 3 initcalls, 1 udevd kills, 1 udevd timeouts" "$tmp/out"
done
b12=$run/boots/6.1.0-57-amd64-001
b13=$run/boots/6.12.118_deb13-amd64-001
bbpo=$run/boots/7.3.4_deb13-amd64-001
"$BP" timeline "$b12" >"$tmp/t12" 2>&1
"$BP" timeline "$b13" >"$tmp/t13" 2>&1
"$BP" timeline "$bbpo" >"$tmp/tbpo" 2>&1
# A boot read from its kernel log never had a stream: nothing to warn about.
for t in t12 t13 tbpo; do
	check "timeline ($t): a boot read from its log says nothing of a missing events.jsonl" \
		bash -c '! grep -q "events.jsonl" "$1"' _ "$tmp/$t"
done
# A boot with neither: its missing stream is still said.
mkdir "$tmp/nostream"
cp tests/data/boots/killed/boot.json tests/data/boots/killed/console.log "$tmp/nostream/"
"$BP" timeline "$tmp/nostream" >"$tmp/tnone" 2>&1
check "timeline: a boot with no stream and no log lines warns of its missing events.jsonl" \
	grep -q "^warning: .*/nostream/events.jsonl: " "$tmp/tnone"
check "6.1's failure line (DRV: probe of DEV failed with error N) names the driver of its span" \
	grep -q 'probe slowprobe 0000:00:03.0 (from the kernel log, line [0-9]*; driver named by the log) -> -4' "$tmp/t12"
check "6.12's failure line (probe with driver DRV failed with error N) names the driver" \
	grep -q 'probe slowprobe 0000:00:03.0 (from the kernel log, line [0-9]*; driver named by the log) -> -4' "$tmp/t13"
check "7.x names the driver in the probe line itself" \
	grep -q 'probe e1000 0000:00:07.0 (from the kernel log, line [0-9]*; driver named by the log) -> 0' "$tmp/tbpo"
check "6.1: a probe that returned 0 takes its driver from the sysfs map" \
	grep -q 'probe e1000 0000:00:07.0 (from the kernel log, line [0-9]*; driver from the sysfs map) -> 0' "$tmp/t12"
check "6.1: a deferral (returned 517) is not given the map's driver: not known" \
	grep -q 'probe ? 0000:00:04.0 (from the kernel log, line [0-9]*; driver not known) -> -517' "$tmp/t12"
# The span starts at the stamp less the duration: ahci's line at T after 104729 usecs.
t=$(grep -a 'probe of 0000:00:1f.2 returned' "$b12/console.log" | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
want=$(awk -v t="$t" 'BEGIN { printf "%.3f", t - 0.104729 }')
check "a span starts at its line's stamp less its duration ($want s for ahci)" \
	grep -q "^ *$want .*probe ahci 0000:00:1f.2" "$tmp/t12"

"$BP" report --no-charts --no-traces --out "$tmp/rep" "$run" >"$tmp/rep.out" 2>&1
check "report reads the gathered run" test $? -eq 0
check "report: no input problem of a missing events.jsonl in a run read from kernel logs" \
	bash -c '! grep -q "events.jsonl" "$1"' _ "$tmp/rep/report.md"
check "report: every mode has 1 ok boot with a boot time (multi-user.target from systemd-analyze)" \
	test "$(jq -r '[.headline[] | select(.ok == 1 and .boot_s.median != null)] | length' "$tmp/rep/summary.json")" = 3
check "report: every mode has its 1 failed probe, read from the log" \
	test "$(jq -r '[.headline[] | select(.failed_probes == 1)] | length' "$tmp/rep/summary.json")" = 3
check "report: what a log cannot give is marked incomplete (kthread_create(), SIGKILLs, signal ends)" \
	grep -q 'SIGKILLs, signal ends, kthread_create(), module loads, disks and interfaces, init exec' "$tmp/rep/report.md"
"$BP" explain "$b12" >"$tmp/ex" 2>&1
check "explain on a gathered boot names udevd's kill from its own log line" \
	grep -q 'systemd-udevd killed worker \[93\] (SEQNUM=346)' "$tmp/ex"

# compare: a gathered run beside a collector's run of the same mode, and the gate.
fx=tests/data/boots/sigterm
{ grep -v '"type":"trailer"' "$fx/events.jsonl"; jq -nc '{type:"attachment",name:"uname-r.txt",text:"6.1.0-57-amd64\n"}'
  grep '"type":"trailer"' "$fx/events.jsonl"; } >"$tmp/$id12.jsonl"
"$BP" import -q -o "$tmp/res" --run-id collector "$tmp/$id12.jsonl" >/dev/null 2>&1
"$BP" import -q -o "$tmp/res" --run-id gathered12 "$tmp/g12" >/dev/null 2>&1
"$BP" compare "$tmp/res/collector" "$tmp/res/gathered12" >"$tmp/cmp" 2>&1
rc=$?
check "compare puts a gathered run beside a collector run of one mode (rc $rc, not 2)" test "$rc" -ne 2
"$BP" compare --fail-if-slower 5 "$tmp/res/gathered12" "$tmp/res/gathered12" >/dev/null 2>&1
rc=$?
check "compare --fail-if-slower on gathered runs gives a verdict (rc $rc: 0 or 3, never 2)" \
	bash -c '[ "$1" -eq 0 ] || [ "$1" -eq 3 ]' _ "$rc"

# The collector's stream and the gathered folder of one boot: two sources, not duplicates.
"$BP" import -o "$tmp/res" --run-id both "$tmp/$id12.jsonl" "$tmp/g12" >"$tmp/both" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/both"
check "a stream and a gathered folder of one boot id: both imported, the gathered as MODE-log (rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ -d "$2/boots/6.1.0-57-amd64-001" ] && [ -d "$2/boots/6.1.0-57-amd64-log-001" ] &&
		grep -q "a second source of one boot, imported as mode 6.1.0-57-amd64-log" "$3"' \
	_ "$rc" "$tmp/res/both" "$tmp/both"
"$BP" import -o "$tmp/res" --run-id twice "$tmp/g12" "$tmp/g12" >"$tmp/twice" 2>&1
check "the same gathered folder twice is one boot (left out, named by its boot id)" \
	grep -qF "left out: the same boot as $tmp/g12 (boot id $id12)" "$tmp/twice"

# ---- a gathered folder carried by the collector's stream (bootprobe.gather=1) ----
# finish sends each file of bootprobe-gather's folder as an attachment
# gather.FILE beside its own 6 (17 in all: more than the 16 the collector
# and the reader once kept); import, like the runner, keeps them as
# BOOT/gathered/, a folder import reads as the same boot's second source.
# carrier OUT FOLDER [JQ]: the sigterm stream with FOLDER's files attached,
# each record passed through JQ (default: as it is).
carrier() {
	local out=$1 dir=$2 filter=${3:-.} f
	{ grep -v '"type":"trailer"' "$fx/events.jsonl"
	  for f in systemd-analyze-time.txt systemd-analyze-blame.txt uname-r.txt kernel-cmdline.txt \
		dmi-product-name.txt boot-id.txt; do
		jq -Rsc --arg n "$f" '{type: "attachment", name: $n, bytes: length, truncated: false, text: .}' \
			"$dir/$f"
	  done
	  for f in "$dir"/*; do
		jq -Rsc --arg n "gather.${f##*/}" '{type: "attachment", name: $n, bytes: length,
			truncated: false, text: .}' "$f" | jq -c "$filter"
	  done
	  grep '"type":"trailer"' "$fx/events.jsonl"; } >"$out"
}
mkdir -p "$tmp/carried"
carrier "$tmp/carried/$id12.jsonl" "$tmp/g12"
"$BP" import -o "$tmp/res" --run-id carried "$tmp/carried/$id12.jsonl" >"$tmp/carried.out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/carried.out"
cb=$tmp/res/carried/boots/6.1.0-57-amd64-001
nf=$(ls "$tmp/g12" | wc -l)
same=0
for f in "$tmp/g12"/*; do cmp -s "$f" "$cb/gathered/${f##*/}" && same=$((same + 1)); done
check "a stream carrying its gathered folder (17 attachments): imported, the $nf files kept as gathered/ byte for byte ($same, rc $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ "$2" -eq "$3" ] && [ "$(ls "$4/gathered" | wc -l)" -eq "$3" ]' _ "$rc" "$same" "$nf" "$cb"
check "a stream without gather.* attachments has no gathered/ folder" \
	test ! -e "$tmp/res/collector/boots/6.1.0-57-amd64-001/gathered"
"$BP" import -o "$tmp/res" --run-id carried-log --mode 6.1.0-57-amd64 "$cb/gathered" >"$tmp/carried-log" 2>&1
rc=$?
check "import reads BOOT/gathered as a gathered folder: the same spans, failures and kills (rc $rc)" \
	grep -qF "boots/6.1.0-57-amd64-001: from the kernel log: 11 probe spans, 1 failed, 1 deferred (1 pending), 3 initcalls, 1 udevd kills, 1 udevd timeouts" "$tmp/carried-log"
"$BP" compare "$tmp/res/carried" "$tmp/res/carried-log" >"$tmp/carried-cmp" 2>&1
rc=$?
check "compare puts the collector's run beside the gathered run of the same boot (rc $rc, not 2)" test "$rc" -ne 2
"$BP" import -o "$tmp/res" --run-id carried-both "$tmp/carried/$id12.jsonl" "$cb/gathered" >"$tmp/carried-both" 2>&1
check "the stream and its own gathered folder given together: one boot id, two sources (MODE-log)" \
	grep -qF "boot $id12 is also given as a collector's stream: a second source of one boot, imported as mode 6.1.0-57-amd64-log" "$tmp/carried-both"

# Cut by the collector at 1 MiB (here: marked so, cut at a line's end): kept
# without its end, never ending in a newline, so import names the cut.
mkdir -p "$tmp/cut"
carrier "$tmp/cut/$id12.jsonl" "$tmp/g12" \
	'if .name == "gather.kernel.log" then .truncated = true | .text |= (split("\n")[0:-40] | join("\n") + "\n") else . end'
"$BP" import -o "$tmp/res" --run-id cut "$tmp/cut/$id12.jsonl" >"$tmp/cut.out" 2>&1
sed 's/^/#   /' "$tmp/cut.out"
check "a gathered file cut by the collector: named, kept without its end (no final newline)" \
	bash -c 'grep -q "gathered/kernel.log: cut at 1048576 bytes by the collector: kept without its end" "$1" &&
		[ -n "$(tail -c 1 "$2")" ]' _ "$tmp/cut.out" "$tmp/res/cut/boots/6.1.0-57-amd64-001/gathered/kernel.log"
"$BP" import -o "$tmp/res" --run-id cut-log "$tmp/res/cut/boots/6.1.0-57-amd64-001/gathered" >"$tmp/cut-log" 2>&1
sed 's/^/#   /' "$tmp/cut-log"
check "... and import of it says the log's end is missing" \
	grep -q "cut/boots/6.1.0-57-amd64-001/gathered: the kernel log ends inside a line: its end is missing" "$tmp/cut-log"

# Only the fixed list of a gathered folder's names becomes files; a name
# with a slash is no attachment name at all (the stream reader refuses it).
mkdir -p "$tmp/odd"
carrier "$tmp/odd/$id12.jsonl" "$tmp/g12"
{ grep -v '"type":"trailer"' "$tmp/odd/$id12.jsonl"
  jq -nc '{type: "attachment", name: "gather.evil.txt", bytes: 1, truncated: false, text: "x"}'
  jq -nc '{type: "attachment", name: "gather.../../evil.txt", bytes: 1, truncated: false, text: "x"}'
  grep '"type":"trailer"' "$tmp/odd/$id12.jsonl"; } >"$tmp/odd/x" && mv "$tmp/odd/x" "$tmp/odd/$id12.jsonl"
"$BP" import -o "$tmp/res" --run-id odd "$tmp/odd/$id12.jsonl" >"$tmp/odd.out" 2>&1
sed 's/^/#   /' "$tmp/odd.out"
check "an unknown gather.* name is named and not kept; a name with a slash is refused by the reader" \
	bash -c 'grep -qF "1 gather.* attachment not kept: not a file of a gathered folder (first: gather.evil.txt)" "$1" &&
		grep -q "attachment without a valid name" "$1" && [ -z "$(find "$2" -name "evil*")" ]' \
	_ "$tmp/odd.out" "$tmp/res"

# Drivers whose names hold blanks (drv->name: "i8042 kbd", "i6300ESB timer";
# real 7.3.4 boots print them so): each format names them whole.
{ echo '[    0.000000] Linux version 7.3.4+deb13-amd64 (debian-kernel@lists.debian.org)'
  echo '[    1.730902] probe of 00:00 with driver i8042 kbd returned 0 after 1593 usecs'
  echo '[    2.000100] i8042 aux 00:01: probe with driver i8042 aux failed with error -5'
  echo '[    2.000110] probe of 00:01 returned 5 after 10 usecs'
  echo '[    3.000100] i6300ESB timer: probe of 0000:00:0f.0 failed with error -12'
  echo '[    3.000110] probe of 0000:00:0f.0 returned 12 after 20 usecs'; } >"$tmp/blanks.txt"
"$BP" import -o "$tmp/res" --run-id blanks "$tmp/blanks.txt" >"$tmp/blanks" 2>&1
"$BP" timeline "$tmp/res/blanks/boots/7.3.4_deb13-amd64-001" >"$tmp/tblanks" 2>&1
sed 's/^/#   /' "$tmp/blanks" "$tmp/tblanks"
check "a driver's name with a blank: 7.x's probe line, 6.12's and 6.1's failure lines name it whole" \
	bash -c 'grep -qF "3 probe spans, 2 failed" "$1" && ! grep -q "records* refused" "$1" &&
		grep -q "probe i8042 kbd 00:00 (from the kernel log, line 2; driver named by the log) -> 0" "$2" &&
		grep -q "probe i8042 aux 00:01 (from the kernel log, line 4; driver named by the log) -> -5" "$2" &&
		grep -q "probe i6300ESB timer 0000:00:0f.0 (from the kernel log, line 6; driver named by the log) -> -12" "$2"' \
	_ "$tmp/blanks" "$tmp/tblanks"

# A bare kernel log (dmesg of a boot with initcall_debug), and one without.
grep -v '^#' "$tmp/g13/kernel.log" >"$tmp/dmesg-6.12.txt"
"$BP" import -o "$tmp/res" --run-id bare "$tmp/dmesg-6.12.txt" >"$tmp/bare" 2>&1
check "a bare kernel log imports: mode from its 'Linux version' line, spans from its lines" \
	grep -qF "boots/6.12.118_deb13-amd64-001: from the kernel log: 11 probe spans" "$tmp/bare"
tr -d '\r' <"$real/debian-12-001/console.log" | grep -a '^\[' >"$tmp/plain.txt"
"$BP" import -o "$tmp/res" --run-id plain "$tmp/plain.txt" >"$tmp/plain" 2>&1
check "a kernel log without initcall_debug or driver-core lines is refused, saying why" \
	grep -qF "plain.txt: refused: no initcall_debug or driver-core line" "$tmp/plain"

# ---- real boots: gathered folders and the collector's records of the same boots ----
# Recorded by tests/guest/55-gather-roundtrip.sh with RECORD=1
# (tests/data/gathered/README.md); each checked as 55 checks the live boot.
for image in debian-12 debian-13 debian-13-bpo; do
	fxr=tests/data/gathered/$image
	if [ ! -s "$fxr/gathered/kernel.log" ] || [ ! -s "$fxr/collector.jsonl" ]; then
		skip "$image: a real boot's kernel log against its collector's records" \
			"no recording in $fxr (RECORD=1 tests/guest/55-gather-roundtrip.sh)"
		continue
	fi
	out=$tmp/real-$image
	mkdir -p "$out"
	"$BP" import -o "$tmp/res" --run-id "real-$image" --mode gather "$fxr/gathered" >"$out/import" 2>&1
	rc=$?
	sed 's/^/#   /' "$out/import"
	check "$image: the recorded gathered folder imports, no line refused (rc $rc)" \
		bash -c '[ "$1" -eq 0 ] && ! grep -q "records* refused" "$2"' _ "$rc" "$out/import"
	check_log_against_collector "$image (recorded)" "$fxr/gathered" "$tmp/res/real-$image/boots/gather-001" \
		"$fxr/collector.jsonl" "$out/import" "$out"
done

# ---- bad input: each refused or marked at FILE:LINE, never a crash or a silent number ----
# bad NAME: a copy of the 6.1 folder to damage.
bad() { rm -rf "${tmp:?}/$1"; cp -r "$tmp/g12" "$tmp/$1"; }
import_bad() { "$BP" import -o "$tmp/res" --run-id "$1" "$tmp/$1" >"$tmp/$1.out" 2>&1; echo $? >"$tmp/$1.rc"; sed 's/^/#   /' "$tmp/$1.out" | head -12; }

bad truncated
head -n -3 "$tmp/g12/kernel.log" >"$tmp/truncated/kernel.log"
printf '[   99.000000] probe of 0000:00:1f.6 returned 0 after 1' >>"$tmp/truncated/kernel.log"
import_bad truncated
check "truncated: the cut line is named at FILE:LINE and refused, the probes marked incomplete" \
	bash -c 'grep -q "truncated/kernel.log:[0-9]*: the log ends inside this probe line (cut short; not read)" "$1" &&
		grep -q "incomplete: probes" "$1"' _ "$tmp/truncated.out"

bad interleaved
cat "$tmp/g12/kernel.log" "$tmp/g13/kernel.log" >"$tmp/interleaved/kernel.log"
import_bad interleaved
check "two boots in one log: refused, the second 'Linux version' named at FILE:LINE" \
	grep -q "interleaved: refused: kernel log unusable (.*interleaved/kernel.log:[0-9]*: a second 'Linux version' line: two boots in one log)" "$tmp/interleaved.out"

bad otherboot
sed -i "1s/$id12/99999999-2222-4333-8444-000000000612/" "$tmp/otherboot/drivers.txt"
import_bad otherboot
check "a sysfs map of another boot: named with both boot ids, not used" \
	grep -qF "otherboot/drivers.txt:1: boot id 99999999-2222-4333-8444-000000000612, not the kernel log's $id12: the map is another boot's (not read)" "$tmp/otherboot.out"
"$BP" timeline "$tmp/res/otherboot/boots/6.1.0-57-amd64-001" >"$tmp/tother" 2>&1
check "... and no span takes a driver from it" bash -c '! grep -q "from the sysfs map" "$1"' _ "$tmp/tother"

bad duplicated
line=$(grep -n 'probe of 0000:00:1f.2 returned' "$tmp/g12/kernel.log" | cut -d: -f1)
sed -i "${line}p" "$tmp/duplicated/kernel.log"
import_bad duplicated
check "a duplicated line is named with the line it repeats and counted once" \
	bash -c 'grep -q "duplicated/kernel.log:$(($2 + 1)): the same probe line as line $2 (duplicated; not counted again)" "$1" &&
		grep -q "11 probe spans" "$1"' _ "$tmp/duplicated.out" "$line"

bad clockjump
echo '[    1.000000] probe of 0000:00:1f.6 returned 0 after 10 usecs' >>"$tmp/clockjump/kernel.log"
import_bad clockjump
check "a clock jump back is named at FILE:LINE and the line refused" \
	grep -q "clockjump/kernel.log:[0-9]*: a probe line at 1.000000 s, before line [0-9]*'s .* (the clock jumped back or two logs are interleaved; refused)" "$tmp/clockjump.out"

bad overlong
printf '[   99.000000] probe of 0000:00:1f.6 returned 0 after 10 usecs%01100d\n' 0 >>"$tmp/overlong/kernel.log"
import_bad overlong
check "a line longer than a kernel record (1024 bytes) is named at FILE:LINE and refused" \
	grep -q "overlong/kernel.log:[0-9]*: 1[0-9]* bytes after the stamp, more than one kernel record holds (1024)" "$tmp/overlong.out"

bad nonutf8
printf '[   99.000000] probe of 0000:00:1f\xff\xfe returned 0 after 10 usecs\n' >>"$tmp/nonutf8/kernel.log"
import_bad nonutf8
check "non-UTF-8 bytes in a probe line: named at FILE:LINE, the line refused" \
	grep -q "nonutf8/kernel.log:[0-9]*: bytes that are not UTF-8 text in a probe line" "$tmp/nonutf8.out"

bad nobegin
grep -v 'Linux version' "$tmp/g12/kernel.log" | awk '!/^\[ *[0-5]\./' >"$tmp/nobegin/kernel.log"
import_bad nobegin
check "a log without its beginning: named, with log_buf_len= advised, the probes marked incomplete" \
	bash -c 'grep -q "nobegin/kernel.log:2: the kernel log begins at [0-9.]* s without the kernel'"'"'s .Linux version. line" "$1" &&
		grep -q "boot with log_buf_len=4M" "$1"' _ "$tmp/nobegin.out"
"$BP" report --no-charts --no-traces --out "$tmp/rep-nobegin" "$tmp/res/nobegin" >/dev/null 2>&1
check "... and report marks its probes incomplete" \
	grep -q 'probes, SIGKILLs, signal ends, kthread_create()' "$tmp/rep-nobegin/report.md"

bad malformed
echo '[   99.000000] probe of 0000:00:1f.6 returned zero after ten usecs' >>"$tmp/malformed/kernel.log"
import_bad malformed
check "a probe line in no kernel's format is named at FILE:LINE and refused" \
	grep -q "malformed/kernel.log:[0-9]*: a driver-core or initcall line in no kernel's format" "$tmp/malformed.out"
