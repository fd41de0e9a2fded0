# Helpers for bootprobe's shell tests.  Source it; it prints TAP-like lines.
# shellcheck shell=bash

BP=${BP:-${BUILD:-build}/bin/bootprobe}
# Every boot of the tests lands here, so a failure can be looked at later.
BP_RESULTS=${BP_RESULTS:-build/test-results}
mkdir -p "$BP_RESULTS"

pass() { echo "ok - $*"; }
fail() { echo "not ok - $1${2:+ : $2}"; }
skip() { echo "ok - $1 # SKIP $2"; }
# check "what it proves" COMMAND...: pass if COMMAND succeeds.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what" "failed: $*"; fi
}

# A unique run id for this test: NAME-<pid>-<counter>.
bp_id_counter=0
bp_run_id() {
	bp_id_counter=$((bp_id_counter + 1))
	echo "$1-$$-$bp_id_counter"
}

# bp_run ID [bootprobe run options...]: one run under TCG into BP_RESULTS;
# returns the runner's exit status, the run folder is $BP_RESULTS/ID.
bp_run() {
	local id=$1
	shift
	"$BP" run --accel tcg --quiet --results "$BP_RESULTS" --run-id "$id" "$@"
}

# json_get FILE KEY: a top-level string/number of a JSON file (python-free).
json_get() {
	sed -n "s/^  \"$2\":\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}

# The outcome recorded in a boot folder's boot.json.
boot_outcome() { json_get "$1/boot.json" outcome; }

# wait_for DEADLINE_S COMMAND...: poll COMMAND until it succeeds; 1 on timeout.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.2
	done
}

# No QEMU process of ours left that mentions PATTERN.
no_qemu_left() { ! pgrep -f "qemu-system-x86_64.*$1" >/dev/null; }

# require_bp WHAT: a test that needs only the host tool skips (one line) without it.
require_bp() {
	if [ ! -x "$BP" ]; then
		skip "$1" "$BP not built"
		exit 0
	fi
}

require_guest() {
	if [ ! -x "$BP" ] || [ ! -e build/guest/bzImage ] || [ ! -e build/guest/initramfs.cpio ]; then
		skip "$1" "guest not built (make guest)"
		exit 0
	fi
}
