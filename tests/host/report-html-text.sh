#!/usr/bin/env bash
# report.html says what report.md says, not what Markdown would make of it:
# a mode named like a Markdown heading ("# ...") and one named like a list
# item ("- ...", with **bold** in it), and kernel arguments holding a '|'.
# In report.md the names start a line (the paragraph that counts a mode's
# drivers); report.html must still show them as the text they are, in a
# <p>, and the arguments in one cell: no <h1> but the title, no list item
# or bold of theirs, no cell split at their '|'.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "report.html shows names as text, whatever Markdown would make of them"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run

hash='# not a heading' dash='- not an item **b**'
manifest=()
for spec in "sync:killed" "$hash:sigterm" "$dash:sigterm"; do
	mode=${spec%:*} fixture=tests/data/boots/${spec##*:}
	for i in 1 2; do
		boot=$(printf '%s' "$mode" | tr -c 'a-z' x)-00$i
		mkdir -p "$run/boots/$boot"
		cp "$fixture"/* "$run/boots/$boot/"
		jq -c --arg b "$boot" --arg m "$mode" '.boot = $b | .mode = $m' \
			"$fixture/boot.json" >"$run/boots/$boot/boot.json"
		manifest+=("$(jq -cn --arg b "$boot" --arg m "$mode" \
			'{boot: $b, mode: $m, dir: ("boots/" + $b)}')")
	done
done
(IFS=,; jq -n --arg h "$hash" --arg d "$dash" --argjson boots "[${manifest[*]}]" \
	'{schema: 1, run_id: "html-text", baseline: "sync", boots: $boots, modes: [
	  {name: "sync", kernel_args: "udev.event_timeout=3"},
	  {name: $h, kernel_args: "dyndbg=\"file a.c +p | b.c\""},
	  {name: $d, kernel_args: "x"}]}' >"$run/manifest.json")

"$BP" report --no-charts --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
check "report exits 0" test $? -eq 0
md=$tmp/out/report.md html=$tmp/out/report.html

# The names start lines of report.md (so a parser of it would take them for markup).
check "report.md: a paragraph starts with the mode named '$hash'" \
	grep -q '^# not a heading: [0-9]* drivers\{0,1\} with a clear change' "$md"
check "report.md: a paragraph starts with the mode named '$dash'" \
	grep -q '^- not an item &#42;&#42;b&#42;&#42;: [0-9]* drivers\{0,1\} with' "$md"

check "report.html: well-formed" tests/html-check.py "$html"
check "report.html: one <h1>, the title; '$hash' is no heading" \
	test "$(grep -c '<h1>' "$html")" -eq 1
check "report.html: '$hash' starts a paragraph, as text" \
	grep -q '^<p># not a heading: [0-9]* drivers\{0,1\} with a clear change' "$html"
check "report.html: '$dash' starts a paragraph, not a list item" \
	grep -q '^<p>- not an item \*\*b\*\*: [0-9]* drivers\{0,1\} with' "$html"
check "report.html: no list item of '$dash'" bash -c '! grep -q "&bull; not an item" "$1"' _ "$html"
check "report.html: no <b> of a name's **" bash -c '! grep -q "<b>b</b>" "$1"' _ "$html"
check "report.html: the kernel arguments with a '|' are one cell, in one <code>" \
	grep -q '^<tr><td> # not a heading </td><td> <code>dyndbg=&quot;file a.c +p | b.c&quot;</code> </td></tr>$' \
	"$html"
