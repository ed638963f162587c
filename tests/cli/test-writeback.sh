#!/bin/bash
# Writeback that fails: a write test with -S leaves its data in the page
# cache when the measured time ends, so a disk that loses the writes later
# would still give a rate and exit 0. atio syncs the files after the
# measured time (outside the result): the result line is printed as ever,
# then an error naming the file, exit 1.
#
# The failing storage: ext4 on a loop device whose image is a sparse file
# on a small tmpfs. The blocks of the test file are punched out of the
# image and the tmpfs is then filled, so the loop device can write nothing
# there again: every writeback of the file fails, while the filesystem's
# own metadata (written by mkfs, still in the image) stays writable.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (a tmpfs mount and a loop device)"
for tool in losetup mkfs.ext4 filefrag fallocate mount umount; do
	command -v "$tool" >/dev/null 2>&1 || skip "needs $tool (util-linux, e2fsprogs, mount)"
done

T=$WORK/tmpfs
M=$WORK/ext4
L=''
mkdir "$T" "$M"

# The ext4 goes first, then its loop device, then the tmpfs under both.
# shellcheck disable=SC2317 # called by the EXIT trap
teardown() {
	if mountpoint -q "$M" 2>/dev/null; then
		umount "$M" || true
	fi
	if [ -n "$L" ]; then
		losetup -d "$L" 2>/dev/null || true
	fi
	if mountpoint -q "$T" 2>/dev/null; then
		umount "$T" || true
	fi
	cleanup
}
trap teardown EXIT

mount -t tmpfs -o size=96M tmpfs "$T" 2>/dev/null || skip "cannot mount a tmpfs here"
truncate -s 256M "$T/img"
L=$(losetup --find --show "$T/img" 2>/dev/null) || skip "no free loop device"
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$L" >/dev/null 2>&1 ||
	skip "mkfs.ext4 failed on $L"
mount "$L" "$M" 2>/dev/null || skip "cannot mount ext4 from $L"
mkdir "$M/d"
run_atio --prepare -s 4K -p 1 -u 32M -f "$M/d"
[ "$RC" -eq 0 ] || die "--prepare on $M/d failed: $(cat "$ERR")"
sync

# extents FILE: "START LENGTH" in 4 KiB blocks of the device, one a line.
extents() {
	filefrag -v -b4096 "$1" |
		awk '$1 ~ /^[0-9]+:$/ { sub(/\.\./, "", $4); sub(/:/, "", $6); print $4, $6 }'
}

extents "$M/d/atio.0" >"$WORK/extents"
[ -s "$WORK/extents" ] || die "filefrag found no extent of $M/d/atio.0"
while read -r start len; do
	fallocate -p -o $((start * 4096)) -l $((len * 4096)) "$T/img"
done <"$WORK/extents"
dd if=/dev/zero of="$T/fill" bs=1M 2>/dev/null || true

# The storage now fails: a new file's data cannot be written back.
if dd if=/dev/zero of="$M/probe" bs=4K count=16 conv=fsync 2>/dev/null; then
	skip "writeback to the full image did not fail on this kernel"
fi

run_atio --write --rand -s 4K -p 1 -u 32M -t 1 -S -f "$M/d"
expect_code "-S over failing writeback: exit 1" 1
expect_count "-S over failing writeback: the result line, in its shape" "$OUT" "$RESULT_RE" 1
expect_match "-S over failing writeback: the error names the file and the sync" "$ERR" \
	"^atio: -S: $M/d/atio.0: the sync after the measured time failed: "

run_atio --write --rand -s 4K -p 1 -u 32M -t 1 -S --json -f "$M/d"
expect_code "-S --json over failing writeback: exit 1" 1
expect_match "-S --json over failing writeback: the document is printed" "$OUT" '"measured": ?true'
expect_match "-S --json over failing writeback: the error names the sync" "$ERR" \
	"^atio: -S: $M/d/atio.0: the sync after the measured time failed: "

run_atio --write --rand -s 4K -p 1 -u 32M -t 1 -f "$M/d"
expect_code "without -S over failing writeback: the final sync fails, exit 1" 1

# Storage that keeps the writes: -S still exits 0.
mkdir "$WORK/ok"
run_atio --write --rand -s 4K -p 1 -u 8M -t 1 -S -f "$WORK/ok"
expect_code "-S over working storage: exit 0" 0
expect_count "-S over working storage: one result line" "$OUT" "$RESULT_RE" 1

finish
