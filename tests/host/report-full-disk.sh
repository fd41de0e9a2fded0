#!/usr/bin/env bash
# A report that cannot be written whole is not written at all, and says so:
# under a file-size limit (the way a full disk looks to a writer: EFBIG
# here, ENOSPC there), every output of an earlier report is either left as
# it was or replaced whole, no temporary file is left behind, and each
# file that could not be written is named with the error, exit 1.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "a full disk loses no report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run
mkdir -p "$run/boots/a-001"
cp tests/data/boots/killed/* "$run/boots/a-001/"

"$BP" report --out "$tmp/out" "$run" >/dev/null 2>&1
check "a first report is written" test -s "$tmp/out/report.html"
# report.md is left out of the sums: the new one says which charts were not
# drawn (docs/security.md, "Charts"), so it is checked as whole below.
(cd "$tmp/out" && find . -type f ! -name gnuplot.log ! -name report.md | sort | xargs sha256sum) \
	>"$tmp/before"
check "some of its files are larger than the limit below (12 KiB)" \
	test "$(find "$tmp/out" -type f -size +12k | wc -l)" -gt 0

# The limit applies to this subshell and its children (gnuplot too); a
# write past it fails with EFBIG instead of killing the writer (XFSZ ignored).
(trap '' XFSZ; ulimit -f 12; exec "$BP" report --out "$tmp/out" "$run") >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
sed 's/^/#   /' "$tmp/stderr"
check "exit 1 (rc $rc)" test "$rc" -eq 1
check "each file that could not be written is named with why" \
	grep -qE "^bootprobe report: $tmp/out/[a-z./]+: File too large$" "$tmp/stderr"
check "every earlier output is intact: as it was, or whole again" \
	bash -c 'cd "$1" && sha256sum --quiet -c "$2"' _ "$tmp/out" "$tmp/before"
check "report.md is whole and names the charts it could not draw" \
	bash -c 'head -1 "$1" | grep -q "^# bootprobe report" && grep -q "Not drawn: gnuplot failed" "$1" &&
		! grep -q "](charts/kills.svg)" "$1"' _ "$tmp/out/report.md"
check "no temporary file is left" test -z "$(find "$tmp/out" -name '*.tmp')"
