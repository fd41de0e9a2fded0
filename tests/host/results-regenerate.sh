#!/usr/bin/env bash
# Every committed example run can be reported again by anyone, to the byte:
# for each run under results/ committed with its boots (results/RUN/boots/),
# a copy at two other paths is reported by today's bootprobe, and its
# report.md and summary.json are the committed report/'s, byte for byte, and
# the two copies' are each other's (a report does not depend on where the run
# lies).  A committed report that the code no longer writes fails here: the
# run's report is to be made again (results/README.md says how).  Runs
# without boots are history (results/README.md) and not checked.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "committed runs with boots report again to the byte"
# report.md inlines the charts it drew: without gnuplot it says "Not drawn".
if ! command -v gnuplot >/dev/null; then
	skip "committed runs with boots report again to the byte" "no gnuplot (make deps)"
	exit 0
fi
bp=$(realpath "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The committed runs with boots: from git when this is a work tree (a run
# being made now, or kept locally, is not an example), else every folder.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -- 'results/*/boots/*' | cut -d/ -f2 | sort -u >"$tmp/runs"
else
	for d in results/*/boots; do
		[ -d "$d" ] && [ ! -L "$d" ] && basename "$(dirname "$d")"
	done >"$tmp/runs"
fi
check "results/ holds a committed run with its boots ($(wc -l <"$tmp/runs"))" test -s "$tmp/runs"

# same A B WHAT: pass if files A and B are the same bytes, else fail with the start of a diff.
same() {
	if cmp -s "$1" "$2"; then
		pass "$3"
		return
	fi
	fail "$3" "$1 and $2 differ"
	diff -u "$1" "$2" 2>&1 | head -n 12 | cut -c1-160 | sed 's/^/#   /'
}

while read -r id; do
	run=results/$id
	if [ ! -f "$run/report/report.md" ] || [ ! -f "$run/report/summary.json" ]; then
		fail "$id: committed with its report" "no $run/report/report.md or summary.json"
		continue
	fi
	# Two copies of the run's inputs (its report left behind), at paths of
	# different depth, one reported by an absolute path, one from inside.
	a=$tmp/a/$id b=$tmp/b/c/d/$id
	mkdir -p "$(dirname "$a")" "$(dirname "$b")"
	cp -r "$run" "$a" && rm -rf "$a/report" && cp -r "$a" "$b"
	"$bp" report -q "$a" >"$tmp/a.err" 2>&1
	rc=$?
	(cd "$b" && "$bp" report -q .) >"$tmp/b.err" 2>&1
	rcb=$?
	if [ "$rc" -ne 0 ] || [ "$rcb" -ne 0 ]; then
		fail "$id: reported again (exit $rc and $rcb)" "$(head -n 3 "$tmp/a.err" "$tmp/b.err" | tr '\n' ' ')"
		continue
	fi
	for f in report.md summary.json; do
		same "$a/report/$f" "$b/report/$f" "$id: $f is the same wherever the run lies"
		same "$run/report/$f" "$a/report/$f" "$id: $f is the committed one, byte for byte"
	done
done <"$tmp/runs"

# A report that names a file of the run (a refused record, at FILE:LINE)
# names it by the run's id, not by where the run lies: the first run again,
# one line of its first boot's stream made no JSON, at two paths.
id=$(head -n 1 "$tmp/runs")
boot=
for d in "$tmp/a/$id"/boots/*/; do
	boot=$(basename "$d")
	break
done
what="a refused record is named the same wherever the run lies"
if [ -z "$id" ] || [ ! -f "$tmp/a/$id/boots/$boot/events.jsonl" ]; then
	skip "$what" "no committed run with an events.jsonl in its first boot"
	exit 0
fi
a=$tmp/e/$id b=$tmp/f/g/$id
mkdir -p "$tmp/e" "$tmp/f/g"
cp -r "$tmp/a/$id" "$a" && rm -rf "$a/report" && sed -i '2i not json' "$a/boots/$boot/events.jsonl" &&
	cp -r "$a" "$b"
"$bp" report -q --no-charts --no-traces "$a" >/dev/null 2>&1
(cd "$tmp/f" && "$bp" report -q --no-charts --no-traces "g/$id") >/dev/null 2>&1
check "$id: the planted line is refused at $id/boots/$boot/events.jsonl:2" \
	grep -qF "$id/boots/$boot/events.jsonl:2: " "$a/report/report.md"
for f in report.md summary.json; do
	same "$a/report/$f" "$b/report/$f" "$id with a refused record: $f is the same wherever the run lies"
done
