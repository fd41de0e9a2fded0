#!/usr/bin/env bash
# Do parallel boots change what is measured?  Runs a scenario at jobs 1 and
# at each larger J, one after the other, and compares every J with jobs 1
# using bootprobe's own statistics (`bootprobe compare`: per mode, boot time
# and probe phase, difference of medians with its 95 % CI and a Mann-Whitney
# p).  A systematic slowdown shows in every mode at once, so the per-mode
# boot-time differences are also put to a sign test across modes.
#
# J is called biased when a comparison's Mann-Whitney p, Holm-adjusted over
# all of J's comparisons, is below 0.05, or the sign test's p is.  (With 3
# boots a mode no single comparison can reach that, p >= 0.1: the sign test
# across modes is what has the power, 10 of 10 modes slower giving 0.002.)
# The count of CIs excluding 0 is shown, not judged: with 20 comparisons
# about one excludes 0 by chance.  The last line names the largest unbiased
# J; it is what bench/scenarios/default.conf's jobs key should say.
#
# usage: bench/jobs-bias.sh [SCENARIO] [J...] [-- run options]
#        bench/jobs-bias.sh --runs RUN-AT-JOBS-1 RUN...   (judge finished runs)
#   bench/jobs-bias.sh                                  (default.conf, J = 2 4)
#   bench/jobs-bias.sh bench/scenarios/default.conf 2 -- --boots 5
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "jobs-bias: $*" >&2; exit 2; }
command -v jq >/dev/null || die "jq not found (make deps)"
BP=${BP:-build/bin/bootprobe}
stamp=$(date +%Y%m%d-%H%M%S)

# compare --json -> "comparisons, CIs excluding 0, smallest Holm-adjusted p
# (m times the smallest of m p values), modes, modes slower in boot time,
# median boot-time change in %".
judge='[.comparisons[] | select(.median_diff != null)] as $c |
	[$c[] | select(.metric == "boot_s")] as $b |
	([$c[] | select(.p != null) | .p] | sort) as $p |
	(if ($p | length) == 0 then 1 else ([$p[0] * ($p | length), 1] | min) end) as $holm |
	"\($c | length) \([$c[] | select(.diff_ci95_lo > 0 or .diff_ci95_hi < 0)] | length)" +
	" \($holm) \($b | length) \([$b[] | select(.median_diff > 0)] | length)" +
	" \([$b[].pct] | sort | if length == 0 then "nan" else .[length / 2 | floor] end)"'

# binom_p K N: two-sided sign-test p of K "slower" modes out of N.
binom_p() {
	awk -v k="$1" -v n="$2" 'BEGIN {
		if (n == 0) { print 1; exit }
		if (k < n - k) k = n - k
		c = 1; t = 0
		for (i = 0; i <= n; i++) { if (i >= k) t += c; c = c * (n - i) / (i + 1) }
		p = 2 * t / 2 ^ n; print (p > 1 ? 1 : p) }'
}

jobs_of() {	# RUN: the jobs its manifest records
	local j
	j=$(jq -r '.jobs // empty' "$1/manifest.json" 2>/dev/null) || true
	[[ "$j" =~ ^[0-9]+$ ]] || die "$1/manifest.json: no jobs recorded"
	echo "$j"
}

# judge_run BASE RUN OUT: one summary line; sets best when RUN is unbiased.
best=1
judge_run() {
	local base=$1 run=$2 out=$3 j n_cmp n_excl min_holm n_modes n_slower med_pct p verdict=unbiased
	j=$(jobs_of "$run")
	"$BP" compare --json "$base" "$run" >"$out/compare-j$j.json" || true
	read -r n_cmp n_excl min_holm n_modes n_slower med_pct <<<"$(jq -r "$judge" "$out/compare-j$j.json")"
	p=$(binom_p "$n_slower" "$n_modes")
	if awk -v p="$p" -v h="$min_holm" 'BEGIN { exit !(p < 0.05 || h < 0.05) }'; then
		verdict=biased
	elif [ "$j" -gt "$best" ]; then
		best=$j
	fi
	printf 'jobs %s vs 1: %s; smallest Holm-adjusted p %.3g of %s comparisons (%s with a CI excluding 0); boot time slower in %s of %s modes (sign test p = %.3g), median change %+.1f %%: %s\n' \
		"$j" "$run" "$min_holm" "$n_cmp" "$n_excl" "$n_slower" "$n_modes" "$p" "$med_pct" "$verdict"
}

if [ "${1:-}" = --runs ]; then
	shift
	[ $# -ge 2 ] || die "--runs: want the run at jobs 1 and at least one more"
	for r in "$@"; do [ -r "$r/manifest.json" ] || die "$r: no manifest.json (not a run folder)"; done
	[ "$(jobs_of "$1")" = 1 ] || die "$1: ran at jobs $(jobs_of "$1"), not 1"
	out=results/$stamp-jobs-bias
	mkdir -p "$out"
	base=$1
	shift
	{
		echo "jobs 1: $base"
		for run in "$@"; do judge_run "$base" "$run" "$out"; done
		echo "largest unbiased jobs: $best"
	} | tee "$out/summary.txt"
	exit 0
fi

scenario=bench/scenarios/default.conf
if [ $# -gt 0 ] && [ "${1%.conf}" != "$1" ]; then
	scenario=$1
	shift
fi
[ -r "$scenario" ] || die "$scenario: no such scenario file"
js=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	[[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 2 ] && [ "$1" -le 64 ] ||
		die "'$1': want a number of jobs 2..64 to compare with jobs 1"
	js+=("$1")
	shift
done
[ "${1:-}" = -- ] && shift
[ ${#js[@]} -gt 0 ] || js=(2 4)
name=$(basename "$scenario" .conf)
out=results/$stamp-$name-jobs-bias
mkdir -p "$out"

run_at() {	# J [run options]: the scenario at jobs J, into results/
	local j=$1 id=$stamp-$name-jobs-bias-j$1
	shift
	echo "jobs-bias: $scenario at jobs $j ($id)" >&2
	"$BP" run --scenario "$scenario" --jobs "$j" --run-id "$id" "$@" >&2 || true
	[ -e "results/$id/manifest.json" ] || die "results/$id: the run did not start"
	echo "results/$id"
}

base=$(run_at 1 "$@")
{
	echo "scenario $scenario; jobs 1: $base"
	for j in "${js[@]}"; do judge_run "$base" "$(run_at "$j" "$@")" "$out"; done
	echo "largest unbiased jobs: $best"
} | tee "$out/summary.txt"
