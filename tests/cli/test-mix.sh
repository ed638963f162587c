#!/bin/bash
# --mix R: R% of the I/Os read, the rest write, drawn per I/O. Bad values
# and other workloads with it are refused with exit 2, naming the value;
# the header and JSON say what runs; over 10,000 I/Os and more the share
# of reads is within 1 point of R (sync, io_uring and null engines, random
# and sequential); reads and writes add up to the totals; every block
# written carries a write stamp and every block only read keeps its fill
# stamp (with io_uring's registered buffers too); the final sync is in the
# run unless -S; atio merge adds two --mix documents per direction and
# refuses to merge one with a plain document.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# The stamp reader, built beside atio (build/tests/stamp-scan).
STAMP_SCAN=${STAMP_SCAN:-$(dirname "$ATIO")/tests/stamp-scan}

D=$WORK/d
mkdir "$D"

# --- Bad values and contradictions: exit 2, the value named.
for v in 0 100 50.5 abc -5 1e2; do
	run_atio --engine null --mix "$v" -t 1
	expect_code "--mix $v: exit 2" 2
	expect_match "--mix $v: the message names the value" "$ERR" "--mix $v: percentage of reads must be"
done
run_atio --engine null --mix "" -t 1
expect_code "--mix with an empty value: exit 2" 2
expect_match "--mix with an empty value: said so" "$ERR" '--mix: the value is empty'
for m in --read --write --fsync --fdatasync; do
	run_atio --engine null "$m" --mix 50 -t 1
	expect_code "$m --mix 50: exit 2" 2
	expect_match "$m --mix 50: contradictory workloads" "$ERR" "$m and --mix are contradictory"
done
run_atio --engine null --mix 50 --mix 60 -t 1
expect_code "--mix given twice: exit 2" 2
expect_match "--mix given twice: said so" "$ERR" '--mix given twice \(50 and 60\)'
run_atio --engine null --mix 50 -q 4 -t 1
expect_code "--mix with -q: exit 2" 2

# --- The settings: Cmdline reruns the test, Testcase words it.
run_atio -a --mix 70 --rand -f "$D"
expect_code "-a --mix 70 --rand: exit 0" 0
expect_match "-a: Cmdline with --mix 70 and the default unit IOPS" "$OUT" \
	'^Cmdline: -a --mix 70 --rand -s 4K --iops '
expect_match "-a: Testcase says random 70% read / 30% write" "$OUT" \
	'^Testcase: .* do cached random 70% read / 30% write by 4KB blocks$'
run_atio -a --mix 25 --seq --uncached -f "$D"
expect_match "-a --mix 25 --seq: MB/s by default" "$OUT" '^Cmdline: -a --mix 25 --seq -s 16M --mbs '
expect_match "-a --mix 25 --seq: Testcase" "$OUT" 'do uncached sequential 25% read / 75% write by'
run_atio -a --json --mix 70 --rand -f "$D"
expect_match "-a --json: mode mix and settings.mix 70" "$OUT" '"mode":"mix",.*"mix":70[,}]'

# mix_figures: "R_OPS R_BYTES R_SHARE W_OPS W_BYTES W_SHARE IO_OPS IO_BYTES"
# from the read:, write: and io: lines of $OUT.
mix_figures() {
	local r w io

	r=$(sed -nE 's/^read: [0-9.]+ IOPS, [0-9.]+ MB\/s, ([0-9]+) ops, ([0-9]+) bytes, share ([0-9.]+)%, latency \(usec\): .*/\1 \2 \3/p' "$OUT")
	w=$(sed -nE 's/^write: [0-9.]+ IOPS, [0-9.]+ MB\/s, ([0-9]+) ops, ([0-9]+) bytes, share ([0-9.]+)%, latency \(usec\): .*/\1 \2 \3/p' "$OUT")
	io=$(sed -nE 's/^io: ([0-9]+) ops, ([0-9]+) bytes .*/\1 \2/p' "$OUT")
	[ -n "$r" ] && [ -n "$w" ] && [ -n "$io" ] || return 1
	printf '%s %s %s\n' "$r" "$w" "$io"
}

# mix_run R BS ARG...: run --mix R with -s BS (bytes) and ARGs; check the result
# line, that reads and writes add up to the totals, and, over 10,000 I/Os
# or more, that the read share is within 1 point of R. A run of fewer
# I/Os is run again four times as long, once.
mix_run() {
	local r=$1 bs=$2 what f rops rbytes rshare wops wbytes wshare ops bytes t=0.3 why=()

	shift 2
	what="--mix $r -s $bs $*"
	run_atio --mix "$r" -s "$bs" -t "$t" --seed 7 "$@"
	if f=$(mix_figures) && [ "$(printf '%s\n' "$f" | awk '{print $7}')" -lt 10000 ]; then
		run_atio --mix "$r" -s "$bs" -t 1.2 --seed 7 "$@"
	fi
	expect_code "$what: exit 0" 0
	check_result "$what: one result line" "$(case " $* " in *" --seq "*) echo MB/s ;; *) echo IOPS ;; esac)"
	if ! f=$(mix_figures); then
		not_ok "$what: read:, write: and io: lines" "command: $LAST"
		show stdout "$OUT"
		return 0
	fi
	read -r rops rbytes rshare wops wbytes wshare ops bytes <<<"$f"
	[ $((rops + wops)) -eq "$ops" ] || why+=("reads $rops + writes $wops != $ops ops")
	[ $((rbytes + wbytes)) -eq "$bytes" ] || why+=("read bytes $rbytes + write bytes $wbytes != $bytes")
	[ "$rbytes" -eq $((rops * bs)) ] || why+=("read bytes $rbytes != $rops x $bs")
	[ "$wbytes" -eq $((wops * bs)) ] || why+=("write bytes $wbytes != $wops x $bs")
	near "$rshare" "$(awk -v a="$rops" -v n="$ops" 'BEGIN {printf "%.2f", a * 100 / n}')" 0.0001 ||
		why+=("read share $rshare% is not $rops of $ops")
	near "$(awk -v a="$rshare" -v b="$wshare" 'BEGIN {print a + b}')" 100 0.0002 ||
		why+=("shares $rshare% and $wshare% do not add up to 100%")
	verdict "$what: reads and writes add up to the totals" "$OUT"
	why=()
	if [ "$ops" -lt 10000 ]; then
		why+=("only $ops I/Os in $t s and again in 1.2 s: too few to judge the share")
	elif ! fcmp "$(awk -v a="$rops" -v n="$ops" -v r="$r" 'BEGIN {d = a * 100 / n - r; print d < 0 ? -d : d}')" '<=' 1; then
		why+=("$rops reads of $ops I/Os: $(awk -v a="$rops" -v n="$ops" 'BEGIN {printf "%.3f", a * 100 / n}')%, more than 1 point from $r%")
	fi
	verdict "$what: the read share is within 1 point of $r% over $ops I/Os" "$OUT"
}

# The null engine: millions of I/Os, atio's own draw alone.
for r in 1 10 50 90 99; do
	mix_run "$r" 4096 --engine null --rand
done
mix_run 70 1048576 --engine null --seq
# A warm-up's I/O is counted in neither direction.
mix_run 50 4096 --engine null --rand -p 2 -w 0.1

# Real files, from the page cache (--keep-cache after a fill), so that
# 10,000 I/Os take a fraction of a second on any disk.
run_atio --read -t 0.05 -s 4K -p 2 -n 1 -u 32M -f "$D" --keep-cache
expect_code "fill a 32 MiB file: exit 0" 0
mix_run 70 4096 --engine sync --rand -p 2 -n 1 -u 32M -f "$D" --keep-cache
mix_run 30 4096 --engine sync --seq -p 2 -n 1 -u 32M -f "$D" --keep-cache
if "$ATIO" -a --engine io_uring --iodepth 16 -f "$D" >/dev/null 2>&1; then
	mix_run 70 4096 --engine io_uring --iodepth 16 --rand -p 2 -n 1 -u 32M -f "$D" --keep-cache
	mix_run 50 4096 --engine io_uring --iodepth 16 --seq -p 2 -n 1 -u 32M -f "$D" --keep-cache
else
	skip_check "io_uring --mix runs" "the io_uring engine is not available here"
fi

# --- JSON: read and write beside the totals, adding up to them.
run_atio --engine null --rand --mix 70 -t 0.1 --json
expect_code "--json --mix 70: exit 0" 0
cp "$OUT" "$WORK/m.json"
# dir_field DIR KEY FILE: ops, bytes or the latency count of "read"/"write".
dir_field() {
	local re="\"$1\":\\{\"ops\":([0-9]+),\"bytes\":([0-9]+),\"iops\":[^,]+,\"mbs\":[^,]+,\"share\":[^,]+,\"latency_ns\":\\{\"count\":([0-9]+)," m

	m=$(cat "$3")
	[[ $m =~ $re ]] || return 1
	case $2 in
	ops) printf '%s\n' "${BASH_REMATCH[1]}" ;;
	bytes) printf '%s\n' "${BASH_REMATCH[2]}" ;;
	count) printf '%s\n' "${BASH_REMATCH[3]}" ;;
	esac
}
why=()
if rops=$(dir_field read ops "$WORK/m.json") && wops=$(dir_field write ops "$WORK/m.json"); then
	ops=$(sed -nE 's/.*"result":\{[^}]*"ops":([0-9]+),.*/\1/p' "$WORK/m.json")
	[ $((rops + wops)) -eq "$ops" ] || why+=("read.ops $rops + write.ops $wops != result.ops $ops")
	[ "$(dir_field read count "$WORK/m.json")" -eq "$rops" ] || why+=("read.latency_ns.count != read.ops")
	[ "$(dir_field write count "$WORK/m.json")" -eq "$wops" ] || why+=("write.latency_ns.count != write.ops")
	c=$(sed -nE 's/.*"latency_ns":\{"count":([0-9]+),.*"sync_latency_ns".*/\1/p' "$WORK/m.json")
	[ "$c" = "$ops" ] || why+=("the total latency_ns.count $c != $ops: it is not both directions")
else
	why+=("no \"read\" and \"write\" objects of the expected shape")
fi
verdict "--json: read and write objects add up to the result" "$WORK/m.json"
expect_match "--json: settings.mix and the Cmdline" "$WORK/m.json" '"cmdline":"--mix 70 --rand -s 4K --iops .*"mix":70[,}]'
run_atio --engine null --rand --read -t 0.05 --json
expect_match "--json --read: read and write are null" "$OUT" '"read":null,"write":null'
expect_match "--json --read: settings.mix is null" "$OUT" '"mix":null[,}]'

# --- Stamps: after a run, every block written carries a write stamp and
# every block only read keeps the fill's. -vvv names each I/O as it
# completes: "atio: [T] write(fd F, 4096 bytes, offset O) = 4096 in ...".
stamps_ok() {
	local what=$1 f=$2 blocks written bad wrong

	"$STAMP_SCAN" "$f" 4096 >"$WORK/scan" || {
		not_ok "$what: stamps read back" "stamp-scan $f failed"
		return 0
	}
	sed -nE 's/^atio: \[[0-9]+\] write\(fd [0-9]+, 4096 bytes, offset ([0-9]+)\) = 4096 in .*/\1/p' "$ERR" |
		sort -u >"$WORK/written"
	blocks=$(wc -l <"$WORK/scan")
	written=$(wc -l <"$WORK/written")
	bad=$(awk '$2 == "bad"' "$WORK/scan" | wc -l)
	# A block is "write" exactly when the run wrote it.
	wrong=$(awk 'NR == FNR { w[$1] = 1; next } ($2 == "write") != ($1 in w)' \
		"$WORK/written" "$WORK/scan" | wc -l)
	why=()
	[ "$written" -gt 0 ] || why+=("the trace shows no write")
	[ "$(count_lines "$ERR" '\] read\(fd [0-9]+, 4096 bytes')" -gt 0 ] || why+=("the trace shows no read")
	[ "$bad" -eq 0 ] || why+=("$bad of $blocks blocks do not check (stamp, offset or keystream)")
	[ "$wrong" -eq 0 ] || why+=("$wrong of $blocks blocks: written without a write stamp, or stamped without a write")
	verdict "$what: $written blocks written carry write stamps, the $((blocks - written)) others the fill's" "$WORK/scan"
}
if [ -x "$STAMP_SCAN" ]; then
	S=$WORK/s
	mkdir "$S"
	run_atio --engine sync --mix 50 --rand -s 4K -p 2 -n 1 -u 64M -t 0.05 -f "$S" -vvv --keep-cache
	expect_code "sync --mix 50 -vvv: exit 0" 0
	stamps_ok "sync --mix 50" "$S/atio.0"
	expect_match "sync --mix 50: the final fsync is in the run" "$ERR" '^atio: \[[0-9]+\] fsync\(fd '
	rm -rf "$S"
	mkdir "$S"
	if "$ATIO" -a --engine io_uring --iodepth 16 -f "$S" >/dev/null 2>&1; then
		run_atio --engine io_uring --iodepth 16 --mix 50 --rand -s 4K -p 1 -u 64M -t 0.05 -f "$S" -vvv -S --keep-cache
		expect_code "io_uring --iodepth 16 --mix 50 -vvv: exit 0" 0
		stamps_ok "io_uring --iodepth 16 --mix 50" "$S/atio.0"
		expect_no_match "io_uring --mix 50 -S: no final fsync" "$ERR" '\] fsync\(fd '
	else
		skip_check "io_uring stamps" "the io_uring engine is not available here"
	fi
else
	skip_check "stamps after --mix" "$STAMP_SCAN is not built"
fi

# --- atio merge: per direction, sums; a plain document refused.
run_atio --engine sync --rand --mix 70 -s 4K -p 2 -n 1 -u 32M -t 0.2 -f "$D" --keep-cache --json
expect_code "mix document 1: exit 0" 0
cp "$OUT" "$WORK/a.json"
run_atio --engine sync --seq --iops --mix 40 -s 4K -p 1 -n 1 -u 32M -t 0.2 -f "$D" --keep-cache --json
expect_code "mix document 2: exit 0" 0
cp "$OUT" "$WORK/b.json"
run_atio merge --unaligned "$WORK/a.json" "$WORK/b.json"
expect_code "merge of two --mix documents: exit 0" 0
cp "$OUT" "$WORK/merge.txt"
for dir in read write; do
	o=$(($(dir_field "$dir" ops "$WORK/a.json") + $(dir_field "$dir" ops "$WORK/b.json")))
	b=$(($(dir_field "$dir" bytes "$WORK/a.json") + $(dir_field "$dir" bytes "$WORK/b.json")))
	expect_match "merge: the $dir: line sums both documents' $dir ops and bytes" "$WORK/merge.txt" \
		"^$dir: [0-9.]+ IOPS, [0-9.]+ MB/s, $o ops, $b bytes, share [0-9.]+%, latency \\(usec\\): min [0-9.]+, mean [0-9.]+, p50 "
done
expect_no_match "merge: no line but the sum line holds the word rate" "$WORK/merge.txt" 'rate'
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/b.json"
expect_code "merge --json of two --mix documents: exit 0" 0
cp "$OUT" "$WORK/merge.json"
why=()
for dir in read write; do
	for k in ops bytes; do
		want=$(($(dir_field "$dir" "$k" "$WORK/a.json") + $(dir_field "$dir" "$k" "$WORK/b.json")))
		re="\"$dir\":\\{\"ops\":([0-9]+),\"bytes\":([0-9]+),"
		[[ $(cat "$WORK/merge.json") =~ $re ]] || { why+=("no $dir object"); continue; }
		got=${BASH_REMATCH[1]}
		[ "$k" = bytes ] && got=${BASH_REMATCH[2]}
		[ "$got" = "$want" ] || why+=("$dir.$k is $got, the documents add up to $want")
	done
	# The merged histogram holds every value of both documents.
	re="\"$dir\":\\{[^{]*\"latency_ns\":\\{\"count\":([0-9]+),"
	want=$(($(dir_field "$dir" count "$WORK/a.json") + $(dir_field "$dir" count "$WORK/b.json")))
	if [[ $(cat "$WORK/merge.json") =~ $re ]]; then
		[ "${BASH_REMATCH[1]}" = "$want" ] || why+=("$dir.latency_ns.count ${BASH_REMATCH[1]} != $want")
	else
		why+=("no $dir.latency_ns")
	fi
done
verdict "merge --json: read and write are the sums of both documents'" "$WORK/merge.json"
run_atio --engine sync --rand --read -s 4K -p 1 -n 1 -u 32M -t 0.1 -f "$D" --keep-cache --json
cp "$OUT" "$WORK/plain.json"
run_atio merge --unaligned "$WORK/a.json" "$WORK/plain.json"
expect_code "merge of a --mix and a plain document: exit 2" 2
expect_match "merge of a --mix and a plain document: names the plain file" "$ERR" \
	"merge: $WORK/plain.json: not a --mix run, the documents before it are --mix runs"
run_atio merge --unaligned "$WORK/plain.json" "$WORK/a.json"
expect_code "merge of a plain and a --mix document: exit 2" 2
expect_match "merge of a plain and a --mix document: names the --mix file" "$ERR" \
	"merge: $WORK/a.json: a --mix run, the documents before it are not"
# Another run of the same instant: the copy with another seed.
sed 's/"seed_string":"[0-9]*"/"seed_string":"1"/' "$WORK/plain.json" >"$WORK/plain2.json"
run_atio merge "$WORK/plain.json" "$WORK/plain2.json"
expect_code "merge of plain documents: exit 0 as before" 0
expect_no_match "merge of plain documents: no read: or write: line" "$OUT" '^(read|write):'

finish
