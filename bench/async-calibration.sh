#!/usr/bin/env bash
# Calibrate the what-if model (docs/whatif.md): boot the lab's fleet and the
# Debian images sync, driver-async and module-async (bench/scenarios/
# async-calibration-*.conf), report each run (its report predicts the async
# modes from the sync boots and judges them: report/whatif.csv), and keep
# those rows in results/whatif-calibration.csv, the table every report reads
# (built into bootprobe), only when each measured mode's 95 % CI is narrower
# than the error the model may have: 10 % of the median boot time, 20 % of
# the median probe phase.  A run's rows replace that run's rows.
#
# usage: bench/async-calibration.sh [lab|debian|debian-13|both] [-- bootprobe run options]
#   bench/async-calibration.sh both          # make bench-async
#   bench/async-calibration.sh lab -- --boots 30
# Then rebuild (make), commit results/whatif-calibration.csv and the runs'
# manifest.json, command.txt and report/.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "async-calibration: $*" >&2; exit 2; }

which=${1:-both}
[ $# -gt 0 ] && shift
[ "${1:-}" = -- ] && shift
case $which in
lab) kinds=lab ;;
debian) kinds=debian ;;
debian-13) kinds=debian-13 ;;	# Debian 13's 6.12 alone
both) kinds="lab debian" ;;
*) die "want lab, debian, debian-13 or both, not '$which'" ;;
esac
command -v jq >/dev/null || die "jq is needed to read the reports (make deps-test)"
table=results/whatif-calibration.csv
[ -r "$table" ] || die "$table: missing"

# narrow RUN: each async mode's CI width against its median, within the limits?
narrow() {
	jq -r '.modes | to_entries[] | select(.key | test("^sync") | not) |
		[.key, "boot_s", .value.metrics.boot_s.median, .value.metrics.boot_s.ci95_lo,
		 .value.metrics.boot_s.ci95_hi, 10],
		[.key, "probe_phase_s", .value.metrics.probe_phase_s.median,
		 .value.metrics.probe_phase_s.ci95_lo, .value.metrics.probe_phase_s.ci95_hi, 20] |
		@tsv' "$1/report/summary.json" |
	awk -F'\t' '{ w = ($3 > 0) ? 100 * ($5 - $4) / $3 : 1e9
		ok = w < $6
		printf "  %s %s: median %.3f s, 95 %% CI %.3f – %.3f s, width %.1f %% (%s %d %%)\n",
			$1, $2, $3, $4, $5, w, ok ? "under" : "NOT under", $6
		bad += !ok } END { exit bad > 0 }'
}

rc=0
for kind in $kinds; do
	bench/run.sh "bench/scenarios/async-calibration-$kind.conf" -- "$@" || rc=$?
	run=results/$(readlink results/latest)
	[ -r "$run/report/whatif.csv" ] || die "$run: no report/whatif.csv (the report failed)"
	id=$(basename "$run")
	echo "async-calibration: $run, each async mode's CI against the error claimed:"
	if ! narrow "$run"; then
		echo "async-calibration: $run: not kept, a CI is wider than the error it would" \
			"calibrate: run again with more boots (-- --boots N)" >&2
		rc=1
		continue
	fi
	# The run's rows, replacing any it had (the first field is the run id).
	tmp=$(mktemp "$table.XXXXXX")
	awk -F, -v id="$id" '$1 != id' "$table" >"$tmp"
	tail -n +2 "$run/report/whatif.csv" >>"$tmp"
	mv "$tmp" "$table"
	echo "async-calibration: $(($(wc -l <"$run/report/whatif.csv") - 1)) rows of $id kept in $table"
done
echo "async-calibration: make (the table is built into bootprobe), then commit $table"
exit "$rc"
