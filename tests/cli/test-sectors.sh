#!/bin/bash
# Every 512-byte sector atio writes is unique, and nothing in its files
# compresses: after the fill, after random 4K writes (one at a time, and
# many in flight), and after 16M sequential writes, no two sectors of the
# file are equal, and gzip -1 and zstd -1 --long=27 (a window longer than
# the file) save less than 1% of it. Also with a thread's share larger
# than the least pool (8 MiB): the pool grows to cover the share (up to
# 128 MiB a thread), so no keystream repeats within it, in one file or
# across a thread's files; the settings say the pool and when data repeats.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to compare sectors"

# dup_sectors FILE: how many 512-byte sectors of FILE repeat an earlier one.
dup_sectors() {
	python3 -c '
import hashlib, sys
seen, dups = set(), 0
with open(sys.argv[1], "rb") as f:
    while True:
        s = f.read(512)
        if not s:
            break
        h = hashlib.blake2b(s, digest_size=16).digest()
        dups += h in seen
        seen.add(h)
print(dups)' "$1"
}

# saves_under_1pct FILE COMPRESSOR ARG...: COMPRESSOR's output of FILE is
# at least 99% of its size.
# shellcheck disable=SC2317 # called through check
saves_under_1pct() {
	local f=$1 size out

	shift
	size=$(file_size "$f")
	out=$("$@" -c "$f" | wc -c)
	[ $((out * 100)) -ge $((size * 99)) ]
}

# not COMMAND...: COMMAND fails.
# shellcheck disable=SC2317 # called through check
not() {
	! "$@"
}

# sectors_ok WHAT FILE: the checks above, after WHAT.
sectors_ok() {
	local what=$1 f=$2 dups

	dups=$(dup_sectors "$f")
	if [ "$dups" -eq 0 ]; then
		ok "$what: no two 512-byte sectors alike"
	else
		not_ok "$what: no two 512-byte sectors alike" \
			"$dups of $(($(file_size "$f") / 512)) sectors repeat another" "command: $LAST"
	fi
	check "$what: gzip -1 saves under 1%" saves_under_1pct "$f" gzip -1
	if command -v zstd >/dev/null 2>&1; then
		check "$what: zstd -1 --long=27 saves under 1%" \
			saves_under_1pct "$f" zstd -q -1 --long=27
	else
		skip_check "$what: zstd -1 --long=27 saves under 1%" "zstd is not installed"
	fi
}

D=$WORK/d
mkdir "$D"
F=$D/atio.0

# One 32 MiB file: the fill, then a short read that changes nothing.
run_atio --read -t 0.05 -s 4K -p 1 -n 1 -u 32M -f "$D" --seed 1
expect_code "fill a 32 MiB file: exit 0" 0
sectors_ok "the fill" "$F"

# Four threads share the file, 8 MiB each, far more writes than blocks.
run_atio --write --rand -s 4K -p 4 -n 1 -u 32M -t 0.5 -f "$D" --seed 2
expect_code "random 4K writes: exit 0" 0
sectors_ok "random 4K writes" "$F"

# The same again with 32 writes in flight per thread, when the engine runs.
if "$ATIO" --engine io_uring -a >/dev/null 2>&1 &&
	run_atio --engine io_uring --iodepth 32 --write --rand -s 4K -p 4 -n 1 -u 32M \
		-t 0.5 -f "$D" --seed 3 && [ "$RC" = 0 ]; then
	ok "random 4K writes, io_uring --iodepth 32: exit 0"
	sectors_ok "random 4K writes in flight" "$F"
else
	skip_check "random 4K writes in flight" "io_uring does not run here"
fi

# Two 16M blocks, rewritten in turn many times.
run_atio --write --seq -s 16M -p 1 -n 1 -u 32M -t 0.5 -f "$D" --seed 4
expect_code "sequential 16M writes: exit 0" 0
sectors_ok "sequential 16M writes" "$F"

# A 64 MiB file, a 64 MiB share for one thread and 32 MiB each for two:
# fill, random 4K writes (many more than blocks), then 16M writes.
for p in 1 2; do
	rm -rf "$D"
	mkdir "$D"
	run_atio --read -t 0.05 -s 4K -p "$p" -n 1 -u 64M -f "$D" --seed 11
	expect_code "-p $p, fill a 64 MiB file: exit 0" 0
	sectors_ok "-p $p, the 64 MiB fill" "$F"
	run_atio --write --rand -s 4K -p "$p" -n 1 -u 64M -t 1 -f "$D" --seed 12
	expect_code "-p $p, random 4K writes over 64 MiB: exit 0" 0
	sectors_ok "-p $p, random 4K writes over 64 MiB" "$F"
	run_atio --write --seq -s 16M -p "$p" -n 1 -u 64M -t 0.5 -f "$D" --seed 13
	expect_code "-p $p, 16M writes over 64 MiB: exit 0" 0
	sectors_ok "-p $p, 16M writes over 64 MiB" "$F"
done

# One thread with two 32 MiB files: its share is both, and the two files
# together hold no keystream twice.
rm -rf "$D"
mkdir "$D"
run_atio --write --rand -s 4K -p 1 -n 2 -u 64M -t 1 -f "$D" --seed 14
expect_code "one thread, two files, random 4K writes: exit 0" 0
cat "$D/atio.0" "$D/atio.1" >"$WORK/both"
sectors_ok "one thread's two files together" "$WORK/both"
rm -f "$WORK/both"

# The settings say the pool a thread has and when its data repeats.
POOL='" ".join(str(d["settings"][k]) for k in ("pool_bytes", "pool_share_bytes", "data_repeats_every"))'
run_atio -a --json --write --rand -s 4K -p 2 -n 1 -u 64M -f "$D"
expect_json "two 32 MiB shares: 32 MiB pools, nothing repeats" "$POOL" "33554432 33554432 None"
run_atio -a --json --write --rand -s 4K -p 1 -n 1 -u 1G -f "$D"
expect_json "a 1 GiB share: a 128 MiB pool, repeating every 128 MiB" "$POOL" \
	"134217728 1073741824 134217728"
run_atio -a --json --read --rand -s 4K -p 1 -n 1 -u 1G -f "$D"
expect_json "reads: no pool" "$POOL" "None None None"
run_atio -a --write --rand -s 4K -p 1 -n 1 -u 1G -f "$D"
check "the header says the data repeats every 128 MiB" \
	grep -q "^Write pool: 128.00 MiB .* repeats every 128.00 MiB" "$OUT"

# Memory bounds the pools: with as many threads as leave each about 48 MiB
# of half of MemAvailable, a 256 MiB share gets a 32 MiB pool (the largest
# power of two that fits; MemAvailable may move a third either way).
avail_mib=$(($(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) / 1024))
p=$((avail_mib / 96))
if [ "$p" -ge 1 ] && [ "$p" -le 4096 ]; then
	run_atio -a --json --write --rand -s 4K -p "$p" -n 1 -u "$((p * 256))M" -f "$D"
	expect_json "-p $p with $avail_mib MiB available: 32 MiB pools, repeating every 32 MiB" \
		"$POOL" "33554432 268435456 33554432"
else
	skip_check "pools bounded by memory" "MemAvailable is $avail_mib MiB"
fi

# The check can fail: a file whose second half repeats its first.
head -c 16M "$F" >"$WORK/twice"
head -c 16M "$F" >>"$WORK/twice"
LAST="the check itself"
check "the sector check sees a file that repeats itself" [ "$(dup_sectors "$WORK/twice")" -eq 32768 ]
if command -v zstd >/dev/null 2>&1; then
	check "zstd --long sees a file that repeats itself" \
		not saves_under_1pct "$WORK/twice" zstd -q -1 --long=27
fi

finish
