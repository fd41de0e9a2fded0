#!/usr/bin/env bash
# Names from a guest or a results folder are text, wherever they land: a
# driver, a device, a worker's comm, a boot and a mode named to break out of
# Markdown (a newline, an image line, a code fence), into HTML (<svg>,
# <script>) and out of gnuplot strings.  The report must show them as text:
# report.md gains no image or fence of theirs, report.html no tag of theirs
# and no file they name, and no command runs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "hostile names stay text"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/run
fixture=tests/data/boots/killed

# The attack, as a JSON string body: a secret file for an image line to
# inline, a fence to close the explain block, tags, a gnuplot breakout.
echo '<svg>root:SECRET-PASSWD-LINE</svg>' >"$tmp/secret"
evil='x\n![p](../../../../../../..'"$tmp"'/secret)\n```\n<svg onload=alert(1)><script>alert(2)</script>\n| **b** `c` x'"'"';system '"'"'touch '"$tmp"'/PWNED'"'"';#'

# The same for a sed replacement, where \n would be a newline.
sevil=${evil//\\/\\\\}

# A clean copy of the fixture and a hostile one, in two modes.
mkdir -p "$run/boots/clean-001" "$run/boots/evil-001"
cp "$fixture"/* "$run/boots/clean-001/"
sed -i 's/"boot":"[^"]*"/"boot":"clean-001"/; s/"mode":"[^"]*"/"mode":"clean"/' \
	"$run/boots/clean-001/boot.json"
cp "$fixture/console.log" "$run/boots/evil-001/"
sed "s%\"boot\":\"[^\"]*\"%\"boot\":\"evil-001$sevil\"%; s%\"mode\":\"[^\"]*\"%\"mode\":\"m$sevil\"%" \
	"$fixture/boot.json" >"$run/boots/evil-001/boot.json"
sed "s%\"driver\":\"slowprobe\"%\"driver\":\"d$sevil\"%g; s%\"device\":\"0000:00:03.0\"%\"device\":\"v$sevil\"%g; s%\"comm\":\"(udev-worker)\"%\"comm\":\"w$sevil\"%g" \
	"$fixture/events.jsonl" >"$run/boots/evil-001/events.jsonl"
cat >"$run/manifest.json" <<EOF
{"schema":1,"run_id":"hostile","modes":[
 {"name":"clean","kernel_args":"udev.event_timeout=3","devices":1},
 {"name":"m$evil","kernel_args":"a$evil","devices":1}],
 "boots":[{"boot":"clean-001","mode":"clean","dir":"boots/clean-001"},
 {"boot":"evil-001$evil","mode":"m$evil","dir":"boots/evil-001"}]}
EOF
valid() { jq -e "$1" "$2" >/dev/null; }
check "the hostile manifest is valid JSON (the test attacks the names, not the parser)" \
	valid '.modes[1].name | test("<script>")' "$run/manifest.json"
check "the hostile boot.json is valid JSON" valid '.mode | test("<script>")' "$run/boots/evil-001/boot.json"
check "the hostile events are valid JSON" \
	bash -c 'jq -c . "$1" >/dev/null && grep -q "alert(2)" "$1"' _ "$run/boots/evil-001/events.jsonl"

"$BP" report --no-traces --out "$tmp/out" "$run" >"$tmp/stdout" 2>&1
rc=$?
sed "s/^/#   /" "$tmp/stdout" | head -5
check "report exits 0" test "$rc" -eq 0
md=$tmp/out/report.md html=$tmp/out/report.html
check "the hostile driver name reached the report (the attack was read)" grep -q 'alert(2)' "$md"
check "report.md: every image line is one of our charts" \
	bash -c '! grep -n "^!\[" "$1" | grep -vE "^[0-9]+:!\[[a-z]+\]\(charts/[a-z]+\.svg\)$"' _ "$md"
check "report.md: every code fence is a bare \`\`\` of ours, and they pair up" \
	bash -c '! grep -n "^\`\`\`." "$1" && [ $(( $(grep -c "^\`\`\`" "$1") % 2 )) -eq 0 ]' _ "$md"
check "report.html: no <script> tag" bash -c '! grep -qi "<script" "$1"' _ "$html"
check "report.html: no onload= attribute in a tag" bash -c '! grep -qiE "<[^>]*onload=" "$1"' _ "$html"
check "report.html: one <svg> per chart and no more" \
	test "$(grep -o '<svg' "$html" | wc -l)" -eq "$(grep -c '^!\[' "$md")"
check "report.html: still well-formed (tests/html-check.py): no name opens or closes a tag" \
	tests/html-check.py "$html"
check "report.html: the file an image line named was not inlined" \
	bash -c '! grep -q SECRET-PASSWD-LINE "$1"' _ "$html"
check "no command ran (gnuplot)" test ! -e "$tmp/PWNED"
check "summary.csv: one line per row (no name breaks a row)" \
	bash -c '! grep -v "^[^,]*,[^,]*," "$1" | grep -q .' _ "$tmp/out/summary.csv"

# A manifest names boots, never paths: a dir outside boots/ is skipped and
# named; a FIFO as the manifest is not waited on.
run2=$tmp/run2
mkdir -p "$run2/boots/ok-001" "$tmp/outside"
cp "$fixture"/* "$run2/boots/ok-001/"
cp "$fixture"/* "$tmp/outside/"
echo '{"boots":[{"dir":"boots/ok-001"},{"dir":"../outside"},{"dir":"/etc"}]}' >"$run2/manifest.json"
"$BP" report --no-charts --no-traces --out "$tmp/out2" "$run2" >"$tmp/stdout2" 2>&1
check "a manifest with paths outside boots/: report exits 0 with the one boot" \
	grep -q '1 boots in 1 modes' "$tmp/out2/report.md"
check "the manifest's '../outside' is named as skipped" \
	grep -q "boot 2: dir '../outside' is not boots/NAME (skipped)" "$tmp/out2/report.md"
rm "$run2/manifest.json" && mkfifo "$run2/manifest.json"
timeout 20 "$BP" report --no-charts --no-traces --out "$tmp/out3" "$run2" >"$tmp/stdout3" 2>&1
check "a FIFO as manifest.json: no hang (rc $?), the boots under boots/ reported" \
	grep -q '1 boots in 1 modes' "$tmp/out3/report.md"
check "the FIFO manifest is named with why" grep -q 'manifest.json: not a regular file' "$tmp/out3/report.md"
