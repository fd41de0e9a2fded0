#!/usr/bin/env bash
# A report of one boot answers "which probes made my boot slow" first.  Two
# one-boot runs, each a boot of the committed kernels comparison
# (results/20261207-054712-kernels/boots/) copied into a run folder of its
# own: debian-12-001 (Debian 12's 6.1) and debian-13-002 (6.12, whose
# critical chain waited on dev-ttyS0.device).  Every expected value is
# computed here from the boot's own files (events.jsonl, the chain), not
# written down:
#   report.md: the first table after the headline lists the slowest probes,
#     the longest first, the first being the longest probe of the stream,
#     with what started it; then the milestones, in time order, each with
#     the probes that ended last before it; then the device units of the
#     critical chain;
#   drivers.csv: a row per driver the report counts, the slowest first.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

require_bp "a one-boot report names its slowest probes first"
src=results/20261207-054712-kernels/boots
if [ ! -d "$src/debian-12-001" ] || [ ! -d "$src/debian-13-002" ]; then
	skip "a one-boot report names its slowest probes first" "$src: the committed boots are missing"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip "a one-boot report names its slowest probes first" "python3 is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one_boot BOOT: a run folder $tmp/BOOT holding that boot alone, and its report.
one_boot() {
	local run=$tmp/$1 mode=${1%-[0-9][0-9][0-9]}
	mkdir -p "$run/boots"
	cp -r "$src/$1" "$run/boots/"
	printf '{"schema":1,"run_id":"%s","modes":[{"name":"%s","kernel_args":""}],"boots":[{"boot":"%s","mode":"%s","dir":"boots/%s","outcome":"ok"}]}\n' \
		"$1" "$mode" "$1" "$mode" "$1" >"$run/manifest.json"
	"$BP" report --quiet --no-charts --no-traces --out "$run/out" "$run" >"$tmp/$1.log" 2>&1
}

# The n-th table of FILE (1-based): its lines.
nth_table() {
	awk -v n="$2" '/^\|/ { if (!in_t) { t++; in_t = 1 } if (t == n) print; next } { in_t = 0 }' "$1"
}

# The probes of a stream with a start and an end on the boot clock, longest
# first: "driver<TAB>device<TAB>duration s<TAB>origin module<TAB>origin comm".
probes_by_duration() {
	python3 - "$1" <<'EOF'
import json, sys
rows = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") != "probe" or r.get("start_ns") is None:
        continue
    if r.get("pre_collector") and r.get("clock", "boot") != "boot":
        continue
    o = r.get("origin") or {}
    rows.append((-(r["end_ns"] - r["start_ns"]), r["start_ns"], r["driver"], r["device"],
                 o.get("module", ""), o.get("comm", "")))
for d, s, drv, dev, mod, comm in sorted(rows):
    print("%s\t%s\t%.3f\t%s\t%s" % (drv, dev, -d / 1e9, mod, comm))
EOF
}

# ---- debian-12-001 ----
b=debian-12-001
one_boot $b
check "report exits 0 on the one-boot run of $b" test $? -eq 0
md=$tmp/$b/out/report.md
probes_by_duration "$src/$b/events.jsonl" >"$tmp/expected"
nth_table "$md" 2 >"$tmp/slowest"
check "report.md: the first table after the headline is the slowest probes" \
	test "$(head -1 "$tmp/slowest")" = "| driver | device | bus | start (s) | duration (s) | sync or async | started by | result |"
check "report.md: ten of them" test "$(tail -n +3 "$tmp/slowest" | wc -l)" -eq 10
# The table's driver, device and duration, against the stream's ten longest.
tail -n +3 "$tmp/slowest" | awk -F' [|] ' '{ print $1 "\t" $2 "\t" $5 }' | sed 's/^| //' >"$tmp/got"
head -10 "$tmp/expected" | cut -f1-3 >"$tmp/want"
check "report.md: the ten longest probes of events.jsonl, the longest first (driver, device, duration)" \
	diff "$tmp/want" "$tmp/got"
IFS=$'\t' read -r drv dev dur mod comm <"$tmp/expected"
echo "# the longest probe of $b: $drv $dev, $dur s, module $mod loaded by $comm"
check "report.md: the longest probe's row says what started it (module $mod, loaded by $comm)" \
	bash -c 'sed -n 3p "$1" | grep -qF "| $2 | $3 | " && sed -n 3p "$1" | grep -qF "| module $4, loaded by $5, pid "' \
	_ "$tmp/slowest" "$drv" "$dev" "$mod" "$comm"
nth_table "$md" 3 >"$tmp/milestones"
check "report.md: the second table is the probes before each milestone" \
	test "$(head -1 "$tmp/milestones")" = "| milestone | at (s) | driver | device | ended (s) | before by (s) | duration (s) |"
# The milestones in the order the boot reached them, their times rising.
grep -o '^| [a-z/][^|]* | [0-9.]* |' "$tmp/milestones" | sed 's/^| \([^(|]*\).*| \([0-9.]*\) |$/\1|\2/' >"$tmp/ms"
check "report.md: root device (vda, made by virtio_blk), /init's hand-over, multi-user.target, in that order" \
	test "$(cut -d'|' -f1 "$tmp/ms" | tr '\n' ';')" = "root device ready ;/init hands over to the root's init ;multi-user.target reached ;"
check "report.md: the root device is vda, made by the probe of virtio_blk" \
	grep -qF "| root device ready (vda, made by the probe of virtio_blk virtio1) |" "$tmp/milestones"
check "report.md: the three milestones' times rise" \
	bash -c 'test "$(wc -l <"$1")" -eq 3 && cut -d"|" -f2 "$1" | sort -c -n' _ "$tmp/ms"
# Each milestone's probes ended before it.
check "report.md: each probe listed under a milestone ended before it (before by >= 0)" \
	awk -F'|' 'NR > 2 { if ($3 ~ /[0-9]/) at = $3 + 0; n++; if ($6 + 0 > at || $7 + 0 < 0) bad = 1 }
		END { exit bad || n < 3 }' "$tmp/milestones"
check "report.md: $b's critical chain waited on no device unit, and says so" \
	grep -q "^\*\*Device units on systemd's critical chain\*\*: none" "$md"

csv=$tmp/$b/out/drivers.csv
in_all=$(sed -n 's/.*debian-12 [0-9]* per boot, \([0-9]*\) in all\..*/\1/p' "$md")
echo "# $b: report.md counts ${in_all:-?} drivers probed in user space"
check "drivers.csv: a row per driver the report counts (${in_all:-?}), header aside" \
	test -n "$in_all" -a "$(($(wc -l <"$csv") - 1))" = "${in_all:-x}"
check "drivers.csv: every row is the mode's own (verdict baseline)" \
	test "$(tail -n +2 "$csv" | cut -d, -f4 | sort -u)" = baseline
check "drivers.csv: the slowest driver per boot first (mode_median_s falls)" \
	bash -c 'test "$(wc -l <"$1")" -gt 2 && tail -n +2 "$1" | cut -d, -f8 | sort -c -g -r' _ "$csv"

# ---- debian-13-002: a device unit on the critical chain ----
b=debian-13-002
one_boot $b
check "report exits 0 on the one-boot run of $b" test $? -eq 0
md=$tmp/$b/out/report.md
unit=$(grep -o '[a-zA-Z0-9@_-]*\.device' "$src/$b/systemd-analyze-critical-chain.txt" | head -1)
echo "# $b: the device unit of its critical chain: ${unit:-none}"
nth_table "$md" 4 >"$tmp/chain"
check "report.md: the third table is the chain's device units, $unit on it" \
	bash -c 'head -1 "$1" | grep -qx "| unit | active at (s) | took (s) | probe |" &&
		grep -q "^| $2 | [0-9.]* | " "$1"' _ "$tmp/chain" "${unit:-none}"
