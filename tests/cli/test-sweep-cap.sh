#!/bin/bash
# atio sweep --curve against a cap the kernel sets: a loop device whose
# reads are limited to CAP I/Os a second for atio's cgroup (cgroup v2
# io.max where the io controller is on, else cgroup v1's blkio throttle).
# The curve's maximum is the cap, within a few percent (the throttle's
# slices), and each capped step reaches its aim within 2%. O_DIRECT random
# reads, so that the page cache answers none. Skipped (77) without root, a
# loop device or a throttle the kernel offers here.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

CAP=2000
LOOP=''
CG=''

# Remove the cgroup and the loop device, then the usual cleanup.
# shellcheck disable=SC2317 # called by the EXIT trap
teardown() {
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		rmdir "$CG" 2>/dev/null || true
	fi
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null || true
	fi
	cleanup
}
trap teardown EXIT

[ "$(id -u)" -eq 0 ] || skip "not root: loop devices and cgroups need root"
command -v losetup >/dev/null 2>&1 || skip "no losetup"
direct_io_works "$WORK" || skip "no O_DIRECT on $WORK"
head -c 64M /dev/urandom >"$WORK/disk.img"
LOOP=$(losetup --find --show --direct-io=on "$WORK/disk.img" 2>/dev/null) || LOOP=''
if [ -z "$LOOP" ] || [ ! -b "$LOOP" ]; then
	skip "losetup cannot set up a loop device here"
fi
DEV=$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ')

# cap_cgroup: a child cgroup capping $DEV's reads at $CAP IOPS, its path
# on stdout; nothing when neither v2's io.max nor v1's blkio throttle works.
cap_cgroup() {
	local v2 cg

	v2=$(findmnt -no TARGET -t cgroup2 | head -n 1)
	if [ -n "$v2" ] && grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
		if ! grep -qw io "$v2/cgroup.subtree_control" 2>/dev/null; then
			echo +io >"$v2/cgroup.subtree_control" 2>/dev/null || true
		fi
		cg=$v2/atio-cap.$$
		if mkdir "$cg" 2>/dev/null; then
			if echo "$DEV riops=$CAP" >"$cg/io.max" 2>/dev/null; then
				echo "$cg"
				return 0
			fi
			rmdir "$cg"
		fi
	fi
	cg=/sys/fs/cgroup/blkio/atio-cap.$$
	if [ -f /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ] && mkdir "$cg" 2>/dev/null; then
		if echo "$DEV $CAP" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null; then
			echo "$cg"
			return 0
		fi
		rmdir "$cg"
	fi
	return 0
}
CG=$(cap_cgroup)
[ -n "$CG" ] || skip "no cgroup v2 io controller nor cgroup v1 blkio throttle to cap $LOOP"

# capped ARG...: atio ARG... inside the cgroup (stdout $OUT, stderr $ERR, $RC).
capped() {
	LAST="atio $* (in $CG)"
	# shellcheck disable=SC2016 # the inner shell expands them
	if "${LIMIT[@]}" bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ \
		"$CG" "$ATIO" "$@" >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}

capped sweep --curve 50,80,100 --read --rand -s 4K --uncached --iodepth 8 -t 3 -f "$LOOP" --json
expect_code "--curve under a cap of $CAP IOPS: exit 0" 0
expect_json "the maximum is the cap, within 5%" \
	"abs(d['sweep']['curve']['maximum'] - $CAP) <= 0.05 * $CAP" True
expect_json "each step within 2% of its aim" \
	'[abs(p["achieved"] - p["aim"]) <= 0.02 * p["aim"] for p in d["points"][1:]]' "[True, True, True]"
printf '# the curve (aim, achieved): %s\n' "$(json '[(p["aim"], round(p["achieved"], 1)) for p in d["points"]]')"

finish
