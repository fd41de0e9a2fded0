#!/usr/bin/env bash
# bootprobe(1) and probetrace(8), --help and README.md's "Commands and
# options" list the same commands, and each command the same long options.
# The man pages are made from --help (tools/man/mkman.sh) into build/man/.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
require_bp "bootprobe(1), --help and README.md list the same commands and options"
PT=${PT:-${BUILD:-build}/bin/probetrace}
MANDIR=${BUILD:-build}/man
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The long options of a help text: its option lines and its Usage line.
help_opts() {
	grep -E '^ {1,8}-|^Usage:' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' '
}
# Of a man page's section (stdin): its bold lines (usage, option heads).
man_opts() {
	grep '^\.B ' | sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' '
}
# Of README.md's table row for WHAT (`bootprobe run`, `probetrace`).
readme_opts() {
	awk '/^## Commands and options/ { on = 1; next } /^## / { on = 0 } on' README.md |
		grep -F "| \`$1\` |" | awk -F'|' '{ print $4 }' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' '
}
same() {	# same WHAT A B
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "[$2] vs [$3]"; fi
}

# The page made from this binary's help, what make would write now, and
# the one make wrote (tests/host/makefile.sh: make writes it).
page=$tmp/bootprobe.1
tools/man/mkman.sh bootprobe "$BP" >"$page"
if [ -e "$MANDIR/man1/bootprobe.1" ] && { [ "$MANDIR/man1/bootprobe.1" -ot "$BP" ] ||
	[ "$MANDIR/man1/bootprobe.1" -ot tools/man/mkman.sh ]; }; then
	skip "the built bootprobe(1) is the page of --help" "$MANDIR/man1/bootprobe.1 is older than its sources (make man)"
elif [ -e "$MANDIR/man1/bootprobe.1" ]; then
	check "$MANDIR/man1/bootprobe.1 is the page this bootprobe's --help makes" \
		cmp -s "$MANDIR/man1/bootprobe.1" "$page"
else
	skip "the built bootprobe(1) is the page of --help" "$MANDIR/man1/bootprobe.1 not built (make man)"
fi
if command -v groff >/dev/null; then
	check "bootprobe(1) formats without a groff warning" \
		sh -c '! groff -man -ww -z "$1" 2>&1 | grep -q .' sh "$page"
fi

help_cmds=$("$BP" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' |
	sort | tr '\n' ' ')
man_cmds=$(sed -n 's/^\.SS "bootprobe \([a-z]*\)"$/\1/p' "$page" | sort | tr '\n' ' ')
readme_cmds=$(awk '/^## Commands and options/ { on = 1; next } /^## / { on = 0 } on' README.md |
	sed -n 's/^| `bootprobe \([a-z]*\)` |.*/\1/p' | sort | tr '\n' ' ')
check "bootprobe --help lists commands ($help_cmds)" test -n "$help_cmds"
same "bootprobe(1) has a section for every command of --help" "$help_cmds" "$man_cmds"
same "README.md lists the commands of --help" "$help_cmds" "$readme_cmds"

for c in $help_cmds; do
	h=$("$BP" "$c" --help | help_opts)
	m=$(awk -v s=".SS \"bootprobe $c\"" '$0 == s { on = 1; next } /^\.S[SH] / { on = 0 } on' "$page" |
		man_opts)
	r=$(readme_opts "bootprobe $c")
	check "bootprobe $c --help lists options ($h)" test -n "$h"
	same "bootprobe(1), bootprobe $c: the options of --help" "$h" "$m"
	same "README.md, bootprobe $c: the options of --help" "$h" "$r"
done
check "bootprobe(1) has an EXIT STATUS section" grep -qx '\.SH EXIT STATUS' "$page"
check "bootprobe(1) has an EXAMPLES section" grep -qx '\.SH EXAMPLES' "$page"

if [ ! -x "$PT" ]; then
	skip "probetrace(8), --help and README.md list the same options" "$PT not built"
	exit 0
fi
page=$tmp/probetrace.8
tools/man/mkman.sh probetrace "$PT" >"$page"
if [ -e "$MANDIR/man8/probetrace.8" ] && { [ "$MANDIR/man8/probetrace.8" -ot "$PT" ] ||
	[ "$MANDIR/man8/probetrace.8" -ot tools/man/mkman.sh ]; }; then
	skip "the built probetrace(8) is the page of --help" "$MANDIR/man8/probetrace.8 is older than its sources (make man)"
elif [ -e "$MANDIR/man8/probetrace.8" ]; then
	check "$MANDIR/man8/probetrace.8 is the page this probetrace's --help makes" \
		cmp -s "$MANDIR/man8/probetrace.8" "$page"
else
	skip "the built probetrace(8) is the page of --help" "$MANDIR/man8/probetrace.8 not built (make man)"
fi
h=$(COLUMNS= "$PT" --help | help_opts)
check "probetrace --help lists options ($h)" test -n "$h"
same "probetrace(8): the options of --help" "$h" "$(man_opts <"$page")"
same "README.md, probetrace: the options of --help" "$h" "$(readme_opts probetrace)"
