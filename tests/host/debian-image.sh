#!/usr/bin/env bash
# The Debian image's bad inputs, refused before any boot with one line that
# names the file: a missing root image, one that is a FIFO (which would
# hang a reader), one too small to be a file system, a missing or damaged
# image.json next to the kernel.  No results folder is left behind.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
require_bp "debian image inputs"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo kernel >"$t/vmlinuz"
echo initrd >"$t/initrd.img"
truncate -s 100M "$t/root.img"
truncate -s 1M "$t/small.img"
mkfifo "$t/fifo"

# refused WHAT WANT_RC WANT_TEXT [run options...]
refused() {
	local what=$1 want_rc=$2 want=$3 err rc
	shift 3
	err=$(timeout 20 "$BP" run --image debian --mode sync --accel tcg \
		--results "$t/results" "$@" 2>&1 >/dev/null)
	rc=$?
	check "$what: exit $want_rc" test "$rc" -eq "$want_rc"
	check "$what: one line naming it: $want" \
		test "$(echo "$err" | wc -l)" -eq 1 -a -z "${err##*"$want"*}"
}

refused "a missing root image" 2 "--root-image $t/none.img: missing" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/none.img"
refused "a FIFO as root image (no hang)" 2 "--root-image $t/fifo: missing, not a file" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/fifo"
refused "a root image too small for a file system" 2 "--root-image $t/small.img" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/small.img"
refused "no image.json next to the kernel" 1 "$t/image.json: No such file or directory" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/root.img"
mkfifo "$t/image.json"
refused "a FIFO as image.json (no hang)" 1 "$t/image.json: not a regular file" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/root.img"
rm "$t/image.json"
echo '{"kernel_release":' >"$t/image.json"
refused "a damaged image.json" 1 "$t/image.json: not a JSON object" \
	--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --root-image "$t/root.img"
check "no refused run left a results folder" test ! -e "$t/results"

# Images are named by release; an unknown one is refused with the list.
err=$("$BP" run --image debian-14 --mode sync --results "$t/results" 2>&1 >/dev/null)
rc=$?
check "an unknown image: exit 2, one line listing the images ($err)" \
	test "$rc" -eq 2 -a "$(echo "$err" | wc -l)" -eq 1 -a -z "${err##*debian-13-bpo*}"
plan=$("$BP" run --image debian-13 --mode sync --dry-run --results "$t/results" 2>&1)
check "image debian-13 boots its own files (build/debian-13/vmlinuz, root.img)" \
	test -z "${plan##*image debian-13 (build/debian-13/vmlinuz, build/debian-13/root.img)*}"
