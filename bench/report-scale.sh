#!/usr/bin/env bash
# How long does `bootprobe report` take over 1000 boots?  Builds a run of N
# boots by copying the boot folders of a real run (round robin), then times
# the whole report (statistics, charts, traces) with hyperfine-like repeats.
#
# usage: bench/report-scale.sh SOURCE_RUN [N] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: report-scale.sh SOURCE_RUN [N] [REPEATS]}
n=${2:-1000}
repeats=${3:-5}
[ -d "$src/boots" ] || { echo "report-scale: $src/boots: no such folder" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bootprobe-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
mapfile -t boots < <(find "$src/boots" -mindepth 1 -maxdepth 1 -type d | sort)
[ ${#boots[@]} -gt 0 ] || { echo "report-scale: $src has no boots" >&2; exit 2; }
mkdir -p "$work/run/boots"
for i in $(seq 1 "$n"); do
	b=${boots[$(((i - 1) % ${#boots[@]}))]}
	mode=$(basename "$b")
	mode=${mode%-*}
	cp -r "$b" "$work/run/boots/$mode-$(printf '%04d' "$i")"
done
echo "report-scale: $n boots copied from ${#boots[@]} of $src"

times=()
for r in $(seq 1 "$repeats"); do
	start=$(date +%s%N)
	build/bin/bootprobe report "$work/run" 2>/dev/null
	end=$(date +%s%N)
	times+=("$(((end - start) / 1000000))")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
echo "report over $n boots, $repeats runs (ms): $(echo $sorted)"
echo "median $(echo "$sorted" | sed -n "$(((repeats + 1) / 2))p") ms"
