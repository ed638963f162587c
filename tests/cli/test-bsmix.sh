#!/bin/bash
# -s with a mix of block sizes, read from -vvv's trace of each submit with
# the null engine (no I/O, every draw traced): over the first $D I/Os of a
# fixed --seed, each size's share within 1 point of the one asked, a size
# without a share taking an even part of the rest; per direction with
# --mix READS:WRITES; random offsets aligned to each I/O's own size, a
# sequential pass advancing by each I/O's size; the same draws again with
# the same --seed. --verify with a mix passes on good data, and still
# finds a damaged sector. Plain -s as before; the header, JSON and a
# Cmdline that runs the same again; bad specs refused naming the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=20000
DIR=$WORK/dir
mkdir "$DIR"

# trace [OP]: "SIZE OFFSET" of each submit of thread 0 (of OP, read or
# write, when given), the first $D of them.
trace() {
	sed -n "s/^atio: \[0\] submit ${1:-[a-z]*}(fd -\{0,1\}[0-9]*, \([0-9]*\) bytes, offset \([0-9]*\))\$/\1 \2/p" \
		"$ERR" | head -n "$D"
}

# shares [OP]: each size's share of trace's I/Os in percent, "SIZE=PCT"
# by size, on one line.
shares() {
	trace "$@" | awk '{ n[$1]++; t++ } END { for (s in n) printf "%d=%.2f\n", s, 100 * n[s] / t }' |
		sort -n | tr '\n' ' '
}

# near_shares WHAT GOT WANT: every SIZE=PCT of WANT within 1 point in GOT,
# and GOT has no other size.
near_shares() {
	check "$1: shares $2 within 1 point of $3" awk -v g="$2" -v w="$3" 'BEGIN {
		n = split(g, a, " "); m = split(w, b, " "); if (n != m) exit 1
		for (i = 1; i <= n; i++) { split(a[i], x, "="); got[x[1]] = x[2] }
		for (i = 1; i <= m; i++) { split(b[i], y, "=")
			if (!(y[1] in got) || got[y[1]] - y[2] > 1 || y[2] - got[y[1]] > 1) exit 1 } }'
}

# run_mix ARG...: one thread's -vvv trace of the null engine, long enough
# for $D I/Os of each kind asked for on a busy machine (about 100000
# traced I/Os a second here).
run_mix() {
	run_atio --engine null -p 1 -t 3 -vvv "$@" -f "$DIR"
	expect_code "$*: exit 0" 0
	if [ "$(trace | wc -l)" -lt "$D" ]; then
		not_ok "$*: $D I/Os traced" "only $(trace | wc -l) in $LAST"
		return 1
	fi
}

# Random: 50/30/20, each offset aligned to its own size and in the file.
run_mix --read --rand -s 4K/50,64K/30,1M/20 -u 1G --seed 5
near_shares "4K/50,64K/30,1M/20" "$(shares)" "4096=50 65536=30 1048576=20"
check "4K/50,64K/30,1M/20: every offset a multiple of its I/O's size, the I/O in the file" \
	[ "$(trace | awk '$2 % $1 || $2 + $1 > 1073741824' | wc -l)" = 0 ]
check "4K/50,64K/30,1M/20: 64K I/Os not all on 1M boundaries" \
	[ "$(trace | awk '$1 == 65536 && $2 % 1048576' | wc -l)" -gt 0 ]
first=$(trace | head -100 | md5sum)
run_mix --read --rand -s 4K/50,64K/30,1M/20 -u 1G --seed 5
check "--seed 5 again: the same sizes and offsets" [ "$(trace | head -100 | md5sum)" = "$first" ]
run_mix --read --rand -s 4K/50,64K/30,1M/20 -u 1G --seed 6
check "--seed 6: other draws" [ "$(trace | head -100 | md5sum)" != "$first" ]

# Blank shares split the rest: 50, 25, 25; a plain -s in IOPS counts I/Os of any size.
run_mix --write --rand -s 4K/50,64K,1M -u 1G --seed 7
near_shares "4K/50,64K,1M" "$(shares)" "4096=50 65536=25 1048576=25"
run_mix --read --rand -s 8K,16K,32K -u 1G --seed 7
near_shares "8K,16K,32K" "$(shares)" "8192=33.33 16384=33.33 32768=33.33"

# The bytes the result counts are the bytes of the I/Os, whatever their size.
read -r ops bytes < <(sed -n 's/^atio: \[0\] read(fd -1, \([0-9]*\) bytes, .*/\1/p' "$ERR" |
	awk '{ n++; s += $1 } END { printf "%d %.0f\n", n, s }')
expect_match "the io line counts $ops I/Os of $bytes bytes, as the trace" "$OUT" \
	"^io: $ops reads, $bytes bytes "

# Per direction: --mix 70 with READS:WRITES.
run_mix --mix 70 --rand -s 4K/50,64K/50:8K/20,1M/80 -u 1G --seed 3
near_shares "--mix 70 -s ...: the reads" "$(shares read)" "4096=50 65536=50"
near_shares "--mix 70 -s ...: the writes" "$(shares write)" "8192=20 1048576=80"
check "--mix 70: $D reads traced" [ "$(trace read | wc -l)" -ge "$D" ]
check "--mix 70: $D writes traced" [ "$(trace write | wc -l)" -ge "$D" ]
reads=$(sed -n 's/^atio: \[0\] submit \([a-z]*\)(.*/\1/p' "$ERR" | head -n "$D" | grep -c '^read$')
check "--mix 70 -s READS:WRITES: the reads are 70% of the I/Os" \
	awk -v r="$reads" -v d="$D" 'BEGIN { exit !(r / d > 0.69 && r / d < 0.71) }'
check "--mix 70 -s READS:WRITES: offsets aligned to each size" \
	[ "$(trace | awk '$2 % $1' | wc -l)" = 0 ]

# Sequential: each I/O starts where the one before ended, or at 0 once
# the rest of the file is too short for it.
run_mix --read --seq -s 4K/50,64K,1M -u 64M --seed 2
check "--seq: each I/O starts where the last ended (or the file starts again)" \
	[ "$(trace | awk 'NR > 1 && $2 != next_off && $2 != 0 { bad++ } { next_off = $2 + $1 }
		END { print bad + 0 }')" = 0 ]
check "--seq: the pass comes back to the start" [ "$(trace | awk 'NR > 1 && $2 == 0' | wc -l)" -gt 0 ]
near_shares "--seq 4K/50,64K,1M" "$(shares)" "4096=50 65536=25 1048576=25"

# --verify with a mix: random and sequential writes read back, reads of
# the prepared data, --mix; good data passes.
run_atio --write --rand -s 4K/50,64K/30,1M/20 -p 2 -t 1 -u 32M --seed 3 --verify -f "$DIR/v"
expect_code "--write --rand --verify with a mix: exit 0" 0
expect_match "--write --rand --verify with a mix: read back, none bad" "$OUT" '^verify: .* none bad$'
run_atio --write --seq -s 4K,12K,64K -p 2 -t 1 -u 32M --verify -f "$DIR/v"
expect_code "--write --seq --verify with a mix: exit 0" 0
expect_match "--write --seq --verify with a mix: read back, none bad" "$OUT" '^verify: .* none bad$'
run_atio --read --rand -s 4K/50,64K/30,1M/20 -p 2 -t 1 -u 32M --verify -f "$DIR/v"
expect_code "--read --rand --verify with a mix: exit 0" 0
expect_match "--read --rand --verify with a mix: none bad" "$OUT" '^verify: .* none bad$'
run_atio --mix 50 --rand -s 4K/50,64K:8K,1M -p 2 -t 1 -u 32M --verify -f "$DIR/v"
expect_code "--mix 50 --verify with READS:WRITES: exit 0" 0
expect_match "--mix 50 --verify with READS:WRITES: none bad" "$OUT" '^verify: .* none bad$'
# At depth: never two I/Os of one unit in flight, whatever their sizes.
run_atio --write --rand -s 4K/40,12K/30,64K -p 1 -t 1 -u 8M --seed 4 --verify --iodepth 8 \
	--engine io_uring -f "$DIR/q"
if grep -q "io_uring.*not" "$ERR" && [ "$RC" != 0 ]; then
	skip_check "--verify --iodepth 8 with a mix" "io_uring is not available here"
else
	expect_code "--write --rand --verify --iodepth 8 with a mix: exit 0" 0
	expect_match "--verify --iodepth 8 with a mix: read back, none bad" "$OUT" \
		'^verify: .* none bad$'
fi
# ... and a damaged sector is still found by a pass that reads it.
file=$(find "$DIR" -name 'v*' -type f -size +1M | sort | head -1)
printf 'damage' | dd of="$file" bs=1 seek=5000 conv=notrunc status=none
run_atio --read --seq -s 4K/50,64K,1M -p 1 -n "$(find "$DIR" -name 'v*' -type f -size +1M | wc -l)" \
	-t 5 -u 32M --verify -f "$DIR/v"
expect_code "a damaged sector, --read --seq --verify with a mix: exit 1" 1
expect_match "a damaged sector: named" "$ERR" "^atio: verify: .*: offset 4608 "

# Plain -s as before; one size alone is plain -s.
run_atio -a --rand -s 4K -u 1G -f "$DIR"
expect_match "-s 4K: the Testcase as before" "$OUT" 'random read by 4KB blocks$'
run_atio -a --json --rand -s 4K/100 -u 1G -f "$DIR"
expect_json "-s 4K/100 is -s 4K: no mix in JSON" "d['settings']['block_mix']" "None"
expect_json "-s 4K/100: the Cmdline says -s 4K" "' -s 4K ' in d['settings']['cmdline']" "True"
expect_json "--rand: IOPS count I/Os" "d['settings']['rate_counts']" "ios"

# The header, JSON, a Cmdline that runs the same again.
run_atio -a --rand -s 4K/50,64K,1M -u 1G -f "$DIR"
expect_match "-a: Cmdline" "$OUT" '^Cmdline: -a --read --rand -s 4K/50,64K,1M --iops '
expect_match "-a: Testcase: the mix and how the rate counts" "$OUT" \
	'random read by a mix of block sizes by share of the I/Os: 4K 50%, 64K 25%, 1M 25% \(MB/s counts the bytes, IOPS every I/O whatever its size\)$'
cmd=$(sed -n 's/^Cmdline: //p' "$OUT")
# shellcheck disable=SC2086
run_atio $cmd -f "$DIR"
expect_match "the Cmdline runs again, the same" "$OUT" "^Cmdline: $cmd\$"
run_atio -a --json --mbs --mix 60 --rand -s 4K/50,64K/50:1M -u 1G -f "$DIR"
expect_json "--json: the mix by direction" \
	"[(m['direction'], m['size'], m['share']) for m in d['settings']['block_mix']]" \
	"[('read', 4096, 50), ('read', 65536, 50), ('write', 1048576, 100)]"
expect_json "--json --mbs: MB/s counts bytes" "d['settings']['rate_counts']" "bytes"
expect_json "--json: the block size is the largest" "d['settings']['block_size']" "1048576"

# Bad specs: exit 2 naming the value (-a: a spec taken by mistake runs no test).
bad_spec() {
	local spec=$1 named=$2

	shift 2
	run_atio -a --read --rand -s "$spec" -u 1G "$@" -f "$DIR"
	expect_code "-s $spec $*: exit 2" 2
	expect_match "-s $spec $*: names $named" "$ERR" "^atio: -s $spec: .*$named"
}
bad_spec 4K/50,64K/60 "110%"
bad_spec 4K/60,64K/40,1M "100%"
bad_spec 4K/50,64K/30 "80%"
bad_spec 4K/0,64K 4K/0
bad_spec 4K/-5,64K 4K/-5
bad_spec 4K/x,64K 4K/x
bad_spec 4K/50,,64K "empty size"
bad_spec 4K/50,64K/50, "empty size"
bad_spec 4Q/50,64K/50 4Q
bad_spec 4K/50,4K/50 "4K is in the mix twice"
bad_spec 6K/50,64K/50 "6K: block size must be a multiple of 4096" --uncached
bad_spec 1000/50,4K/50 "1000: block size must be a multiple of 512"
bad_spec 4K/50,2G/50 "2G: block size must be at most 1G"
bad_spec 4K/100:64K/100 "need --mix"
bad_spec 4K/50,64K/50 "--dist" --dist zipf:1
run_atio --mix 50 --rand -s 4K/100:64K/100:1M/100 -u 1G -f "$DIR"
expect_code "-s with two ':': exit 2" 2
expect_match "-s with two ':': says so" "$ERR" "^atio: -s 4K/100:64K/100:1M/100: more than one ':'"
run_atio --read --seq --stride 128K -s 4K,64K -u 1G -f "$DIR"
expect_code "--stride with a mix: exit 2" 2
expect_match "--stride with a mix: says so" "$ERR" '^atio: -s 4K,64K: .*--stride'
run_atio -a --write --rand -s 4K,64K -u 1G --compress 2 -f "$DIR"
expect_code "--compress with a mix: exit 2" 2
expect_match "--compress with a mix: says so" "$ERR" '^atio: -s 4K,64K: .*--compress'
run_atio -a --rewrite --rand -s 4K,64K -u 1G -f "$DIR"
expect_code "--rewrite with a mix: exit 2" 2
expect_match "--rewrite with a mix: says so" "$ERR" '^atio: -s 4K,64K: .*--rewrite'

finish
