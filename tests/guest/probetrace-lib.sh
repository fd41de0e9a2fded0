# Helpers for the probetrace guest tests (sourced, not run: not executable).
# shellcheck shell=bash
#
#   PROBETRACE  the collector (default build/bin/probetrace), also the
#               stream checker (--input) and the source of --boot-args
#   PT_INITRD   initramfs holding /bin/probetrace
#               (default build/guest/initramfs.cpio; gzip or not)

. tests/lib.sh

PROBETRACE=${PROBETRACE:-build/bin/probetrace}
PT_INITRD=${PT_INITRD:-build/guest/initramfs.cpio}

# The file names of an initramfs, compressed with gzip or not.
pt_initrd_files() {
	if gzip -t "$1" 2>/dev/null; then gzip -dc "$1"; else cat "$1"; fi |
		cpio -t --quiet 2>/dev/null
}

# pt_require WHAT: skip WHAT (and exit) when something is missing.
pt_require() {
	local why=
	if ! command -v jq >/dev/null; then
		why="jq not installed"
	elif [ ! -x "$PROBETRACE" ]; then
		why="$PROBETRACE not built (make build/bin/probetrace)"
	elif [ ! -x "$BP" ] || [ ! -e build/guest/bzImage ]; then
		why="guest or runner not built (make guests)"
	elif [ ! -e "$PT_INITRD" ]; then
		why="$PT_INITRD missing"
	elif ! pt_initrd_files "$PT_INITRD" | grep -qx 'bin/probetrace'; then
		why="$PT_INITRD has no bin/probetrace"
	fi
	if [ -n "$why" ]; then
		skip "$1" "$why"
		exit 0
	fi
}

# pt_boot ID [runner options...]: boot with the collector and the kernel
# arguments that record the probes before it (probetrace --boot-args).  The
# runner adds them itself from the boot-args file beside the initramfs
# (make guest writes it); only an initramfs without one needs them here.
pt_boot() {
	local id=$1
	shift
	if [ -e "$(dirname "$PT_INITRD")/boot-args" ]; then
		bp_run "$id" --initrd "$PT_INITRD" "$@"
	else
		bp_run "$id" --initrd "$PT_INITRD" --append "$("$PROBETRACE" --boot-args --btf build/guest/vmlinux)" "$@"
	fi
}

# pt_q FILE JQ-FILTER: the filter over the whole stream as one array.
pt_q() { jq -s -r "$2" "$1"; }

# pt_check_stream WHAT FILE: every line valid, header first, trailer last.
pt_check_stream() {
	local err
	if err=$("$PROBETRACE" --input "$2" --json 2>&1 >/dev/null); then
		pass "$1"
	else
		fail "$1" "$(echo "$err" | tail -3 | tr '\n' ' ')"
	fi
}

# pt_check_no_drops WHAT FILE: the trailer counts no drop anywhere.
pt_check_no_drops() {
	local t
	t=$(pt_q "$2" '.[-1] | select(.type == "trailer") |
		"\(.bpf_drops) \(.events_dropped) \(.events_received - .events_written)"')
	if [ "$t" = "0 0 0" ]; then
		pass "$1"
	else
		fail "$1" "trailer drops (bpf, user, received-written): ${t:-no trailer}"
	fi
}

# check_jq WHAT FILE FILTER: pass when the filter yields true.
check_jq() {
	local r
	r=$(pt_q "$2" "$3" 2>&1)
	if [ "$r" = true ]; then pass "$1"; else fail "$1" "jq: ${r:-empty}"; fi
}
