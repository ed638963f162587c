#!/bin/bash
# --check and --verify cannot be fooled: every byte of a sector is checked
# (a byte of the generation, of the kind, of the tag or of the check word
# changed is a damaged stamp, also where the journal claims the block),
# and every sector is bound to its file and dataset: a block copied from
# atio.0 to atio.1 at the same offset, a whole file copied over another
# (with and without its extended attributes), two files renamed into each
# other, and a file of another dataset (another --seed) in place of atio.0
# are each named, with the file the data belongs to where it is one of the
# dataset's; files whose marks disagree are said. A hole punched into a
# file the fill completed is lost data. A run of bad sectors longer than a
# read is one range. A dataset of an older atio (mark version 1) is
# refused with a message saying to make it again, and a run makes it again.
# A mark that starts as atio's but is none it writes (an upper-case id, a
# trailing newline) is named as malformed, with its value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to change bytes and read JSON"

D=$WORK/d
F0=$D/atio.0
F1=$D/atio.1
SCAN=$(dirname "$ATIO")/tests/stamp-scan
ARGS=(-p 3 -u 24M -f "$D" --cached)

# xor_byte FILE OFFSET MASK: change one byte of FILE in place.
xor_byte() {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); o = int(sys.argv[2]); f.seek(o); b = f.read(1)
f.seek(o); f.write(bytes([b[0] ^ int(sys.argv[3])]))' "$1" "$2" "$3"
}

# fresh: a new dataset of three 8 MiB files in $D, filled and written.
fresh() {
	rm -rf "$D"
	mkdir -p "$D"
	run_atio --write --rand -s 4K -t 1 "${ARGS[@]}"
	expect_code "setup: a fresh dataset" 0
}

# expect_bad WHAT REGEX: --check exits 1 and names a bad range matching REGEX.
expect_bad() {
	run_atio --check "${ARGS[@]}"
	expect_code "$1: --check exits 1" 1
	expect_match "$1: named" "$OUT" "$2"
}

# --- Every byte of a sector: the generation, the kind, the tag, the
# check word. Sector 8 of atio.0 (offset 4096) holds the fill's or a
# write's stamp.
fresh
for b in 16 21 5 40 44 47 48 55; do
	xor_byte "$F0" $((4096 + b)) 1
	expect_bad "byte $b of the sector at 4096 changed" \
		"^bad: $F0: offset 4096, 512 bytes \\(1 sector\\(s\\)\\): a damaged stamp"
	xor_byte "$F0" $((4096 + b)) 1
done
run_atio --check "${ARGS[@]}"
expect_code "every byte put back: --check exits 0" 0

# --- A block copied from atio.0 to atio.1 at the same offset.
dd if="$F0" of="$F1" bs=4096 skip=100 seek=100 count=1 conv=notrunc status=none
expect_bad "a 4K block of atio.0 copied to atio.1" \
	"^bad: $F1: offset 409600, 4096 bytes \\(8 sector\\(s\\)\\): holds the data of $F0 at offset 409600 \\(misplaced: another file's data\\)$"
run_atio --check "${ARGS[@]}" --json
expect_json "the copied block: --json names the file it belongs to" \
	'[(b["kind"], b["written_for_file"]) for b in c["bad"]]' "[('misplaced', '$F0')]"
run_atio --read --rand -s 4K -t 2 "${ARGS[@]}" --verify
expect_code "the copied block: --read --verify exits 1" 1
if grep -q 'offset 409600' "$ERR"; then
	expect_match "the copied block: --verify names the file it belongs to" "$ERR" \
		"verify: $F1: offset 409600 .*of $F0 \\(misplaced: another file's"
else
	skip_check "the copied block: --verify names the file it belongs to" \
		"the random reads met another bad block first"
fi

# --- A whole file copied over another: its data is the other file's.
fresh
cp "$F0" "$F1"
expect_bad "atio.0 copied over atio.1 (cp)" \
	"^bad: $F1: offset 0, 8388608 bytes \\(16384 sector\\(s\\)\\): holds the data of $F0 at offset 0 \\(misplaced"
expect_count "atio.0 copied over atio.1 (cp): one range, not one per read" "$OUT" '^bad:' 1
if command -v getfattr >/dev/null 2>&1; then
	fresh
	cp -a "$F0" "$F1"
	expect_bad "atio.0 copied over atio.1 (cp -a)" \
		"^bad: $F1: offset 0, 8388608 bytes .*holds the data of $F0 at offset 0 \\(misplaced"
	expect_match "atio.0 copied over atio.1 (cp -a): its mark is atio.0's" "$OUT" \
		"^mark: $F1: atio's mark of another file name"

	# --- Two files renamed into each other.
	fresh
	mv "$F0" "$D/x" && mv "$F1" "$F0" && mv "$D/x" "$F1"
	expect_bad "atio.0 and atio.1 renamed into each other" \
		"^bad: $F0: offset 0, 8388608 bytes .*holds the data of $F1 at offset 0 \\(misplaced"
	expect_match "renamed: atio.1 holds atio.0's data" "$OUT" \
		"^bad: $F1: offset 0, 8388608 bytes .*holds the data of $F0 at offset 0 \\(misplaced"
	expect_match "renamed: the marks are said" "$OUT" "^mark: $F0: atio's mark of another file name"
else
	skip_check "cp -a and renamed files" "getfattr (attr) is not installed"
fi

# --- A file of another dataset (another --seed) in place of atio.0.
O=$WORK/o
mkdir -p "$O"
run_atio --prepare -s 4K -p 3 -u 24M -f "$O" --seed 2
expect_code "setup: another dataset" 0
fresh
cp "$O/atio.0" "$F0"
expect_bad "another dataset's atio.0 copied in (cp)" \
	"^bad: $F0: offset 0, 8388608 bytes .*holds the data of another dataset"
fresh
cp -a "$O/atio.0" "$F0"
expect_bad "another dataset's atio.0 put in place (cp -a)" \
	"^bad: $F0: offset 0, 8388608 bytes .*holds the data of another dataset"
if command -v getfattr >/dev/null 2>&1; then
	expect_match "another dataset's atio.0 (cp -a): the marks disagree, said" "$OUT" \
		"^mark: $F0: atio's mark of another dataset"
fi
run_atio --read --seq -s 1M -t 1 "${ARGS[@]}" --verify
expect_code "another dataset's atio.0: a run refuses it (its mark), or --verify fails" 2

# --- A hole punched into a file the fill completed: lost data.
fresh
if fallocate -p -o 1048576 -l 1048576 "$F0" 2>/dev/null; then
	expect_bad "a 1 MiB hole in the complete atio.0" \
		"^bad: $F0: offset 1048576, 1048576 bytes \\(2048 sector\\(s\\)\\): a hole"
	truncate -s 4M "$F1"
	fallocate -p -o 0 -l 1048576 "$F1"
	run_atio --check "${ARGS[@]}"
	expect_match "a hole before data in a short atio.1: bad" "$OUT" \
		"^bad: $F1: offset 0, 1048576 bytes \\(2048 sector\\(s\\)\\): a hole"
else
	skip_check "a hole in a complete file" "fallocate --punch-hole does not work here"
fi

# --- 20 MiB of zeros: one range across the 4 MiB reads.
rm -rf "$D"
mkdir -p "$D"
run_atio --prepare -s 4K -p 1 -u 32M -f "$D"
expect_code "setup: one 32 MiB file" 0
dd if=/dev/zero of="$F0" bs=1M seek=2 count=20 conv=notrunc status=none
run_atio --check -p 1 -u 32M -f "$D" --cached
expect_code "20 MiB of zeros: exit 1" 1
expect_match "20 MiB of zeros: one range" "$OUT" \
	"^bad: $F0: offset 2097152, 20971520 bytes \\(40960 sector\\(s\\)\\): zeros"
expect_count "20 MiB of zeros: no other range" "$OUT" '^bad:' 1

# --- A journal: a generation raised by corruption is no later write.
rm -rf "$D"
mkdir -p "$D"
run_atio --fsync --rand -s 4K -t 1 -p 1 -u 8M -f "$D" --verify
expect_code "setup: an --fsync --verify run" 0
off=$("$SCAN" "$F0" 4096 | awk '$2 == "write" { print $1; exit }')
if [ -n "$off" ]; then
	# Byte 21: bit 40 of the generation word: the generation 2^40 higher,
	# or wrapped past 2^64 (no run writes that often).
	xor_byte "$F0" $((off + 21)) 1
	run_atio --check -p 1 -u 8M -f "$D" --cached
	expect_code "a generation raised in a journaled block: exit 1" 1
	expect_match "a generation raised in a journaled block: a damaged stamp" "$OUT" \
		"^bad: $F0: offset $off, 512 bytes .*a damaged stamp"
else
	not_ok "a journaled run left a written block" "stamp-scan found none"
fi

# --- A dataset of an older atio: refused by --check, made again by a run.
if command -v setfattr >/dev/null 2>&1; then
	fresh
	for i in 0 1 2; do
		setfattr -n user.atio -v "atio-file 1 atio.$i" "$D/atio.$i"
	done
	run_atio --check "${ARGS[@]}"
	expect_code "an older atio's dataset: --check exits 1" 1
	expect_match "an older atio's dataset: make it again, says --check" "$ERR" \
		"made by an older atio .*make the dataset again with --prepare"
	run_atio --prepare -s 4K -p 3 -u 24M -f "$D"
	expect_code "an older atio's dataset: --prepare makes it again" 0
	expect_match "an older atio's dataset: --prepare says so" "$ERR" \
		"3 file\\(s\\) made by an older atio .* are made again"
	run_atio --check "${ARGS[@]}"
	expect_code "an older atio's dataset made again: --check exits 0" 0
else
	skip_check "an older atio's dataset" "setfattr (attr) is not installed"
fi

# --- Marks that start as atio's but are none it writes: an upper-case
# dataset id, a trailing newline. Named as malformed, with the value and
# what is wrong, not as another file's; a run refuses them as not atio's.
if command -v setfattr >/dev/null 2>&1 && command -v getfattr >/dev/null 2>&1; then
	fresh
	id=$(getfattr --only-values -n user.atio "$F0" | cut -d' ' -f3)
	ID=$(printf '%s' "$id" | tr a-f A-F)
	setfattr -n user.atio -v "atio-file 2 $ID atio.0" "$F0"
	setfattr -n user.atio -v "$(printf 'atio-file 2 %s atio.1\n' "$id" | base64 -w0 | sed 's/^/0s/')" "$F1"
	run_atio --check "${ARGS[@]}"
	expect_code "malformed marks: --check exits 1" 1
	expect_match "an upper-case dataset id: a malformed mark, named with its value" "$OUT" \
		"^mark: $F0: a malformed mark, no mark atio writes \\(edited or damaged\\): user.atio is \"atio-file 2 $ID atio.0\": its dataset id has upper-case digits"
	expect_match "a trailing newline: a malformed mark, named with its value" "$OUT" \
		"^mark: $F1: a malformed mark, no mark atio writes \\(edited or damaged\\): user.atio is \"atio-file 2 $id atio.1\\\\n\": its file name ends in a newline$"
	expect_no_match "malformed marks: not said to be another file's" "$OUT" "another file name"
	run_atio --check "${ARGS[@]}" --json
	expect_json "malformed marks: --json says malformed, with the value" \
		'[(f["mark"], f.get("mark_text")) for f in c["per_file"]]' \
		"[('malformed', 'atio-file 2 $ID atio.0'), ('malformed', 'atio-file 2 $id atio.1\\n'), ('ok', None)]"
	run_atio --write --rand -s 4K -t 0.1 "${ARGS[@]}"
	expect_code "malformed marks: a run refuses the files (exit 2)" 2
	expect_match "malformed marks: the run says the mark is malformed" "$ERR" \
		"^atio: $F0: not a file atio made: its user.atio mark starts as atio's but is malformed"
else
	skip_check "malformed marks" "setfattr or getfattr (attr) is not installed"
fi

finish
