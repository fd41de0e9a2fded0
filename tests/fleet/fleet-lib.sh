# Shared by the fleet tests (tests/fleet/*.sh): they boot QEMU, so each runs
# under the shared lock; a package they need is installed (tools/deps.sh) or
# the test skips, saying which.
# shellcheck shell=bash

# Run the calling test again under the QEMU lock (nothing else boots meanwhile).
fleet_lock() {
	if [ -z "${FLEET_LOCKED:-}" ]; then
		FLEET_LOCKED=1 exec flock /tmp/bootprobe-qemu.lock "$0" "$@"
	fi
}

# fleet_require WHAT COMMAND...: every command present, after tools/deps.sh
# had its chance to install what is missing; else skip WHAT with the reason.
fleet_require() {
	local what=$1 c missing=()
	shift
	for c in "$@"; do command -v "$c" >/dev/null || missing+=("$c"); done
	if [ ${#missing[@]} -gt 0 ]; then
		tools/deps.sh install fleet >/dev/null 2>&1
		missing=()
		for c in "$@"; do command -v "$c" >/dev/null || missing+=("$c"); done
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		skip "$what" "${missing[*]} not installed and tools/deps.sh could not install it"
		exit 0
	fi
}

FLEET_CONF=tests/fleet/fleet.conf

# Boot names of a --dry-run plan on stdin, one a line.
fleet_names() { sed -n 's/^\([a-z]*-[0-9][0-9]*\): .*/\1/p'; }

# fleet_same_as_plan WHAT RUN: RUN's boots are the unsharded plan's, in its
# order, each with the plan's kernel arguments, and its plan hash is the plan's.
fleet_same_as_plan() {
	local what=$1 run=$2 plan b want got bad=""
	plan=$("$BP" run --scenario "$FLEET_CONF" --dry-run)
	check "$what: the boots are the unsharded plan's, in its order" \
		test "$(fleet_names <<<"$plan")" = "$(jq -r '.boots[].boot' "$run/manifest.json")"
	for b in $(fleet_names <<<"$plan"); do
		want=$(sed -n "s/^$b: [0-9]* edu devices; //p" <<<"$plan")
		got=$(jq -r .kernel_cmdline "$run/boots/$b/boot.json")
		[ "$want" = "$got" ] || bad="$bad $b"
	done
	check "$what: every boot ran with the plan's drawn kernel arguments${bad:+ (not:$bad)}" \
		test -z "$bad"
	want=$(sed -n 's/^plan \([0-9a-f]*\): .*/\1/p' <<<"$plan")
	check "$what: the plan hash is the unsharded plan's ($want)" \
		test -n "$want" -a "$(jq -r .plan_hash "$run/manifest.json" 2>/dev/null)" = "$want"
}
