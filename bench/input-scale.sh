#!/usr/bin/env bash
# Time and peak memory of report, explain and timeline against the size of
# a boot: a real Debian boot (1x) made 10x and 100x larger by repeating its
# records, each copy with its own pids, drivers and devices (so that 100x
# has 100 times the drivers, probes and signals, not one group 100 times
# over).  Each size is a run of two such boots (the same mode).  One run
# of each command per size: /usr/bin/time -v's wall time and maximum
# resident set.
#
# usage: bench/input-scale.sh [BOOT_DIR] [SCALES...]
#   BOOT_DIR: a boot folder with events.jsonl and console.log (default: the
#   first sync boot under build/test-results/, else tests/data's Debian stream)
#   SCALES: default 1 10 100
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/bin/bootprobe}

die() { echo "input-scale: $*" >&2; exit 2; }

src=${1:-}
[ $# -gt 0 ] && shift
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(1 10 100)
if [ -z "$src" ]; then
	src=$(find build/test-results -path '*/boots/sync-*/events.jsonl' 2>/dev/null | sort | head -1)
	src=${src%/events.jsonl}
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bootprobe-input-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$src" ]; then
	src=$work/src
	mkdir -p "$src"
	cp tests/data/events/debian-systemd.jsonl "$src/events.jsonl"
	cp tests/data/console/ok.log "$src/console.log"
fi
[ -r "$src/events.jsonl" ] || die "$src/events.jsonl: no such file"
[ -x "$BP" ] || die "$BP: not built (make build/bin/bootprobe)"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (GNU time, for the peak memory)"

# The stream made @1 times larger: copy k's pids moved by k * 40000 (under
# PID_MAX_LIMIT for 100 copies), its driver, device, module and comm names
# given a suffix ".k"; the header first and the trailer last, once.
scale_stream() {
	python3 - "$1" "$2" <<'PY'
import json, sys
src, n = sys.argv[1], int(sys.argv[2])
recs = [json.loads(l) for l in open(src) if l.strip()]
head = [r for r in recs if r.get("type") == "header"]
tail = [r for r in recs if r.get("type") == "trailer"]
body = [r for r in recs if r.get("type") not in ("header", "trailer", "attachment")]
att = [r for r in recs if r.get("type") == "attachment"]
NAMES = ("driver", "device", "name", "module", "owner", "bound_driver", "bound_device", "comm")
def move(o, k):
    if isinstance(o, dict):
        return {key: (v + k * 40000 if key in ("pid", "tgid") and isinstance(v, int) and k
                      else f"{v}.{k}" if key in NAMES and isinstance(v, str) and v and k
                      else move(v, k)) for key, v in o.items()}
    if isinstance(o, list):
        return [move(v, k) for v in o]
    return o
out = sys.stdout
for r in head + att:
    out.write(json.dumps(r, separators=(",", ":")) + "\n")
for k in range(n):
    for r in body:
        out.write(json.dumps(move(r, k), separators=(",", ":")) + "\n")
for r in tail:
    out.write(json.dumps(r, separators=(",", ":")) + "\n")
PY
}

# "wall_s max_rss_kib" of one command.
measure() {
	local log=$work/time.log
	/usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$work/err.log" || true
	awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + t[i]; w = s }
		    /Maximum resident set size/ { m = $2 }
		    END { printf "%.2f %d\n", w, m }' "$log"
}

printf '%-6s %9s %9s %9s | %-16s | %-16s | %-16s\n' scale records events_MB drivers \
	"report s / MiB" "explain s / MiB" "timeline s / MiB"
for n in "${scales[@]}"; do
	run=$work/run-$n
	mkdir -p "$run/boots/sync-001"
	scale_stream "$src/events.jsonl" "$n" >"$run/boots/sync-001/events.jsonl"
	cp "$src/console.log" "$run/boots/sync-001/"
	printf '{"schema":1,"boot":"sync-001","mode":"sync","index":1,"outcome":"ok"}\n' \
		>"$run/boots/sync-001/boot.json"
	cp -r "$run/boots/sync-001" "$run/boots/sync-002"
	sed -i 's/sync-001/sync-002/; s/"index":1/"index":2/' "$run/boots/sync-002/boot.json"
	recs=$(wc -l <"$run/boots/sync-001/events.jsonl")
	mb=$(awk -v b="$(wc -c <"$run/boots/sync-001/events.jsonl")" 'BEGIN { printf "%.1f", b / 1048576 }')
	drivers=$(grep -o '"type":"probe","[^}]*' "$run/boots/sync-001/events.jsonl" |
		  grep -o '"driver":"[^"]*"' | sort -u | wc -l)
	row=()
	for cmd in "report $run --out $work/out-$n" "explain $run" "timeline $run/boots/sync-001"; do
		read -r w m < <(measure $BP $cmd)
		row+=("$(printf '%6.2f / %6.0f' "$w" "$((m / 1024))")")
	done
	printf '%-6s %9s %9s %9s | %-16s | %-16s | %-16s\n' "${n}x" "$recs" "$mb" "$drivers" \
		"${row[0]}" "${row[1]}" "${row[2]}"
done
echo "source: $src; two boots per run; one run each (GNU time: wall clock, maximum RSS)"
