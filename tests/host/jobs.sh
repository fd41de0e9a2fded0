#!/usr/bin/env bash
# Boots at once: --jobs J|auto and a scenario's jobs key, where the number
# came from (the plan, the manifest and the report say it), and the refusals.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
require_bp "boots at once"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# plan ARGS...: the first line of the dry run, "scenario ...: ..., J at once (FROM)".
plan() { "$BP" run --dry-run "$@" 2>&1 | head -1; }
at_once() { plan "$@" | sed -n 's/.*, \([0-9]*\) at once (\(.*\))$/\1|\2/p'; }

cpus=$(nproc)
check "--jobs auto: one boot per CPU available ($cpus)" \
	test "$(at_once --mode sync --jobs auto)" = "$cpus|--jobs auto: $cpus CPU$([ "$cpus" = 1 ] || echo s) available"
if command -v taskset >/dev/null; then
	check "--jobs auto under taskset -c 0: 1" \
		test "$(taskset -c 0 "$BP" run --dry-run --mode sync --jobs auto 2>&1 | head -1 |
			sed -n 's/.*, \([0-9]*\) at once (\(.*\))$/\1|\2/p')" = "1|--jobs auto: 1 CPU available"
else
	skip "--jobs auto under taskset -c 0: 1" "no taskset"
fi
check "no --jobs, no scenario jobs: 1 (default)" test "$(at_once --mode sync)" = "1|default"

printf '[scenario]\nname = j\njobs = 3\n[mode a]\n' >"$tmp/j3.conf"
printf '[scenario]\nname = j\njobs = auto\n[mode a]\n' >"$tmp/jauto.conf"
check "a scenario's jobs = 3: 3 (scenario)" test "$(at_once --scenario "$tmp/j3.conf")" = "3|scenario"
check "--jobs 1 wins over the scenario's jobs" \
	test "$(at_once --scenario "$tmp/j3.conf" --jobs 1)" = "1|--jobs"
check "a scenario's jobs = auto: one per CPU" \
	test "$(at_once --scenario "$tmp/jauto.conf")" = "$cpus|scenario auto: $cpus CPU$([ "$cpus" = 1 ] || echo s) available"

for bad in 0 65 2x -1 ''; do
	err=$("$BP" run --dry-run --mode sync --jobs "$bad" 2>&1)
	rc=$?
	check "--jobs '$bad' is refused with exit 2 and one line" \
		test "$rc" -eq 2 -a "$(echo "$err" | wc -l)" -eq 1 -a \
		-z "${err##*"--jobs '$bad': want auto or a whole number 1..64"*}"
done

# The report states J and where it came from, from the manifest.
run=$tmp/run
mkdir -p "$run/boots/a-001"
printf '{"boot":"a-001","mode":"a","outcome":"ok"}\n' >"$run/boots/a-001/boot.json"
cp tests/data/console/ok.log "$run/boots/a-001/console.log"
printf '{"type":"header","schema":1}\n{"type":"trailer","events_written":0,"events_dropped":0,"bpf_drops":0}\n' \
	>"$run/boots/a-001/events.jsonl"
manifest() {
	printf '{"jobs":%s,"jobs_from":"%s","boots":[{"boot":"a-001","mode":"a","dir":"boots/a-001"}]}\n' \
		"$1" "$2" >"$run/manifest.json"
	"$BP" report --quiet --no-charts --no-traces --out "$tmp/out" "$run" >/dev/null 2>&1
}
manifest 2 'scenario'
check "report.md: 2 at once, from the scenario, and the check behind it" \
	grep -q 'Boots ran \*\*2 at once\*\* (scenario)\. Whether parallel boots change what is measured is checked by `bench/jobs-bias.sh`' \
	"$tmp/out/report.md"
manifest 1 'default'
check "report.md: 1 at once, no bias check named" \
	sh -c "grep -q 'Boots ran \*\*1 at once\*\* (default)\.\$' '$tmp/out/report.md' &&
		! grep -q jobs-bias '$tmp/out/report.md'"
manifest 1000 'scenario'
check "report.md: a jobs outside 1..64 is not stated" sh -c "! grep -q 'at once' '$tmp/out/report.md'"
