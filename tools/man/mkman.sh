#!/usr/bin/env bash
# A man page made from a program's own --help, so that the two never
# disagree: bootprobe(1) from `bootprobe --help` and each `bootprobe CMD
# --help` (a section per command), probetrace(8) from its argp --help.
# Only the NAME line and the SEE ALSO list are written here.
#
# bootprobe-gather(1) from its -h.
#
# usage: tools/man/mkman.sh bootprobe|probetrace|bootprobe-gather BINARY >PAGE
set -euo pipefail

prog=${1:?usage: mkman.sh bootprobe|probetrace|bootprobe-gather BINARY}
bin=${2:?usage: mkman.sh bootprobe|probetrace|bootprobe-gather BINARY}
die() { echo "mkman: $*" >&2; exit 1; }
[ -x "$bin" ] || die "$bin: not an executable"

# help2roff: help text on stdin, roff on stdout.  A line indented and
# starting with '-' is an option (.TP), lines indented past 8 after it
# continue its description; other indented lines, and a block opened by "WORD: text",
# are kept as they are (.nf); a short unindented line ending in ':' is a
# heading; anything else is filled text.
help2roff() {
	awk '
	function esc(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		sub(/^[.\047]/, "\\\\\\&&", s)
		return s
	}
	function indent(s) { match(s, /^ */); return RLENGTH }
	function close_block() {
		if (mode == "pre") print ".fi"
		if (mode == "opt") print ".RE"
		mode = ""
	}
	# "-s, --scenario FILE   text", "--root-image FILE text",
	# "-d, --duration=SEC   text": the option and its argument, then text.
	function option(s,    n, i, w, head, rest, arg) {
		sub(/^ +/, "", s)
		n = split(s, w, / +/)
		head = ""; arg = 0
		for (i = 1; i <= n; i++) {
			if (w[i] ~ /^-/ && !arg) { head = head (head ? " " : "") w[i]; if (w[i] !~ /,$/) arg = 1; continue }
			if (arg == 1 && w[i] ~ /^[A-Z][A-Z0-9_|\/.]*$|^[A-Z]\|/) { head = head " " w[i]; arg = 2; continue }
			break
		}
		rest = ""
		for (; i <= n; i++) rest = rest (rest ? " " : "") w[i]
		print ".TP"
		print ".B " esc(head)
		if (rest != "") print esc(rest)
	}
	{
		line = $0
		ind = indent(line)
		if (line ~ /^ *$/) { close_block(); blank = 1; next }
		if (mode == "opt" && ind > 8) {
			sub(/^ +/, "", line); print esc(line); next
		}
		if (mode == "pre" && ind > 0) {
			print esc(substr(line, 1 + strip)); next
		}
		if (ind > 0 && ind <= 8 && line ~ /^ *-/) {
			if (mode != "opt") { close_block(); print ".RS 2"; mode = "opt" }
			option(line); blank = 0; next
		}
		if (ind > 0 || line ~ /^[A-Z]+: /) {
			# Kept as it is, less the indent of its first line.
			close_block(); print ".PP"; print ".nf"; mode = "pre"
			strip = ind > 2 ? 2 : ind
			print esc(substr(line, 1 + strip)); blank = 0; next
		}
		if (mode != "") close_block()
		if (line ~ /:$/ && split(line, w, / /) <= 4) {
			print ".PP"; print ".B " esc(line); blank = 0; next
		}
		if (blank || !started) print ".PP"
		print esc(line); blank = 0; started = 1
	}
	END { close_block() }'
}

# The paragraph of a help text that starts with PREFIX, up to a blank line.
paragraph() { awk -v p="$1" 'index($0, p) == 1 { on = 1 } on && /^$/ { exit } on'; }

# The lines of an indented list after the heading HEADING, up to a blank line.
after() { awk -v h="$1" 'on && /^$/ { exit } on; $0 == h { on = 1 }'; }

upper=$(tr '[:lower:]' '[:upper:]' <<<"$prog")
case "$prog" in
bootprobe)
	help=$("$bin" --help)
	mapfile -t cmds < <(after 'Commands:' <<<"$help" | awk '{ print $1 }')
	[ ${#cmds[@]} -gt 0 ] || die "$bin --help: no Commands: list"
	echo ".TH $upper 1 \"\" \"bootprobe\" \"User Commands\""
	echo ".SH NAME"
	echo 'bootprobe \- boot a guest many times per mode and measure its driver probes'
	echo ".SH SYNOPSIS"
	for c in "${cmds[@]}"; do
		sub=$("$bin" "$c" --help) || die "$bin $c --help failed"
		usage=$(sed -n '1s/^Usage: //p' <<<"$sub")
		[ -n "$usage" ] || die "$bin $c --help: no Usage: line"
		echo ".B $(sed 's/-/\\-/g' <<<"$usage")"
		echo ".br"
	done
	echo ".SH DESCRIPTION"
	# The top-level help but its exit status, environment and examples,
	# which get sections.
	awk '/^(Exit status|Environment|Examples:)/ { skip = 1 } /^$/ { skip = 0 } !skip' <<<"$help" |
		sed '1{/^Usage:/d}' | help2roff
	echo ".SH COMMANDS"
	for c in "${cmds[@]}"; do
		sub=$("$bin" "$c" --help)
		echo ".SS \"bootprobe $c\""
		sed -n '1s/^Usage: //p' <<<"$sub" | sed 's/-/\\-/g; s/^/.B /'
		sed '1d' <<<"$sub" | help2roff
	done
	echo ".SH EXIT STATUS"
	paragraph 'Exit status' <<<"$help" | help2roff
	if grep -q '^Environment' <<<"$help"; then
		echo ".SH ENVIRONMENT"
		paragraph 'Environment' <<<"$help" | help2roff
	fi
	echo ".SH EXAMPLES"
	after 'Examples:' <<<"$help" | help2roff
	echo ".SH SEE ALSO"
	echo ".BR probetrace (8),"
	echo ".BR systemd-analyze (1);"
	echo "README.md, docs/events.md, docs/results.md and docs/statistics.md in the source."
	;;
probetrace)
	# argp wraps at COLUMNS when it is set: the same width everywhere.
	help=$(COLUMNS= "$bin" --help)
	echo ".TH $upper 8 \"\" \"bootprobe\" \"System Administration\""
	echo ".SH NAME"
	echo 'probetrace \- trace driver probes, kthread_create, signals, task exits and module loads from boot'
	echo ".SH SYNOPSIS"
	sed -n '1s/^Usage: //p' <<<"$help" | sed 's/-/\\-/g; s/^/.B /'
	echo ".SH DESCRIPTION"
	sed '1d' <<<"$help" | help2roff
	echo ".SH SEE ALSO"
	echo ".BR bootprobe (1),"
	echo ".BR bpftool (8);"
	echo "docs/events.md in the source."
	;;
bootprobe-gather)
	# A POSIX sh script: -h, not --help.
	help=$("$bin" -h)
	echo ".TH $upper 1 \"\" \"bootprobe\" \"User Commands\""
	echo ".SH NAME"
	echo 'bootprobe-gather \- gather what the kernel and systemd logged about this boot, for bootprobe import'
	echo ".SH SYNOPSIS"
	sed -n '1s/^Usage: //p' <<<"$help" | sed 's/-/\\-/g; s/^/.B /'
	echo ".SH DESCRIPTION"
	sed '1d' <<<"$help" | help2roff
	echo ".SH SEE ALSO"
	echo ".BR bootprobe (1),"
	echo ".BR systemd-analyze (1);"
	echo "docs/gather.md in the source."
	;;
*) die "$prog: bootprobe, probetrace or bootprobe-gather" ;;
esac
