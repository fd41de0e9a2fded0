#!/usr/bin/env bash
# A bootprobe run spread over a Slurm cluster: one array task per shard
# (bootprobe run --shard K/N), then a merge job that starts when every task
# ended well (--dependency=afterok) and joins the parts into RESULTS/RUN-ID.
#
# usage: bench/slurm-run.sh N RUN-ID [bootprobe run options...]
#   N        shards (array tasks); at most the plan's boots
#   RUN-ID   the run's id: parts go to RESULTS/RUN-ID.shard-K-of-N, the
#            merged run to RESULTS/RUN-ID
# Environment: RESULTS (default results; on a file system every node sees),
# BP (default build/bin/bootprobe, relative to this folder), SBATCH_OPTS
# (extra sbatch options for every job, e.g. "--partition=bench --cpus-per-task=2").
#
# Prints the array's and the merge job's ids.  Every node must have the same
# kernel build, initramfs and QEMU version: bootprobe merge refuses parts
# that differ.  A shard whose boots ran but were not all ok (exit 1: a boot
# timed out or panicked, which is a result) counts as done; a shard that
# could not run (bad arguments, interrupted) fails and the merge is cancelled.
#
# Example:
#   RESULTS=/shared/results bench/slurm-run.sh 8 big -s bench/scenarios/default.conf --boots 40
#   squeue; bootprobe report /shared/results/big
set -eu

BP=${BP:-build/bin/bootprobe}
RESULTS=${RESULTS:-results}

case "${1:-}" in
task)
	# One array task: shard SLURM_ARRAY_TASK_ID+1 of N.
	shift
	n=$1 id=$2
	shift 2
	k=$((SLURM_ARRAY_TASK_ID + 1))
	rc=0
	"$BP" run --quiet --results "$RESULTS" --run-id "$id" --shard "$k/$n" "$@" || rc=$?
	echo "bench/slurm-run.sh: shard $k/$n on $(hostname): bootprobe run exit $rc"
	[ "$rc" -le 1 ] && exit 0
	exit "$rc"
	;;
merge)
	shift
	n=$1 id=$2
	parts=()
	for k in $(seq 1 "$n"); do parts+=("$RESULTS/$id.shard-$k-of-$n"); done
	exec "$BP" merge --out "$RESULTS/$id" "${parts[@]}"
	;;
""|-h|--help)
	sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
	;;
esac

[ $# -ge 2 ] || { echo "usage: bench/slurm-run.sh N RUN-ID [bootprobe run options...]" >&2; exit 2; }
n=$1 id=$2
shift 2
case "$n" in
''|*[!0-9]*|0) echo "bench/slurm-run.sh: N '$n': want a whole number >= 1" >&2; exit 2 ;;
esac
# The whole plan checked once, here, before any job is queued.
"$BP" run --run-id "$id" --shard "1/$n" --dry-run "$@" >/dev/null
mkdir -p "$RESULTS"
# shellcheck disable=SC2086 # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name="bootprobe-$id" --array="0-$((n - 1))" \
	--output="$RESULTS/$id.slurm-%a.log" --export="ALL,BP=$BP,RESULTS=$RESULTS" \
	"$0" task "$n" "$id" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name="bootprobe-$id-merge" \
	--dependency="afterok:$array" --kill-on-invalid-dep=yes \
	--output="$RESULTS/$id.slurm-merge.log" --export="ALL,BP=$BP,RESULTS=$RESULTS" \
	"$0" merge "$n" "$id")
merge=${merge%%;*}
echo "array $array merge $merge"
