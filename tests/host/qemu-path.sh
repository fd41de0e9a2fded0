#!/usr/bin/env bash
# --qemu PATH reaches exec as it is: no shell between bootprobe and QEMU,
# so a path with a quote, a space or $(...) in it is run, never parsed.
# The fake QEMU answers --version and fails to boot; the manifest must hold
# its version, and the $(...) must not have run.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
require_bp "QEMU paths are run without a shell"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dir="$tmp/it's \$(touch $tmp/ran) qemu"
mkdir -p "$dir"
cat >"$dir/qemu" <<'QEMU'
#!/bin/sh
[ "$1" = --version ] && { echo "QEMU emulator version 0.0.1 (fake)"; exit 0; }
exit 1
QEMU
chmod +x "$dir/qemu"
echo kernel >"$tmp/bzImage"
echo initrd >"$tmp/initramfs.cpio"

"$BP" run --accel tcg --quiet --qemu "$dir/qemu" --kernel "$tmp/bzImage" \
	--initrd "$tmp/initramfs.cpio" --results "$tmp/results" --run-id q --mode sync \
	--boots 1 --timeout 30 >"$tmp/out" 2>&1
rc=$?
check "the run starts and its one boot fails (exit 1), not refused (exit 2): $rc" test "$rc" -eq 1
check "the manifest holds the fake QEMU's version" \
	grep -q '"qemu_version":"QEMU emulator version 0.0.1 (fake)"' "$tmp/results/q/manifest.json"
check "the \$(...) in the path did not run" test ! -e "$tmp/ran"
check "the boot ran that QEMU and failed: qemu-error" \
	grep -q '"outcome":"qemu-error"' "$tmp/results/q/boots/sync-001/boot.json"
