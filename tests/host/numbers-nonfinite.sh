#!/usr/bin/env bash
# Every number read from a guest's text is finite and in its range where it
# is parsed, else refused and named at FILE:LINE (docs/security.md,
# "Numbers"): console marks, kernel stamps, udev.event_timeout= in a boot's
# command line, systemd-analyze's times.  No output prints inf or nan, and
# compare's gate exits 3 when what it decides on is not finite or a boot it
# should judge was left out.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "numbers from a guest: finite and in range"
tmp=$(mktemp -d)
trap "rm -rf \"$tmp\"" EXIT; [ -n "${KEEP:-}" ] && trap - EXIT

probe='{"type":"probe","pid":44,"driver":"slowprobe","device":"0000:00:03.0","start_ns":4000000000,"end_ns":5000000000,"ret":0}'
# boot RUN NAME [SED] [CMDLINE] [EXTRA-RECORD]: one ok boot of mode m; SED edits its console.
boot() {
	local dir=$1/boots/$2
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"m","outcome":"ok","kernel_cmdline":"%s"}\n' "$2" "${4:-}" \
		>"$dir/boot.json"
	sed -e "${3:-p;d}" tests/data/console/ok.log >"$dir/console.log"
	printf '%s\n' '{"type":"header","schema":1}' "$probe" ${5:+"$5"} \
		'{"type":"trailer","events_written":1,"events_dropped":0,"bpf_drops":0}' \
		>"$dir/events.jsonl"
	echo "{\"dir\":\"boots/$2\"}" >>"$1/list"
}
manifest() { (IFS=,; echo "{\"boots\":[$(paste -sd, "$1/list")]}") >"$1/manifest.json"; }
# no_nonfinite FILE...: no inf, nan or infinity printed as a number in any of
# them (a command line quoted as it was given, "udev.event_timeout=nan", is no number).
no_nonfinite() { ! grep -qiP -- '(?<![=\w.])[-+]?(nan|inf|infinity)(?![\w.])' "$@"; }
export -f no_nonfinite
report() {
	timeout 20 "$BP" report --no-charts --no-traces --out "$1/out" "$1" >"$1/headline" 2>&1
}

# ---- console marks without a stamp: the mark's own number is the time ----
n=0
for v in 1e309 nan -5 1e999 99999999999; do
	n=$((n + 1))
	r=$tmp/mark-$n
	boot "$r" m-001 "s/^bootprobe: coldplug done at 13.44 s/bootprobe: coldplug done at $v s/"
	boot "$r" m-002
	manifest "$r"
	report "$r"
	check "console mark 'coldplug done at $v': no inf/nan/huge time in the headline, report.md, summary.csv" \
		bash -c 'no_nonfinite "$1/headline" "$1/out/report.md" "$1/out/summary.csv" &&
			! grep -q 99999999999 "$1/headline"' _ "$r"
	check "console mark $v: refused at console.log:139, named" \
		grep -qE "m-001/console.log:139: console mark (is not a finite number|.* is outside 0..1e\+07 s) \(line refused\)" \
		"$r/out/report.md"
done

# ---- kernel stamps: out of range, the line is refused ----
for v in 99999999999.000000 12345678.123456 -3.000000; do
	n=$((n + 1))
	r=$tmp/stamp-$n
	boot "$r" m-001 "s/^bootprobe: coldplug done at 13.44 s/[$v] bootprobe: coldplug done at 13.44 s/"
	boot "$r" m-002
	manifest "$r"
	report "$r"
	check "kernel stamp [$v]: refused at console.log:139, named" \
		grep -qE "m-001/console.log:139: kernel stamp (is not a finite number|.* is outside 0..1e\+07 s) \(line refused\)" \
		"$r/out/report.md"
	check "kernel stamp [$v]: no such time in the headline or report.md" \
		bash -c '! grep -qE "99999999999|12345678|-3\.000" "$1/headline" &&
			no_nonfinite "$1/headline" "$1/out/report.md"' _ "$r"
done

# ---- udev.event_timeout= in the kernel command line ----
for v in nan 1e999 -1 inf; do
	n=$((n + 1))
	r=$tmp/timeout-$n
	boot "$r" m-001 "" "console=ttyS0 udev.event_timeout=$v"
	manifest "$r"
	report "$r"
	check "udev.event_timeout=$v in a boot's command line is refused and named" \
		grep -q "m-001/boot.json: kernel_cmdline: udev.event_timeout=$v is no time within 0..86400 s" \
		"$r/out/report.md"
	check "udev.event_timeout=$v: no inf or nan in report.md or summary.json" \
		bash -c 'no_nonfinite "$1/out/report.md" "$1/out/summary.json"' _ "$r"
done

# ---- systemd-analyze's times ----
for v in 1e999s nans 1e308min; do
	n=$((n + 1))
	r=$tmp/sd-$n
	att="{\"type\":\"attachment\",\"name\":\"systemd-analyze-time.txt\",\"text\":\"Startup finished in 1.2s (kernel) + $v (userspace) = $v\\ngraphical.target reached after $v in userspace\\n\"}"
	boot "$r" m-001 "" "" "$att"
	boot "$r" m-002 "" "" "$att"
	manifest "$r"
	report "$r"
	"$BP" report --json --no-charts --no-traces --out "$r/out2" "$r" >"$r/json" 2>/dev/null
	check "systemd-analyze '$v': no inf or nan in report.md, summary.csv, --json" \
		bash -c 'no_nonfinite "$1/out/report.md" "$1/out/summary.csv" "$1/json"' _ "$r"
done

# ---- compare's gate ----
for i in 1 2 3; do
	boot "$tmp/A" "m-00$i"
	boot "$tmp/B" "m-00$i" "s/^bootprobe: coldplug done at 13.44 s/bootprobe: coldplug done at 1e999 s/"
	boot "$tmp/C" "m-00$i"
done
manifest "$tmp/A"
manifest "$tmp/B"
mkdir -p "$tmp/C/boots/m-004"
echo 'not json' >"$tmp/C/boots/m-004/boot.json"
echo '{"dir":"boots/m-004"}' >>"$tmp/C/list"
manifest "$tmp/C"
"$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/B" >"$tmp/cmp" 2>&1
rc=$?
check "compare --fail-if-slower 5 A B, every boot time of B infinite: exit 3 (got $rc)" test "$rc" -eq 3
check "and no inf or nan in its output" no_nonfinite "$tmp/cmp"
"$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/C" >"$tmp/cmp" 2>&1
rc=$?
check "a gate where B has a boot left out: exit 3 (got $rc)" test "$rc" -eq 3
check "and it names the boots left out" grep -q "C: 1 boot left out: the gate cannot judge" "$tmp/cmp"
"$BP" compare "$tmp/A" "$tmp/C" >/dev/null 2>&1
check "without a gate, the same runs compare (exit 0)" test $? -eq 0
"$BP" compare --fail-if-slower 5 "$tmp/A" "$tmp/A" >/dev/null 2>&1
check "a clean run against itself still passes the gate (exit 0)" test $? -eq 0
