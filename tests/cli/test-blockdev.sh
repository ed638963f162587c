#!/bin/bash
# A block device as the target, on a real loop device: reads work and
# change nothing; writes need --allow-device-write and are refused even
# then while the device is mounted, has holders, backs a loop device
# (losetup -o, holding a mounted ext4 that survives), has a partition (its
# table erased, mounted), or carries a signature (ext4, swap, a partition
# table; an ext4 at 1 MiB or at sector 63 with nothing at offset 0; the
# backup superblocks wipefs -a leaves of an ext4, named at once with a dd
# command that clears them), saying which; on a blank device they run
# (--fsync --verify saying that a device keeps no journal), and on a
# read-only one they are refused before they start. One device is one
# lock, by whichever of its nodes it is named (a second node made by
# mknod). A read of a loop device on a sparse file warns that its holes
# read as zeros.
# -f /dev/loopN never makes /dev/loopN.0. And on a real XFS (on a
# second loop device), fallocated space in one of atio's files, cached, is
# filled rather than read as data. Skipped (77) where no loop device can be
# set up.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

LOOP=''
MNT=$WORK/mnt
DM=''
XLOOP=''
ROLOOP=''
XMNT=$WORK/xfs

# Detach what this test set up, then the usual cleanup.
# shellcheck disable=SC2317 # called by the EXIT trap
teardown() {
	if mountpoint -q "$MNT" 2>/dev/null; then
		umount "$MNT" || true
	fi
	if mountpoint -q "$XMNT" 2>/dev/null; then
		umount "$XMNT" || true
	fi
	if [ -n "$ROLOOP" ]; then
		losetup -d "$ROLOOP" 2>/dev/null || true
	fi
	if [ -n "$XLOOP" ]; then
		losetup -d "$XLOOP" 2>/dev/null || true
	fi
	if [ -n "$DM" ]; then
		dmsetup remove "$DM" 2>/dev/null || true
	fi
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null || true
		# what an atio that took the device for a file-name prefix made
		if [ -f "$LOOP.0" ]; then
			rm -f "$LOOP.0"
		fi
	fi
	cleanup
}
trap teardown EXIT

[ "$(id -u)" -eq 0 ] || skip "not root: loop devices need root"
command -v losetup >/dev/null 2>&1 || skip "no losetup"
IMG=$WORK/disk.img
head -c 64M /dev/urandom >"$IMG"
LOOP=$(losetup --find --show "$IMG" 2>/dev/null) || LOOP=''
if [ -z "$LOOP" ] || [ ! -b "$LOOP" ]; then
	skip "losetup cannot set up a loop device here"
fi

# devsum: SHA-256 of the whole device.
devsum() {
	sha256sum <"$LOOP" | cut -d ' ' -f 1
}

# refused WHAT CODE ERE: exit CODE, nothing on stdout, stderr matches ERE.
refused() {
	local what=$1 code=$2 ere=$3 why=()

	[ "$RC" = "$code" ] || why+=("exit $RC, expected $code")
	[ ! -s "$OUT" ] || why+=("stdout is not empty")
	grep -Eq -- "$ere" "$ERR" || why+=("no stderr line matches: $ere")
	verdict "$what" "$OUT" "$ERR"
}

# untouched WHAT: the device holds what it held at the last devsum.
untouched() {
	if [ "$(devsum)" = "$SUM" ]; then
		ok "$1"
	else
		not_ok "$1" "the device's contents changed"
	fi
}

# Reads: the device itself, all of it by default, unchanged.
SUM=$(devsum)
run_atio --read --seq -s 1M -p 2 -t 0.3 -v -f "$LOOP"
expect_code "a read test on $LOOP: exit 0" 0
check_result "a read test on $LOOP: one result line" MB/s
expect_match "-v: the header says the target is a block device" "$OUT" '^Filesystem: none \(block device\)$'
expect_match "-v: one file of the device's size, 64 MiB" "$OUT" '^Testcase: create/open 1 file\(s\) of total size 64.00 MB'
run_atio --read --rand --uncached -s 4K -p 2 -t 0.3 -f "$LOOP"
expect_code "an --uncached random read test on $LOOP: exit 0" 0
check_result "an --uncached random read test: one result line" IOPS
untouched "after the read tests: the device is unchanged"
check "-f $LOOP made no $LOOP.0" [ ! -e "$LOOP.0" ]

run_atio -a -p 4 -f "$LOOP"
expect_match "-a on a device: one file, the whole device" "$OUT" '^Cmdline: -a --read --seq -s 16M --mbs -p 4 -n 1 -t 60 --cached -u 64M$'

# What does not fit a device.
run_atio --read -s 1M -t 0.2 -u 1G -f "$LOOP"
refused "-u 1G on a 64 MiB device: exit 2" 2 "^atio: -u: 1073741824 bytes \\(1024.00 MiB\\) is more than the block device $LOOP holds \\(64.00 MiB"
run_atio --read -s 1M -t 0.2 -n 2 -f "$LOOP"
refused "-n 2 on a device: exit 2" 2 "^atio: -n 2: -f $LOOP is a block device, which atio uses as one file"
run_atio --read -s 1M -t 0.2 --remove -f "$LOOP"
refused "--remove on a device: exit 2" 2 "^atio: --remove: -f $LOOP is a block device, which atio never removes"
check "the device node is still there" [ -b "$LOOP" ]

# Writes: only when asked for.
run_atio --write -s 1M -t 0.2 -f "$LOOP"
refused "a write test on $LOOP without --allow-device-write: exit 2" 2 \
	"^atio: -f $LOOP: a write test on a block device destroys its contents; atio writes to a device only with --allow-device-write$"
untouched "refused write test: the device is unchanged"

# A filesystem on it; then mounted.
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1; then
	SUM=$(devsum)
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "an ext4 signature: writes refused, exit 2" 2 \
		"^atio: -f $LOOP: writes refused: libblkid finds a signature of ext4 \\(a filesystem\\) on the device"
	untouched "ext4 signature: the device is unchanged"
	run_atio --fsync -s 4K -t 0.2 --allow-device-write -f "$LOOP"
	refused "--fsync on an ext4 device: refused, exit 2" 2 "writes refused: libblkid finds a signature of ext4"
	mkdir "$MNT"
	if mount "$LOOP" "$MNT" 2>/dev/null; then
		run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
		refused "a mounted device: writes refused, exit 2" 2 \
			"^atio: -f $LOOP: writes refused: the device is mounted on $MNT$"
		run_atio --read -s 1M -t 0.2 -f "$LOOP"
		expect_code "a mounted device: reads still work, exit 0" 0
		umount "$MNT"
	else
		skip_check "a mounted device" "cannot mount the ext4 loop device"
	fi
else
	skip_check "an ext4 signature" "mkfs.ext4 fails or is missing"
fi

# An ext4 of 1 KiB blocks erased with wipefs -a, which leaves its backup
# superblocks (8, 24, 40 and 56 MiB in): one refusal names them all with
# a command that zeroes them, and after that command the device is blank.
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F -b 1024 "$LOOP" >/dev/null 2>&1 &&
	wipefs -a -q "$LOOP" 2>/dev/null; then
	SUM=$(devsum)
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "an ext4 erased by wipefs -a: refused once, naming its four backup superblocks" 2 \
		"^atio: -f $LOOP: writes refused: nothing at the start of the device, but 4 backup superblock\\(s\\) of an ext4 filesystem whose first superblock was erased remain \\(wipefs -a erases only that one\\), at byte\\(s\\) 8389632, 25166848, 41944064 and 58721280 "
	untouched "backup superblocks: the device is unchanged"
	zero=$(sed -n 's/.*if the data is not wanted, zero the 1 KiB of each: //p' "$ERR")
	if [[ $zero =~ ^for\ b\ in\ 8389632\ 25166848\ 41944064\ 58721280\;\ do\ dd\ if=/dev/zero\ of=$LOOP\ bs=1024\ count=1\ seek=\$b\ oflag=seek_bytes\ conv=notrunc\;\ done$ ]]; then
		ok "backup superblocks: the refusal says how to zero them, with dd"
		bash -c "$zero" 2>/dev/null
		run_atio --write -s 1M -t 0.2 -u 4M --allow-device-write -f "$LOOP"
		expect_code "backup superblocks zeroed as the refusal says: the write test runs" 0
	else
		not_ok "backup superblocks: the refusal says how to zero them, with dd" "$zero"
	fi
else
	skip_check "an ext4 of 1 KiB blocks erased with wipefs -a" "mkfs.ext4 or wipefs fails or is missing"
fi

# Other signatures: swap, a partition table.
if command -v mkswap >/dev/null 2>&1 && wipefs -a -q "$LOOP" 2>/dev/null && mkswap "$LOOP" >/dev/null 2>&1; then
	SUM=$(devsum)
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "a swap signature: writes refused, exit 2" 2 "writes refused: libblkid finds a signature of swap \\(swap space\\)"
	untouched "swap signature: the device is unchanged"
else
	skip_check "a swap signature" "no mkswap or wipefs"
fi
# An MBR ("dos") partition table with one Linux partition, as fdisk writes it.
if wipefs -a -q "$LOOP" 2>/dev/null && python3 -c '
import struct, sys
entry = struct.pack("<B3sB3sII", 0, b"\x00\x21\x00", 0x83, b"\xfe\xff\xff", 2048, 65536)
with open(sys.argv[1], "r+b") as dev:
    dev.write(bytes(446) + entry + bytes(48) + b"\x55\xaa")
' "$LOOP" 2>/dev/null; then
	SUM=$(devsum)
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "a partition table: writes refused, exit 2" 2 "writes refused: libblkid finds a partition table of type dos on the device"
	untouched "partition table: the device is unchanged"
else
	skip_check "a partition table" "no wipefs or python3"
fi

# Holders: a device-mapper device on top of it.
wipefs -a -q "$LOOP" 2>/dev/null
SECTORS=$(blockdev --getsz "$LOOP")
if command -v dmsetup >/dev/null 2>&1 &&
	dmsetup create "atio-test-$$" --table "0 $SECTORS linear $LOOP 0" 2>/dev/null; then
	DM=atio-test-$$
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "a device with holders: writes refused, exit 2" 2 \
		"^atio: -f $LOOP: writes refused: the device is in use by dm-[0-9]+ \\(/sys/dev/block/[0-9]+:[0-9]+/holders\\)$"
	dmsetup remove "$DM"
	DM=''
else
	skip_check "a device with holders" "dmsetup cannot create a device here"
fi

# Stacked on a blank device: a loop device at offset 1 MiB (losetup -o)
# holding a mounted ext4. Nothing at offset 0 shows it and a loop device
# claims nothing on what backs it: the loop devices are asked. The ext4
# survives: fsck finds it clean, its file intact.
wipefs -a -q "$LOOP" 2>/dev/null
SMNT=$WORK/stacked
STACK=''
if command -v mkfs.ext4 >/dev/null 2>&1 && command -v fsck.ext4 >/dev/null 2>&1 &&
	STACK=$(losetup --find --show -o 1M "$LOOP" 2>/dev/null) &&
	TEST_LOOPS+=("$STACK") && mkfs.ext4 -q -F "$STACK" >/dev/null 2>&1 &&
	mkdir "$SMNT" && mount "$STACK" "$SMNT"; then
	TEST_MOUNTS+=("$SMNT")
	head -c 1M /dev/urandom >"$SMNT/kept"
	KEPT=$(sha256sum <"$SMNT/kept")
	sync
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "a loop device at offset 1 MiB, mounted: writes refused, exit 2, naming both" 2 \
		"^atio: -f $LOOP: writes refused: the device backs loop device $STACK \\(at offset 1048576; /sys/block/${STACK#/dev/}/loop/backing_file names $LOOP\\), which is mounted on $SMNT$"
	run_atio --fsync -s 4K -t 0.2 --allow-device-write -f "$LOOP"
	refused "--fsync under the stacked loop device: refused, exit 2" 2 "writes refused: the device backs loop device $STACK"
	umount "$SMNT"
	if fsck.ext4 -n -f "$STACK" >"$WORK/fsck.out" 2>&1; then
		ok "the stacked ext4 is clean (fsck.ext4 -n -f)"
	else
		not_ok "the stacked ext4 is clean (fsck.ext4 -n -f)" "$(tail -n 5 "$WORK/fsck.out")"
	fi
	if mount "$STACK" "$SMNT" 2>/dev/null; then
		check "the stacked ext4's file is intact" [ "$(sha256sum <"$SMNT/kept")" = "$KEPT" ]
		umount "$SMNT"
	else
		not_ok "the stacked ext4's file is intact" "the ext4 no longer mounts"
	fi
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "the stacked loop device, not mounted: still refused, exit 2" 2 \
		"^atio: -f $LOOP: writes refused: the device backs loop device $STACK \\(at offset 1048576; .*names $LOOP\\)$"
	losetup -d "$STACK"
	STACK=''
	# Nothing stacked any more, but the ext4 is still there at 1 MiB: only
	# probing past offset 0 finds it.
	SUM=$(devsum)
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "an ext4 at byte 1048576, nothing stacked: refused, exit 2, naming the offset" 2 \
		"^atio: -f $LOOP: writes refused: libblkid finds a signature of ext4 \\(a filesystem\\) at byte 1048576 of the device, with no partition table"
	untouched "an ext4 at 1 MiB: the device is unchanged"
	# Old partitions begin at sector 63.
	dd if=/dev/zero of="$LOOP" bs=1M count=2 conv=notrunc status=none
	STACK=$(losetup --find --show -o 32256 "$LOOP")
	mkfs.ext4 -q -F "$STACK" >/dev/null 2>&1
	losetup -d "$STACK"
	STACK=''
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
	refused "an ext4 at sector 63: refused, exit 2" 2 "libblkid finds a signature of ext4 \\(a filesystem\\) at byte 32256 of the device"
	dd if=/dev/zero of="$LOOP" bs=1M count=2 conv=notrunc status=none
else
	skip_check "a loop device stacked at offset 1 MiB" "no mkfs.ext4 or fsck.ext4, or losetup -o or mount fails"
	[ -z "$STACK" ] || losetup -d "$STACK" 2>/dev/null || true
fi

# partition_node DEV: a device node of DEV's first partition, made in $WORK
# where /dev has none (no udev); fails when the kernel has no partition.
partition_node() {
	local sys=/sys/class/block/${1#/dev/}p1 devno

	[ -e "$sys" ] || partx -a "$1" 2>/dev/null || true
	[ -e "$sys" ] || return 1
	devno=$(cat "$sys/dev")
	mknod "$WORK/part.node" b "${devno%:*}" "${devno#*:}" || return 1
	printf '%s\n' "$WORK/part.node"
}

# A partition the kernel knows, mounted, whose table was erased since: on
# a second loop device with partition scanning (losetup -P).
PIMG=$WORK/parts.img
PLOOP=''
truncate -s 32M "$PIMG"
if command -v mkfs.ext4 >/dev/null 2>&1 && python3 -c '
import struct, sys
entry = struct.pack("<B3sB3sII", 0, b"\x00\x21\x00", 0x83, b"\xfe\xff\xff", 2048, 32768)
with open(sys.argv[1], "r+b") as img:
    img.write(bytes(446) + entry + bytes(48) + b"\x55\xaa")
'  "$PIMG" 2>/dev/null && PLOOP=$(losetup --find --show -P "$PIMG" 2>/dev/null) &&
	TEST_LOOPS+=("$PLOOP") && PART=$(partition_node "$PLOOP") &&
	mkfs.ext4 -q -F "$PART" >/dev/null 2>&1 && mkdir "$WORK/part" && mount "$PART" "$WORK/part"; then
	TEST_MOUNTS+=("$WORK/part")
	# the table goes; the kernel keeps the partition while it is mounted
	dd if=/dev/zero of="$PLOOP" bs=512 count=1 conv=notrunc status=none
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$PLOOP"
	refused "a partition, mounted, its table erased: refused, exit 2, naming both" 2 \
		"^atio: -f $PLOOP: writes refused: the device has a partition, ${PLOOP#/dev/}p1, that is mounted on $WORK/part$"
	umount "$WORK/part"
	if [ -e "/sys/class/block/${PLOOP#/dev/}p1" ]; then
		run_atio --write -s 1M -t 0.2 --allow-device-write -f "$PLOOP"
		refused "a partition the kernel still knows: refused, exit 2" 2 \
			"^atio: -f $PLOOP: writes refused: the device has a partition, ${PLOOP#/dev/}p1 \\(/sys/dev/block/"
	else
		skip_check "a partition the kernel still knows" "the kernel dropped ${PLOOP}p1 at umount"
	fi
	losetup -d "$PLOOP"
	PLOOP=''
else
	skip_check "a mounted partition whose table was erased" "no mkfs.ext4 or python3, or no partition on a losetup -P device"
	[ -z "$PLOOP" ] || losetup -d "$PLOOP" 2>/dev/null || true
fi

# A blank device: the write test runs with --allow-device-write.
wipefs -a -q "$LOOP" 2>/dev/null
run_atio --write --rand -s 4K -p 2 -t 0.3 --uncached --allow-device-write -f "$LOOP"
expect_code "a blank device with --allow-device-write: exit 0" 0
check_result "a write test on a blank device: one result line" IOPS
run_atio --write --seq -s 1M -t 0.3 --allow-device-write -u 32M -f "$LOOP"
expect_code "-u 32M on the 64 MiB device: exit 0" 0
# --fsync --verify: a device keeps no journal for a later --check: said.
run_atio --fsync --verify --rand -s 4K -t 0.3 --allow-device-write -u 32M -f "$LOOP"
expect_code "--fsync --verify on the device: exit 0" 0
expect_match "--fsync --verify on the device: a warning says it keeps no journal" "$ERR" \
	"^atio: warning: -f $LOOP: a block device keeps no journal"

# The lock: a write test waits for no reader of the device.
start_atio --read --seq -s 1M -t 30 -f "$LOOP"
FIRST=$PID
OUT=$WORK/stdout2
ERR=$WORK/stderr2
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
run_atio --write -s 1M -t 0.2 --allow-device-write -f "$LOOP"
refused "a write test while a read test runs on the device: exit 1, naming it" 1 \
	"^atio: $LOOP: another atio is working on this dataset \\(pid $FIRST \\(atio\\) holds the device\\)"
run_atio --read -s 1M -t 0.2 -f "$LOOP"
expect_code "a second read test on the device at once: exit 0" 0
# A second node of the device (mknod, as a chroot's or a container's
# /dev has): one device, one lock.
NODE2=$WORK/second-node
mknod "$NODE2" b "$((0x$(stat -c %t "$LOOP")))" "$((0x$(stat -c %T "$LOOP")))"
run_atio --write -s 1M -t 0.2 --allow-device-write -f "$NODE2"
refused "a write test through a second node while a read test runs: exit 1, naming it" 1 \
	"^atio: $NODE2: another atio is working on this dataset \\(pid $FIRST \\(atio\\) holds the device\\)"
PID=$FIRST
kill -TERM "$PID" 2>/dev/null || true
wait_exit 10
# A writer holds the device (it said it is ready, waiting for its start
# on a FIFO): a read test, --read --verify or --check through the second
# node is refused.
FIFO=$WORK/start
mkfifo "$FIFO"
exec 7<>"$FIFO"
OUT=$WORK/stdout3
ERR=$WORK/stderr3
start_atio_ready "$FIFO" --write --seq -s 1M -t 30 -u 32M --allow-device-write -f "$LOOP" --start-at -
WRITER=$PID
grep -q '^atio: ready: ' "$ERR" || die "the writer (pid $WRITER) never said it was ready: $(cat "$ERR")"
OUT=$WORK/stdout2
ERR=$WORK/stderr2
for args in "--read -s 1M -t 0.2" "--read --verify -s 1M -t 0.2 -u 32M" "--check -u 32M"; do
	read -ra a <<<"$args"
	run_atio "${a[@]}" -f "$NODE2"
	refused "$args through a second node while a writer holds the device: exit 1, naming it" 1 \
		"^atio: $NODE2: another atio is working on this dataset \\(pid $WRITER \\(atio\\) holds the device\\)"
done
PID=$WRITER
kill -TERM "$PID" 2>/dev/null || true
wait_exit 10
exec 7>&-
check "-f $LOOP never made $LOOP.0" [ ! -e "$LOOP.0" ]

# A read-only device (losetup -r): a write test is refused before it
# starts (exit 2), not failed at its first write.
truncate -s 16M "$WORK/ro.img"
if ROLOOP=$(losetup -r --find --show "$WORK/ro.img" 2>/dev/null) && [ -b "$ROLOOP" ]; then
	run_atio --write -s 1M -t 0.2 --allow-device-write -f "$ROLOOP"
	refused "a write test on a read-only device: exit 2, said" 2 \
		"^atio: -f $ROLOOP: writes refused: the device is read-only"
	# A read of the blank device on a sparse file measures zeros: said.
	run_atio --read -s 1M -t 0.2 -f "$ROLOOP"
	expect_code "a read test of a device on a sparse file: exit 0" 0
	expect_match "a read test of a device on a sparse file: a warning says its holes read as zeros" "$ERR" \
		"^atio: warning: -f $ROLOOP: a loop device on $WORK/ro\\.img, a sparse file \\(0\\.00 of 16\\.00 MiB allocated\\)"
	losetup -d "$ROLOOP"
	ROLOOP=''
else
	skip_check "a read-only device" "losetup -r cannot set up a loop device here"
fi

# XFS counts cached pages over an unwritten extent as data for SEEK_HOLE;
# FIEMAP says the extent is unwritten, and atio fills it.
truncate -s 512M "$WORK/xfs.img"
if command -v mkfs.xfs >/dev/null 2>&1 && command -v filefrag >/dev/null 2>&1 &&
	XLOOP=$(losetup --find --show "$WORK/xfs.img" 2>/dev/null) &&
	mkfs.xfs -q "$XLOOP" >/dev/null 2>&1 && mkdir "$XMNT" && mount "$XLOOP" "$XMNT"; then
	run_atio -t 0.1 -s 1M -u 8M -f "$XMNT"
	expect_code "XFS: a dataset of one 8 MiB file: exit 0" 0
	fallocate -p -o 2M -l 1M "$XMNT/atio.0"
	fallocate -o 2M -l 1M "$XMNT/atio.0"
	dd if="$XMNT/atio.0" of=/dev/null bs=1M skip=2 count=1 status=none
	if filefrag -v "$XMNT/atio.0" | grep -q unwritten; then
		run_atio -t 0.1 -s 1M -u 8M -f "$XMNT"
		expect_code "XFS: an unwritten extent, cached: exit 0" 0
		expect_match "XFS: an unwritten extent, cached: the fill resumes" "$ERR" '^atio: preparing.* 1 to resume'
		check "XFS: no unwritten extent left" no_unwritten "$XMNT/atio.0"
		check "XFS: the range holds atio's data" incompressible "$XMNT/atio.0"
		run_atio -t 0.1 -s 1M -u 8M -f "$XMNT"
		expect_code "XFS: the next run: exit 0" 0
		expect_no_match "XFS: the next run reuses the file (space kept past its end is no hole)" "$ERR" 'preparing'
	else
		skip_check "XFS: an unwritten extent" "fallocate made no unwritten extent"
	fi
	umount "$XMNT"
	losetup -d "$XLOOP"
	XLOOP=''
else
	skip_check "XFS: an unwritten extent is filled" "no mkfs.xfs or filefrag, or no second loop device"
fi

finish
