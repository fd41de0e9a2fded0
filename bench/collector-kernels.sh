#!/usr/bin/env bash
# What the collector costs on each kernel: every Debian image (Debian 12's
# 6.1, 13's 6.12, 13-backports' 7.x) booted N times with the collector as
# installed (started beside the boot) and N times without it
# (bootprobe.collector=0), interleaved in one run.  Both sides keep only
# systemd-analyze time (bootprobe.analyze=time): nothing measured here needs
# unit times, and the tail after multi-user.target is wall time.
#
# Per kernel it prints multi-user.target's median with and without, their
# ratio with a 95 % bootstrap CI (10 000 resamples of each side, seeded),
# and the collector's start-up phase by phase (medians over the boots, from
# each stream's trailer: the skeleton's open, BTF, load, attach, the
# boot-time trace's read, and when it was ready).  Goal: a ratio whose CI
# ends at or below 1.03.  The lines go to results/RUN/summary.txt too.
#
# usage: bench/collector-kernels.sh [N] [IMAGE...]
#   (default 5 boots a side, debian-12 debian-13 debian-13-bpo)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
shift || true
images=("$@")
[ ${#images[@]} -gt 0 ] || images=(debian-12 debian-13 debian-13-bpo)
bp=build/bin/bootprobe

die() { echo "collector-kernels: $*" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || die "$n: not a boot count"
[ -x "$bp" ] || die "$bp: missing (make)"

run=$(date -u +%Y%m%d-%H%M%S)-collector-kernels
conf=$(mktemp)
trap 'rm -f "$conf"' EXIT
{
	printf '[scenario]\nname = collector-kernels\nimage = debian\nboots = %s\ntimeout = 600\n' "$n"
	printf 'baseline = none-%s\n' "${images[0]}"
	for im in "${images[@]}"; do
		dir=build/$im
		[ "$im" = debian-12 ] && dir=build/debian
		[ -e "$dir/root.img" ] || die "$dir/root.img: missing (make debian-image)"
		printf '\n[mode none-%s]\nimage = %s\ncmdline = bootprobe.collector=0 bootprobe.analyze=time\n' "$im" "$im"
		printf '\n[mode collector-%s]\nimage = %s\ncmdline = bootprobe.analyze=time\n' "$im" "$im"
	done
} >"$conf"
rc=0
"$bp" run --scenario "$conf" --run-id "$run" || rc=$?
"$bp" report "results/$run" --quiet || rc=$?

# mu MODE: each ok boot's multi-user.target (s), one a line.
mu() {
	local b
	for b in "results/$run/boots/$1"-[0-9]*; do
		[ "$(jq -r .outcome "$b/boot.json" 2>/dev/null)" = ok ] || continue
		sed -n 's/.*bootprobe: system [a-z-]*; multi-user.target reached at \([0-9.]*\) s.*/\1/p' \
			"$b/console.log" | head -1
	done
}

# ratio_ci WITH WITHOUT: "median_with median_without ratio lo hi" from two
# lists of numbers (space-separated), the CI by a seeded percentile bootstrap.
ratio_ci() {
	local est lo hi boots
	boots=$(mktemp)
	est=$(awk -v a="$1" -v b="$2" -v out="$boots" '
	function med(x, n,   i, j, t, y) {
		for (i = 1; i <= n; i++) y[i] = x[i]
		for (i = 2; i <= n; i++) for (j = i; j > 1 && y[j-1] > y[j]; j--) {
			t = y[j]; y[j] = y[j-1]; y[j-1] = t }
		return n % 2 ? y[(n+1)/2] : (y[n/2] + y[n/2+1]) / 2
	}
	BEGIN {
		na = split(a, x); nb = split(b, z)
		if (!na || !nb) { print "nan nan nan"; exit }
		srand(20261207)
		for (r = 1; r <= 10000; r++) {
			for (i = 1; i <= na; i++) xa[i] = x[int(rand() * na) + 1]
			for (i = 1; i <= nb; i++) zb[i] = z[int(rand() * nb) + 1]
			printf "%.6f\n", med(xa, na) / med(zb, nb) >out
		}
		printf "%.3f %.3f %.4f\n", med(x, na), med(z, nb), med(x, na) / med(z, nb)
	}')
	lo=$(sort -g "$boots" | sed -n '251p')
	hi=$(sort -g "$boots" | sed -n '9750p')
	rm -f "$boots"
	echo "$est ${lo:-nan} ${hi:-nan}"
}

# startup MODE: medians of the trailer's start-up phases (s) over the boots.
startup() {
	cat "results/$run/boots/$1"-[0-9]*/events.jsonl 2>/dev/null |
		jq -s -r '[.[] | select(.type == "trailer") | .startup] |
			def med: sort | if length == 0 then null
				else (if length % 2 == 1 then .[length / 2 | floor]
				      else (.[length / 2 - 1] + .[length / 2]) / 2 end) end;
			def s(k): (map(.[k] // empty) | med) as $v |
				if $v == null then "-" else ($v / 1e9 * 1000 | round / 1000 | tostring) end;
			"open \(s("open_dur_ns")) s, BTF \(s("btf_dur_ns")) s, load \(s("load_dur_ns")) s, " +
			"attach \(s("attach_dur_ns")) s, boot-time trace \(s("boot_trace_dur_ns")) s; " +
			"started at \(s("start_ns")) s, ready at \(s("ready_ns")) s; kallsyms loads \(map(.kallsyms_loads // 0) | add)"'
}

out=results/$run/summary.txt
: >"$out"
for im in "${images[@]}"; do
	read -r mw mo ratio lo hi <<<"$(ratio_ci "$(mu "collector-$im" | tr '\n' ' ')" \
		"$(mu "none-$im" | tr '\n' ' ')")"
	nw=$(mu "collector-$im" | wc -l) no=$(mu "none-$im" | wc -l)
	echo "collector-kernels: $im: multi-user.target median $mw s with the collector, $mo s" \
		"without ($nw + $no ok boots); ratio $ratio, 95 % CI $lo .. $hi (goal: <= 1.03)" | tee -a "$out"
	echo "collector-kernels: $im: start-up: $(startup "collector-$im")" | tee -a "$out"
done
echo "collector-kernels: report in results/$run/report/report.html"
exit "$rc"
