#!/usr/bin/env bash
# Run a scenario, report it, print the headline table and point
# results/latest at the run.  Boots already finished are kept whatever
# happens: an interrupted or failed run is still reported.
#
# usage: bench/run.sh SCENARIO [TAG] [-- extra `bootprobe run` options]
#   bench/run.sh bench/scenarios/default.conf
#   bench/run.sh bench/scenarios/default.conf 2014 -- --time-scale 1 --timeout 1200
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "bench: $*" >&2; exit 2; }

scenario=${1:?usage: bench/run.sh SCENARIO [TAG] [-- bootprobe run options]}
shift
[ -r "$scenario" ] || die "$scenario: no such scenario file"
tag=
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	tag=-$1
	shift
fi
[ "${1:-}" = -- ] && shift

# The source the boots are made from, taken before they start.
made="bench/run.sh $scenario${tag:+ ${tag#-}}${*:+ -- $*}
commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
name=$(basename "$scenario" .conf)
id=$(date +%Y%m%d-%H%M%S)-$name$tag
rc=0
build/bin/bootprobe run --scenario "$scenario" --run-id "$id" "$@" || rc=$?
run=results/$id
[ -e "$run/manifest.json" ] || die "no manifest in $run (the run did not start)"
# How the run was made, kept with its report.
echo "$made" >"$run/command.txt"
ln -sfn "$id" results/latest
echo
build/bin/bootprobe report "$run" || rc=$?
echo "results/latest -> $run"
exit "$rc"
