#!/usr/bin/env bash
# Do parallel boots change what is measured?  Runs a scenario at jobs 1 and
# at each larger J, one after the other, and compares every J with jobs 1
# using bootprobe's own statistics (`bootprobe compare`: per mode, boot time
# and probe phase, difference of medians with its 95 % CI and a Mann-Whitney
# p).  A systematic slowdown shows in every mode at once, so the per-mode
# boot-time differences are also put to a sign test across modes.
#
# J is called unbiased when no comparison's CI of the difference excludes 0
# and the sign test gives p >= 0.05.  The last line names the largest
# unbiased J; it is what bench/scenarios/default.conf's jobs key should say.
#
# usage: bench/jobs-bias.sh [SCENARIO] [J...]      (default: default.conf, 2 4)
#   bench/jobs-bias.sh
#   bench/jobs-bias.sh bench/scenarios/default.conf 2 -- --boots 5
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "jobs-bias: $*" >&2; exit 2; }

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
command -v jq >/dev/null || die "jq not found (make deps)"

BP=${BP:-build/bin/bootprobe}
stamp=$(date +%Y%m%d-%H%M%S)
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

# binom_p K N: two-sided sign-test p of K "slower" modes out of N.
binom_p() {
	awk -v k="$1" -v n="$2" 'BEGIN {
		if (n == 0) { print 1; exit }
		if (k < n - k) k = n - k
		c = 1; t = 0
		for (i = 0; i <= n; i++) { if (i >= k) t += c; c = c * (n - i) / (i + 1) }
		p = 2 * t / 2 ^ n; print (p > 1 ? 1 : p) }'
}

shift_args=("$@")
base=$(run_at 1 ${shift_args[@]+"${shift_args[@]}"})
best=1
{
	echo "scenario $scenario; jobs 1: $base"
	for j in "${js[@]}"; do
		run=$(run_at "$j" ${shift_args[@]+"${shift_args[@]}"})
		"$BP" compare --json "$base" "$run" >"$out/compare-j$j.json" || true
		read -r n_cmp n_excl n_modes n_slower med_pct <<<"$(jq -r '
			[.comparisons[] | select(.diff != null)] as $c |
			[$c[] | select(.metric == "boot_s")] as $b |
			"\($c | length) \([$c[] | select(.diff_ci95_lo > 0 or .diff_ci95_hi < 0)] | length)" +
			" \($b | length) \([$b[] | select(.diff > 0)] | length)" +
			" \([$b[].pct] | sort | if length == 0 then "nan" else .[length / 2 | floor] end)"' \
			"$out/compare-j$j.json")"
		p=$(binom_p "$n_slower" "$n_modes")
		verdict=unbiased
		if [ "$n_excl" -gt 0 ] || awk -v p="$p" 'BEGIN { exit !(p < 0.05) }'; then
			verdict=biased
		elif [ "$j" -gt "$best" ]; then
			best=$j
		fi
		printf 'jobs %s vs 1: %s; %s of %s comparisons with a CI excluding 0; boot time slower in %s of %s modes (sign test p = %.3g), median change %+.1f %%: %s\n' \
			"$j" "$run" "$n_excl" "$n_cmp" "$n_slower" "$n_modes" "$p" "$med_pct" "$verdict"
	done
	echo "largest unbiased jobs: $best"
} | tee "$out/summary.txt"
