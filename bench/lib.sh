# Shared by the collector benchmarks (sourced).

# bench_stats [COLUMN [FORMAT]]: "median min max count" of a column of
# stdin (default 1), each number printed with FORMAT (default %.3f);
# "nan nan nan 0" when there is none.
bench_stats() {
	sort -g -k"${1:-1}","${1:-1}" | awk -v c="${1:-1}" -v f="${2:-%.3f}" '{ v[NR] = $c }
		END { if (!NR) { print "nan nan nan 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf f " " f " " f " %d\n", m, v[1], v[NR], NR }'
}

# bench_format_ns N: the collector's formatting cost on this host, ns a
# record, the median of 3 runs of probetrace --bench-format N (no BPF).
bench_format_ns() {
	for _ in 1 2 3; do
		"${PROBETRACE:-build/bin/probetrace}" --bench-format "$1" --output /dev/null 2>&1
	done | bench_format_parse | bench_stats 1 %.1f | cut -d' ' -f1
}

# bench_format_parse: the ns a record of the "formatted N records" lines
# of stdin (a guest console's or the host's).
bench_format_parse() {
	sed -n 's/.*probetrace: \(formatted\|framed\) [0-9]* records: \([0-9.]*\) ns each.*/\2/p'
}
