#!/bin/bash
# atio --check reads a dataset whole and checks every sector's stamp: a
# dataset that atio filled and then wrote (random 4K one at a time and at
# depth, sequential 16M) checks clean; sectors changed behind atio's back
# (zeros, a flipped byte, a sector copied from elsewhere, foreign bytes)
# are each named with file, offset, size and why, and the check exits 1;
# a short file is counted as unwritten, not bad, a hole in a complete
# file is bad (lost data) and the file not short; holes past the planned
# size are no lost data, and the file is said to be long; a missing file
# fails the check; a foreign file is refused as a run refuses it; more bad
# ranges than the list holds are counted; options of a timed test are
# refused; a check waits for no writer: the dataset's lock refuses it while
# a write test runs. --verify checks every block a read test reads: a
# clean dataset verifies, with what was checked below the result; the
# first bad block read ends the run with exit 1, its file and offset and
# what it held named (and as a JSON record with --json), no result.
# --verify on writes reads every block written back after the run: clean
# runs of every write mode (sync and io_uring at depth) verify; a block put
# back to older data during the run is named as a lost write.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON report"

D=$WORK/d
mkdir -p "$D"
F0=$D/atio.0

# --- A dataset atio made and wrote in every way checks clean.
run_atio --write --rand -s 4K -t 1 -p 2 -u 64M -f "$D"
expect_code "setup: random 4K writes, one at a time" 0
if direct_io_works "$D"; then
	run_atio --write --rand -s 4K -t 1 -p 2 -u 64M --uncached --iodepth 16 -f "$D"
	expect_code "setup: random 4K writes, 16 in flight" 0
fi
run_atio --write --seq -s 16M -t 1 -p 2 -u 64M -f "$D"
expect_code "setup: sequential 16M writes" 0
run_atio --check -p 2 -u 64M -f "$D" --cached
expect_code "a dataset atio wrote: --check exits 0" 0
expect_match "a dataset atio wrote: the summary says ok" "$OUT" \
	'^check: 2 file\(s\), 64\.00 MiB read and checked in [0-9.]+ sec, [0-9.]+ MB/s; 0 bad sector\(s\); ok$'
expect_no_match "a dataset atio wrote: no bad, missing or short line" "$OUT" '^(bad|missing|short):'
expect_no_match "a dataset atio wrote: no line of --check says rate" "$OUT" 'rate'
run_atio --check -p 2 -u 64M -f "$D" --cached --json -s 64K
expect_code "--json -s 64K: exit 0" 0
expect_json "--json: every byte of both files checked" 'c["bytes_checked"]' 67108864
expect_json "--json: reads of -s 64K" 'c["read_size"]' 65536
expect_json "--json: ok" 'c["ok"]' True

# --- Sectors changed behind atio's back, each named.
dd if=/dev/zero of="$F0" bs=4096 seek=2 count=1 conv=notrunc status=none
b=$(dd if="$F0" bs=1 skip=100100 count=1 status=none | od -An -tu1 | tr -d ' ')
printf '%b' "\\$(printf '%03o' $(((b + 1) % 256)))" | dd of="$F0" bs=1 seek=100100 conv=notrunc status=none
dd if="$F0" of="$F0" bs=512 skip=0 seek=2048 count=1 conv=notrunc status=none
head -c 1024 /dev/urandom | dd of="$F0" bs=512 seek=4096 conv=notrunc status=none
run_atio --check -p 2 -u 64M -f "$D" --cached
what="four changes in atio.0"
expect_code "$what: --check exits 1" 1
expect_match "$what: the summary counts 12 bad sectors" "$OUT" '^check: .* 12 bad sector\(s\)$'
expect_match "$what: zeros at 8192 named" "$OUT" \
	"^bad: $F0: offset 8192, 4096 bytes \\(8 sector\\(s\\)\\): zeros"
expect_match "$what: the flipped byte named: sector 99840, byte 260" "$OUT" \
	"^bad: $F0: offset 99840, 512 bytes \\(1 sector\\(s\\)\\): differs from the data its stamp names, first at byte 260 "
expect_match "$what: the copied sector named with where it belongs" "$OUT" \
	"^bad: $F0: offset 1048576, 512 bytes \\(1 sector\\(s\\)\\): holds the data written for offset 0 \\(misplaced\\)"
expect_match "$what: the foreign bytes named" "$OUT" \
	"^bad: $F0: offset 2097152, 1024 bytes \\(2 sector\\(s\\)\\): no stamp of atio's"
expect_count "$what: four bad ranges, no more" "$OUT" '^bad:' 4
run_atio --check -p 2 -u 64M -f "$D" --cached --json
expect_json "$what: --json lists them in order, with their kinds" \
	'[(b["offset"], b["bytes"], b["kind"]) for b in c["bad"]]' \
	"[(8192, 4096, 'zeros'), (99840, 512, 'corrupt'), (1048576, 512, 'misplaced'), (2097152, 1024, 'no stamp')]"
expect_json "$what: --json gives the first bad byte and the misplaced sector's offset" \
	'(c["bad"][1]["first_bad_byte"], c["bad"][2]["written_for_offset"])' "(260, 0)"

# --- A short file: unwritten, not bad; a hole in a complete file: lost
# data, bad.
rm -f "$D"/atio.*
run_atio --write --rand -s 4K -t 1 -p 2 -u 64M -f "$D"
expect_code "setup: a fresh dataset" 0
truncate -s 16M "$D/atio.1"
run_atio --check -p 2 -u 64M -f "$D" --cached --json
what="atio.1 cut to 16 MiB"
expect_code "$what: exit 0 (nothing bad)" 0
expect_json "$what: no hole" 'c["bytes_unwritten"]' 0
expect_json "$what: no bad sector" 'c["bad_sectors"]' 0
run_atio --check -p 2 -u 64M -f "$D" --cached
expect_match "$what: atio.1 is short of data" "$OUT" \
	"^short: $D/atio.1: 16\\.00 MiB of the planned 32\\.00 MiB hold data"
if fallocate -p -o 4194304 -l 1048576 "$F0" 2>/dev/null; then
	run_atio --check -p 2 -u 64M -f "$D" --cached --json
	what="a 1 MiB hole in the complete atio.0"
	expect_code "$what: exit 1 (lost data)" 1
	expect_json "$what: 1 MiB unwritten" 'c["bytes_unwritten"]' 1048576
	expect_json "$what: one bad range, a hole" \
		'[(b["offset"], b["bytes"], b["kind"]) for b in c["bad"]]' "[(4194304, 1048576, 'hole')]"
	run_atio --check -p 2 -u 64M -f "$D" --cached
	expect_match "$what: named" "$OUT" \
		"^bad: $F0: offset 4194304, 1048576 bytes \\(2048 sector\\(s\\)\\): a hole"
	expect_no_match "$what: atio.0 not also said to be short (it has its size)" "$OUT" "^short: $F0"
	# Past the planned size: a hole, then 1 MiB of atio.0's first data, a
	# hole to 48 MiB. Not the dataset's: its holes are no lost data.
	truncate -s 48M "$F0"
	dd if="$F0" of="$F0" bs=1M count=1 seek=40 conv=notrunc status=none
	run_atio --check -p 2 -u 64M -f "$D" --cached --json
	what="atio.0 grown to 48 MiB past its planned 32, 1 MiB of data at 40"
	expect_json "$what: the holes past 32 MiB not bad, the data there checked" \
		'[(b["offset"], b["bytes"], b["kind"]) for b in c["bad"]]' \
		"[(4194304, 1048576, 'hole'), (41943040, 1048576, 'misplaced')]"
	run_atio --check -p 2 -u 64M -f "$D" --cached
	expect_match "$what: said to be longer than planned" "$OUT" \
		"^long: $F0: 48\\.00 MiB, longer than the planned 32\\.00 MiB \\(what lies past it is not the data set's"
else
	skip_check "a hole in a complete file is bad" "fallocate --punch-hole does not work here"
fi

# --- A missing file fails the check.
rm -f "$D/atio.1"
run_atio --check -p 2 -u 64M -f "$D" --cached
expect_code "atio.1 missing: exit 1" 1
expect_match "atio.1 missing: named" "$OUT" "^missing: $D/atio.1$"

# --- A file without atio's mark at one of its names: read (reading
# changes nothing), its data named as not atio's, the file untouched.
head -c 65536 /dev/urandom >"$D/atio.1"
sum=$(cksum <"$D/atio.1")
run_atio --check -p 2 -u 64M -f "$D" --cached
expect_code "a foreign atio.1: exit 1" 1
expect_match "a foreign atio.1: its sectors named as not atio's" "$OUT" \
	"^bad: $D/atio.1: offset 0, 65536 bytes \\(128 sector\\(s\\)\\): no stamp of atio's"
if [ "$(cksum <"$D/atio.1")" = "$sum" ]; then
	ok "a foreign atio.1: unchanged"
else
	not_ok "a foreign atio.1: unchanged" "its checksum changed"
fi
rm -f "$D/atio.1"

# --- More bad ranges than the list holds: 150 zeroed sectors, apart
# (-f a file-name prefix: the file is many.0).
run_atio --write --rand -s 4K -t 1 -p 1 -u 8M -f "$WORK/many"
expect_code "setup: one 8 MiB file" 0
for ((i = 0; i < 150; i++)); do
	dd if=/dev/zero of="$WORK/many.0" bs=512 seek=$((i * 8)) count=1 conv=notrunc status=none
done
run_atio --check -p 1 -u 8M -f "$WORK/many" --cached
expect_code "150 bad ranges: exit 1" 1
expect_count "150 bad ranges: 100 listed" "$OUT" '^bad: .*: offset [0-9]+, 512 bytes' 100
expect_match "150 bad ranges: the other 50 counted" "$OUT" '^bad: 50 more range\(s\) not listed$'

# --- Options of a timed test are refused, naming them.
for args in "--write" "-t 5" "--rand" "-a" "--remove" "--iodepth 4" "-S"; do
	read -ra a <<<"$args"
	run_atio --check -p 1 -u 8M -f "$WORK/many" "${a[@]}"
	expect_code "--check $args: refused with exit 2" 2
	expect_match "--check $args: the message names ${a[0]}" "$ERR" -- "${a[0]}"
done

# --- --verify: every block a read test reads, checked.
V=$WORK/v
mkdir -p "$V"
run_atio --write --rand -s 4K -t 1 -u 32M -f "$V"
expect_code "setup: a written 32 MiB file" 0
for eng in sync io_uring; do
	args=(--engine "$eng")
	[ "$eng" = sync ] || args+=(--iodepth 8)
	run_atio --read --rand -s 4K -t 0.5 -u 32M -f "$V" --verify "${args[@]}"
	what="--verify, $eng, a clean dataset"
	if [ "$RC" != 0 ] && grep -q "engine cannot start\|not available" "$ERR"; then
		skip_check "$what" "the $eng engine does not run here"
		continue
	fi
	expect_code "$what: exit 0" 0
	check_result "$what"
	parse_io
	mib=$(awk -v b="$IO_BYTES" 'BEGIN { printf "%.2f", b / 1048576 }')
	expect_match "$what: every byte read was checked" "$OUT" \
		"^verify: every block read checked against its stamps: $mib MiB, none bad$"
done
run_atio --read --rand -s 4K -t 0.3 -u 32M -f "$V" --verify --json
expect_json "--verify --json: verify.ok, and every byte read checked" \
	'(d["verify"]["ok"], d["verify"]["bytes_checked"] == d["result"]["bytes"])' "(True, True)"
dd if=/dev/zero of="$V/atio.0" bs=4096 seek=100 count=1 conv=notrunc status=none
run_atio --read --seq -s 64K -t 5 -u 32M -f "$V" --verify
what="--verify over a zeroed block"
expect_code "$what: exit 1" 1
expect_count "$what: no result line" "$OUT" rate 0
expect_match "$what: the file, the offset and what it held named" "$ERR" \
	"^atio: verify: $V/atio.0: offset 409600 \\(in the 65536-byte block read at 393216\\): expected atio's data for that offset, found zeros"
run_atio --read --seq -s 64K -t 5 -u 32M -f "$V" --verify --json --engine io_uring --iodepth 4
if grep -q "engine cannot start\|not available" "$ERR"; then
	skip_check "$what, io_uring, --json" "the io_uring engine does not run here"
else
	expect_code "$what, io_uring, --json: exit 1" 1
	expect_match "$what, --json: the record" "$OUT" \
		'"result":null,"verify":\{"ok":false,"file":"[^"]*/atio.0","offset":409600,"kind":"zeros"'
fi
dd if="$V/atio.0" of="$V/atio.0" bs=512 skip=0 seek=800 count=1 conv=notrunc status=none
dd if="$V/atio.0" of="$V/atio.0" bs=512 skip=1 seek=801 count=1 conv=notrunc status=none
run_atio --read --seq -s 64K -t 5 -u 32M -f "$V" --verify
expect_match "--verify over a copied sector: the offset it was written for named" "$ERR" \
	"^atio: verify: $V/atio.0: offset 409600 .* found the data written for offset 0 \\(misplaced; generation [0-9]+, key [0-9a-f]{16}\\)"
for args in "--expand" "--check" "--prepare" "--read --engine null" "--mix 50 --engine null"; do
	read -ra a <<<"$args"
	run_atio "${a[@]}" --verify -u 32M -f "$V"
	expect_code "$args --verify: refused with exit 2" 2
	expect_match "$args --verify: says what --verify checks" "$ERR" "--verify (checks every block a test reads or writes|with --engine null: that engine reads nothing)"
done

# --- --verify on writes: every block written in the run read back after
# it and checked against the last write its thread issued there.
W=$WORK/w
mkdir -p "$W"
for args in "--write --rand" "--write --seq -s 64K" "--fdatasync --rand -q 4" "--mix 50 --rand"; do
	read -ra a <<<"$args"
	run_atio "${a[@]}" -t 0.5 -p 2 -u 16M -f "$W" --verify
	what="$args --verify"
	expect_code "$what: exit 0" 0
	check_result "$what"
	expect_match "$what: the read-back line below the result" "$OUT" \
		'^verify: every block written in the run read back and checked: [1-9][0-9]* block\(s\), [0-9.]+ MiB in [0-9.]+ sec, none bad$'
done
if direct_io_works "$W"; then
	for args in "--write --rand" "--mix 30 --rand"; do
		read -ra a <<<"$args"
		run_atio "${a[@]}" -t 0.5 -p 2 -u 16M -f "$W" --verify --uncached --engine io_uring --iodepth 32
		what="$args --verify, io_uring, 32 in flight"
		if [ "$RC" != 0 ] && grep -q "engine cannot start\|not available" "$ERR"; then
			skip_check "$what" "the io_uring engine does not run here"
			continue
		fi
		expect_code "$what: exit 0" 0
		expect_match "$what: read back, none bad" "$OUT" '^verify: every block written in the run read back .* none bad$'
	done
fi
run_atio --write --rand -t 0.3 -p 1 -u 16M -f "$W" --verify --json
expect_json "--write --verify --json: verify.ok, read back, blocks times 4K is the bytes" \
	'(d["verify"]["ok"], d["verify"]["read_back"], d["verify"]["blocks_checked"] * 4096 == d["verify"]["bytes_checked"] > 0)' \
	"(True, True, True)"
run_atio --write --rand -t 0.3 -p 1 --engine null --verify
expect_code "--write --verify, null engine: exit 0" 0
expect_match "--write --verify, null engine: nothing to read back, said so" "$OUT" \
	'^verify: the null engine wrote nothing: no block to read back$'
run_atio --write --rand -p 1 -u 64K -f "$W" --verify --iodepth 32 --engine io_uring --uncached
expect_code "--verify --iodepth 32 with 16 blocks a thread: refused with exit 2" 2
expect_match "--verify --iodepth 32 with 16 blocks: the message names both" "$ERR" \
	'--verify --iodepth 32: a thread has 16 block\(s\) of -s 4K'

# A write lost after atio wrote it: block 5 gets its fill data back while
# the run goes on (sequential, 10 writes a second: written once, at 0.5 s,
# with generation 6, never again before the end). The read-back names it;
# the result is still printed, then the message, exit 1.
rm -f "$W"/atio.*
run_atio --prepare -p 1 -s 4K -u 1M -f "$W"
expect_code "setup: a 1 MiB file" 0
dd if="$W/atio.0" of="$WORK/fill5" bs=4096 skip=5 count=1 status=none
start_atio --write --seq -s 4K --iops --rate 10 -t 4 -p 1 -u 1M -f "$W" --verify -vvv
for ((i = 0; i < 400; i++)); do
	if grep -q '\] write(fd [0-9]*, 4096 bytes, offset 20480) = 4096' "$ERR"; then
		break
	fi
	sleep 0.05
done
dd if="$WORK/fill5" of="$W/atio.0" bs=4096 seek=5 conv=notrunc status=none
wait_exit 30
what="--write --verify, block 5 put back to the fill's data during the run"
expect_code "$what: exit 1" 1
check_result "$what: the result still printed"
expect_match "$what: the read-back says one bad" "$OUT" '^verify: reading back the blocks written in the run: [0-9]+ block\(s\) read, one bad'
expect_match "$what: file, offset, the write expected and what was found named" "$ERR" \
	"^atio: verify: $W/atio.0: offset 20480 \\(in the 4096-byte block written at 20480\\): expected the write of generation 6 \\(key [0-9a-f]{16}\\), found the fill's data, older than that write \\(a lost write\\)$"

# --- A write test holds the dataset alone: a check waits for no writer.
# The writer's output goes to files of its own: the check's must not mix in.
keep_out=$OUT keep_err=$ERR
OUT=$WORK/writer.out ERR=$WORK/writer.err
start_atio --write --rand -s 4K -t 30 -p 1 -u 8M -f "$WORK/many"
OUT=$keep_out ERR=$keep_err
WRITER=$PID
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
run_atio --check -p 1 -u 8M -f "$WORK/many" --cached
what="--check while a write test runs"
expect_code "$what: refused with exit 1" 1
expect_match "$what: the writer named" "$ERR" \
	"another atio is working on this dataset \\(pid $WRITER \\(atio\\) holds its lock file\\)"
PID=$WRITER
kill -INT "$PID" 2>/dev/null || true
wait_exit 20

finish
