#!/bin/bash
# Reducible data: --compress R and --dedup R make data that zstd -1 and
# gzip -1 over 4K chunks compress to 1/R, and of whose 4K blocks one in R
# is unique (a count of their sha256 sums), within 10% of the aim. The
# data is a function of the block's place and --seed, not of the order of
# the writes: sequential, backward and random writes of the same blocks
# leave the same bytes, and another --seed other bytes of the same ratios.
# --verify passes on such data and --check and --verify find a corrupted
# or a misplaced block; the header and the JSON say what the data is; bad
# values exit 2 naming them.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

for tool in zstd gzip sha256sum split python3; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool is needed to measure the data"
done

D=$WORK/d
F=$D/atio.0
C=$WORK/chunks
SIZE=2M

# chunks FILE: FILE cut into 4K chunks in $C.
chunks() {
	rm -rf "$C"
	mkdir "$C"
	split -a 5 -b 4096 "$1" "$C/c"
}

# ratio_of COMPRESSOR...: the file's bytes over the sum of COMPRESSOR's
# output of each 4K chunk of it (chunks first).
ratio_of() {
	local c total=0 n=0

	for c in "$C"/c*; do
		total=$((total + $("$@" -c "$c" | wc -c)))
		n=$((n + 1))
	done
	awk -v a=$((n * 4096)) -v b="$total" 'BEGIN { printf "%.3f\n", a / b }'
}

# dedup_of FILE: its 4K blocks over the distinct ones among them.
dedup_of() {
	chunks "$1"
	(cd "$C" && find . -type f -exec sha256sum {} +) |
		awk '{ n++; if (!($1 in seen)) u++; seen[$1] = 1 } END { printf "%.3f\n", n / u }'
}

# expect_near WHAT GOT AIM: GOT within 10% of AIM.
expect_near() {
	if near "$2" "$3" 0.1; then
		ok "$1: $2 (aim $3)"
	else
		not_ok "$1: $2, not within 10% of $3" "command: $LAST"
	fi
}

# write_again ARG...: the 2 MiB file written whole, many times over, by
# $P threads of $BS writes (64K and 1 unless set).
write_again() {
	run_atio --write -s "${BS:-64K}" -p "${P:-1}" -n 1 -u "$SIZE" -t 0.5 -f "$D" "$@"
	expect_code "write -s ${BS:-64K} -p ${P:-1} $*: exit 0" 0
}

# write_whole ARG...: write_again into a new dataset (of a new id: its
# files' tags, and so their data, are not the last dataset's).
write_whole() {
	rm -rf "$D"
	mkdir "$D"
	write_again "$@"
}

# not_same A B: the files differ.
# shellcheck disable=SC2317 # called through check
not_same() {
	! cmp -s "$1" "$2"
}

# Compression, against both compressors, over 4K chunks.
for r in 2 3; do
	write_whole --seq --compress "$r" --seed 5
	chunks "$F"
	expect_near "--compress $r: zstd -1 over 4K chunks" "$(ratio_of zstd -q -1)" "$r"
	expect_near "--compress $r: gzip -1 over 4K chunks" "$(ratio_of gzip -1)" "$r"
	expect_near "--compress $r: every 4K block unique" "$(dedup_of "$F")" 1
done

# Deduplication, counted by hashes of 4K blocks.
for r in 2 4; do
	write_whole --seq --dedup "$r" --seed 5
	expect_near "--dedup $r: 4K blocks over distinct ones" "$(dedup_of "$F")" "$r"
	chunks "$F"
	expect_near "--dedup $r: incompressible (gzip -1 over 4K chunks)" \
		"$(ratio_of gzip -1)" 1
done

# Both at once, with a unit of 8K: its 4K halves repeat as whole units do.
write_whole --seq --compress 2.5 --dedup 4 --dedup-unit 8K --seed 5
expect_near "--compress 2.5 --dedup 4 --dedup-unit 8K: dedup of 4K blocks" \
	"$(dedup_of "$F")" 4
chunks "$F"
expect_near "--compress 2.5 --dedup 4 --dedup-unit 8K: zstd -1" "$(ratio_of zstd -q -1)" 2.5

# The order of the writes changes nothing: the same bytes, block for block,
# each time over the fill of unique data (the fill is a read test's).
write_whole --seq --compress 2 --dedup 4 --seed 9
cp "$F" "$WORK/seq"
refill() {
	run_atio --write --seq -s 64K -p 1 -n 1 -u "$SIZE" -t 0.2 -f "$D" --seed 3
	check "unique data again before the next order" not_same "$F" "$WORK/seq"
}
refill
write_again --seq --backward --compress 2 --dedup 4 --seed 9
check "--backward writes the same bytes as --seq" cmp -s "$F" "$WORK/seq"
refill
# 32 blocks of 64K: thousands of random writes leave none unwritten.
write_again --rand --compress 2 --dedup 4 --seed 9
check "--rand writes the same bytes as --seq" cmp -s "$F" "$WORK/seq"
refill
# Two threads of 4K writes: other blocks, other orders, the same bytes.
BS=4K P=2 write_again --rand --compress 2 --dedup 4 --seed 9
check "two threads of random 4K writes write the same bytes as one of 64K" \
	cmp -s "$F" "$WORK/seq"
write_again --rand --compress 2 --dedup 4 --seed 10
check "another --seed writes other bytes" not_same "$F" "$WORK/seq"
expect_near "another --seed: the same dedup" "$(dedup_of "$F")" 4

# --verify reads back every block written and finds it right.
rm -rf "$D"
mkdir "$D"
run_atio --write --rand -s 4K -p 1 -n 1 -u "$SIZE" -t 0.5 -f "$D" --seed 9 \
	--compress 2 --dedup 4 --verify
expect_code "--write --rand --verify on reducible data: exit 0" 0
expect_match "--verify read the blocks back, none bad" "$OUT" "^verify: .* none bad"
run_atio --mix 50 --rand -s 4K -p 1 -n 1 -u "$SIZE" -t 0.5 -f "$D" --seed 9 \
	--compress 2 --dedup 4 --verify
expect_code "--mix 50 --verify on reducible data: exit 0" 0
run_atio --check -f "$D" -u "$SIZE"
expect_code "--check of reducible data: exit 0" 0
expect_match "--check: no bad sector" "$OUT" "0 bad sector"

# A flipped byte in the keystream of the block at 40K, and a zero turned
# into something else in the filler of the block at 80K.
write_whole --seq --compress 2 --dedup 4 --seed 9
cp "$F" "$WORK/good"
printf '\377' | dd of="$F" bs=1 seek=$((40 * 1024 + 100)) conv=notrunc status=none
printf '\001' | dd of="$F" bs=1 seek=$((80 * 1024 + 500)) conv=notrunc status=none
run_atio --check -f "$D" -u "$SIZE"
expect_code "--check of a corrupted block: exit 1" 1
expect_match "--check names the corrupted sector" "$OUT" "40960"
expect_match "--check names the sector of the damaged filler" "$OUT" "81920"
run_atio --read --seq -s 4K -p 1 -n 1 -u "$SIZE" -t 0.5 -f "$D" --verify
expect_code "--read --verify of a corrupted block: exit 1" 1
expect_match "--verify names the corrupted sector" "$ERR" "offset 40960 "

# A whole, well-formed block of another group put in the place of one:
# every sector of it is atio's, but not what that place holds.
cp "$WORK/good" "$F"
for k in $(seq 1 511); do
	if ! cmp -s <(dd if="$F" bs=4096 skip=0 count=1 status=none) \
		<(dd if="$F" bs=4096 skip="$k" count=1 status=none); then
		break
	fi
done
dd if="$WORK/good" of="$F" bs=4096 skip=0 seek="$k" count=1 conv=notrunc status=none
run_atio --check -f "$D" -u "$SIZE"
expect_code "--check of a block of another group: exit 1" 1
expect_match "--check calls it misplaced" "$OUT" "misplaced"

# What the data is, in the header and the JSON.
run_atio -a --write --rand -s 4K -p 1 -u "$SIZE" -f "$D"
expect_match "the header says the data is incompressible and unique" "$OUT" \
	"^Data: incompressible and unique$"
run_atio -a --json --write --rand -s 4K -p 1 -u "$SIZE" -f "$D"
expect_json "the JSON says: no reduction" \
	'(d["settings"]["compress_ratio"], d["settings"]["dedup_ratio"], d["settings"]["dedup_unit"])' \
	"(1, 1, None)"
run_atio -a --write --rand -s 4K -p 1 -u "$SIZE" -f "$D" --compress 2.5 --dedup 4
expect_match "the header says the ratios" "$OUT" \
	"^Data: compresses to 1/2.5 .*zstd -1 and gzip -1 over 4K chunks.*1 in 4 units of 4K unique"
expect_match "the command line carries them" "$OUT" \
	"^Cmdline: .* --compress 2.5 --dedup 4 --dedup-unit 4K"
expect_count "the settings: no line with the result's word" "$OUT" 'rate' 0
run_atio -a --json --write --rand -s 4K -p 1 -u "$SIZE" -f "$D" --compress 2.5 --dedup 4
expect_json "the JSON says the ratios and the unit" \
	'(d["settings"]["compress_ratio"], d["settings"]["dedup_ratio"], d["settings"]["dedup_unit"])' \
	"(2.5, 4, 4096)"

# Bad values: exit 2, naming the value.
bad() {
	local what=$1 want=$2

	shift 2
	run_atio "$@"
	if [ "$RC" = 2 ] && grep -qF -- "$want" "$ERR"; then
		ok "$what: exit 2 naming $want"
	else
		not_ok "$what: exit 2 naming $want" "exit $RC, command: $LAST"
		show stderr "$ERR"
	fi
}
W=(--write --rand -s 4K -p 1 -u "$SIZE" -f "$D" -a)
bad "a compression ratio below 1" "--compress 0.5" "${W[@]}" --compress 0.5
bad "a compression ratio that is no number" "--compress two" "${W[@]}" --compress two
bad "a compression ratio in another form" "--compress 1e3" "${W[@]}" --compress 1e3
bad "a compression ratio above 8" "--compress 9" "${W[@]}" --compress 9
bad "a dedup ratio below 1" "--dedup 0" "${W[@]}" --dedup 0
bad "a negative dedup ratio" "--dedup -2" "${W[@]}" --dedup -2
bad "a unit not a multiple of 512" "--dedup-unit 1000" "${W[@]}" --dedup 2 --dedup-unit 1000
bad "a unit that is no size" "--dedup-unit big" "${W[@]}" --dedup 2 --dedup-unit big
bad "a unit larger than the block" "--dedup-unit 8K" "${W[@]}" --dedup 2 --dedup-unit 8K
bad "a unit without --dedup" "--dedup-unit 4K" "${W[@]}" --dedup-unit 4K
bad "--compress on reads" "--compress 2" --read --rand -s 4K -p 1 -u "$SIZE" -f "$D" -a \
	--compress 2
bad "--dedup with --prepare" "--dedup 2" --prepare -u "$SIZE" -f "$D" --dedup 2
bad "--compress with the journal of --fsync --verify" "--compress 2" \
	--fsync --rand -s 4K -p 1 -u "$SIZE" -f "$D" -a --verify --compress 2

finish
