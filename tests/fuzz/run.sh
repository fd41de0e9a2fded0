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
	# The JSON readers get the keys they read and edge-of-range numbers as words.
	dict=(-dict=tests/fuzz/json.dict)
	case "$name" in
	fuzz_events) seeds=(tests/data/events/* tests/data/console/*) ;;
	# The consoles, and the kernel logs of the recorded boots (below).
	fuzz_console) seeds=(tests/data/console/*) ;;
	fuzz_bootjson) seeds=(tests/data/bootjson/*) ;;
	fuzz_manifest) seeds=(tests/data/manifest/*) ;;
	fuzz_frames) seeds=(tests/data/frames/*) ;;
	fuzz_scenario) seeds=(bench/scenarios/*.conf tests/data/scenarios/*) dict=() ;;
	*) seeds=() ;;
	esac
	# A target without seeds starts from nothing: say so rather than fuzz blind.
	if [ ${#seeds[@]} -eq 0 ] || ! cp "${seeds[@]}" "$corpus/"; then
		echo "not ok - $name: no seeds in tests/data for it"
		continue
	fi
	# The recorded boots (tests/data/boots/NAME/) too, named apart.
	for f in tests/data/boots/*/*; do
		case "$name:${f##*/}" in
		fuzz_events:events.jsonl | fuzz_events:console.log | fuzz_bootjson:boot.json | \
		fuzz_console:console.log)
			b=${f%/*}
			cp "$f" "$corpus/boots-${b##*/}-${f##*/}" ;;
		esac
	done
	log=build/fuzz-$name.log
	if "$t" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=build/fuzz-$name- "$corpus" >"$log" 2>&1; then
		echo "ok - $name: no crash in $seconds s of fuzzing ($(sed -n "s/^stat::number_of_executed_units: *//p" "$log" | tail -1) inputs)"
	else
		echo "not ok - $name crashed : see $log and build/fuzz-$name-*"
		grep -m3 -E 'ERROR|SUMMARY' "$log" | sed 's/^/#   /'
	fi
done
