#!/usr/bin/env bash
# Run bootprobe's tests and count them.
#
# usage: tests/run.sh [STAGE...]   stages: unit style host sanitize fuzz guest fleet patches
#                                  (default: all)
#
# BUILD (default build) is the build folder whose programs unit and host test,
# as in the Makefile: BUILD=build/sanitize tests/run.sh unit host.  The
# sanitize stage does that on a build made with make SANITIZE=1.
#
# Every test program prints one line per check: "ok - ...", "not ok - ..."
# or "ok - ... # SKIP reason".  A program that exits non-zero without a
# "not ok" line counts as one failure.  The last line is the summary.
set -u
cd "$(dirname "$0")/.."

passed=0 failed=0 skipped=0
declare -a failures=() timings=()

run_program() {
	local prog=$1 out rc np nf ns
	out=$(mktemp)
	echo "# ---- $prog"
	"$prog" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	np=$(grep -c '^ok - ' "$out" | head -1)
	ns=$(grep -c '^ok - .*# SKIP' "$out" | head -1)
	nf=$(grep -c '^not ok - ' "$out" | head -1)
	np=$((np - ns))
	if [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then
		echo "not ok - $prog exited $rc"
		nf=1
	elif [ "$rc" -eq 0 ] && [ "$((np + ns + nf))" -eq 0 ]; then
		# A test that checked nothing has proved nothing.
		echo "not ok - $prog printed no result"
		failures+=("$prog printed no result")
		nf=1
	fi
	while IFS= read -r line; do failures+=("$prog: ${line#not ok - }"); done \
		< <(grep '^not ok - ' "$out")
	[ "$rc" -ne 0 ] && [ "$(grep -c '^not ok - ' "$out")" -eq 0 ] && failures+=("$prog exited $rc")
	passed=$((passed + np)) failed=$((failed + nf)) skipped=$((skipped + ns))
	rm -f "$out"
}

run_stage() {
	local stage=$1 start=$SECONDS prog
	shift
	echo "# ==== stage $stage"
	for prog in "$@"; do
		case "$prog" in
		*-lib.sh) continue ;;	# sourced by the tests, not one of them
		esac
		if [ ! -x "$prog" ]; then
			# Skipping it would pass a test that never ran.
			echo "not ok - $prog is not executable"
			failures+=("$prog is not executable")
			failed=$((failed + 1))
			continue
		fi
		run_program "$prog"
	done
	timings+=("$stage $((SECONDS - start)) s")
}

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(unit style host sanitize fuzz guest fleet patches)
for stage in "${stages[@]}"; do
	case "$stage" in
	unit) run_stage unit "${BUILD:-build}"/bin/tests/test_* ;;
	style) run_stage style tests/style.sh ;;
	host) run_stage host tests/host/*.sh ;;
	sanitize) run_stage sanitize tests/sanitize.sh ;;
	fuzz) run_stage fuzz tests/fuzz/check.sh ;;
	guest) run_stage guest tests/guest/*.sh ;;
	# Sharded runs on a local Slurm cluster and GNU parallel; each takes the QEMU lock.
	fleet) run_stage fleet tests/fleet/*.sh ;;
	patches) run_stage patches tools/check-patches.sh ;;
	*) echo "tests/run.sh: unknown stage '$stage' (unit, style, host, sanitize, fuzz, guest, fleet, patches)" >&2; exit 2 ;;
	esac
done

echo "# ==== time per stage: ${timings[*]/%/;}"
if [ ${#failures[@]} -gt 0 ]; then
	echo "# failures:"
	printf '#   %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
