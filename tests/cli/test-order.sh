#!/bin/bash
# The order of a sequential pass: --backward and --stride. The offsets of
# every I/O, read from -vvv's trace of each submit, are exactly those the
# man page promises: each thread's share once a pass, in lanes of the
# stride, the backward order the forward one reversed; never one block
# over and over. Two threads keep to their own shares. The options in the
# header, the Cmdline that runs again, and JSON; bad values refused.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/dir
mkdir "$D"
run_atio --prepare -p 2 -u 128K -s 4K -f "$D"
expect_code "prepare: exit 0" 0

# offsets THREAD: the block numbers (4K) thread THREAD submitted, in order,
# as one line.
offsets() {
	sed -n "s/^atio: \[$1\] submit [a-z]*(fd [0-9]*, 4096 bytes, offset \([0-9]*\))\$/\1/p" "$ERR" |
		awk '{ printf "%s%d", (NR > 1 ? " " : ""), $1 / 4096 } END { print "" }'
}

# expect_order WHAT THREAD WANT: the first blocks thread THREAD submitted
# are WANT (a prefix of a longer run is enough: the pass repeats).
expect_order() {
	local got

	got=$(offsets "$2")
	case "$got " in
	"$3 "*) ok "$1: $3" ;;
	*) not_ok "$1" "expected the blocks to begin: $3" "got: ${got:0:200}" "command: $LAST" ;;
	esac
}

# One thread of 16 blocks (64K), -t long enough for two passes; the page
# cache serves them. --iodepth 1: the submits are the I/Os in order.
one=(--read --seq -s 4K -p 1 -n 1 -u 64K -t 0.2 -vvv -f "$D/one")
run_atio --prepare -p 1 -u 64K -s 4K -f "$D/one"
forward=$(seq -s ' ' 0 15)
run_atio "${one[@]}"
expect_code "--seq: exit 0" 0
expect_order "--seq: in order, then again" 0 "$forward $forward"
run_atio "${one[@]}" --backward
expect_order "--backward: from the end, then again" 0 "$(seq -s ' ' 15 -1 0) $(seq -s ' ' 15 -1 0)"
lanes="0 3 6 9 12 15 1 4 7 10 13 2 5 8 11 14"
run_atio "${one[@]}" --stride 12K
expect_order "--stride 12K: lanes of 3 blocks, every block once a pass" 0 "$lanes $lanes"
rev=$(echo "$lanes" | tr ' ' '\n' | tac | paste -sd ' ')
run_atio "${one[@]}" --stride 12K --backward
expect_order "--stride 12K --backward: the forward order reversed" 0 "$rev $rev"
run_atio "${one[@]}" --stride 1M
expect_order "--stride past the share: each block once, in order" 0 "$forward $forward"
run_atio "${one[@]}" --stride 4K
expect_order "--stride of one block: plain --seq" 0 "$forward"
expect_no_match "--stride of one block: the Cmdline leaves it out" "$OUT" '--stride'

# Every block once a pass, whatever the stride: over the first pass of a
# stride that does not divide the share, the 16 blocks each once.
run_atio "${one[@]}" --stride 28K --backward
first=$(offsets 0 | cut -d ' ' -f 1-16 | tr ' ' '\n' | sort -n | paste -sd ' ')
check "--stride 28K --backward: the first 16 I/Os are the 16 blocks" [ "$first" = "$forward" ]

# Two threads, one file each of 16 blocks: each keeps to its own file and
# order (the fd tells the files apart; each thread's first I/Os are its own).
run_atio --read --seq -s 4K -p 2 -u 128K -t 0.2 -vvv --stride 8K --backward -f "$D"
expect_code "-p 2 --stride 8K --backward: exit 0" 0
want="15 13 11 9 7 5 3 1 14 12 10 8 6 4 2 0"
expect_order "-p 2: thread 0" 0 "$want"
expect_order "-p 2: thread 1" 1 "$want"

# A write test goes the same way, and every block it wrote is checked.
run_atio --write --seq -s 4K -p 1 -u 64K -t 0.2 -vvv --stride 12K --verify -f "$D/one"
expect_code "--write --stride 12K --verify: exit 0" 0
expect_order "--write --stride 12K: the lanes" 0 "$lanes"
expect_match "--write --stride 12K --verify: read back, none bad" "$OUT" '^verify: .* none bad$'

# The header, a Cmdline that runs the same again, JSON.
run_atio -a --seq --backward --stride 48K -s 16K -u 1G -f "$D"
expect_match "-a: Cmdline" "$OUT" '^Cmdline: .*--seq --backward --stride 48K -s 16K '
expect_match "-a: Testcase" "$OUT" 'backward sequential read by 16KB blocks with a stride of 48K$'
run_atio -a --json --seq --backward --stride 48K -s 16K -u 1G -f "$D"
check "-a --json: backward and stride" \
	[ "$(jq -c '.settings | [.backward, .stride]' "$OUT")" = '[true,49152]' ]

# Bad values: exit 2 naming the value.
for bad in "--rand --backward:--backward with --rand" "--stride 6K:--stride 6K" \
	"--stride 2K:--stride 2K" "--stride x:--stride x" "--stride 0:--stride 0" \
	"--check --stride 8K:--stride with --check" "--expand --backward:--backward with --expand"; do
	args=${bad%%:*}
	# shellcheck disable=SC2086
	run_atio $args -s 4K -u 1M -f "$D"
	expect_code "$args: exit 2" 2
	expect_match "$args: names it" "$ERR" "^atio: ${bad#*:}"
done

finish
