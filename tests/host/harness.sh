#!/usr/bin/env bash
# tests/run.sh itself, on a tree of made-up tests: a test that prints no
# result, and a test file that is not executable, are failures, not passes
# or silent skips; a *-lib.sh file is a library, not a test.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tests/host"
cp tests/run.sh "$t/tests/run.sh"
printf '#!/bin/sh\necho "ok - fine"\n' >"$t/tests/host/a-passes.sh"
printf '#!/bin/sh\nexit 0\n' >"$t/tests/host/b-silent.sh"
printf '#!/bin/sh\necho "ok - never run"\n' >"$t/tests/host/c-not-executable.sh"
printf 'helper() { :; }\n' >"$t/tests/host/d-lib.sh"
chmod +x "$t/tests/host/a-passes.sh" "$t/tests/host/b-silent.sh"

out=$("$t/tests/run.sh" host 2>&1)
rc=$?
check "a made-up run with a silent and a non-executable test fails (exit $rc)" test "$rc" -ne 0
check "the silent test is a failure" grep -q 'not ok - tests/host/b-silent.sh printed no result' <<<"$out"
check "the non-executable test is a failure" \
	grep -q 'not ok - tests/host/c-not-executable.sh is not executable' <<<"$out"
check "a -lib.sh file is not run or counted" bash -c '! grep -q d-lib <<<"$1"' _ "$out"
check "the summary counts 1 passed, 2 failed" grep -qx '1 passed, 2 failed, 0 skipped' <<<"$out"
