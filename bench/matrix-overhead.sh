#!/usr/bin/env bash
# What the collector costs the default matrix's boots: every mode of
# bench/scenarios/default.conf twice, as written (the collector beside the
# boot, as /init starts it) and as MODE-none with bootprobe.collector=0, N
# boots each, one boot at a time.  The runner interleaves the modes, so the
# two sides of a mode take turns and drift of the host hits both alike.
# A run holds at most 16 modes: the matrix goes in parts of 8 modes.
# Per mode: the ratio of the median boot times (the report's boot time,
# from summary.json); across modes: the geometric mean of the ratios and
# their range.  The report of the run (both sides of each mode in one run)
# has the rest.
#
# The last line is the summary the README quotes.
#
# usage: bench/matrix-overhead.sh [N]   (default 3 boots a side per mode)
#   env: BP_RESULTS (default results)
set -u
cd "$(dirname "$0")/.." || exit 1
BP_RESULTS=${BP_RESULTS:-results}
. tests/lib.sh
n=${1:-3}
case "$n" in '' | *[!0-9]* | 0) echo "usage: bench/matrix-overhead.sh [N]: N, boots a side, a positive count" >&2; exit 2 ;; esac

run=$(date -u +%Y%m%d-%H%M%S)-matrix-overhead
mkdir -p "$BP_RESULTS/$run"

# scenario PART: modes 8*PART+1 .. 8*PART+8 of default.conf, each again as
# [mode M-none] with bootprobe.collector=0 in its cmdline (a run holds at
# most 16 modes); the baseline line is left out (it may be in another part).
scenario() {
	awk -v n="$n" -v part="$1" '
	function flush() {
		if (mode == "") return
		if (int((k - 1) / 8) == part) {
			printf "[mode %s]\n%s", mode, body
			printf "[mode %s-none]\n%s", mode, body
			if (!hascmd) print "cmdline = bootprobe.collector=0"
		}
		mode = ""; body = ""; hascmd = 0
	}
	/^[ \t]*#/ || /^[ \t]*$/ || /^baseline[ \t]*=/ { next }
	/^\[mode / { flush(); mode = $2; sub(/\]$/, "", mode); k++; next }
	/^\[/ { flush(); print; next }
	mode != "" && /^cmdline[ \t]*=/ { body = body $0 " bootprobe.collector=0\n"; hascmd = 1; next }
	mode != "" { body = body $0 "\n"; next }
	/^boots[ \t]*=/ { print "boots = " n; next }
	/^jobs[ \t]*=/ { print "jobs = 1"; next }
	{ print }
	END { flush() }' bench/scenarios/default.conf
}

# ratios PART: "MODE with without n_with n_without" for each mode of a part.
ratios() {
	local sum=$BP_RESULTS/$run-$1/report/summary.json
	jq -r '.modes | to_entries[] | select(.key | endswith("-none") | not) |
		"\(.key) \(.value.metrics.boot_s.median) \(.value.metrics.boot_s.n)"' "$sum" |
	while read -r mode with nw; do
		read -r without nn <<<"$(jq -r --arg m "$mode-none" \
			'.modes[$m].metrics.boot_s | "\(.median) \(.n)"' "$sum")"
		echo "$mode $with $without $nw $nn"
	done
}

nmodes=$(grep -c '^\[mode ' bench/scenarios/default.conf)
parts=$(((nmodes + 7) / 8))
for ((p = 0; p < parts; p++)); do
	conf=$BP_RESULTS/$run/scenario-$p.conf
	scenario "$p" >"$conf"
	echo "# part $((p + 1)) of $parts: $(grep -c '^\[mode ' "$conf") modes" >&2
	"$BP" run --scenario "$conf" --results "$BP_RESULTS" --run-id "$run-$p" ||
		echo "# part $((p + 1)): runner exit $?" >&2
	"$BP" report --quiet "$BP_RESULTS/$run-$p" >/dev/null || echo "# part $((p + 1)): report exit $?" >&2
done

summary=$BP_RESULTS/$run/summary.txt
for ((p = 0; p < parts; p++)); do ratios "$p"; done | awk -v n="$n" '
	$2 + 0 > 0 && $3 + 0 > 0 {
	  r = $2 / $3; printf "%-16s with %7.3f s (n=%d)  without %7.3f s (n=%d)  ratio %.3f\n",
		$1, $2, $4, $3, $5, r
	  lg += log(r); k++; if (k == 1 || r < lo) lo = r; if (k == 1 || r > hi) hi = r
	  line = line sprintf("%s%s %.3f", k > 1 ? ", " : "", $1, r) }
	END { if (!k) { print "matrix overhead summary: no mode measured"; exit }
	      printf "matrix overhead summary: %d modes of default.conf, %d boots a side; boot time with/without collector: geometric mean %.3f (modes %.3f..%.3f): %s\n",
		k, n, exp(lg / k), lo, hi, line }' | tee "$summary"
