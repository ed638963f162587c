#!/bin/bash
# Crash consistency: --fsync/--fdatasync --verify keep a journal beside the
# dataset (PREFIXjournal) of the write every block held when a sync
# completed, and atio --check proves every such write is still there.
# On ext4 on a loop device (the test directory when that cannot be made):
# SIGKILL in the middle of an --fsync run (and of an --fdatasync run at
# depth with O_DIRECT), then --check passes and names the journal; so it
# does with the lock file as a power loss leaves it (empty, cut short,
# zeros), and an emptied lock file that an atio holds still locks; a
# synced block put back to its fill data or to an older write of the run,
# or overwritten behind atio's back, fails the check naming the file and
# the offset; so does the file put back to a copy from before the last
# run, of the same --seed as the run before; a record cut short at the journal's end is said and not
# trusted; a file cut short fails where synced writes were (absent); a
# write run without --verify removes the journal, --remove
# removes it with the files; a foreign file at the journal's name is left
# alone and refused; a journal of another dataset shape is refused; a
# journal whose header cannot be written is removed, and one left without
# a header is said to claim nothing.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON report"

if ext4_loop 512M "$WORK/mnt"; then
	D=$WORK/mnt/d
else
	printf '# %s: on the test directory instead\n' "$WHY"
	D=$WORK/d
fi
mkdir -p "$D"
J=$D/atio.journal
F0=$D/atio.0

# wait_journal BYTES: wait (up to 30 s) until the journal holds more than
# BYTES, while atio ($PID) runs. Returns 1 when it never does.
wait_journal() {
	local i

	for ((i = 0; i < 600; i++)); do
		if [ -f "$J" ] && [ "$(file_size "$J")" -gt "$1" ]; then
			return 0
		fi
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# --- SIGKILL in the middle of a run: every write a completed sync
# acknowledged is there.
kill_run() {
	local what=$1

	shift
	# The journal an earlier killed run left is large already: waited on, it
	# would let the kill land before this run wrote a record (its header
	# alone, 0 records). Gone, the size waited for is this run's.
	rm -f "$J"
	start_atio "$@" -t 60 -f "$D" --verify
	if ! wait_journal $((64 + 40 * 500)); then
		not_ok "$what: the journal grows during the run" "it holds $(file_size "$J" 2>/dev/null || echo no) bytes"
		kill -KILL "$PID" 2>/dev/null || true
		wait_exit 10
		return
	fi
	ok "$what: the journal grows during the run"
	kill -KILL "$PID"
	wait_exit 10
	expect_code "$what: killed" 137
	run_atio --check -p 2 -u 64M -f "$D"
	expect_code "$what, then --check: exit 0" 0
	expect_match "$what, then --check: every sector good" "$OUT" '^check: 2 file\(s\), 64\.00 MiB .* 0 bad sector\(s\); ok$'
	expect_match "$what, then --check: the journal's claims held" "$OUT" \
		"^journal: $J: [1-9][0-9]* record\\(s\\), [1-9][0-9]* block\\(s\\) whose write a completed sync acknowledged(; [0-9]+ byte\\(s\\) at its end cut short [^;]*)?; every one holds its write or a later one$"
	run_atio --check -p 2 -u 64M -f "$D" --json
	expect_json "$what, then --check --json: ok, and every record of the journal read or cut" \
		'(c["ok"], (c["journal"]["records"] * 40 + c["journal"]["bytes_cut"] + 64) == '"$(file_size "$J")"')' \
		"(True, True)"
}
kill_run "--fsync -q 4, SIGKILL" --fsync --rand -s 4K -q 4 -p 2 -u 64M
if direct_io_works "$D"; then
	kill_run "--fdatasync at depth 8 with O_DIRECT, SIGKILL" --fdatasync --rand -s 4K -q 8 \
		-p 2 -u 64M --uncached --iodepth 8
else
	skip_check "SIGKILL in an O_DIRECT --fdatasync run" "O_DIRECT does not work here"
fi

# --- The lock file as a crash leaves it: SIGKILL left it with its line
# and no holder (above); a power loss leaves it empty where its data was
# never synced, a first part of its line, or zeros, with the mark atio
# gave it when it made it. --check takes each as atio's lock file and
# removes it at the end; the same without the mark (a user's empty file at
# that name) is used for the lock and kept; a lock file emptied while an
# atio holds it still locks.
L=$D/atio.lock
# crash_lock WHAT MARK COMMAND...: the lock file holds COMMAND's output,
# marked as atio marks its lock files when MARK is "marked" (its whole
# line alone tells it, "-").
crash_lock() {
	local what=$1 mark=$2

	shift 2
	rm -f "$L"
	"$@" >"$L"
	if [ "$mark" = marked ]; then
		setfattr -n user.atio -v "atio-lock 1" "$L"
	fi
	run_atio --check -p 2 -u 64M -f "$D"
	expect_code "a crash image, lock file $what: --check exits 0" 0
	expect_match "a crash image, lock file $what: every sector good" "$OUT" '^check: 2 file\(s\), 64\.00 MiB .* 0 bad sector\(s\); ok$'
	check "a crash image, lock file $what: removed by the check" [ ! -e "$L" ]
}
crash_lock "holding its line" - printf 'atio lock file: atio holds it while it works on the files next to it\n'
if command -v setfattr >/dev/null 2>&1 && touch "$L" && setfattr -n user.atio -v x "$L" 2>/dev/null; then
	crash_lock "empty, marked" marked true
	crash_lock "holding the first 12 bytes of its line, marked" marked printf 'atio lock fi'
	crash_lock "holding 20 zero bytes, marked" marked head -c 20 /dev/zero
else
	skip_check "a crash image's lock file with atio's mark" "setfattr (package attr) or user extended attributes missing here"
fi
for what in "empty" "holding the first 12 bytes of its line"; do
	rm -f "$L"
	if [ "$what" = empty ]; then
		: >"$L"
	else
		printf 'atio lock fi' >"$L"
	fi
	run_atio --check -p 2 -u 64M -f "$D"
	expect_code "a lock file $what without atio's mark: --check exits 0" 0
	check "a lock file $what without atio's mark: kept (it may be a user's)" [ -e "$L" ]
done
rm -f "$L"
start_atio --read --seq -s 1M -p 2 -u 64M -t 30 -f "$D"
READER=$PID
OUT=$WORK/stdout2
ERR=$WORK/stderr2
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
if command -v getfattr >/dev/null 2>&1; then
	check "the lock file atio made carries its mark" \
		[ "$(getfattr --only-values -n user.atio "$L" 2>/dev/null)" = "atio-lock 1" ]
else
	skip_check "the lock file atio made carries its mark" "getfattr (package attr) missing here"
fi
truncate -s 0 "$L"
run_atio --write --seq -s 1M -p 2 -u 64M -t 0.2 -f "$D"
expect_code "a lock file emptied while a reader holds it: a write test exits 1" 1
expect_match "a lock file emptied while a reader holds it: the holder named" "$ERR" \
	"^atio: $L: another atio is working on this dataset \\(pid $READER \\(atio\\) holds its lock file\\)"
PID=$READER
kill -TERM "$PID" 2>/dev/null || true
wait_exit 10

# --- A synced block put back to its fill data: the check names it.
rm -f "$D"/atio.*
run_atio --prepare -p 1 -s 4K -u 1M -f "$D"
expect_code "setup: a 1 MiB file" 0
dd if="$F0" of="$WORK/fill5" bs=4096 skip=5 count=1 status=none
run_atio --fsync --seq -s 4K --iops -t 0.5 -p 1 -u 1M -f "$D" --verify
expect_code "setup: --fsync --verify over the file" 0
parse_io
if [ "$IO_OPS" -lt 6 ]; then
	skip_check "a synced block put back to the fill" "only $IO_OPS writes in 0.5 s"
else
	dd if="$WORK/fill5" of="$F0" bs=4096 seek=5 conv=notrunc status=none
	run_atio --check -p 1 -u 1M -f "$D"
	what="block 5 put back to the fill's data after a synced write"
	expect_code "$what: --check exits 1" 1
	expect_match "$what: named, with the write the journal holds" "$OUT" \
		"^bad: $F0: offset 20480, 4096 bytes \\(8 sector\\(s\\)\\): holds the fill's data, older than the write of generation [0-9]+ a completed sync acknowledged \\(a lost write, or the block rolled back\\)$"
	expect_count "$what: nothing else bad" "$OUT" '^bad:' 1
fi

# --- A synced block rolled back to an older write of the same run: a
# 32 KiB file of 8 blocks written in order, a sync after each write. Once
# block 5's first write is synced atio is stopped (SIGSTOP), the block
# copied, atio continued; when it wrote 9 more blocks, block 5 was written
# again, and the copy put back is older than what the journal holds.
start_atio --fsync --seq -s 4K -t 3 -p 1 -u 32K -f "$D" --verify -vvv
for ((i = 0; i < 600; i++)); do
	if [ "$(grep -c '\] fsync(' "$ERR")" -ge 6 ]; then
		break
	fi
	sleep 0.05
done
kill -STOP "$PID"
stopped_at=$(grep -c '\] write(' "$ERR" || true)
dd if="$F0" of="$WORK/old5" bs=4096 skip=5 count=1 status=none
kill -CONT "$PID"
wait_exit 30
expect_code "setup: --fsync --verify, stopped and continued" 0
parse_io
if [ "$IO_OPS" -lt $((stopped_at + 9)) ]; then
	skip_check "a synced block rolled back to an older write" "only $IO_OPS writes in 3 s"
else
	dd if="$WORK/old5" of="$F0" bs=4096 seek=5 conv=notrunc status=none
	run_atio --check -p 1 -u 32K -f "$D"
	what="block 5 rolled back to an older write of the run"
	expect_code "$what: --check exits 1" 1
	expect_match "$what: named, with both generations" "$OUT" \
		"^bad: $F0: offset 20480, 4096 bytes \\(8 sector\\(s\\)\\): holds generation [0-9]+, older than the write of generation [0-9]+ a completed sync acknowledged"
	run_atio --check -p 1 -u 32K -f "$D" --json
	expect_json "$what: --json: the kind, both generations of block 5 (6 mod 8), the found one older" \
		'[(b["offset"], b["kind"], b["found_generation"] % 8, b["expected_generation"] % 8, b["found_generation"] < b["expected_generation"]) for b in c["bad"]]' \
		"[(20480, 'older', 6, 6, True)]"
fi
rm -f "$D"/atio.*

# --- The file put back whole to a copy taken before the last run, which
# had the same --seed as the run before it (a stale replica one run
# behind, after a power-off and a fail-over): the last run's synced writes
# are gone, and its blocks hold the earlier run's writes of the same
# offsets, at the same or higher generations. Every run draws the keys of
# its writes, so the check fails and says whose the data is.
run_atio --prepare -p 1 -u 8M -f "$D"
expect_code "setup: an 8 MiB file" 0
run_atio --fsync --verify --rand -s 4K -q 4 -p 1 -t 1 -u 8M --seed 42 -f "$D"
expect_code "setup: run A, --seed 42" 0
cp "$F0" "$WORK/before-b"
run_atio --fsync --verify --rand -s 4K -q 4 -p 1 -t 0.2 -u 8M --seed 42 -f "$D"
expect_code "setup: run B, --seed 42 again" 0
cp "$WORK/before-b" "$F0"
run_atio --check -p 1 -u 8M -f "$D"
what="atio.0 put back to its copy from before run B of the same --seed"
expect_code "$what: --check exits 1" 1
expect_match "$what: named as another run's write" "$OUT" \
	"^bad: $F0: offset [0-9]+, [0-9]+ bytes \\([0-9]+ sector\\(s\\)\\): holds a write of another run \\(key [0-9a-f]{16}\\), not the write of generation [0-9]+ \\(key [0-9a-f]{16}\\) a completed sync acknowledged \\(a lost write, or the block rolled back to before the run\\)$"
run_atio --check -p 1 -u 8M -f "$D" --json
expect_json "$what: --json: every bad range another run's (other) or the fill's (older)" \
	'(c["ok"], all(b["kind"] in ("other", "older") for b in c["bad"]), any(b["kind"] == "other" for b in c["bad"]))' \
	"(False, True, True)"
rm -f "$D"/atio.* "$WORK/before-b"

# --- A block overwritten behind atio's back after the run.
run_atio --fsync --seq -s 4K -t 0.3 -p 1 -u 1M -f "$D" --verify
expect_code "setup: a clean --fsync --verify run" 0
head -c 4096 /dev/urandom | dd of="$F0" bs=4096 seek=7 conv=notrunc status=none
run_atio --check -p 1 -u 1M -f "$D"
expect_code "block 7 overwritten with other bytes: --check exits 1" 1
expect_match "block 7 overwritten: named" "$OUT" "^bad: $F0: offset 28672, 4096 bytes \\(8 sector\\(s\\)\\): no stamp of atio's"

# --- A record cut short at the journal's end (a crash in the middle of
# an append) is not trusted, and said so; a file cut short fails the
# check where the journal holds synced writes.
run_atio --fsync --seq -s 4K -t 0.3 -p 1 -u 1M -f "$D" --verify
expect_code "setup: another clean --fsync --verify run" 0
printf 'twelve bytes' >>"$J"
run_atio --check -p 1 -u 1M -f "$D"
expect_code "12 bytes of a cut record at the journal's end: --check exits 0" 0
expect_match "12 bytes of a cut record: said, not trusted" "$OUT" \
	"^journal: $J: [0-9]+ record\\(s\\), [0-9]+ block\\(s\\) whose write a completed sync acknowledged; 12 byte\\(s\\) at its end cut short"
truncate -s 16K "$F0"
run_atio --check -p 1 -u 1M -f "$D" --json
what="atio.0 cut to 16 KiB after the run"
expect_code "$what: --check exits 1" 1
# The run wrote in order from block 0: every synced block but the first 4
# lies past the end (at least 5 were written in 0.3 s, checked by the match below).
expect_json "$what: every synced block past the end named absent, with its generation" \
	'(all(b["kind"] == "absent" and b["offset"] >= 16384 and b["expected_generation"] > 0 for b in c["bad"]), c["bad_ranges"] == c["journal"]["blocks"] - 4)' \
	"(True, True)"
run_atio --check -p 1 -u 1M -f "$D"
expect_match "$what: the first named in words" "$OUT" \
	"^bad: $F0: offset 16384, 4096 bytes \\(8 sector\\(s\\)\\): no data where the write of generation [0-9]+ a completed sync acknowledged should be \\(a hole, or past the end of the file\\)$"
rm -f "$D"/atio.*
run_atio --fsync --seq -s 4K -t 0.3 -p 1 -u 1M -f "$D" --verify
expect_code "setup: a fresh --fsync --verify run" 0

# --- A journal of another dataset shape is refused.
run_atio --check -p 1 -u 2M -f "$D"
expect_code "--check -u 2M with the journal of -u 1M: exit 2" 2
expect_match "--check -u 2M: the message says what the journal is of" "$ERR" \
	"^atio: $J: the journal of a dataset of 1 file\\(s\\) of 1048576 bytes, not of -n 1 files of 2097152 bytes"

# --- A write without --verify removes the journal; --remove removes it.
run_atio --write --seq -s 4K -t 0.2 -p 1 -u 1M -f "$D"
expect_code "a --write run without --verify: exit 0" 0
if [ -e "$J" ]; then
	not_ok "a --write run without --verify removes the journal" "$J is still there"
else
	ok "a --write run without --verify removes the journal"
fi
run_atio --fdatasync --seq -s 4K -t 0.2 -p 1 -u 1M -f "$D" --verify --remove
expect_code "--fdatasync --verify --remove: exit 0" 0
listing "$D" >"$WORK/left"
expect_count "--fdatasync --verify --remove: no file and no journal left" "$WORK/left" 'atio\.(0|journal)' 0

# --- A file at the journal's name that is not atio's: left alone.
echo "the user's notes" >"$J"
sum=$(cksum <"$J")
run_atio --fsync --seq -s 4K -t 0.2 -p 1 -u 1M -f "$D" --verify
expect_code "a foreign file at the journal's name: the run refused with exit 2" 2
expect_match "a foreign file at the journal's name: named" "$ERR" "^atio: $J: not atio's journal"
run_atio --check -p 1 -u 1M -f "$D"
expect_code "a foreign file at the journal's name: --check refused with exit 2" 2
if [ "$(cksum <"$J")" = "$sum" ]; then
	ok "a foreign file at the journal's name: unchanged"
else
	not_ok "a foreign file at the journal's name: unchanged" "its checksum changed"
fi
rm -f "$J"
mkfifo "$J"
run_atio --check -p 1 -u 1M -f "$D"
expect_code "a FIFO at the journal's name: --check refused with exit 2, without waiting on it" 2
rm -f "$J"
mkdir "$J"
run_atio --fsync --seq -s 4K -t 0.2 -p 1 -u 1M -f "$D" --verify
expect_code "a directory at the journal's name: the run refused with exit 2" 2
expect_match "a directory at the journal's name: named" "$ERR" "^atio: $J: not atio's journal"
rmdir "$J"

# --- A journal whose header cannot be written (a full filesystem: a
# tmpfs with one page left, which the lock file takes) is removed again,
# never left to be read as claiming nothing; a journal of atio's without a
# header is said to claim nothing.
T=$WORK/tmpfs
mkdir -p "$T"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=40M tmpfs "$T" 2>/dev/null; then
	TEST_MOUNTS+=("$T")
	mkdir "$T/d"
	run_atio --prepare -s 4K -p 1 -u 8M -f "$T/d" --allow-memory-fs
	expect_code "setup: a dataset on a 40 MiB tmpfs" 0
	dd if=/dev/zero of="$T/fill" bs=4K status=none 2>/dev/null || true
	truncate -s $(($(file_size "$T/fill") - 4096)) "$T/fill"
	run_atio --fsync --seq -s 4K -t 0.2 -p 1 -u 8M -f "$T/d" --verify --allow-memory-fs
	what="no room for the journal's header"
	expect_code "$what: the run fails with exit 1" 1
	expect_match "$what: said, and the journal removed" "$ERR" \
		"^atio: $T/d/atio.journal: cannot write the header: No space left on device; the journal is removed$"
	rm -f "$T/fill"
	if [ ! -e "$T/d/atio.journal" ]; then
		ok "$what: no journal left"
	else
		not_ok "$what: no journal left" "$(file_size "$T/d/atio.journal") bytes at its name"
	fi
	run_atio --check -p 1 -u 8M -f "$T/d" --allow-memory-fs
	expect_code "$what: --check exits 0" 0
	expect_no_match "$what: --check reads no journal" "$OUT" '^journal:'
	if command -v setfattr >/dev/null 2>&1 && command -v getfattr >/dev/null 2>&1; then
		: >"$T/d/atio.journal"
		id=$(getfattr --only-values -n user.atio "$T/d/atio.0" | cut -d' ' -f3)
		setfattr -n user.atio -v "atio-file 2 $id atio.journal" "$T/d/atio.journal"
		run_atio --check -p 1 -u 8M -f "$T/d" --allow-memory-fs
		expect_code "atio's journal without a header: --check exits 0" 0
		expect_match "atio's journal without a header: said to claim nothing" "$OUT" \
			"^journal: $T/d/atio.journal: atio's journal without a whole header .*: it claims nothing"
	else
		skip_check "atio's journal without a header" "setfattr (attr) is not installed"
	fi
else
	skip_check "no room for the journal's header" "needs root and a tmpfs mount"
fi

finish
