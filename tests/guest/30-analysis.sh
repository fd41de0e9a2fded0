#!/usr/bin/env bash
# report, explain, timeline and compare on the boots the earlier guest tests
# just made (the kill-policy run and the slowprobe-parameter run).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_guest "analysis of real runs"

newest() { ls -td "$BP_RESULTS"/$1-*/ 2>/dev/null | head -1 | sed 's:/$::'; }
kp=$(newest killpolicy)
params=$(newest params)
if [ -z "$kp" ] || [ -z "$params" ] || ! command -v jq >/dev/null; then
	skip "analysis of real runs" "no kill-policy/params run from this test session, or no jq"
	exit 0
fi

# report
out=$(mktemp -d)
check "bootprobe report --json exits 0 on the kill-policy run" \
	sh -c "'$BP' report --out '$out' --json '$kp' >'$out/stdout.json'"
check "its summary names every mode of the run" \
	test "$(jq '.modes | length' "$out/stdout.json")" -eq "$(ls "$kp/boots" | wc -l)"
check "killable's kill rate is 1 and its failed-probe rate is 1" \
	test "$(jq -c '[.modes.killable.kill_rate, .modes.killable.failed_probe_rate]' "$out/stdout.json")" = "[1,1]"
check "unkillable's probe never fails" test "$(jq '.modes.unkillable.failed_probe_rate' "$out/stdout.json")" = 0
check "report.html is self-contained, with its charts inline" \
	sh -c "grep -q '<svg' '$out/report.html' && ! grep -q '<img' '$out/report.html'"
for c in gantt boottime drivers kills; do
	check "chart $c exists as SVG and PNG" test -s "$out/charts/$c.svg" -a -s "$out/charts/$c.png"
done
check "summary.csv has a row per mode and metric" \
	test "$(grep -c '^killable,boot_s,' "$out/summary.csv")" -eq 1
check "every boot has a Perfetto trace with its probe spans" \
	sh -c "for t in '$out'/traces/*.json; do jq -e '[.traceEvents[] | select(.cat == \"probe\")] | length > 0' \"\$t\" >/dev/null || exit 1; done"

# explain
ex=$("$BP" explain --json "$kp/boots/killable-001")
check "explain: one SIGKILL, sent by systemd-udevd to a udev worker" \
	test "$(echo "$ex" | jq -c '[(.[0].kills | length), .[0].kills[0].sender, .[0].kills[0].target]')" = '[1,"systemd-udevd","(udev-worker)"]'
check "explain: the victim was loading slowprobe and probing 0000:00:03.0" \
	test "$(echo "$ex" | jq -c '[.[0].kills[0].module, .[0].kills[0].device]')" = '["slowprobe","0000:00:03.0"]'
check "explain: the chain ends in -EINTR, a failed probe and an unbound device" \
	bash -c 'grep -q "$1" <<<"$2"' _ 'kthread_create returned -EINTR.*the probe failed (-EINTR); device 0000:00:03.0 is unbound' \
	"$(echo "$ex" | jq -r '.[0].kills[0].explanation')"
check "explain: the victim's stack is there and shows the sleeping probe" \
	bash -c 'grep -q "$1" <<<"$2"' _ slowprobe_probe "$(echo "$ex" | jq -r '.[0].kills[0].stack | join(" ")')"
check "explain: the 5 s probe is named at risk (over a third of 3 s)" \
	test "$(echo "$ex" | jq '.[0].at_risk | length')" -ge 1
check "timeline: the probe span comes after udev coldplug starts" \
	sh -c "'$BP' timeline '$kp/boots/killable-001' | awk '/udev coldplug starts/ { c = NR } /probe slowprobe 0000:00:03.0/ { p = NR } END { exit !(c && p > c) }'"

# compare as a regression gate: the short params boots against the long kill-policy ones.
fast=$out/fast slow=$out/slow
mkdir -p "$fast/boots" "$slow/boots"
for b in "$params"/boots/*/; do cp -r "$b" "$fast/boots/"; done
for b in "$kp"/boots/*/; do cp -r "$b" "$slow/boots/"; done
sed -i 's/"mode":"[^"]*"/"mode":"m"/' "$fast"/boots/*/boot.json "$slow"/boots/*/boot.json
"$BP" compare --fail-if-slower 20 "$fast" "$slow" >/dev/null 2>&1
check "compare --fail-if-slower exits 1 when the second run is slower beyond the CI" test $? -eq 1
"$BP" compare --fail-if-slower 20 "$slow" "$fast" >/dev/null 2>&1
check "compare --fail-if-slower exits 0 when the second run is faster" test $? -eq 0
"$BP" compare --fail-if-slower 20 "$fast" "$fast" >/dev/null 2>&1
check "compare --fail-if-slower exits 0 for a run against itself" test $? -eq 0
"$BP" compare "$fast" /nonexistent >/dev/null 2>&1
check "compare with a missing run is a usage error (exit 2)" test $? -eq 2
rm -rf "$out"
