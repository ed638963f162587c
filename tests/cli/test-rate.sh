#!/bin/bash
# --rate N: the cap is held (within 1% over a few seconds, when the storage
# is far faster) one I/O at a time and at depth, in IOPS, MB/s and sync/s,
# through a warm-up; a cap above what the engine reaches reports the
# shortfall; the latency from the intended start is at least the service
# time at every percentile; a thread sleeps at a low cap; the output keeps
# the word "rate" on the result line; bad values exit 2 naming them;
# atio merge sums the caps.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads the JSON results)"

# jget JQ-PATH: a member of the JSON document in $OUT.
jget() {
	jq -r "$1" "$OUT"
}

# held WHAT CAP: the last run (--json) reached CAP within 1% either way, in
# its value and in result.target_reached, and says so with result.target.
held() {
	local what=$1 cap=$2 value target reached why=()

	value=$(jget .result.value)
	target=$(jget .result.target)
	reached=$(jget .result.target_reached)
	near "$value" "$cap" 0.01 || why+=("value $value is not within 1% of the cap $cap")
	fcmp "$target" '==' "$cap" || why+=("result.target is $target, not $cap")
	near "$reached" 1 0.01 || why+=("result.target_reached is $reached, not within 1% of 1")
	verdict "$what" "$OUT"
}

# dominated WHAT: in the last run's JSON, the latency from the intended
# start is at least the service time at every percentile, min, mean and
# max, over the same number of I/Os.
dominated() {
	local what=$1 k lat svc why=()

	[ "$(jget .latency_ns.count)" = "$(jget .service_latency_ns.count)" ] ||
		why+=("latency_ns.count $(jget .latency_ns.count) != service_latency_ns.count $(jget .service_latency_ns.count)")
	[ "$(jget .latency_ns.count)" -gt 0 ] || why+=("no I/O was counted")
	for k in min p50 p90 p99 p99.9 max mean; do
		lat=$(jget ".latency_ns[\"$k\"]")
		svc=$(jget ".service_latency_ns[\"$k\"]")
		fcmp "$lat" '>=' "$svc" || why+=("$k: latency $lat ns < service $svc ns")
	done
	verdict "$what" "$OUT"
}

# engine_runs NAME: the engine NAME is built in and the kernel lets it run.
engine_runs() {
	"$ATIO" --engine "$1" --iodepth 2 --read --rand -t 0.05 -u 16M --keep-cache \
		-f "$DS" >/dev/null 2>&1
}

# The runs on files read a 16M dataset that a first run wrote and read
# into the page cache, and keep it there (--keep-cache): a cap far below
# what the cache serves.
DS=$WORK/ds
mkdir "$DS"
run_atio --read --seq -s 1M -t 1 -u 16M -f "$DS"
expect_code "prepare a 16M dataset" 0

# --- Bad values: exit 2, the value named, nothing run. ---
for bad in 0 0.0 -5 abc 1e3 0x10 1.2.3 inf ' 5' ''; do
	run_atio --engine null --rand -t 1 --rate "$bad"
	expect_code "--rate '$bad': exit 2" 2
	if [ -n "$bad" ]; then
		expect_match "--rate '$bad': the message names the value" "$ERR" "--cap $bad: "
	else
		expect_match "--rate '': the message says the value is empty" "$ERR" "--cap: the value is empty"
	fi
	expect_count "--rate '$bad': nothing on stdout" "$OUT" . 0
done
# What is wrong is said: below 0 is no cap, 1e308 is a number in a form not taken.
for bad in -5 -0.5 0; do
	run_atio --engine null --rand -t 1 --rate "$bad"
	expect_match "--rate $bad: the cap must be more than 0" "$ERR" "^atio: --cap $bad: the cap must be more than 0$"
done
for bad in 1e308 1e3 0x10 inf; do
	run_atio --engine null --rand -t 1 --rate "$bad"
	expect_match "--rate $bad: a number in a form not taken, not \"not a number\"" "$ERR" \
		"^atio: --cap $bad: a number in a form --cap does not take .*plain digits"
done
run_atio --engine null --rand -t 1 --rate abc
expect_match "--rate abc: not a number" "$ERR" "^atio: --cap abc: not a number "
# A cap below one I/O per test time: the I/O due at the start, done, is 100%.
run_atio --engine null --rand -t 1 --rate 0.001
expect_code "--rate 0.001 -t 1: exit 0" 0
expect_match "--rate 0.001 -t 1: reached 100% (the one I/O due), not 100000%" "$OUT" \
	'^cap: 0\.001 IOPS per run, 0\.001 per thread; reached 100\.0%$'
run_atio --engine null --rand -t 3 --rate 0.5
expect_match "--rate 0.5 -t 3: the two I/Os due done, reached 100%" "$OUT" \
	'^cap: 0\.5 IOPS per run, 0\.5 per thread; reached 100\.0%$'
run_atio --engine null --rand -t 1 --rate 20000000000
expect_code "--rate 20000000000 (0.05 ns apart): exit 2" 2
expect_match "--rate 20000000000: too high, and why" "$ERR" "--cap 20000000000: too high: .*below the 1 ns"
run_atio --engine null --rand -p 4 -t 1 --rate 0.001
expect_code "--rate 0.001 with 4 threads (more than an hour apart): exit 2" 2
expect_match "--rate 0.001: too low, and why" "$ERR" "--cap 0.001: too low: .*more than an hour"
run_atio --engine null --seq -s 256M --mbs -t 0.1 --rate 0.05
expect_code "--rate 0.05 MB/s of 256M blocks (85 min apart): exit 2" 2
run_atio --engine null --seq -s 256M --mbs -t 0.1 --rate 0.1
expect_code "--rate 0.1 MB/s of 256M blocks (43 min apart): accepted" 0
run_atio --engine null --rand -t 1 --rate 5 --rate 6
expect_code "--rate given twice: exit 2" 2
expect_match "--rate given twice: both values named" "$ERR" "--cap given twice \(5 and 6\)"

# --- The settings: header, canonical command line, JSON. ---
run_atio -a --engine null --rand -p 2 -t 3 --rate 1000.5
expect_code "-a --rate 1000.5: exit 0" 0
expect_count "-a: no line with \"rate\" on stdout" "$OUT" rate 0
expect_match "-a: the Cmdline ends with the cap, named --cap" "$OUT" \
	'^Cmdline: -a --read --rand .* --cap 1000\.5 --engine null$'
expect_match "-a: the Cap line gives the run's and a thread's cap and the interval" "$OUT" \
	'^Cap: 1000\.5 IOPS per run, 500\.25 per thread, an I/O every 1999 usec per thread'
run_atio -a --json --engine null --seq -s 1M -p 4 -t 3 --rate 100
what="-a --json --seq -s 1M -p 4 --rate 100"
why=()
[ "$(jget .settings.cmdline)" = "-a --read --seq -s 1M --mbs -p 4 -n 4 -t 3 --cached -u 16G --cap 100 --engine null" ] ||
	why+=("cmdline: $(jget .settings.cmdline)")
[ "$(jget .settings.rate.unit)" = MB/s ] || why+=("settings.rate.unit: $(jget .settings.rate.unit)")
fcmp "$(jget .settings.rate.value)" '==' 100 || why+=("settings.rate.value: $(jget .settings.rate.value)")
fcmp "$(jget .settings.rate.per_thread)" '==' 25 || why+=("per_thread: $(jget .settings.rate.per_thread)")
# 25 MiB/s of 1 MiB blocks: 40 ms apart.
near "$(jget .settings.rate.interval_ns)" 40000000 1e-9 || why+=("interval_ns: $(jget .settings.rate.interval_ns)")
verdict "$what: settings.rate and the cmdline" "$OUT"

# The command line printed reruns the same test, as it is.
run_atio -a --engine null --rand -p 2 -t 3 --rate 1000.5
read -ra again <<<"$(sed -n 's/^Cmdline: //p' "$OUT")"
run_atio "${again[@]}"
expect_match "the Cmdline runs the same cap" "$OUT" '^Cap: 1000\.5 IOPS per run, 500\.25 per thread'

# --- Held one at a time: null and sync, IOPS and MB/s. ---
run_atio --json --engine null --rand -p 2 -t 4 --rate 5000
expect_code "null, 2 threads, --rate 5000: exit 0" 0
held "null, 2 threads, --rate 5000 IOPS: held within 1%" 5000
dominated "null, --rate 5000: latency from the intended start >= service time"

run_atio --json --engine sync --read --seq -s 64K -t 4 -u 16M --keep-cache --rate 50 -f "$DS"
expect_code "sync, cached 64K reads, --rate 50 MB/s: exit 0" 0
held "sync, cached 64K reads, --rate 50 MB/s: held within 1%" 50
if [ "$(jget .result.unit)" = MB/s ]; then
	ok "--rate 50 with --seq is in MB/s"
else
	not_ok "--rate 50 with --seq is in MB/s" "unit $(jget .result.unit)"
fi

# --- Held at depth: io_uring and libaio. ---
for e in io_uring libaio; do
	if ! engine_runs "$e"; then
		skip_check "--rate with $e at depth" "the $e engine is not built in or the kernel refuses it"
		continue
	fi
	run_atio --json --engine "$e" --iodepth 8 --read --rand -p 2 -t 4 -u 16M --keep-cache --rate 20000 -f "$DS"
	expect_code "$e --iodepth 8, --rate 20000: exit 0" 0
	held "$e --iodepth 8, 2 threads, --rate 20000 IOPS: held within 1%" 20000
	dominated "$e --iodepth 8, --rate 20000: latency from the intended start >= service time"
done

# --- sync/s: N syncs a second, the writes q times as many. ---
# The null engine, so that the disk's sync time (which another load on the
# machine can stretch) plays no part.
run_atio --json --engine null --fdatasync --rand -q 4 -t 4 --rate 40
expect_code "--fdatasync -q 4 --rate 40: exit 0" 0
held "--fdatasync -q 4 --rate 40 sync/s: held within 1%" 40
what="--fdatasync -q 4 --rate 40: writes at 4 x 40 a second"
why=()
[ "$(jget .result.unit)" = sync/s ] || why+=("unit $(jget .result.unit)")
near "$(jget .result.iops)" 160 0.01 || why+=("writes per second $(jget .result.iops), not 160")
verdict "$what" "$OUT"

# --- The warm-up: the schedule runs through it and on. ---
run_atio --json --engine null --rand -w 1 -t 4 --rate 1000
expect_code "null -w 1 -t 4 --rate 1000: exit 0" 0
held "null -w 1 -t 4 --rate 1000: the measured time holds the cap too" 1000
what="-w 1 -t 4 --rate 1000: 4000 I/Os measured, the warm-up's not among them"
why=()
near "$(jget .result.ops)" 4000 0.01 || why+=("ops $(jget .result.ops)")
verdict "$what" "$OUT"

# --- A thread sleeps at a low cap (CPU far below the elapsed time). ---
run_atio --json --engine null --rand -t 2 --rate 200
expect_code "null --rate 200: exit 0" 0
what="null --rate 200: the thread sleeps (CPU under a tenth of the time)"
why=()
cpu=$(jq '.result.cpu_user_sec + .result.cpu_sys_sec' "$OUT")
fcmp "$cpu" '<' "$(awk -v t="$(jget .result.time_sec)" 'BEGIN {print t / 10}')" ||
	why+=("CPU $cpu s over $(jget .result.time_sec) s")
verdict "$what" "$OUT"
if engine_runs io_uring; then
	run_atio --json --engine io_uring --iodepth 4 --read --rand -t 4 -u 16M --keep-cache --rate 200 -f "$DS"
	what="io_uring --iodepth 4 --rate 200: the thread sleeps (CPU under a tenth of the time)"
	why=()
	cpu=$(jq '.result.cpu_user_sec + .result.cpu_sys_sec' "$OUT")
	fcmp "$cpu" '<' "$(awk -v t="$(jget .result.time_sec)" 'BEGIN {print t / 10}')" ||
		why+=("CPU $cpu s over $(jget .result.time_sec) s")
	held "io_uring --iodepth 4 --rate 200: held within 1%" 200
	verdict "$what" "$OUT"
fi

# --- Above what the engine reaches: the shortfall shows. ---
# The null engine does tens of millions of I/Os a second at most; a
# billion (1 ns apart) is out of reach on any machine.
run_atio --engine null --rand -t 1 --rate 1000000000 -v
expect_code "null --rate 1000000000: exit 0" 0
check_result "null --rate 1000000000: one result line, the only one with \"rate\"" IOPS
expect_match "null --rate 1000000000: the cap line says the storage fell behind" "$OUT" \
	'^cap: 1000000000 IOPS per run, 1000000000 per thread; reached [0-9]+\.[0-9]%: the storage fell behind$'
pct=$(sed -nE 's/^cap: .* reached ([0-9.]+)%.*/\1/p' "$OUT")
what="null --rate 1000000000: reached below 99%"
why=()
fcmp "${pct:-100}" '<' 99 || why+=("reached ${pct:-nothing}%")
verdict "$what" "$OUT"
expect_match "the latency line says it runs from the intended start" "$OUT" \
	'^latency from intended start \(usec\): min '
expect_match "a service line follows" "$OUT" '^service \(usec\): min '
expect_match "-v: the header has the Cap line" "$OUT" '^Cap: 1000000000 IOPS per run'

if engine_runs io_uring; then
	# Behind at depth: every I/O due goes out at once, up to the depth.
	run_atio --json --engine io_uring --iodepth 4 --read --rand -t 1 -u 16M --keep-cache --rate 100000000 -f "$DS"
	expect_code "io_uring --iodepth 4 --rate 100000000: exit 0" 0
	what="io_uring --iodepth 4 --rate 100000000: the shortfall in JSON"
	why=()
	fcmp "$(jget .result.target_reached)" '<' 0.99 || why+=("target_reached $(jget .result.target_reached)")
	# Half a second behind is far more than any I/O takes to serve.
	fcmp "$(jget .latency_ns.max)" '>' "$(jget .service_latency_ns.max)" ||
		why+=("latency max $(jget .latency_ns.max) is not above service max $(jget .service_latency_ns.max)")
	fcmp "$(jget .latency_ns.p90)" '>' 100000000 || why+=("p90 from the intended start $(jget .latency_ns.p90) ns: the schedule slipped")
	verdict "$what" "$OUT"
	dominated "io_uring, behind: latency from the intended start >= service time"
fi

# --- Without --rate nothing changes. ---
run_atio --json --engine null --rand -t 0.2
what="no --rate: no cap in the JSON"
why=()
[ "$(jq 'has("service_latency_ns")' "$OUT")" = false ] || why+=("service_latency_ns present")
[ "$(jq '.settings | has("rate")' "$OUT")" = false ] || why+=("settings.rate present")
[ "$(jq '.result | has("target")' "$OUT")" = false ] || why+=("result.target present")
verdict "$what" "$OUT"
run_atio --engine null --rand -t 0.2
expect_count "no --rate: no cap line" "$OUT" '^cap:' 0
expect_count "no --rate: no service line" "$OUT" '^service' 0
expect_count "no --rate: the latency line as before" "$OUT" '^latency \(usec\): min ' 1

# --- atio merge sums the caps and merges the service times. ---
run_atio --json --engine null --rand -t 1 --rate 1000
cp "$OUT" "$WORK/a.json"
run_atio --json --engine null --rand -p 2 -t 1 --rate 3000
cp "$OUT" "$WORK/b.json"
run_atio merge --unaligned "$WORK/a.json" "$WORK/b.json"
expect_code "merge of two capped runs: exit 0" 0
expect_match "merge: the caps summed" "$OUT" '^cap: 4000\.00000 IOPS summed over 2 documents; reached (99\.[0-9]|100\.[0-9])%$'
expect_match "merge: the service times merged" "$OUT" '^service \(usec\): .*\(merged from 2 documents\)$'
run_atio merge --unaligned --json "$WORK/a.json" "$WORK/b.json"
what="merge --json: target, target_reached, service_latency_ns"
why=()
fcmp "$(jget .target)" '==' 4000 || why+=("target $(jget .target)")
n=$(jq -s '.[0].service_latency_ns.count + .[1].service_latency_ns.count' "$WORK/a.json" "$WORK/b.json")
[ "$(jget .service_latency_ns.count)" = "$n" ] || why+=("service count $(jget .service_latency_ns.count), the documents hold $n")
verdict "$what" "$OUT"
run_atio --json --engine null --rand -t 0.2
cp "$OUT" "$WORK/c.json"
run_atio merge --unaligned "$WORK/a.json" "$WORK/c.json"
expect_count "merge with an uncapped document: no cap line" "$OUT" '^cap:' 0

finish
