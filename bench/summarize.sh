#!/usr/bin/env bash
# Per-mode boot wall times of a run (QEMU start to exit): n, median, min, max.
# usage: bench/summarize.sh RESULTS/RUN-ID
set -euo pipefail
run=${1:?usage: summarize.sh RESULTS/RUN-ID}
[ -d "$run/boots" ] || { echo "summarize: $run/boots: no such folder" >&2; exit 1; }

for b in "$run"/boots/*/boot.json; do
	mode=$(sed -n 's/^  "mode":"\(.*\)",$/\1/p' "$b")
	outcome=$(sed -n 's/^  "outcome":"\(.*\)",$/\1/p' "$b")
	wall=$(sed -n 's/^  "wall_s":\([0-9.]*\),$/\1/p' "$b")
	echo "$mode $outcome $wall"
done | sort -k1,1 -k3,3n | awk '
	{ n[$1]++; v[$1, n[$1]] = $3; if ($2 != "ok") bad[$1]++ }
	END {
		printf "%-12s %4s %4s %10s %10s %10s\n", "mode", "n", "!ok", "median_s", "min_s", "max_s"
		for (m in n) {
			k = n[m]
			med = k % 2 ? v[m, (k + 1) / 2] : (v[m, k / 2] + v[m, k / 2 + 1]) / 2
			printf "%-12s %4d %4d %10.3f %10.3f %10.3f\n", m, k, bad[m] + 0, med, v[m, 1], v[m, k]
		}
	}'
