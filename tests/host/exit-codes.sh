#!/usr/bin/env bash
# One exit-code policy (bootprobe --help): a bad argument or a RUN / BOOT
# folder that is not there is exit 2 from every command, with one line
# naming the command and the folder; bootprobe --help lists every command.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "one exit-code policy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
missing=$tmp/no-such-run

for cmd in "report $missing" "compare $missing $missing" "explain $missing" \
	"timeline $missing" "report --frobnicate $missing" "timeline --frobnicate $missing" \
	"compare --frobnicate $missing $missing" "explain --frobnicate $missing" \
	"merge --frobnicate" "import --frobnicate" "run --frobnicate"; do
	# shellcheck disable=SC2086
	"$BP" $cmd >/dev/null 2>"$tmp/err"
	rc=$?
	check "bootprobe $cmd: exit 2 (got $rc)" test "$rc" -eq 2
	check "bootprobe $cmd: one line naming the command" \
		bash -c '[ $(wc -l <"$1") -eq 1 ] && grep -q "^bootprobe ${2%% *}: " "$1"' _ "$tmp/err" "$cmd"
done
"$BP" frobnicate >/dev/null 2>&1
check "an unknown command: exit 2" test $? -eq 2
"$BP" --help >"$tmp/help"
for cmd in run report explain timeline compare import merge; do
	check "bootprobe --help lists $cmd, and $cmd --help works" \
		bash -c 'grep -q "^  $2 " "$1" && "$3" "$2" --help >/dev/null' _ "$tmp/help" "$cmd" "$BP"
done
check "bootprobe --help states the exit statuses" grep -q "^Exit status, every command" "$tmp/help"
