#!/usr/bin/env bash
# A name from a guest or a results folder drives nothing where it is shown
# (docs/security.md, "Names"): one helper per output place.
#   - terminal: escape sequences in a boot folder's name never reach it raw;
#   - Markdown: a '|' in a kernel command line stays in its table cell (\|);
#   - everywhere: bidi overrides (U+202E, U+2066..U+2069) and C1 controls
#     (U+009B, CSI) become '?';
#   - JSON: a byte that is no UTF-8 (0xFF in a driver name) is U+FFFD, and
#     summary.json stays valid UTF-8.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "names drive nothing where they are shown"
tmp=$(mktemp -d)
trap "rm -rf \"$tmp\"" EXIT; [ -n "${KEEP:-}" ] && trap - EXIT

# boot RUN NAME MODE DRIVER CMDLINE: one ok boot; DRIVER and MODE as JSON string bodies.
boot() {
	local dir=$1/boots/$2
	mkdir -p "$dir"
	printf '{"boot":"%s","mode":"%s","outcome":"ok","kernel_cmdline":"%s"}\n' "$2" "$3" "$5" \
		>"$dir/boot.json"
	cp tests/data/console/ok.log "$dir/console.log"
	printf '%s\n' '{"type":"header","schema":1}' \
		"{\"type\":\"probe\",\"pid\":44,\"driver\":\"$4\",\"device\":\"0000:00:03.0\",\"start_ns\":4000000000,\"end_ns\":5000000000,\"ret\":0}" \
		'{"type":"trailer","events_written":1,"events_dropped":0,"bpf_drops":0}' \
		>"$dir/events.jsonl"
}
# has_bytes HEX FILE...: whether any FILE holds the bytes (e.g. e280ae).
has_bytes() {
	local want
	want=$(sed 's/../& /g' <<<"$1")
	shift
	cat "$@" | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/$/ /' | grep -q " $want"
}
export -f has_bytes

r=$tmp/run
boot "$r" m-001 'm\u202etxt.exe' 'drv\u009b31m\u2066x' 'console=ttyS0 opt=a|b|c'
boot "$r" m-002 'm\u202etxt.exe' 'drv\u009b31m\u2066x' 'console=ttyS0 opt=a|b|c'
# A raw 0xFF byte in a driver name, and a bidi override written as UTF-8.
printf '%s\n' '{"type":"header","schema":1}' \
	"{\"type\":\"probe\",\"pid\":44,\"driver\":\"raw$(printf '\377')ff\",\"device\":\"0000:00:04.0\",\"start_ns\":4000000000,\"end_ns\":5000000000,\"ret\":0}" \
	'{"type":"trailer","events_written":1,"events_dropped":0,"bpf_drops":0}' \
	>"$r/boots/m-002/events.jsonl"
# A boot folder named with terminal escape sequences and no boot.json: left out.
esc_name=$(printf 'x\033]0;pwned\007\033[2J\302\233H')
mkdir -p "$r/boots/$esc_name"
timeout 20 "$BP" report --no-traces --no-charts "$r" >"$tmp/headline" 2>&1
out=$r/report

check "the headline names the left-out folder, its escape codes made '?'" \
	grep -q "left out: .*x?\]0;pwned??\[2J?H" "$tmp/headline"
check "no ESC, BEL or C1 CSI byte reaches the terminal from report" \
	bash -c '! has_bytes 1b "$1" && ! has_bytes 07 "$1" && ! has_bytes c29b "$1"' _ "$tmp/headline"
check "no bidi override (U+202E) in the headline, report.md, report.html, summary.json" \
	bash -c '! has_bytes e280ae "$@"' _ "$tmp/headline" "$out/report.md" "$out/report.html" \
	"$out/summary.json"
check "no isolate (U+2066) nor C1 CSI (U+009B) in report.md, report.html, summary.json" \
	bash -c '! has_bytes e281a6 "$@" && ! has_bytes c29b "$@"' _ "$out/report.md" \
	"$out/report.html" "$out/summary.json"
check "the mode's name is shown with '?' for the override" grep -q 'm?txt.exe' "$out/report.md"
check "summary.json is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$out/summary.json"
check "the raw 0xFF byte is U+FFFD in summary.json" \
	bash -c 'has_bytes "726177efbfbd6666" "$1" && ! has_bytes "726177ff" "$1"' _ "$out/summary.json"
"$BP" report --json --no-traces --no-charts --out "$tmp/o2" "$r" >"$tmp/json" 2>/dev/null
check "report --json is valid UTF-8 too" iconv -f UTF-8 -t UTF-8 -o /dev/null "$tmp/json"
# A mode's kernel arguments in report.md's table of modes: '|' stays in its cell.
k=$tmp/kargs
boot "$k" m-001 m drv 'console=ttyS0 opt=a|b|c'
printf '%s\n' '{"boots":[{"dir":"boots/m-001"}],"modes":[{"name":"m","kernel_args":"console=ttyS0 opt=a|b|c"}]}' \
	>"$k/manifest.json"
timeout 20 "$BP" report --quiet --no-traces --no-charts "$k" >/dev/null 2>&1
check "a '|' in a kernel command line is escaped as \\| in its table cell" \
	bash -c 'grep -qF "opt=a\\|b\\|c" "$1" && ! grep -F "opt=a|" "$1" | grep -q "^|"' _ \
	"$k/report/report.md"
"$BP" explain "$r" >"$tmp/explain" 2>&1
check "explain names the left-out folder without its escape codes" \
	bash -c 'grep -q "left out: " "$1" && ! has_bytes 1b "$1" && ! has_bytes c29b "$1"' _ \
	"$tmp/explain"
"$BP" compare "$r" "$r" >"$tmp/compare" 2>&1
check "compare's left-out lines carry no escape codes, no bidi override" \
	bash -c '! has_bytes 1b "$1" && ! has_bytes e280ae "$1"' _ "$tmp/compare"
