#!/usr/bin/env bash
# Kernel code passes scripts/checkpatch.pl: every patch of the series and the
# slowprobe driver.  UNKNOWN_COMMIT_ID and FILE_PATH_CHANGES are ignored:
# checkpatch cannot look up commits nor MAINTAINERS outside a kernel git tree.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh

src=$(cat build/guest/kernel-dir 2>/dev/null)/src
if [ ! -x "$src/scripts/checkpatch.pl" ]; then
	skip "checkpatch.pl passes on the kernel code" "no kernel tree yet (make guest)"
	exit 0
fi
ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' kernel-patches/series); do
	if out=$(cd "$src" && perl scripts/checkpatch.pl -q --ignore "$ignore" \
		"$OLDPWD/kernel-patches/$p" 2>&1); then
		pass "checkpatch: $p is clean"
	else
		fail "checkpatch: $p is clean" "$(echo "$out" | grep -m1 -E 'ERROR|WARNING')"
	fi
done
if out=$(perl "$src/scripts/checkpatch.pl" -q --no-tree -f kernel-patches/slowprobe/slowprobe.c 2>&1); then
	pass "checkpatch: slowprobe.c is clean"
else
	fail "checkpatch: slowprobe.c is clean" "$(echo "$out" | grep -m1 -E 'ERROR|WARNING')"
fi
bad=
for s in tools/*.sh tools/guest/init tests/*.sh tests/*/*.sh bench/*.sh .ci/run; do
	[ -e "$s" ] && ! bash -n "$s" 2>/dev/null && bad="$bad $s"
done
if [ -z "$bad" ]; then pass "every shell script parses"; else fail "every shell script parses" "$bad"; fi
