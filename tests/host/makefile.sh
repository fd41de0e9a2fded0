#!/usr/bin/env bash
# The Makefile keeps its required flags whatever CFLAGS the user gives
# (make CFLAGS=-O0 still warns and still tracks headers), and `make all`
# names the collector, which tools/probetrace/probetrace.mk defines.
# Dry runs (make -n) into an empty build folder: nothing is built.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

obj=$tmp/obj/bootprobe/main.o
make -n --no-print-directory BUILD="$tmp" CFLAGS=-O0 "$obj" >"$tmp/cc" 2>&1
line=$(grep -e ' -c tools/bootprobe/main.c' "$tmp/cc")
for flag in -O0 -Wall -Wextra -std=gnu11 -MMD -MP; do
	check "make CFLAGS=-O0: the compile of main.c still has $flag" \
		grep -q -e " $flag\( \|$\)" <<<"$line"
done

# The rule as make read it: all's prerequisites, expanded when it was parsed.
make -pnq --no-print-directory BUILD="$tmp" all >"$tmp/db" 2>/dev/null
all=$(grep -m1 '^all:' "$tmp/db")
check "make all names the collector $tmp/bin/probetrace ($all)" \
	grep -q -e " $tmp/bin/probetrace\( \|$\)" <<<"$all"
