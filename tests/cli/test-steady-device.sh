#!/bin/bash
# --steady --precondition on a real loop device. The precondition's run
# lets go of the device before the rounds' run takes it: a write workload
# of three io_uring threads after the precondition is not refused as
# "another atio" (three runs in a row, each exit 0). And the precondition
# reaches the device whatever the cache mode: in --cached mode the
# device's own counters show at least twice the dataset written, in
# requests of about 128 KiB. With --steady the device's counters are
# read at the measured start, which is known when the rounds' end is
# decided: the device's window is the measured time (within 10 ms) and its
# reads are atio's (within 2%), five runs in a row. Skipped (77) where no
# loop device can be set up.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

LOOP=''

# Detach what this test set up, then the usual cleanup.
# shellcheck disable=SC2317 # called by the EXIT trap
teardown() {
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null || true
	fi
	cleanup
}
trap teardown EXIT

[ "$(id -u)" -eq 0 ] || skip "not root: loop devices need root"
command -v losetup >/dev/null 2>&1 || skip "no losetup"
IMG=$WORK/disk.img
truncate -s 64M "$IMG"
LOOP=$(losetup --find --show "$IMG" 2>/dev/null) || LOOP=''
if [ -z "$LOOP" ] || [ ! -b "$LOOP" ]; then
	skip "losetup cannot set up a loop device here"
fi
DEV=$(basename "$LOOP")

# --- the precondition's device lock and files are let go before the rounds ---
for i in 1 2 3; do
	run_atio --write --rand -s 4K -p 3 --uncached -u 10M -t 0.1 --steady iops --round 0.1 \
		--rounds 5 --precondition -f "$LOOP" --allow-device-write
	expect_code "precondition, then 3 writer threads, run $i: exit 0" 0
	expect_no_match "precondition, then 3 writer threads, run $i: not refused" "$ERR" \
		'another atio'
done

# --- --cached: the precondition's writes reach the device, O_DIRECT in 128K ---
# stat's 5th and 7th fields: write requests and sectors written.
run_atio -a --read --rand -s 4K -p 1 --cached -u 16M -t 0.1 --steady iops --round 0.1 \
	--rounds 5 --precondition -f "$LOOP" --allow-device-write
expect_match "--cached --precondition: the header says O_DIRECT" "$OUT" \
	'^Precondition: sequential O_DIRECT writes of twice the dataset in 128K blocks'
read -r _ _ _ _ W0 _ S0 _ <"/sys/block/$DEV/stat"
run_atio --read --rand -s 4K -p 1 --cached -u 16M -t 0.1 --steady iops --round 0.1 --rounds 5 \
	--precondition -f "$LOOP" --allow-device-write
read -r _ _ _ _ W1 _ S1 _ <"/sys/block/$DEV/stat"
expect_code "--cached --precondition: exit 0" 0
BYTES=$(((S1 - S0) * 512))
check "--cached --precondition: the device wrote twice the dataset ($BYTES bytes)" \
	test "$BYTES" -ge $((2 * 16 * 1048576))
if [ "$W1" -gt "$W0" ]; then
	REQ=$((BYTES / (W1 - W0)))
	check "--cached --precondition: about 128 KiB a request ($REQ bytes)" \
		test "$REQ" -ge $((120 * 1024)) -a "$REQ" -le $((132 * 1024))
else
	not_ok "--cached --precondition: no write request on $DEV"
fi

# --- the device's window is the measured time, from the rounds' end ---
if command -v python3 >/dev/null 2>&1; then
	for i in 1 2 3 4 5; do
		run_atio --read --rand -s 4K -p 1 --uncached -t 0.3 --steady iops --round 0.1 \
			--rounds 5 --json -f "$LOOP"
		expect_code "--steady, the device's window, run $i: exit 0" 0
		# The window within 10 ms of the measured time, its reads within 2% of atio's.
		GOT=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r, f = d["result"], d["device"]["devices"][0]["figures"]
print("%.6f %.6f %d %d" % (r["time_sec"], f["elapsed_ns"] / 1e9, r["ops"], f["raw"]["read_ios"]))
ok = abs(f["elapsed_ns"] / 1e9 - r["time_sec"]) < 0.010 and \
	abs(f["raw"]["read_ios"] - r["ops"]) <= 0.02 * r["ops"]
sys.exit(0 if ok else 1)' "$OUT") && RC=0 || RC=$?
		if [ "$RC" -eq 0 ]; then
			ok "--steady, run $i: the device's window is the measured time ($GOT)"
		else
			not_ok "--steady, run $i: the device's window is the measured time" \
				"measured sec, device sec, atio's reads, the device's: $GOT"
		fi
	done
else
	skip_check "--steady: the device's window" "no python3 to read the JSON"
fi

finish
