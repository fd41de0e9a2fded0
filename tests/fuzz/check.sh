#!/usr/bin/env bash
# The fuzz stage of `make check`: a short run of every libFuzzer target.
cd "$(dirname "$0")/../.."
exec tests/fuzz/run.sh "${FUZZ_SECONDS:-10}" build/bin/fuzz/fuzz_*
