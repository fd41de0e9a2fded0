#!/usr/bin/env bash
# `make check`: build what the tests need (timed: the tools, every guest, the
# test programs, installing the packages as root), then run every test stage.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
if ! make --no-print-directory check-build; then
	echo "not ok - make check-build : the build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "# build (packages, kernel, guest, tools): $((SECONDS - start)) s"
tests/run.sh "$@"
