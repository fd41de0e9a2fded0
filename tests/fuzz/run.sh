#!/usr/bin/env bash
# Run each libFuzzer target for SECONDS, seeded from tests/data; one TAP line each.
# usage: tests/fuzz/run.sh SECONDS TARGET...
set -u
cd "$(dirname "$0")/../.."
seconds=${1:?usage: run.sh SECONDS TARGET...}
shift
for t in "$@"; do
	name=$(basename "$t")
	corpus=build/fuzz-corpus/$name
	mkdir -p "$corpus"
	case "$name" in
	fuzz_events) cp tests/data/events/* tests/data/console/* "$corpus/" 2>/dev/null ;;
	fuzz_scenario) cp bench/scenarios/*.conf "$corpus/" 2>/dev/null ;;
	esac
	log=build/fuzz-$name.log
	if "$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=build/fuzz-$name- "$corpus" >"$log" 2>&1; then
		echo "ok - $name: no crash in $seconds s of fuzzing ($(sed -n "s/^stat::number_of_executed_units: *//p" "$log" | tail -1) inputs)"
	else
		echo "not ok - $name crashed : see $log and build/fuzz-$name-*"
		grep -m3 -E 'ERROR|SUMMARY' "$log" | sed 's/^/#   /'
	fi
done
