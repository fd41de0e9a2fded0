#!/usr/bin/env bash
# The main job: boot the default scenario (sync vs async) and summarise.
# usage: bench/run-default.sh [extra `bootprobe run` options]
set -euo pipefail
cd "$(dirname "$0")/.."

id=$(date +%Y%m%d-%H%M%S)-default
build/bin/bootprobe run --scenario bench/scenarios/default.conf --run-id "$id" "$@" || true
run=results/$id
[ -e "$run/manifest.json" ] || { echo "bench: no manifest in $run" >&2; exit 1; }
bench/summarize.sh "$run"
