#!/usr/bin/env bash
# The sanitize stage: the unit and host stages again, on the host tools and
# unit tests built with ASan and UBSan (make SANITIZE=1, in build/sanitize).
# Every sanitizer report fails the stage, one from a command whose test
# expected it to fail too (ASan and UBSan exit 1, which such a test would
# take for the failure it wanted): reports go to files, read here.
set -u
cd "$(dirname "$0")/.." || exit 1
export BUILD=build/sanitize
logs=$PWD/$BUILD/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"

# BUILD given on the command line: a BUILD=... of an enclosing make (in
# MAKEFLAGS) would otherwise win over the Makefile's build/sanitize.
if ! out=$(make --no-print-directory SANITIZE=1 BUILD="$BUILD" host-tools 2>&1); then
	echo "not ok - make SANITIZE=1 host-tools : the build failed"
	sed 's/^/#   /' <<<"$out" | tail -20
	exit 1
fi

export ASAN_OPTIONS="log_path=$logs/report:detect_leaks=1:fast_unwind_on_malloc=0"
export UBSAN_OPTIONS="log_path=$logs/report:print_stacktrace=1"
tests/run.sh unit host
rc=$?

for f in "$logs"/report.*; do
	[ -e "$f" ] || continue
	echo "not ok - sanitizer report (pid ${f##*.}): $(grep -m1 -E 'ERROR:|runtime error:' "$f")"
	sed 's/^/#   /' "$f" | head -30
	rc=1
done
exit "$rc"
