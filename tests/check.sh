#!/usr/bin/env bash
# `make check`: build everything (timed), then run every test stage.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
if ! make --no-print-directory all; then
	echo "not ok - make all : the build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "# build (packages, kernel, guest, tools): $((SECONDS - start)) s"
tests/run.sh "$@"
