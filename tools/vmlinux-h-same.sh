#!/usr/bin/env bash
# Whether two vmlinux.h dumps describe the same types.  Two builds of the
# same kernel source and config dump their BTF in different orders: pahole
# encodes in parallel, so the order of types and forward declarations and
# which of two same-named types gets bpftool's ___N suffix change from one
# build to the next.  Compared: the lines, suffixes and forward
# declarations left out, as a sorted multiset.  Exit 0 if the same.
#
# usage: tools/vmlinux-h-same.sh A.h B.h
set -euo pipefail
a=${1:?usage: vmlinux-h-same.sh A.h B.h}
b=${2:?usage: vmlinux-h-same.sh A.h B.h}

norm() {
	LC_ALL=C sed -E 's/___[0-9]+\b//g' "$1" |
		LC_ALL=C grep -Ev '^(struct|union) [A-Za-z_0-9]+;$|^$' | LC_ALL=C sort
}
diff -q <(norm "$a") <(norm "$b") >/dev/null
