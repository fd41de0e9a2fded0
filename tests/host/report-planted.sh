#!/usr/bin/env bash
# A results folder is input: what is planted in it steers no write and no
# read of `bootprobe report`, explain, timeline or merge (docs/security.md).
#   - links: RUN/report, report/charts, report/traces as links to another
#     folder get nothing written there; a link at a boot folder or one of its
#     files is named and refused, its target never read;
#   - temporary names: a FIFO or a hard link to a boot's evidence planted at
#     NAME.tmp neither hangs report nor overwrites the evidence;
#   - a second report of the same folder stops at once, exit 4, naming the lock;
#   - charts: a picture that came with the folder is never shown as this
#     report's chart when gnuplot fails.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "planted links, temporary names, locks and charts"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

probe='{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:03.0","start_ns":4000000000,"end_ns":5000000000,"ret":0}'
# run RUN: two ok boots of mode m, listed in the manifest.
run() {
	local b
	for b in m-001 m-002; do
		mkdir -p "$1/boots/$b"
		printf '{"boot":"%s","mode":"m","outcome":"ok"}\n' "$b" >"$1/boots/$b/boot.json"
		cp tests/data/console/ok.log "$1/boots/$b/console.log"
		printf '%s\n' '{"type":"header","schema":1}' "$probe" \
			'{"type":"trailer","events_written":1,"events_dropped":0,"bpf_drops":0}' \
			>"$1/boots/$b/events.jsonl"
	done
	printf '{"boots":[{"dir":"boots/m-001"},{"dir":"boots/m-002"}]}\n' >"$1/manifest.json"
}
# report RUN [OPTION...]: at most 20 s, its exit status; stderr in $tmp/err.
report() {
	local run=$1
	shift
	timeout 20 "$BP" report --quiet "$@" "$run" >"$tmp/out" 2>"$tmp/err"
}
# empty DIR: nothing in DIR.
empty() { [ -z "$(ls -A "$1")" ]; }
have_gnuplot() { command -v gnuplot >/dev/null; }

# ---- 1. writes through planted folders ----
run "$tmp/r1"
mkdir "$tmp/elsewhere1"
ln -s "$tmp/elsewhere1" "$tmp/r1/report"
report "$tmp/r1" --no-charts
rc=$?
check "RUN/report a link to another folder: report fails (exit 1, got $rc)" test "$rc" -eq 1
check "and writes nothing there" empty "$tmp/elsewhere1"
check "and names the link" grep -q "r1/report: a symbolic link (not followed)" "$tmp/err"

run "$tmp/r2"
mkdir -p "$tmp/r2/report" "$tmp/elsewhere2"
ln -s "$tmp/elsewhere2" "$tmp/r2/report/traces"
report "$tmp/r2" --no-charts
rc=$?
check "report/traces a link: exit 1 (got $rc), nothing written through it" \
	bash -c '[ "$1" -eq 1 ] && [ -z "$(ls -A "$2")" ]' _ "$rc" "$tmp/elsewhere2"
check "the other outputs are still written" test -s "$tmp/r2/report/report.md"

run "$tmp/r3"
mkdir -p "$tmp/r3/report" "$tmp/elsewhere3"
ln -s "$tmp/elsewhere3" "$tmp/r3/report/charts"
report "$tmp/r3" --no-traces
rc=$?
check "report/charts a link: exit 1 (got $rc), nothing written through it" \
	bash -c '[ "$1" -eq 1 ] && [ -z "$(ls -A "$2")" ]' _ "$rc" "$tmp/elsewhere3"

# A link one level up from the outputs: --out names a folder under a planted link.
run "$tmp/r4"
mkdir -p "$tmp/elsewhere4"
ln -s "$tmp/elsewhere4" "$tmp/r4/report"
report "$tmp/r4" --no-charts --no-traces
check "summary.json is not written through a linked report/ either" \
	test ! -e "$tmp/elsewhere4/summary.json"

# The path the user gives is resolved once: --out through a link the user chose works.
run "$tmp/r5"
mkdir -p "$tmp/chosen"
ln -s "$tmp/chosen" "$tmp/out-link"
report "$tmp/r5" --no-charts --no-traces --out "$tmp/out-link"
rc=$?
check "--out DIR that is itself a link the user gave: written there (exit $rc)" \
	bash -c '[ "$1" -eq 0 ] && [ -s "$2/report.md" ]' _ "$rc" "$tmp/chosen"

# ---- 2. fixed temporary names ----
run "$tmp/t1"
mkdir -p "$tmp/t1/report/traces"
mkfifo "$tmp/t1/report/report.md.tmp" "$tmp/t1/report/traces/m-001.json.tmp"
report "$tmp/t1" --no-charts
rc=$?
check "a FIFO at report.md.tmp and traces/m-001.json.tmp: report ends by itself, exit 0 (got $rc)" \
	test "$rc" -eq 0
check "report.md is written" grep -q "bootprobe report" "$tmp/t1/report/report.md"

run "$tmp/t2"
mkdir -p "$tmp/t2/report"
cp "$tmp/t2/boots/m-001/events.jsonl" "$tmp/t2-evidence"
ln "$tmp/t2/boots/m-001/events.jsonl" "$tmp/t2/report/summary.json.tmp"
ln "$tmp/t2/boots/m-002/console.log" "$tmp/t2/report/summary.csv.tmp"
report "$tmp/t2" --no-charts --no-traces
check "a hard link at summary.json.tmp to a boot's events.jsonl: the evidence is untouched" \
	cmp -s "$tmp/t2-evidence" "$tmp/t2/boots/m-001/events.jsonl"
check "a hard link at summary.csv.tmp to a boot's console.log: untouched" \
	cmp -s tests/data/console/ok.log "$tmp/t2/boots/m-002/console.log"

# The lock: held here by another process (a POSIX record lock conflicts with
# report's open file description lock), a report stops at once.
run "$tmp/t3"
mkdir -p "$tmp/t3/report"
if command -v python3 >/dev/null; then
	python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
open(sys.argv[2], "w").close()
time.sleep(30)' "$tmp/t3/report/.lock" "$tmp/t3-locked" &
	holder=$!
	wait_for 10 test -e "$tmp/t3-locked"
	start=$SECONDS
	report "$tmp/t3" --no-charts --no-traces
	rc=$?
	check "a second writer of a locked report folder fails at once with exit 4 (got $rc)" \
		bash -c '[ "$1" -eq 4 ] && [ $(('"$SECONDS"' - $2)) -lt 5 ]' _ "$rc" "$start"
	check "and names the lock" grep -q "t3/report/.lock: another bootprobe report is writing" "$tmp/err"
	check "and writes nothing" test ! -e "$tmp/t3/report/report.md"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	report "$tmp/t3" --no-charts --no-traces
	check "once the lock is free, report writes (exit 0)" test $? -eq 0
else
	skip "a locked report folder" "no python3 to hold the lock"
fi

# ---- 3. planted charts ----
run "$tmp/c1"
mkdir -p "$tmp/c1/report/charts" "$tmp/bin-fail" "$tmp/bin-empty"
for c in gantt boottime drivers kills; do
	printf '<svg xmlns="http://www.w3.org/2000/svg"><text>PLANTED-%s</text></svg>\n' "$c" \
		>"$tmp/c1/report/charts/$c.svg"
done
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin-fail/gnuplot"
# A gnuplot that says it succeeded and drew nothing.
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin-empty/gnuplot"
chmod +x "$tmp/bin-fail/gnuplot" "$tmp/bin-empty/gnuplot"
PATH="$tmp/bin-fail:$PATH" report "$tmp/c1" --no-traces
check "gnuplot failing: report.html shows no chart that came with the folder" \
	bash -c '! grep -q PLANTED "$1"' _ "$tmp/c1/report/report.html"
check "and report.md links no chart it did not draw" \
	bash -c '! grep -q "](charts/" "$1"' _ "$tmp/c1/report/report.md"
check "and report.md says the chart was not drawn" grep -q "Not drawn: gnuplot failed" \
	"$tmp/c1/report/report.md"
cp "$tmp/c1/report/report.html" "$tmp/c1-first.html"
for c in gantt drivers; do
	printf '<svg><text>PLANTED-%s</text></svg>\n' "$c" >"$tmp/c1/report/charts/$c.svg"
done
PATH="$tmp/bin-empty:$PATH" report "$tmp/c1" --no-traces
check "gnuplot drawing nothing: still no planted chart in report.html" \
	bash -c '! grep -q PLANTED "$1"' _ "$tmp/c1/report/report.html"
if have_gnuplot; then
	report "$tmp/c1" --no-traces
	check "with gnuplot working, the charts it drew are inlined" \
		bash -c 'grep -q "<svg" "$1" && ! grep -q PLANTED "$1"' _ "$tmp/c1/report/report.html"
else
	skip "the charts gnuplot drew are inlined" "no gnuplot"
fi

# ---- 7. reads that follow planted links ----
run "$tmp/l1"
{ cat tests/data/console/ok.log
  echo "[   13.50000] SECRET-LINE-8731 Invalid value for OPTIONS key, ignoring"
} >"$tmp/secret.log"
ln -sf "$tmp/secret.log" "$tmp/l1/boots/m-001/console.log"
report "$tmp/l1" --no-charts --no-traces
check "a boot's console.log a link to a file outside the run: not read into report.md" \
	bash -c '! grep -q SECRET-LINE "$1"' _ "$tmp/l1/report/report.md"
check "the link is named in report.md" \
	grep -q "m-001/console.log: a symbolic link (not followed)" "$tmp/l1/report/report.md"
"$BP" timeline "$tmp/l1/boots/m-001" >"$tmp/out" 2>&1
check "timeline names the linked console.log" grep -q "console.log: a symbolic link" "$tmp/out"
"$BP" explain "$tmp/l1" >"$tmp/out" 2>&1
check "explain RUN names the linked console.log, reads nothing of it" \
	bash -c 'grep -q "console.log: a symbolic link" "$1" && ! grep -q SECRET "$1"' _ "$tmp/out"

run "$tmp/l2"
run "$tmp/outside"
rm -rf "$tmp/l2/boots/m-002"
ln -s "$tmp/outside/boots/m-002" "$tmp/l2/boots/m-002"
"$BP" report --json --no-charts --no-traces "$tmp/l2" >"$tmp/out" 2>"$tmp/err"
check "a boot folder that is a link: left out (1 boot read, not 2)" grep -q '"boots":1,' "$tmp/out"
check "and named as a link" grep -q "boots/m-002: a symbolic link (not followed)" "$tmp/out"

run "$tmp/l3"
ln -sf "$tmp/outside/boots/m-001/boot.json" "$tmp/l3/boots/m-001/boot.json"
ln -sf "$tmp/outside/boots/m-001/events.jsonl" "$tmp/l3/boots/m-002/events.jsonl"
"$BP" report --json --no-charts --no-traces "$tmp/l3" >"$tmp/out" 2>"$tmp/err"
check "a linked boot.json leaves its boot out, a linked events.jsonl is named" \
	bash -c 'grep -q "m-001/boot.json: a symbolic link (not followed)" "$1" &&
		grep -q "m-002/events.jsonl: a symbolic link (not followed)" "$1"' _ "$tmp/out"

run "$tmp/l4"
mv "$tmp/l4/boots" "$tmp/l4-boots"
ln -s "$tmp/l4-boots" "$tmp/l4/boots"
"$BP" report --json --no-charts --no-traces "$tmp/l4" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "RUN/boots a link: no boot is read through it (exit 2, got $rc)" test "$rc" -eq 2
check "and the link is named" grep -q "boots/m-001: a symbolic link (not followed)" "$tmp/err"

run "$tmp/l5"
ln -sf "$tmp/outside/manifest.json" "$tmp/l5/manifest.json"
"$BP" report --json --no-charts --no-traces "$tmp/l5" >"$tmp/out" 2>"$tmp/err"
check "a linked manifest.json is named, the boots under boots/ read instead" \
	bash -c 'grep -q "l5/manifest.json: a symbolic link (not followed)" "$1" &&
		grep -q "\"boots\":2," "$1"' _ "$tmp/out"
