#!/bin/bash
# The device under the target, from its own counters over the measured
# window, on a real loop device: O_DIRECT 4K random reads show on the
# device: line at atio's own IOPS (within 5%), 4 KiB a request, none
# merged, the loop's backing file named, and none of a warm-up's I/Os; a
# known-size sequential write shows its bytes, MB/s and request size; the
# JSON device object says the same as its result. The header names the
# queue. And a read IOPS cap of a child cgroup (v2 io.max, or v1's blkio
# throttle where v2 has no io controller) on the loop device is printed and
# said to have been hit. Skipped (77) where no loop device can be set up;
# the cap's check is skipped, saying why, where no cgroup can be made.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

LOOP=''
CG=''

# Detach what this test set up, then the usual cleanup.
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

[ "$(id -u)" -eq 0 ] || skip "not root: loop devices need root"
command -v losetup >/dev/null 2>&1 || skip "no losetup"
command -v python3 >/dev/null 2>&1 || skip "no python3 to read the JSON"
IMG=$WORK/disk.img
head -c 64M /dev/urandom >"$IMG"
LOOP=$(losetup --find --show "$IMG" 2>/dev/null) || LOOP=''
if [ -z "$LOOP" ] || [ ! -b "$LOOP" ]; then
	skip "losetup cannot set up a loop device here"
fi
DEV=$(basename "$LOOP")

# field LINE RE: the first number after RE on LINE.
field() {
	printf '%s\n' "$1" | sed -nE "s/.*$2 ([0-9.]+).*/\\1/p" | head -n 1
}

# devline: the device: line of the loop device in $OUT.
devline() {
	grep -E "^device: $DEV \\(" "$OUT" | head -n 1 || true
}

# --- random O_DIRECT 4K reads: the device's IOPS are atio's ---
run_atio --read --rand --uncached -s 4K -p 1 -t 1 -v -f "$LOOP"
check_result "4K random reads of $DEV" IOPS
LINE=$(devline)
why=()
[ -n "$LINE" ] || why+=("no device: line for $DEV")
DIOPS=$(field "$LINE" 'read')
[ -n "$DIOPS" ] && near "$DIOPS" "$R_VALUE" 0.05 ||
	why+=("device read IOPS '$DIOPS' not within 5% of atio's $R_VALUE")
printf '%s\n' "$LINE" | grep -Eq 'IOPS [0-9.]+ MB/s' || why+=("no MB/s")
printf '%s\n' "$LINE" | grep -q ', 0 merged, 4.0 KiB a request' ||
	why+=("not 0 merged and 4.0 KiB a request")
printf '%s\n' "$LINE" | grep -qF "backing file $IMG)" || why+=("backing file $IMG not named")
printf '%s\n' "$LINE" | grep -Eq 'await [0-9.]+ ms; write 0\.0 IOPS; aqu-sz [0-9.]+, util [0-9.]+%' ||
	why+=("no await, no write 0.0 IOPS, or no aqu-sz and util")
verdict "the device line of $DEV: atio's IOPS, 4 KiB a request, none merged, the backing file" "$OUT" "$ERR"
expect_no_match "only the result line says rate" "$OUT" 'rate.*rate|device:.*rate|cgroup:.*rate|Device:.*rate'
expect_match "the header names the queue of $DEV" "$OUT" \
	"^Device: $DEV, scheduler [a-z-]+, read_ahead_kb [0-9]+, nr_requests [0-9]+, write cache [a-z ]+, rotational (yes|no) \\(a loop device: the flag says little"

# --- a warm-up's I/Os are not the device's window's ---
run_atio --read --rand --uncached -s 4K -p 1 -t 0.5 -w 0.5 -f "$LOOP"
LINE=$(devline)
parse_result || true
DIOPS=$(field "$LINE" 'read')
if [ -n "$DIOPS" ] && near "$DIOPS" "$R_VALUE" 0.05; then
	ok "with -w 0.5 the device's IOPS are the measured time's ($DIOPS, atio $R_VALUE)"
else
	not_ok "with -w 0.5 the device's IOPS are the measured time's" "device '$DIOPS', atio '$R_VALUE'" "$LINE"
fi

# --- the same reads as JSON: the device object agrees with the result ---
run_atio --read --rand --uncached -s 4K -p 1 -t 1 --json -f "$LOOP"
expect_json "JSON: device is $DEV, the target" \
	'[d["device"]["devices"][0][k] for k in ("name", "relation", "backing_file")]' \
	"['$DEV', 'target', '$IMG']"
expect_json "JSON: its path starts at $DEV" 'd["device"]["devices"][0]["path"][0]' "$DEV"
expect_json "JSON: read IOPS within 5% of the result's, 4096 bytes a request, 0 merged" \
	'(lambda f, r: [abs(f["read"]["iops"] - r["iops"]) <= 0.05 * r["iops"], f["read"]["request_bytes"], f["read"]["merges"], f["raw"]["read_sectors"] == 8 * f["raw"]["read_ios"]])(d["device"]["devices"][0]["figures"], d["result"])' \
	'[True, 4096, 0, True]'
expect_json "JSON: the raw deltas give the figures" \
	'(lambda f: abs(f["read"]["iops"] - f["raw"]["read_ios"] * 1e9 / f["elapsed_ns"]) < 1e-6 * f["read"]["iops"] and abs(f["util_pct"] - f["raw"]["io_ticks_ms"] * 1e8 / f["elapsed_ns"]) < 1e-6 * (f["util_pct"] + 1))(d["device"]["devices"][0]["figures"])' \
	'True'
expect_json "JSON: the system object has the queue" \
	'[k in d["system"] for k in ("scheduler", "read_ahead_kb", "nr_requests", "write_cache", "rotational", "rotational_note")] + [d["system"]["rotational_note"] is not None]' \
	'[True, True, True, True, True, True, True]'

# --- a known-size sequential write: its bytes, MB/s and request size ---
run_atio --write --seq --uncached -s 1M -u 64M --size 32M -p 1 --allow-device-write -f "$LOOP"
check_result "32 MiB written to $DEV in 1M writes" MB/s
LINE=$(devline)
DMBS=$(field "$LINE" 'IOPS')
REQ=$(field "$LINE" 'merged,')
why=()
[ -n "$DMBS" ] && near "$DMBS" "$R_VALUE" 0.1 || why+=("device write MB/s '$DMBS' not within 10% of atio's $R_VALUE")
[ -n "$REQ" ] && fcmp "$REQ" '>=' 768 && fcmp "$REQ" '<=' 1024 ||
	why+=("write request size '$REQ' KiB not within 768..1024 (1M writes, split at most to max_sectors_kb)")
printf '%s\n' "$LINE" | grep -q 'read 0\.0 IOPS; write' || why+=("reads on a write test")
verdict "the device line of the write: atio's MB/s, requests of about 1 MiB" "$OUT" "$ERR"
run_atio --write --seq --uncached -s 1M -u 64M --size 32M -p 1 --allow-device-write --json -f "$LOOP"
expect_json "JSON: the device wrote the 32 MiB atio wrote" \
	'd["device"]["devices"][0]["figures"]["raw"]["write_sectors"] * 512 == d["result"]["bytes"] == 33554432' \
	'True'

# --- a read IOPS cap of atio's cgroup on the loop device ---
# in_cgroup ARG...: run_atio with atio in the cgroup $CG.
in_cgroup() {
	LAST="atio $* (in $CG)"
	# shellcheck disable=SC2016 # the inner shell expands them
	if "${LIMIT[@]}" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$ATIO" "$@" >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}
CAP=200
MAJMIN=$(cat "/sys/class/block/$DEV/dev")
cg_mount() { # cg_mount FSTYPE [OPTION]: the first mount point of that hierarchy
	awk -v t="$1" -v o="${2:-}" '{ for (i = 1; $i != "-"; i++); if ($(i + 1) == t && (o == "" || index("," $(i + 3) ",", "," o ","))) { print $5; exit } }' /proc/self/mountinfo
}
V2=$(cg_mount cgroup2)
V1=$(cg_mount cgroup blkio)
CAPFILE='' WHY=''
if [ -n "$V2" ] && grep -qw io "$V2/cgroup.controllers" 2>/dev/null &&
	{ grep -qw io "$V2/cgroup.subtree_control" || echo +io >"$V2/cgroup.subtree_control"; } 2>/dev/null &&
	mkdir "$V2/atio-test-device.$$" 2>/dev/null; then
	CG=$V2/atio-test-device.$$
	CAPFILE=$CG/io.max
	echo "$MAJMIN riops=$CAP" >"$CAPFILE" 2>/dev/null || CAPFILE=''
	WANT="io.max riops=$CAP on $DEV \\($MAJMIN\\)"
elif [ -n "$V1" ] && mkdir "$V1/atio-test-device.$$" 2>/dev/null; then
	CG=$V1/atio-test-device.$$
	CAPFILE=$CG/blkio.throttle.read_iops_device
	echo "$MAJMIN $CAP" >"$CAPFILE" 2>/dev/null || CAPFILE=''
	WANT="blkio.throttle.read_iops_device $CAP on $DEV \\($MAJMIN\\)"
else
	WHY="no cgroup v2 with the io controller nor v1 blkio hierarchy in which a cgroup can be made"
fi
if [ -z "$CAPFILE" ]; then
	skip_check "the cap of atio's cgroup is printed and said to be hit" \
		"${WHY:-the cap file of the cgroup cannot be written}"
else
	in_cgroup --read --rand --uncached -s 4K -p 1 -t 1 -f "$LOOP"
	why=()
	[ "$RC" = 0 ] || why+=("exit $RC")
	grep -Eq "^cgroup: $WANT, set by $CG: [0-9.]+ read IOPS went through it, [0-9.]+% of the cap: the cap held, the run ran into it" "$OUT" ||
		why+=("no cgroup: line with the cap held")
	verdict "the cap of atio's cgroup ($CAP read IOPS on $DEV) is printed and said to be hit" "$OUT" "$ERR"
	parse_result || true
	if [ -n "$R_VALUE" ] && fcmp "$R_VALUE" '<' $((CAP * 2)); then
		ok "the cap held atio's reads back ($R_VALUE IOPS)"
	else
		not_ok "the cap held atio's reads back" "atio measured '$R_VALUE' IOPS under a cap of $CAP"
	fi
	in_cgroup --read --rand --uncached -s 4K -p 1 -t 1 --json -f "$LOOP"
	expect_json "JSON: the cap, its device and cgroup, held" \
		'[(c["device"], c["kind"], c["limit"], c["cgroup"], c["held"], c["share"] >= 0.9) for c in d["device"]["caps"]]' \
		"[('$DEV', 'riops', $CAP, '$CG', True, True)]"
fi

finish
