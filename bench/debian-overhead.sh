#!/usr/bin/env bash
# What the collector costs a real boot: the Debian image (stock kernel,
# initramfs-tools, systemd) booted N times with the collector and N times
# with bootprobe.collector=0 (the package stays installed, its init-top
# script returns at once), alternating so that host drift hits both alike.
# Measures: multi-user.target as systemd timestamps it, and the host wall
# time of each boot; prints the ratio of the medians and each side's range.
#
# usage: bench/debian-overhead.sh [N]   (default 5 boots each side)
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BP_RESULTS=${BP_RESULTS:-results}
n=${1:-5}
[ -e build/debian/root.img ] || { echo "debian-overhead: make debian-image first" >&2; exit 2; }

run=$(date -u +%Y%m%d-%H%M%S)-debian-overhead
for ((i = 1; i <= n; i++)); do
	echo "# pair $i of $n" >&2
	bp_run "$run-$i" --image debian --timeout 400 \
		--mode collector --mode 'none:bootprobe.collector=0' ||
		echo "# boot pair $i: runner exit $?" >&2
done

# values MODE: one "multi_user_s wall_s" line per ok boot.
values() {
	local d m w
	for ((i = 1; i <= n; i++)); do
		d=$BP_RESULTS/$run-$i/boots/$1-001
		[ "$(boot_outcome "$d")" = ok ] || continue
		m=$(sed -n 's/.*bootprobe: system [a-z-]*; multi-user.target reached at \([0-9.]*\) s.*/\1/p' \
			"$d/console.log")
		w=$(json_get "$d/boot.json" wall_s)
		[ -n "$m" ] && echo "$m $w"
	done
}

stats() {
	sort -g -k"$1","$1" | awk -v c="$1" '{ v[NR] = $c }
		END { if (!NR) { print "nan nan nan 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f %d\n", m, v[1], v[NR], NR }'
}

with=$(values collector)
without=$(values none)
for col in 1 2; do
	name=$([ $col = 1 ] && echo "multi-user.target (guest s)" || echo "host wall time (s)")
	read -r wm wlo whi wn <<<"$(echo "$with" | stats $col)"
	read -r om olo ohi on <<<"$(echo "$without" | stats $col)"
	ratio=$(awk -v a="$wm" -v b="$om" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "nan" }')
	printf '%s: with collector median %s [%s-%s] n=%s; without %s [%s-%s] n=%s; ratio %s\n' \
		"$name" "$wm" "$wlo" "$whi" "$wn" "$om" "$olo" "$ohi" "$on" "$ratio"
done | tee "$BP_RESULTS/$run-summary.txt"
