#!/usr/bin/env bash
# make vmlinux-h-check compares the in-tree vmlinux.h with the lab kernel's
# as types, not bytes (tools/vmlinux-h-same.sh): two clean builds of one
# kernel dumped their BTF in different orders (a CI rehearsal from an empty
# cache failed the byte comparison).  Reordered types, forward declarations
# and swapped ___N suffixes are the same; a changed member is not.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

cat >"$t/a.h" <<'H'
struct blk_mq_debugfs_attr;

struct foo {
	int a;
};

enum {
	NOP = 8,
	NOP___2 = 1,
};
H
cat >"$t/b.h" <<'H'
enum {
	NOP = 1,
	NOP___2 = 8,
};

struct foo {
	int a;
};
H
sed 's/int a;/long a;/' "$t/b.h" >"$t/c.h"
check "reordered types, a forward declaration and swapped ___N suffixes: the same types" \
	tools/vmlinux-h-same.sh "$t/a.h" "$t/b.h"
check "a member whose type changed: not the same" \
	sh -c "! tools/vmlinux-h-same.sh '$t/a.h' '$t/c.h'"
check "a type more: not the same" \
	sh -c "printf 'struct bar {\n\tint b;\n};\n' >>'$t/d.h'; cat '$t/b.h' >>'$t/d.h'; ! tools/vmlinux-h-same.sh '$t/a.h' '$t/d.h'"
