#!/usr/bin/env bash
# report.html right-aligns a cell that is a number as a whole, and leaves a
# name that starts with digits as text: from the committed Debian run
# (results/20261207-131807-debian), the driver 8139cp, PCI addresses
# (0000:00:03.0), SCSI addresses (2:0:0:0) and PCI slots named by the
# kernel (0000:00:1f.2) are left-aligned text; medians (38.783), ranges
# (0.912 – 1.024, 0.95 .. 1.02), ratios (3/3) and percentages (+3.1 %)
# stay right-aligned.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "report.html aligns numbers right and names left"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r results/20261207-131807-debian "$tmp/run" && rm -rf "$tmp/run/report"
"$BP" report -q --no-charts --no-traces --out "$tmp/out" "$tmp/run" >"$tmp/stdout" 2>&1
check "report exits 0" test $? -eq 0
html=$tmp/out/report.html
# cells CLASS REGEX: how many cells of report.html (CLASS "n" or "") hold text matching REGEX whole.
cells() {
	local open='<td>'
	[ -n "$1" ] && open='<td class=n>'
	grep -o "$open [^<]* </td>" "$html" | sed "s|^$open \(.*\) </td>$|\1|" | grep -cxE "$2"
}
for name in '8139cp' '[0-9]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9]' '[0-9]+:[0-9]+:[0-9]+:[0-9]+'; do
	right=$(cells n "$name") left=$(cells "" "$name")
	check "the name /$name/ is text, left-aligned ($left cells), never right ($right)" \
		test "$right" -eq 0 -a "$left" -gt 0
done
for num in '[0-9]+\.[0-9]+' '[0-9]+\.[0-9]+ – [0-9]+\.[0-9]+' '[0-9]+/[0-9]+' '[-+][0-9.]+ %'; do
	right=$(cells n "$num") left=$(cells "" "$num")
	check "the number /$num/ is right-aligned ($right cells), never left ($left)" \
		test "$right" -gt 0 -a "$left" -eq 0
done
