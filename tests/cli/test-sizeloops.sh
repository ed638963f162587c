#!/bin/bash
# --size and --loops: each boundary. --size: the exact bytes each thread
# moved (JSON), also at depth; --loops 2: every block of each thread's
# share read exactly twice, counted from -vvv's trace of each submit with
# the null engine (no I/O, every submit traced), in order with --seq and in
# a permutation with --rand; -t shorter than the size ends the run at the
# time and says so; the warm-up counts toward neither; the table of
# passes; bad values exit 2 naming the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DIR=$WORK/dir
mkdir "$DIR"

# offsets [THREAD]: the offsets thread THREAD (0 if not given) submitted, one a line.
offsets() {
	sed -n "s/^atio: \[${1:-0}\] submit [a-z]*(fd -\{0,1\}[0-9]*, 4096 bytes, offset \([0-9]*\))\$/\1/p" \
		"$ERR"
}

# --size: each thread moves exactly its bytes; the run ends by size, without a time limit.
run_atio --engine null --read --rand -s 4K -u 64M -p 2 --size 3M --json -f "$DIR"
expect_code "--size 3M -p 2: exit 0" 0
expect_json "--size 3M -p 2: 6M moved in all" 'd["result"]["bytes"]' 6291456
expect_json "--size 3M -p 2: 3M by each thread" '[t["bytes"] for t in d["threads"]]' \
	'[3145728, 3145728]'
expect_json "--size 3M: ended by size" 'd["ended"]' size
expect_json "--size 3M: no time limit" 'd["settings"]["time_sec"]' None
expect_json "--size 3M: the setting" 'd["settings"]["size"]' 3145728
run_atio --engine null --write --seq -s 4K -u 64M -p 1 --size 40K -v -f "$DIR"
expect_code "--size 40K --write: exit 0" 0
expect_match "--size 40K: 10 writes" "$OUT" '^io: 10 writes, 40960 bytes'
expect_match "--size 40K: ended: size" "$OUT" '^ended: size$'
expect_no_match "--size 40K: no -t on the Cmdline" "$OUT" '^Cmdline: .* -t '
expect_match "--size 40K: the Cmdline carries it" "$OUT" '^Cmdline: .* --size 40K'
expect_match "--size 40K: no time limit in the header" "$OUT" '^Time: no limit '

# A run of -t alone says so too; it has no passes.
run_atio --engine null --read --rand -s 4K -u 64M -p 1 -t 0.2 --json -f "$DIR"
expect_json "-t 0.2: ended by time, no passes" '(d["ended"], d["passes"])' "('time', None)"

# At depth: nothing issued past the size, what is in flight reaped.
if direct_io_works "$DIR" && "$ATIO" --engine io_uring -a -f "$DIR" >/dev/null 2>&1; then
	run_atio --engine io_uring --iodepth 8 --read --rand --uncached -s 4K -u 8M -p 1 \
		--size 1M --json -f "$DIR"
	expect_code "--size 1M --iodepth 8: exit 0" 0
	expect_json "--size 1M --iodepth 8: 1M read" 'd["result"]["bytes"]' 1048576
	# A pass at depth: issued in the permutation's order, none past the last pass.
	run_atio --engine io_uring --iodepth 8 --read --rand --uncached -s 4K -u 256K -p 1 \
		--loops 2 -vvv --json -f "$DIR"
	expect_code "--loops 2 --iodepth 8: exit 0" 0
	check "--loops 2 --iodepth 8: each of the 64 blocks read twice" \
		[ "$(offsets | sort -n | uniq -c | awk '$1 == 2' | wc -l)/$(offsets | wc -l)" = 64/128 ]
	expect_json "--loops 2 --iodepth 8: two passes of 64" '[p["ops"] for p in d["passes"]]' \
		'[64, 64]'
else
	skip_check "--size at depth" "no io_uring with O_DIRECT in $DIR"
fi

# --loops 2: every block of the share twice, in order with --seq.
run_atio --engine null --read --seq -s 4K -u 256K -p 1 --loops 2 -vvv -f "$DIR"
expect_code "--loops 2 --seq: exit 0" 0
check "--loops 2 --seq: 128 submits" [ "$(offsets | wc -l)" = 128 ]
check "--loops 2 --seq: each of the 64 blocks twice" \
	[ "$(offsets | sort -n | uniq -c | awk '$1 == 2' | wc -l)" = 64 ]
check "--loops 2 --seq: in order" [ "$(offsets | head -64 | sort -n -c && echo sorted)" = sorted ]
expect_match "--loops 2: ended: loops" "$OUT" '^ended: loops$'
expect_count "--loops 2: a line a pass" "$OUT" '^pass [12]: .* 64 ops, p99 ' 2

# --rand: each pass a permutation of the share, the two passes in other orders.
run_atio --engine null --read --rand -s 4K -u 256K -p 2 --loops 2 -vvv -f "$DIR"
expect_code "--loops 2 --rand -p 2: exit 0" 0
for t in 0 1; do
	check "--loops 2 --rand: thread $t made 64 submits" [ "$(offsets $t | wc -l)" = 64 ]
	check "--loops 2 --rand: thread $t read each of its 32 blocks twice" \
		[ "$(offsets $t | sort -n | uniq -c | awk '$1 == 2' | wc -l)" = 32 ]
	check "--loops 2 --rand: thread $t's first pass touched every block once" \
		[ "$(offsets $t | head -32 | sort -u | wc -l)" = 32 ]
done
check "--loops 2 --rand: the passes go in other orders" \
	[ "$(offsets 0 | head -32 | md5sum)" != "$(offsets 0 | tail -32 | md5sum)" ]
check "--loops 2 --rand: not in order" [ "$(offsets 0 | head -32 | sort -n -c 2>/dev/null ||
	echo unsorted)" = unsorted ]

# JSON: the array of passes; the total is their sum.
run_atio --engine null --write --rand -s 4K -u 256K -p 2 --loops 3 --json -f "$DIR"
expect_code "--loops 3 --json: exit 0" 0
expect_json "--loops 3: three passes" 'len(d["passes"])' 3
expect_json "--loops 3: each pass 64 writes, whole" \
	'[(p["pass"], p["ops"], p["whole"]) for p in d["passes"]]' \
	'[(1, 64, True), (2, 64, True), (3, 64, True)]'
expect_json "--loops 3: 192 writes in all" 'd["result"]["ops"]' 192
expect_json "--loops 3: ended by loops" 'd["ended"]' loops
expect_json "--loops 3: the passes' p99" \
	'all(p["latency_ns"]["count"] == 64 for p in d["passes"])' True

# The first limit reached ends the run: --size before --loops, and the reverse.
run_atio --engine null --read --seq -s 4K -u 256K -p 1 --loops 2 --size 100K --json -f "$DIR"
expect_json "--loops 2 --size 100K: ended by size" '(d["ended"], d["result"]["ops"])' \
	"('size', 25)"
run_atio --engine null --read --seq -s 4K -u 256K -p 1 --loops 1 --size 1M --json -f "$DIR"
expect_json "--loops 1 --size 1M: ended by loops" '(d["ended"], d["result"]["ops"])' \
	"('loops', 64)"

# -t shorter than the size (1T at 4K: no engine gets there in 0.5 s): the time ends it.
run_atio --engine null --read --rand -s 4K -u 64M -p 1 --size 1T -t 0.5 --json -f "$DIR"
expect_code "--size 1T -t 0.5: exit 0" 0
expect_json "--size 1T -t 0.5: ended by time" 'd["ended"]' time
expect_json "--size 1T -t 0.5: less moved" 'd["result"]["bytes"] < 1 << 40' True
run_atio --engine null --read --rand -s 4K -u 64M -p 1 --size 1T -t 0.5 -v -f "$DIR"
expect_match "--size 1T -t 0.5: ended: time" "$OUT" '^ended: time$'
expect_match "--size 1T -t 0.5: the header's limits" "$OUT" \
	'^Limits: 1T a thread \(1T in all\), -t 0.5 sec; the first reached ends the run'
run_atio --engine null --read --rand -s 4K -u 64M -p 1 --loops 1000000 -t 0.5 --json -f "$DIR"
expect_json "--loops 1000000 -t 0.5: ended by time" 'd["ended"]' time
expect_json "--loops 1000000 -t 0.5: the last pass partial" 'd["passes"][-1]["whole"]' False

# The warm-up counts toward neither: it traced I/Os of its own, the result has the size.
run_atio --engine null --read --seq -s 4K -u 64M -p 1 -w 0.3 --size 40K -vvv --json -f "$DIR"
expect_code "-w 0.3 --size 40K: exit 0" 0
expect_json "-w 0.3 --size 40K: 40K measured" 'd["result"]["bytes"]' 40960
check "-w 0.3 --size 40K: the warm-up did I/O too" [ "$(offsets | wc -l)" -gt 10 ]
run_atio --engine null --read --seq -s 4K -u 256K -p 1 -w 0.3 --loops 2 -vvv --json -f "$DIR"
expect_json "-w 0.3 --loops 2: two passes of 64 measured" \
	'(d["result"]["ops"], [p["ops"] for p in d["passes"]])' '(128, [64, 64])'
check "-w 0.3 --loops 2: the measured passes each block twice" \
	[ "$(offsets | tail -128 | sort -n | uniq -c | awk '$1 == 2' | wc -l)" = 64 ]

# Bad values: exit 2, the value named.
bad() {
	local want=$1

	shift
	run_atio --engine null -s 4K -u 64M -f "$DIR" "$@"
	expect_code "$*: exit 2" 2
	expect_match "$*: the value named" "$ERR" "$want"
}
bad '^atio: --size 0: ' --size 0
bad '^atio: --size -4K: .*negative' --size -4K
bad '^atio: --size lots: not a size' --size lots
bad '^atio: --size 1K: less than one -s 4K block' --size 1K
bad '^atio: --size 6K: not a whole number of -s 4K blocks: give --size 4K or 8K' --size 6K
bad '^atio: --loops 0: ' --loops 0
bad '^atio: --loops -2: ' --loops -2
bad '^atio: --loops two: .*whole number' --loops two
bad '^atio: --loops 2: --expand' --loops 2 --expand -p 1
bad '^atio: --size 4K: --prepare' --size 4K --prepare
bad '^atio: --size: needs a value' --size
bad '^atio: --loops 2: not with --rewrite' --loops 2 --rewrite
run_atio --engine null -s 4K,8K -u 64M --size 1M -f "$DIR"
expect_code "--size with an -s mix: exit 2" 2
expect_match "--size with an -s mix: says so" "$ERR" '^atio: --size 1M: not with an -s mix'

finish
