#!/usr/bin/env bash
# From a real machine back to a run: the Debian image has bootprobe-collector
# installed the documented way (dpkg -i), so every boot is traced and its
# stream kept in /var/log/bootprobe/BOOT_ID.jsonl.  Two boots of a writable
# copy of the image, with the stream sent to that file as on a machine with
# no bootprobe port (bootprobe.output=file); the logs are copied out of the
# disk image (debugfs, no mount), imported, and reported.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
if [ ! -x "$BP" ] || [ ! -e build/debian/root.img ]; then
	fail "debian import" "build/debian/root.img missing: make debian-image did not run or failed"
	exit 1
fi
command -v debugfs >/dev/null || { fail "debian import" "debugfs missing (e2fsprogs)"; exit 1; }
tmp=$(mktemp -d "$BP_RESULTS/import.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp --sparse=always "$(readlink -f build/debian/root.img)" "$tmp/root.img"

id=$(bp_run_id debian-installed)
bp_run "$id" --image debian --root-image "$tmp/root.img" --root-writable --boots 2 \
	--timeout 400 --mode 'machine:bootprobe.output=file'
for n in 001 002; do
	check "installed: boot $n completes (ok)" test "$(boot_outcome "$BP_RESULTS/$id/boots/machine-$n")" = ok
	check "installed: boot $n says where it kept its stream" \
		grep -q 'bootprobe: stream kept in /var/log/bootprobe/[0-9a-f-]*\.jsonl' \
		"$BP_RESULTS/$id/boots/machine-$n/console.log"
done

debugfs -R "rdump /var/log/bootprobe $tmp" "$tmp/root.img" >/dev/null 2>&1
logs=("$tmp"/bootprobe/*.jsonl)
check "two logs in /var/log/bootprobe of the disk (${#logs[@]})" test "${#logs[@]}" -eq 2

release=$(jq -r .kernel_release build/debian/image.json)
"$BP" import --results "$tmp/res" --run-id imported "${logs[@]}" >"$tmp/import.out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/import.out"
check "import exits 0 and makes two boots of mode $release" \
	bash -c '[ "$1" -eq 0 ] && [ -d "$2/boots/$3-001" ] && [ -d "$2/boots/$3-002" ]' \
	_ "$rc" "$tmp/res/imported" "$release"
b=$tmp/res/imported/boots/$release-001
check "an imported boot.json names the kernel, its command line and the machine" \
	bash -c 'jq -e --arg r "$2" ".kernel_release == \$r and (.kernel_cmdline | test(\"bootprobe.output=file\")) and (.machine | length > 0)" "$1" >/dev/null' \
	_ "$b/boot.json" "$release"
check "its console.log is the machine's kernel log, with the boot's marks" \
	grep -q 'bootprobe: system .*; multi-user.target reached at' "$b/console.log"
"$BP" report --no-traces --out "$tmp/rep" "$tmp/res/imported" >"$tmp/report.out" 2>&1
check "report reads the imported run (exit 0)" test $? -eq 0
sed 's/^/#   /' "$tmp/report.out"
check "both boots are ok, with a boot time" \
	test "$(jq -r --arg m "$release" '.headline[] | select(.mode == $m) | "\(.ok) \(.boot_s.median != null)"' "$tmp/rep/summary.json")" = "2 true"
drivers=$(jq -r --arg m "$release" '.modes[$m].metrics.drivers_probed.median' "$tmp/rep/summary.json")
check "at least 30 real drivers probed per boot ($drivers)" \
	awk -v d="$drivers" 'BEGIN { exit !(d >= 30) }'
check "the report puts systemd-analyze beside bootprobe" grep -q '^## Beside systemd-analyze' "$tmp/rep/report.md"
"$BP" explain "$b" >/dev/null 2>&1
check "explain reads an imported boot (exit 0)" test $? -eq 0
