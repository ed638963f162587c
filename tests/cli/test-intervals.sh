#!/bin/bash
# --interval SEC: the intervals add up to the result exactly (ops, and each
# interval over the threads); their number follows from the time; -vv
# prints the same counts live; bad values exit 2 naming them. A real stall:
# the atio process is stopped (SIGSTOP) for a few seconds in the middle of
# a run, with the sync engine and with io_uring, and the longest stall it
# reports is within 10% of the stop's length as this script measured it.
# A paused filesystem: ext4 on a loop device is frozen (fsfreeze) for a
# few seconds under an uncached write run; the stall is measured the same
# way, and -vv says on stderr, while it lasts, that an interval is overdue.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads the JSON results)"

DS=$WORK/ds

# jget JQ-PATH: a member of the JSON document in $OUT.
jget() {
	jq -r "$1" "$OUT"
}

# The files, made once, so that the runs below start at once.
run_atio --prepare --read -p 2 -u 32M -f "$DS"
[ "$RC" -eq 0 ] || die "--prepare failed: $(cat "$ERR")"

# adds_up WHAT: in the --json document in $OUT, the intervals' ops, bytes
# and syncs add up to the result's; each interval's ops are the sum of the
# threads' intervals at the same index; their count is the time over the
# interval, rounded up.
adds_up() {
	local what=$1 why=() n want bad

	for k in ops bytes syncs; do
		[ "$(jget "[.intervals[].$k] | add")" = "$(jget ".result.$k")" ] ||
			why+=("the intervals' $k add up to $(jget "[.intervals[].$k] | add"), the result has $(jget ".result.$k")")
	done
	n=$(jget '.intervals | length')
	want=$(jq -r '(.result.time_sec / .settings.interval_sec - 1e-6) | ceil' "$OUT")
	[ "$n" = "$want" ] || why+=("$n intervals in $(jget .result.time_sec) s of $(jget .settings.interval_sec) s each, expected $want")
	[ "$(jget .timeline.intervals)" = "$n" ] || why+=("timeline.intervals is $(jget .timeline.intervals), not $n")
	bad=$(jq -r '. as $d | [range(0; $d.intervals | length) | select(
		([$d.threads[].intervals[.].ops // 0] | add) != $d.intervals[.].ops)] | length' "$OUT")
	[ "$bad" = 0 ] || why+=("$bad intervals whose ops are not the sum of the threads' at that index")
	[ "$(jget '[.intervals[].latency_ns.count] | add')" = "$(jget .latency_ns.count)" ] ||
		why+=("the intervals' latency counts do not add up to the run's")
	verdict "$what" "$OUT"
}

run_atio --read --rand -p 2 -t 2.5 -u 32M -f "$DS" --json
expect_code "--json: exit 0" 0
adds_up "default 1 s: intervals add up to the result, per thread too; count from the time"
why=()
[ "$(jget .settings.interval_sec)" = 1 ] || why+=("got $(jget .settings.interval_sec)")
verdict "settings.interval_sec is 1 by default" "$OUT"

run_atio --write --rand -p 2 -t 2.2 -u 32M -f "$DS" --interval 0.5 --json
expect_code "--interval 0.5 --write: exit 0" 0
adds_up "--interval 0.5 (writes and the final sync): intervals add up, count from the time"
why=()
[ "$(jget .settings.interval_sec)" = 0.5 ] || why+=("settings.interval_sec $(jget .settings.interval_sec)")
[ "$(jget '.intervals[0].duration_sec')" = 0.5 ] || why+=("first interval lasts $(jget '.intervals[0].duration_sec')")
[ "$(jget '.intervals[1].start_sec')" = 0.5 ] || why+=("second interval starts at $(jget '.intervals[1].start_sec')")
verdict "--interval 0.5: intervals of 0.5 s starting every 0.5 s" "$OUT"

# The final flush of a cached write run (1 MiB writes: much to flush) ends
# the time; its intervals show no I/O, but it is no stall: no stall reaches
# the end of the run.
mkdir -p "$WORK/flush"
run_atio --write --seq -s 1M -p 1 -t 1 -u 256M -f "$WORK/flush" --interval 0.1 --json
expect_code "a cached write run with its final flush: exit 0" 0
late=$(jq '.result.time_sec as $t | [.timeline.stall_list[] | select(.start_sec + .duration_sec > $t - 0.001)] | length' "$OUT")
if [ "$late" = 0 ]; then
	ok "the final flush is no stall: no stall reaches the end ($(jget .timeline.stalls) stalls, time $(jget .result.time_sec) s)"
else
	not_ok "the final flush is no stall: no stall reaches the end" "stalls: $(jq -c .timeline.stall_list "$OUT"), time $(jget .result.time_sec)"
fi

run_atio --mix 70 --rand -p 2 -t 1.5 -u 32M -f "$DS" --json
expect_code "--mix 70: exit 0" 0
bad=$(jq '[.intervals[] | select(.read.ops + .write.ops != .ops or
	.read.latency_ns.count + .write.latency_ns.count != .latency_ns.count)] | length' "$OUT")
why=()
[ "$bad" = 0 ] || why+=("$bad intervals do not")
verdict "--mix: each interval's reads and writes add up to it" "$OUT"
adds_up "--mix: intervals add up"

# The interval's length written as --interval takes it, never in exponent form.
run_atio --engine null --write -t 0.3 --interval 8784h
expect_match "text: --interval 8784h is 31622400 s, not 3.16224e+07" "$OUT" \
	'^intervals: 1 x 31622400 s; stalls: 0$'

# Text: the intervals line below the latency line; the result line unchanged.
run_atio --read --seq -p 1 -t 1.2 -u 32M -f "$DS" --interval 0.5
expect_code "text: exit 0" 0
check_result "text: one result line, as at_io_iops has it" MB/s
expect_match "text: the intervals line" "$OUT" \
	'^intervals: 3 x 0\.5 s: min [0-9.]+, median [0-9.]+, max [0-9.]+ MB/s; stalls: 0$'
if [ "$(grep -n '^intervals:' "$OUT" | cut -d: -f1)" = $(($(grep -n '^latency' "$OUT" | cut -d: -f1) + 1)) ]; then
	ok "text: the intervals line follows the latency line"
else
	not_ok "text: the intervals line follows the latency line"
	show stdout "$OUT"
fi

# -vv: one line per interval on stderr, with the JSON's counts.
run_atio --read --rand -p 2 -t 2.3 -u 32M -f "$DS" --interval 0.5 --json -vv
expect_code "-vv --json: exit 0" 0
live=$(sed -n 's/^atio: [0-9.]* s: .*, \([0-9]*\) ops, p99 [0-9.]* usec$/\1/p' "$ERR" | tr '\n' ' ')
json=$(jq -r '[.intervals[].ops | tostring] | join(" ")' "$OUT")
if [ "$live" = "$json " ]; then
	ok "-vv: a line per interval on stderr with the JSON's ops ($json)"
else
	not_ok "-vv: a line per interval on stderr with the JSON's ops" "stderr: $live" "json: $json"
	show stderr "$ERR"
fi

# atio merge: two runs' intervals summed index by index; a document
# without intervals (as an older atio wrote) merges without them.
for k in 1 2; do
	run_atio --read --rand -p 1 -t 2.2 -u 32M -f "$DS" --json
	cp "$OUT" "$WORK/m$k.json"
done
run_atio merge --json --unaligned "$WORK/m1.json" "$WORK/m2.json"
expect_code "merge --json of two runs: exit 0" 0
why=()
[ "$(jget '[.intervals[].ops] | add')" = "$(jget .ops)" ] ||
	why+=("the merged intervals' ops add up to $(jget '[.intervals[].ops] | add'), the merge has $(jget .ops)")
for i in 0 1 2; do
	a=$(jq -s ".[0].intervals[$i].ops + .[1].intervals[$i].ops" "$WORK/m1.json" "$WORK/m2.json")
	[ "$(jget ".intervals[$i].ops")" = "$a" ] || why+=("interval $i: $(jget ".intervals[$i].ops") ops, the documents' add up to $a")
	[ "$(jget ".intervals[$i].documents")" = 2 ] || why+=("interval $i: documents $(jget ".intervals[$i].documents")")
done
n=$(jq -s '[.[].intervals | length] | max' "$WORK/m1.json" "$WORK/m2.json")
want=$(jq -sc '[.[].intervals | length]' "$WORK/m1.json" "$WORK/m2.json")
[ "$(jget '.intervals | length')" = "$n" ] || why+=("$(jget '.intervals | length') merged intervals, the longer document has $n")
[ "$(jget '[.documents_merged[].interval_values | length] | tostring')" = "$want" ] ||
	why+=("documents_merged interval_values lengths $(jget '[.documents_merged[].interval_values | length] | tostring')")
verdict "merge: intervals summed index by index, each document's values kept" "$OUT"
run_atio merge --unaligned "$WORK/m1.json" "$WORK/m2.json"
expect_match "merge: the cluster's intervals line" "$OUT" \
	"^intervals: $n x 1 s: min [0-9.]+, median [0-9.]+, max [0-9.]+ IOPS; stalls: 0\$"
jq -c 'del(.intervals, .timeline)' "$WORK/m2.json" >"$WORK/old.json"
run_atio merge --unaligned "$WORK/m1.json" "$WORK/old.json"
expect_code "merge with a document without intervals: exit 0" 0
expect_no_match "merge with a document without intervals: no intervals line" "$OUT" '^intervals:'
expect_match "merge with a document without intervals: the sum" "$OUT" '^Sum value = \{ [0-9.]+ \} IOPS;$'
jq -c '.intervals[0].ops += 1' "$WORK/m2.json" >"$WORK/bad.json"
run_atio merge "$WORK/m1.json" "$WORK/bad.json"
expect_code "merge of intervals that do not add up: exit 2" 2
expect_match "merge of intervals that do not add up: said, naming the file" "$ERR" "bad\.json: intervals\[0\]"
# Stalls out of order (the merge intersects sorted spans): refused.
jq -c '.timeline.stall_list = [{"start_sec": 2, "duration_sec": 1}, {"start_sec": 0.5, "duration_sec": 1}]' \
	"$WORK/m2.json" >"$WORK/unsorted.json"
run_atio merge "$WORK/m1.json" "$WORK/unsorted.json"
expect_code "merge of stalls out of order: exit 2" 2
expect_match "merge of stalls out of order: said, naming the file" "$ERR" \
	'unsorted\.json: timeline\.stall_list\[1\]: starts at 0\.5 s, before the end of the stall before it'
jq -c '.timeline.interval_sec = 1e300' "$WORK/m2.json" >"$WORK/huge.json"
run_atio merge "$WORK/m1.json" "$WORK/huge.json"
expect_code "merge of an interval of 1e300 s: exit 2" 2

# Bad values exit 2 and name them.
for bad in 0 0.05 -1 abc 1x 2d ''; do
	run_atio --read -t 1 -u 32M -f "$DS" --interval "$bad"
	expect_code "--interval '$bad': exit 2" 2
	if [ -n "$bad" ]; then
		expect_match "--interval '$bad': named in the message" "$ERR" "^atio: --interval $bad: "
	fi
done
run_atio --prepare -u 32M -f "$DS" --interval 2
expect_code "--prepare --interval: exit 2" 2
expect_match "--prepare --interval: said" "$ERR" "^atio: --prepare and --interval 2: "
run_atio --check -u 32M -f "$DS" --interval 2
expect_code "--check --interval: exit 2" 2
expect_match "--check --interval: said" "$ERR" "^atio: --interval 2: --check reads the dataset once"
run_atio --read -t 1 -u 32M -f "$DS" --interval 1 --interval 2
expect_code "--interval given twice: exit 2" 2
expect_match "--interval given twice: said" "$ERR" "--interval given twice \\(1 and 2\\)"

# wait_interval_line: wait (up to 10 s) until the atio started last has
# printed its first interval line (-vv) on $ERR.
wait_interval_line() {
	local n=0
	while ! grep -q '^atio: [0-9.]* s: ' "$ERR" && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
}

# stall WHAT ARG...: start a run with -vv, wait for its first interval line,
# stop the process for about 2.5 s, let it go on, and compare the longest
# stall of its JSON with the stop's length, measured here from just
# before kill -STOP to just after kill -CONT.
stall() {
	local what=$1 t0 t1 stop longest n why=()

	shift
	# Empty before the start: the wait below must not see an earlier run's lines.
	: >"$ERR"
	start_atio --read --rand -p 2 -t 6 -u 32M -f "$DS" --json -vv "$@"
	wait_interval_line
	t0=$EPOCHREALTIME
	kill -STOP "$PID"
	sleep 2.5
	kill -CONT "$PID"
	t1=$EPOCHREALTIME
	wait_exit 60
	stop=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
	[ "$RC" -eq 0 ] || why+=("exit $RC")
	longest=$(jget .timeline.longest_stall_sec)
	near "$longest" "$stop" 0.10 || why+=("longest stall $longest s, the stop lasted $stop s")
	[ "$(jget .timeline.stalls)" -ge 1 ] || why+=("no stall counted")
	[ "$(jget '[.intervals[] | select(.stalled)] | length')" -ge 1 ] ||
		why+=("no interval marked stalled")
	verdict "$what: the longest stall ($longest s) is within 10% of the stop ($stop s)" "$OUT"
}

stall "sync engine, cached"
if "$ATIO" --engine io_uring --read -t 0.2 -u 32M -f "$DS" --uncached >/dev/null 2>&1; then
	stall "io_uring, depth 8, uncached" --engine io_uring --iodepth 8 --uncached
else
	skip_check "io_uring stall" "the io_uring engine cannot run here"
fi

# The filesystem of the frozen-filesystem check, thawed at exit.
FROZEN=''
# shellcheck disable=SC2317 # called by the EXIT trap
thaw_cleanup() {
	if [ -n "$FROZEN" ]; then
		fsfreeze -u "$FROZEN" 2>/dev/null || true
	fi
	cleanup
}
trap thaw_cleanup EXIT

# frozen_fs: an uncached random write run with -vv --interval 0.5 on ext4
# over a loop device; the filesystem frozen (fsfreeze: every write waits)
# for about 2.5 s, then thawed. Unlike SIGSTOP, atio's main thread goes on
# meanwhile, so -vv says that an interval is overdue.
frozen_fs() {
	local what="a frozen filesystem (fsfreeze)" mnt=$WORK/mnt t0 t1 stop longest n why=()

	if ! command -v fsfreeze >/dev/null 2>&1; then
		skip_check "$what" "fsfreeze is not installed"
		return 0
	fi
	if ! ext4_loop 128M "$mnt"; then
		skip_check "$what" "$WHY"
		return 0
	fi
	run_atio --prepare -p 1 -u 32M -f "$mnt/ds"
	[ "$RC" -eq 0 ] || die "--prepare on the loop device failed: $(cat "$ERR")"
	: >"$ERR"
	start_atio --write --rand -p 1 -t 6 -u 32M -f "$mnt/ds" --uncached --json -vv --interval 0.5
	wait_interval_line
	t0=$EPOCHREALTIME
	FROZEN=$mnt
	fsfreeze -f "$mnt"
	sleep 2.5
	fsfreeze -u "$mnt"
	t1=$EPOCHREALTIME
	FROZEN=''
	wait_exit 60
	stop=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
	[ "$RC" -eq 0 ] || why+=("exit $RC")
	longest=$(jget .timeline.longest_stall_sec)
	near "$longest" "$stop" 0.10 || why+=("longest stall $longest s, the freeze lasted $stop s")
	verdict "$what: the longest stall ($longest s) is within 10% of the freeze ($stop s)" "$OUT"
	expect_match "$what: -vv says an interval is overdue while it lasts" "$ERR" \
		'^atio: [0-9.]+ s: interval [0-9]+ not closed by 1 of 1 threads: no I/O completed in them since$'
	adds_up "$what: the intervals still add up"
}
frozen_fs

finish
