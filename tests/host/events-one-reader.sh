#!/usr/bin/env bash
# One reader, one verdict: `probetrace --input` (what the guest tests'
# pt_check_stream judges a stream with) and `bootprobe report` read a
# stream through the same code (tools/common/events.c), so a stream one
# refuses a record of the other refuses too, at the same line, and a stream
# one takes whole the other takes.  Each boot below alters the fixture's
# stream one way; the first four are streams the two used to judge
# differently.  What a refused record then costs the report (the boot left
# out, or kept with parts incomplete: docs/events.md) is
# tests/host/report-refused.sh's.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

PROBETRACE=${PROBETRACE:-build/bin/probetrace}
require_bp "probetrace --input and bootprobe report agree on a stream"
if [ ! -x "$PROBETRACE" ]; then
	skip "probetrace --input and bootprobe report agree on a stream" "$PROBETRACE not built"
	exit 0
fi
pt=$(realpath "$PROBETRACE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/boots/killed
run=$tmp/run

# stream NAME: a copy of the fixture as boot NAME of mode "a"; prints its events.jsonl.
stream() {
	local dir=$run/boots/$1
	mkdir -p "$dir"
	cp "$fixture"/* "$dir/"
	sed -i "s/\"boot\":\"[^\"]*\"/\"boot\":\"$1\"/; s/\"mode\":\"[^\"]*\"/\"mode\":\"a\"/" \
		"$dir/boot.json"
	echo "$dir/events.jsonl"
}

# NAME LINE-EDIT (sed) : VERDICT (refused or whole)
cases=(
	"a-001|3s/\"pid\":\([0-9]*\)/\"pid\":\"\1\"/|refused"
	"a-002|3i {\"type\":\"initcall\",\"ts_ns\":1,\"pid\":\"one\",\"func\":\"x\"}|refused"
	"a-003|3i {\"type\":\"devnode\",\"ts_ns\":5,\"name\":\"vda\"}|refused"
	"a-004|1{h;d};2G|whole"
	"a-005|s/^{\"type\":\"trailer\"/&/|whole"
	"a-006|\$a {\"type\":\"exit\",\"ts_ns\":1,\"pid\":2}|refused"
	"a-007|3s/\"ts_ns\":[0-9]*/\"ts_ns\":-1/|refused"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name edit want <<<"$c"
	sed -i "$edit" "$(stream "$name")"
done

"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
# Every boot with a refused record, left out or kept, and the first it refused.
jq -r '(.damaged_boots + .incomplete_boots)[] | "\(.boot) \(.first_refused)"' \
	"$tmp/out/summary.json" >"$tmp/refused" 2>/dev/null
for c in "${cases[@]}"; do
	IFS='|' read -r name edit want <<<"$c"
	# From the run's parent: the report names the run's files by its id ("run").
	ev=run/boots/$name/events.jsonl
	(cd "$tmp" && "$pt" --input "$ev" --json) >/dev/null 2>"$tmp/err"
	rc=$?
	if grep -q "^$name " "$tmp/refused"; then report=refused; else report=whole; fi
	if [ "$rc" -eq 0 ]; then input=whole; elif [ "$rc" -eq 2 ]; then input=refused; else input="exit $rc"; fi
	check "$name ($edit): bootprobe report finds it $want ($report)" test "$report" = "$want"
	check "$name: probetrace --input finds it $want ($input)" test "$input" = "$want"
	if [ "$want" = refused ]; then
		# The report's first refusal, "FILE:LINE: why", is one probetrace printed.
		first=$(sed -n "s/^$name //p" "$tmp/refused")
		check "$name: both name the same refusal ($first)" grep -qxF "$first" "$tmp/err"
	fi
done
