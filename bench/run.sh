#!/usr/bin/env bash
# The main job: boot the default scenario (sync vs async, a fleet of five
# slowprobe devices), then report: statistics, comparison, charts.
# usage: bench/run-default.sh [extra `bootprobe run` options]
set -euo pipefail
cd "$(dirname "$0")/.."

id=$(date +%Y%m%d-%H%M%S)-default
rc=0
build/bin/bootprobe run --scenario bench/scenarios/default.conf --run-id "$id" "$@" || rc=$?
run=results/$id
[ -e "$run/manifest.json" ] || { echo "bench: no manifest in $run" >&2; exit 1; }
build/bin/bootprobe report "$run"
echo
sed -n '/^## Compared with/,/^## Probe order/p' "$run/report/report.md" | sed '$d'
echo "Full report: $run/report/report.md and report.html"
exit "$rc"
