#!/bin/bash
# Rewriting in place. --rewrite reads each block and writes new data back
# at the same offset: in -vvv's trace every write is of a block whose read
# completed before it and that no other write took, on each engine and at
# depth; every read is written back; the directions are counted apart and
# equal; the data after the run is new and passes --check and --verify.
# iozone's record rewrite as --dist 100/SIZE% (one block of the share):
# every I/O at the share's first block, the rest of the file untouched.
# --fadvise: its value in the header and JSON, bad values refused.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/dir
mkdir "$D"

# pairs THREAD: check thread THREAD's trace in $ERR: each write submitted
# is of a block (fd and offset) whose read completed before it and was not
# written back yet, and every read that completed was written back. Prints
# "ok READS WRITES", or what went wrong.
pairs() {
	awk -v t="[$1]" '
	$2 != t { next }
	{
		key = $0
		sub(/^.*\(fd /, "", key)
		sub(/, [0-9]* bytes, offset /, " ", key)
		sub(/\).*$/, "", key)
	}
	$3 ~ /^read\(/ { done[key]++; reads++; next }
	$3 == "submit" && $4 ~ /^write\(/ {
		if (done[key] < 1) { print "write of " key " without its read completed: line " NR; bad = 1; exit }
		done[key]--; writes++
	}
	END {
		if (bad) exit 1
		for (k in done) if (done[k]) { print "read of " k " never written back"; exit 1 }
		print "ok", reads, writes
	}' "$ERR"
}

# expect_pairs WHAT THREAD: pairs THREAD says ok, with at least one pair.
expect_pairs() {
	local got

	got=$(pairs "$2") || true
	case "$got" in
	"ok 0 "*) not_ok "$1" "no I/O in the trace" "command: $LAST" ;;
	ok*) ok "$1 (${got#ok })" ;;
	*) not_ok "$1" "$got" "command: $LAST" ;;
	esac
}

# --- Each write after its own read, on each engine ------------------------
run_atio --prepare -p 2 -u 256K -s 4K -f "$D/"
expect_code "prepare: exit 0" 0
for engine in sync io_uring libaio; do
	depth=8
	[ "$engine" = sync ] && depth=1
	run_atio --engine "$engine" --iodepth "$depth" -t 0.1 -s 4K -p 2 -u 256K -f "$D/"
	if [ "$RC" != 0 ]; then
		skip_check "--rewrite --engine $engine" "the engine does not run here (exit $RC)"
		continue
	fi
	# And --uncached at depth: libaio is asynchronous only with O_DIRECT.
	runs=("rand --cached" "seq --cached")
	if [ "$engine" != sync ] && direct_io_works "$D"; then
		runs+=("rand --uncached")
	fi
	for run in "${runs[@]}"; do
		order=${run% *}
		cache=${run#* }
		what="--rewrite --$order $cache --engine $engine --iodepth $depth"
		run_atio --rewrite "--$order" "$cache" --engine "$engine" --iodepth "$depth" -s 4K \
			-p 2 -u 256K -t 0.2 -vvv --json -f "$D/"
		expect_code "$what: exit 0" 0
		expect_pairs "$what: thread 0, each write after its block's read" 0
		expect_pairs "$what: thread 1, each write after its block's read" 1
		expect_json "$what: mode" 'd["settings"]["mode"]' rewrite
		expect_json "$what: as many writes as reads" \
			'd["read"]["ops"] == d["write"]["ops"] > 0' True
		expect_json "$what: the total counts both" \
			'd["result"]["ops"] == d["read"]["ops"] + d["write"]["ops"]' True
		expect_json "$what: each direction's latency" \
			'd["read"]["latency_ns"]["count"] == d["write"]["latency_ns"]["count"]' True
	done
done

# At depth 1 the order is exact: read, its completion, the write, its completion.
run_atio --rewrite --seq -s 4K -p 1 -n 1 -u 64K -t 0.1 -vvv -f "$D/one"
expect_code "--rewrite --seq -p 1: exit 0" 0
got=$(sed -n 's/^atio: \[0\] \(submit \)\{0,1\}\([a-z]*\)(fd [0-9]*, 4096 bytes, offset \([0-9]*\)).*$/\1\2 \3/p' \
	"$ERR" | head -8 | paste -sd ,)
check "--rewrite --seq: read, then write back, block after block" \
	[ "$got" = "submit read 0,read 0,submit write 0,write 0,submit read 4096,read 4096,submit write 4096,write 4096" ]

# --- The data: new, stamped, checked -----------------------------------------
before=$(md5sum <"$D/one.0")
run_atio --rewrite --seq -s 4K -p 1 -n 1 -u 64K -t 0.2 --verify -f "$D/one"
expect_code "--rewrite --verify: exit 0" 0
expect_match "--rewrite --verify: every block read back, none bad" "$OUT" '^verify: .* none bad$'
after=$(md5sum <"$D/one.0")
check "--rewrite: the file holds other data than before" [ "$before" != "$after" ]
run_atio --check -p 1 -n 1 -u 64K -f "$D/one"
expect_code "--check after --rewrite: exit 0" 0
expect_match "--check after --rewrite: no bad sector" "$OUT" '0 bad sector\(s\); ok$'
run_atio --rewrite --rand --engine io_uring --iodepth 4 -s 4K -p 1 -n 1 -u 64K -t 0.2 --verify \
	-f "$D/one"
if [ "$RC" = 0 ] || ! grep -q 'io_uring' "$ERR"; then
	expect_code "--rewrite --rand --iodepth 4 --verify: exit 0" 0
	run_atio --check -p 1 -n 1 -u 64K -f "$D/one"
	expect_code "--check after --rewrite at depth: exit 0" 0
fi

# The header says what is counted.
run_atio -a --rewrite --rand -s 4K -u 1G -f "$D/"
expect_match "-a: Cmdline" "$OUT" '^Cmdline: -a --rewrite --rand -s 4K '
expect_match "-a: Testcase" "$OUT" 'random rewrite \(read each block, then write new data back in place\)'

# --- iozone's record rewrite: one block, over and over ------------------------
# 100% of the I/Os on 0.0001% of a 256-block share: the zone's one block.
run_atio --prepare -p 1 -n 1 -u 1M -s 4K -f "$D/rec"
rest_before=$(tail -c +4097 "$D/rec.0" | md5sum)
first_before=$(head -c 4096 "$D/rec.0" | md5sum)
run_atio --write --rand --dist 100/0.0001 -s 4K -p 1 -n 1 -u 1M -t 0.1 -vvv -f "$D/rec"
expect_code "record rewrite (--dist 100/0.0001): exit 0" 0
offs=$(sed -n 's/^atio: \[0\] submit write(fd [0-9]*, 4096 bytes, offset \([0-9]*\))$/\1/p' "$ERR" |
	sort -u | paste -sd ' ')
n=$(count_lines "$ERR" '^atio: \[0\] submit write')
check "record rewrite: every write at offset 0" [ "$offs" = 0 ]
check "record rewrite: more than one write ($n)" [ "$n" -gt 1 ]
check "record rewrite: the record holds new data" \
	[ "$(head -c 4096 "$D/rec.0" | md5sum)" != "$first_before" ]
check "record rewrite: the rest of the file untouched" \
	[ "$(tail -c +4097 "$D/rec.0" | md5sum)" = "$rest_before" ]
run_atio --rewrite --rand --dist 100/0.0001 -s 4K -p 1 -n 1 -u 1M -t 0.1 -vvv -f "$D/rec"
expect_code "record rewrite in place (--rewrite --dist 100/0.0001): exit 0" 0
offs=$(sed -n 's/^atio: \[0\] submit [a-z]*(fd [0-9]*, 4096 bytes, offset \([0-9]*\))$/\1/p' "$ERR" |
	sort -u | paste -sd ' ')
check "--rewrite --dist 100/0.0001: every read and write at offset 0" [ "$offs" = 0 ]
check "--rewrite --dist 100/0.0001: the rest of the file untouched" \
	[ "$(tail -c +4097 "$D/rec.0" | md5sum)" = "$rest_before" ]
run_atio --check -p 1 -n 1 -u 1M -f "$D/rec"
expect_code "--check after the record rewrite: exit 0" 0

# --- Refused -----------------------------------------------------------------
run_atio --rewrite --rate 100 -f "$D/"
expect_code "--rewrite --rate: exit 2" 2
expect_match "--rewrite --rate: says why" "$ERR" '--cap 100 with --rewrite'
run_atio --rewrite --mix 50 -f "$D/"
expect_code "--rewrite --mix: exit 2" 2
expect_match "--rewrite --mix: contradictory" "$ERR" 'contradictory'

# --- --fadvise -----------------------------------------------------------------
for bad in bogus RANDOM "" dontneed; do
	run_atio --fadvise "$bad" --read --rand -f "$D/"
	expect_code "--fadvise '$bad': exit 2" 2
	expect_match "--fadvise '$bad': named" "$ERR" "^atio: --fadvise( ${bad})?: "
done
run_atio --fadvise random --uncached --read --rand -f "$D/"
expect_code "--fadvise random --uncached: exit 2" 2
expect_match "--fadvise --uncached: says why" "$ERR" 'O_DIRECT bypasses'
for adv in random sequential normal none; do
	run_atio --read --rand -s 4K -p 2 -u 256K -t 0.1 --fadvise "$adv" --json -f "$D/"
	expect_code "--fadvise $adv: exit 0" 0
	expect_json "--fadvise $adv: in the JSON" 'd["settings"]["fadvise"]' "$adv"
	expect_json "--fadvise $adv: in the Cmdline" \
		'"--fadvise '"$adv"'" in d["settings"]["cmdline"]' True
done
run_atio --read --rand -s 4K -p 2 -u 256K -t 0.1 --json -f "$D/"
expect_json "no --fadvise: the default in the JSON" 'd["settings"]["fadvise"]' none
run_atio -a --read --rand --fadvise random -f "$D/"
expect_match "-a --fadvise random: the header says it" "$OUT" '^Fadvise: random '

finish
