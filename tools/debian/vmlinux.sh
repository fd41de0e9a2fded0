#!/usr/bin/env bash
# The ELF kernel inside a distribution's compressed vmlinuz (a bzImage):
# the first compressed stream in it that unpacks to an ELF, so that its
# .BTF section gives the boot-time trace its offsets (probetrace
# --boot-args --btf).  Debian's 6.1 packs it with xz, 6.12 and 7.x with
# zstd; gzip and lz4 are tried too.
#
# usage: tools/debian/vmlinux.sh VMLINUZ OUT
set -euo pipefail

in=${1:?usage: vmlinux.sh VMLINUZ OUT}
out=${2:?usage: vmlinux.sh VMLINUZ OUT}

die() { echo "vmlinux: $*" >&2; exit 1; }

[ -f "$in" ] && [ ! -L "$in" ] || die "$in: not a regular file"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT

# magic (grep -P bytes)   decompressor reading stdin
formats=(
	'\x28\xb5\x2f\xfd'		'zstd -dcq'
	'\xfd\x37\x7a\x58\x5a\x00'	'xz -dcq'
	'\x1f\x8b\x08'			'gzip -dcq'
	'\x02\x21\x4c\x18'		'lz4 -dcq'
)
is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }

for ((i = 0; i < ${#formats[@]}; i += 2)); do
	magic=${formats[i]} dec=${formats[i + 1]}
	command -v "${dec%% *}" >/dev/null || continue
	for off in $(LC_ALL=C grep -aboP "$magic" "$in" | cut -d: -f1 | head -n 16); do
		# A stream followed by the rest of the bzImage ends in an error
		# after the whole kernel was written: the ELF check decides.
		tail -c "+$((off + 1))" "$in" | $dec >"$tmp" 2>/dev/null || true
		if [ -s "$tmp" ] && is_elf "$tmp"; then
			mv "$tmp" "$out"
			trap - EXIT
			exit 0
		fi
	done
done
die "$in: no compressed ELF kernel found (zstd, xz, gzip, lz4)"
