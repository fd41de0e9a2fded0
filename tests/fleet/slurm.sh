#!/usr/bin/env bash
# A sharded run on a real Slurm cluster: a single-node cluster on localhost
# (munged, slurmctld, slurmd from Debian's slurm-wlm and munge, with a
# generated slurm.conf; one CPU, so one boot at a time), started and stopped
# here.  bench/slurm-run.sh submits tests/fleet/fleet.conf as a job array of
# two shards and a merge job depending on it; the merged run must be the
# unsharded run's boots, names and drawn kernel arguments, and report reads it.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fleet/fleet-lib.sh

require_guest "Slurm sharded run"
fleet_require "Slurm sharded run" munged mungekey slurmctld slurmd sbatch scontrol jq
if [ "$(id -u)" -ne 0 ]; then
	skip "Slurm sharded run" "slurmd starts jobs as root here (SlurmUser=root): run as root"
	exit 0
fi
fleet_lock "$@"

tmp=$(mktemp -d /tmp/bootprobe-slurm.XXXXXX)
chmod 700 "$tmp"
stop_cluster() {
	local f pid
	for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munged.pid"; do
		pid=$(cat "$f" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null
		wait_for 20 bash -c "! kill -0 $pid 2>/dev/null" ||
			echo "# $f: process $pid still running"
	done
}
cleanup() {
	if [ -n "${array:-}" ]; then scancel "$array" "${merge:-}" 2>/dev/null; fi
	stop_cluster
	rm -rf "$tmp"
}
trap cleanup EXIT

# ---- the cluster: munge with its own key and socket, then Slurm ------------------
mungekey --create --keyfile="$tmp/munge.key" 2>/dev/null ||
	dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
	--pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge.seed"
check "munged starts" wait_for 20 test -S "$tmp/munge.sock"

node=$(hostname -s)
port=$((20000 + $$ % 20000))
export SLURM_CONF=$tmp/slurm.conf
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=bootprobe-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
# select/linear gives each job the whole node: one boot at a time on 2 cores.
SchedulerType=sched/builtin
SelectType=select/linear
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
node_idle() { sinfo -h -n "$node" -o %t 2>/dev/null | grep -qx idle; }
if ! wait_for 60 node_idle; then
	fail "the single-node cluster comes up (node $node idle)" "$(sinfo 2>&1 | tail -2)"
	tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" | sed 's/^/# /'
	exit 1
fi
pass "a single-node Slurm cluster runs on localhost ($(slurmctld -V))"

# ---- the sharded run through bench/slurm-run.sh ---------------------------------
results=$BP_RESULTS
id=$(bp_run_id slurm)
out=$(RESULTS=$results BP=$BP bench/slurm-run.sh 2 "$id" --scenario "$FLEET_CONF" --accel tcg)
rc=$?
check "bench/slurm-run.sh queues the array and the merge (got: $out)" \
	test "$rc" -eq 0 -a -n "$out"
read -r _ array _ merge <<<"$out"
[ -n "${merge:-}" ] || exit 1
check "the merge job waits for the array (afterok)" \
	bash -c 'scontrol -o show job "$1" | grep -q "Dependency=afterok:$2"' _ "$merge" "$array"
job_state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1; }
merge_done() { case "$(job_state "$merge")" in *=COMPLETED|*=FAILED|*=CANCELLED|*=TIMEOUT) ;; *) false ;; esac; }
# Two shards of two boots, about 5-15 s a boot under TCG, one at a time.
wait_for 600 merge_done
check "the merge job completes after the array ($(job_state "$merge"))" \
	test "$(job_state "$merge")" = JobState=COMPLETED
if [ "$(job_state "$merge")" != JobState=COMPLETED ]; then
	cat "$results/$id".slurm-*.log 2>/dev/null | sed 's/^/# /'
	exit 1
fi
check "the merge job joined the two parts" grep -q \
	"bootprobe merge: $results/$id: 4 of 4 planned boots from 2 parts of 2" \
	"$results/$id.slurm-merge.log"
# job_times ID: "START END" of a job (or of each array task), epoch seconds.
job_times() {
	scontrol -o show job "$1" | sed -n 's/.* StartTime=\([^ ]*\) EndTime=\([^ ]*\) .*/\1 \2/p' |
		while read -r s e; do echo "$(date -d "$s" +%s) $(date -d "$e" +%s)"; done | sort -n
}
mapfile -t tasks < <(job_times "$array")
read -r merge_start _ <<<"$(job_times "$merge")"
read -r t1_start t1_end <<<"${tasks[0]:-0 0}"
read -r t2_start t2_end <<<"${tasks[1]:-0 0}"
check "the array's two tasks ran one after the other (${tasks[*]})" \
	test "${#tasks[@]}" -eq 2 -a "$t2_start" -ge "$t1_end"
check "the merge started after both ended ($merge_start >= $t2_end)" \
	test "$merge_start" -ge "$t2_end" -a "$t2_end" -gt 0
check "each shard ran as its own array task" \
	bash -c 'grep -q "shard 1/2 on" "$1-0.log" && grep -q "shard 2/2 on" "$1-1.log"' _ \
	"$results/$id.slurm"

merged=$results/$id
fleet_same_as_plan "Slurm's merged run" "$merged"
check "every boot of the merged run is ok" \
	test "$(jq -r '[.boots[] | select(.outcome == "ok")] | length' "$merged/manifest.json")" -eq 4

# The same scenario unsharded, here: the same boots with the same parameters.
ref=$(bp_run_id unsharded)
bp_run "$ref" --scenario "$FLEET_CONF"
check "the unsharded run of the same scenario is ok" test $? -eq 0
check "merged and unsharded runs list the same boots" test \
	"$(jq -r '.boots[].boot' "$merged/manifest.json")" = "$(jq -r '.boots[].boot' "$BP_RESULTS/$ref/manifest.json")"
bad=""
for b in $(jq -r '.boots[].boot' "$BP_RESULTS/$ref/manifest.json"); do
	for key in kernel_cmdline devices mode index; do
		[ "$(jq -r ".$key" "$merged/boots/$b/boot.json")" = \
		  "$(jq -r ".$key" "$BP_RESULTS/$ref/boots/$b/boot.json")" ] || bad="$bad $b.$key"
	done
done
check "each boot's mode, index, devices and kernel arguments match the unsharded run's${bad:+ (not:$bad)}" \
	test -z "$bad"
want=$(jq -r .plan_hash "$BP_RESULTS/$ref/manifest.json")
check "and the plan hash ($want)" test "$want" != null -a \
	"$(jq -r .plan_hash "$merged/manifest.json")" = "$want"
"$BP" report "$merged" >/dev/null 2>"$tmp/report.err"
check "bootprobe report reads the merged run" test $? -eq 0
check "report.md lists the host the shards ran on" grep -q "^| $(hostname) | sync | 2 |" \
	"$merged/report/report.md"
"$BP" compare "$BP_RESULTS/$ref" "$merged" >/dev/null 2>&1
check "bootprobe compare reads it beside the unsharded run" test $? -le 1
