#!/bin/bash
# atio sweep: a grid of ordinary runs. The points are the axes' values in
# order (ranges of powers of two), each point's run has its options; the
# peak, the knee at --knee K% of the peak and the --target point are the
# ones their rules pick from the points' own figures; the use: line runs
# the chosen load; a signal keeps the points done; bad sweeps refused
# before anything runs, naming the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"

# The null engine: no files, the points' figures are atio's own.
run_atio sweep p=1-4 --engine null --rand -s 4K -t 0.2 --json
expect_code "p=1-4: exit 0" 0
expect_json "p=1-4: the points 1, 2, 4" \
	'[p["axes"]["p"] for p in d["points"]]' "['1', '2', '4']"
expect_json "p=1-4: each point ran its threads" \
	'[p["document"]["settings"]["threads"] for p in d["points"]]' "[1, 2, 4]"
expect_json "p=1-4: the value is the point's result" \
	'all(abs(p["value"] - p["document"]["result"]["value"]) < 1e-6 * p["value"] for p in d["points"])' True
expect_json "the peak is the point of the highest value" \
	'd["peak"]["point"] == 1 + max(range(3), key=lambda i: d["points"][i]["value"])' True
expect_json "the knee is the first point with 95% of the peak" \
	'(lambda v: d["knee"]["point"] == 1 + next(i for i in range(3) if v[i] >= 0.95 * max(v)))([p["value"] for p in d["points"]])' True
expect_json "the use: line runs the knee's threads" \
	'd["use"].endswith("-p " + d["points"][d["knee"]["point"] - 1]["axes"]["p"])' True
expect_json "the sweep is complete" '(d["complete"], d["points_run"], d["sweep"]["points"])' "(True, 3, 3)"

# A range of powers of two ends at its HIGH also when doubling misses it.
run_atio sweep p=1-6 --engine null --rand -s 4K -t 0.1 --json
expect_json "p=1-6: 1, 2, 4, 6" '[p["axes"]["p"] for p in d["points"]]' "['1', '2', '4', '6']"

# --knee 50 picks a point no later than the 95% knee; a target every
# point meets picks the peak; one none meets picks none.
run_atio sweep p=1,2,4 --engine null --rand -s 4K -t 0.2 --knee 50 --target p99=10s --json
expect_code "--knee 50 --target p99=10s: exit 0" 0
expect_json "--knee 50: the first point with half the peak" \
	'(lambda v: d["knee"]["point"] == 1 + next(i for i in range(3) if v[i] >= 0.5 * max(v)))([p["value"] for p in d["points"]])' True
expect_json "--target p99=10s: every point within it, the highest value" \
	'd["target_point"]["point"] == d["peak"]["point"]' True
expect_json "--target: each point's p99" \
	'all(p["target_percentile_ns"] == p["p99_ns"] for p in d["points"])' True
run_atio sweep p=1,2 --engine null --rand -s 4K -t 0.2 --target p99.9=1ns
expect_code "--target p99.9=1ns: exit 0" 0
expect_match "--target p99.9=1ns: no point" "$OUT" '^target p99\.9=1ns: none \(no point stays within it\)$'
expect_match "--target p99.9=1ns: a point line each" "$OUT" '^point 2 of 2: -p 2: [0-9.]+ IOPS, '
expect_count "text: no line with the result's word" "$OUT" 'rate' 0

# Two axes: the first outermost; no knee of a grid.
run_atio sweep p=1,2 s=4K,8K --engine null --rand -t 0.1 --json
expect_code "two axes: exit 0" 0
expect_json "two axes: the grid in order" \
	'[(p["axes"]["p"], p["axes"]["s"], p["document"]["settings"]["block_size"]) for p in d["points"]]' \
	"[('1', '4K', 4096), ('1', '8K', 8192), ('2', '4K', 4096), ('2', '8K', 8192)]"
expect_json "two axes: a peak, no knee" '(d["peak"] is not None, d["knee"], d["kneedle"])' "(True, None, None)"

# Real files: the points share the dataset, -s as the axis.
run_atio sweep s=4K,64K --read --rand -p 1 -t 0.2 -u 8M -f "$D"
expect_code "s=4K,64K on files: exit 0" 0
expect_count "s=4K,64K: a line per point" "$OUT" '^point [12] of 2: -s (4K|64K): ' 2
check "s=4K,64K: one dataset" [ "$(find "$D" -name 'atio.*' | wc -l)" = 1 ]

# --curve: the uncapped maximum first, then a step capped at each share of
# it, its aim rounded up, held when it reached 99% of the aim.
run_atio sweep --curve 1,2 --engine null --rand -s 4K -p 2 -t 0.3 --json
expect_code "--curve 1,2: exit 0" 0
expect_json "--curve: a curve of the maximum and 2 steps" \
	'(d["sweep"]["kind"], d["points_run"], d["sweep"]["curve"]["steps_pct"])' "('curve', 3, [1, 2])"
expect_json "--curve: the maximum runs uncapped" \
	'(d["points"][0]["aim"], d["points"][0]["held"], "rate" in d["points"][0]["document"]["settings"])' \
	"(None, None, False)"
expect_json "--curve: the maximum is the first point's value" \
	'd["sweep"]["curve"]["maximum"] == d["points"][0]["value"]' True
expect_json "--curve: each step's aim, its share of the maximum rounded up" \
	'[p["aim"] == -(-(d["points"][0]["value"] * p["pct"] / 100 - 1e-9) // 1) for p in d["points"][1:]]' \
	"[True, True]"
expect_json "--curve: each step ran capped at its aim" \
	'[p["document"]["settings"]["rate"]["value"] == p["aim"] for p in d["points"][1:]]' "[True, True]"
expect_json "--curve: each step's achieved value and held flag" \
	'[(p["achieved"] == p["value"], p["held"] == (p["achieved"] >= 0.99 * p["aim"])) for p in d["points"][1:]]' \
	"[(True, True), (True, True)]"
expect_json "--curve: ended when its steps did" '(d["sweep"]["curve"]["ended"], d["complete"])' "('done', True)"

run_atio sweep --curve 1,2 --engine null --rand -s 4K -p 2 -t 0.2
expect_code "--curve text: exit 0" 0
expect_match "--curve text: the maximum" "$OUT" '^step 1 of 3: maximum \(uncapped\): [0-9.]+ IOPS, '
expect_match "--curve text: a step, its aim and whether held" "$OUT" \
	'^step 3 of 3: 2% of the maximum, aim [0-9]+ IOPS: [0-9.]+ IOPS, .*; (held|not held) \([0-9.]+% of the aim\)$'
expect_match "--curve text: the summary" "$OUT" '^curve: maximum [0-9.]+ IOPS; [0-2] of 2 steps held '
expect_count "--curve text: no line with the result's word" "$OUT" 'rate' 0

# --stop-latency ends the curve at the first step over it.
run_atio sweep --curve 1,2,3 --stop-latency p99=1ns --engine null --rand -s 4K -t 0.2 --json
expect_code "--stop-latency p99=1ns: exit 0" 0
expect_json "--stop-latency: the first step ends it" \
	'(d["points_run"], d["sweep"]["curve"]["ended"], d["points"][1]["stop_percentile_ns"] > 1)' \
	"(2, 'stop-latency', True)"
run_atio sweep --curve 1,2,3 --stop-latency p99=1ns --engine null --rand -s 4K -t 0.2
expect_match "--stop-latency: said" "$OUT" '^curve: ended at step 2: its p99 exceeds --stop-latency p99=1ns$'

# --arrivals goes to the capped steps only; a plain run refuses it without --rate.
run_atio sweep --curve 1 --arrivals exponential --engine null --rand -s 4K -t 0.2 --json
expect_code "--curve --arrivals exponential: exit 0" 0
expect_json "--arrivals: the steps' command lines" \
	'["--arrivals exponential" in p["document"]["settings"]["cmdline"] for p in d["points"]]' "[False, True]"
expect_json "--arrivals: the step's settings say so" \
	'd["points"][1]["document"]["settings"]["rate"]["arrivals"]' "exponential"
run_atio --engine null --arrivals exponential -t 0.1
expect_code "--arrivals without --rate: exit 2" 2
expect_match "--arrivals without --rate: said" "$ERR" '^atio: --arrivals exponential: spaces the I/Os of a cap: give --cap N too$'

# --search threads: 1, 2 ... doubling; the finders over the points by load.
run_atio sweep --search threads --engine null --rand -s 4K -t 0.1 --json
expect_code "--search threads: exit 0" 0
expect_json "--search: starts at 1 and doubles" \
	'[p["axes"]["p"] for p in d["points"][:2]]' "['1', '2']"
expect_json "--search: ends by its own rule" \
	'(d["sweep"]["kind"], d["sweep"]["search"]["ended"], d["sweep"]["search"]["noise_pct"], d["complete"])' \
	"('search', 'done', 5, True)"
expect_json "--search: the peak is the point of the highest value" \
	'd["peak"]["point"] == 1 + max(range(len(d["points"])), key=lambda i: d["points"][i]["value"])' True
expect_json "--search: the use: line has the knee's threads" \
	'd["use"].endswith("-p " + d["points"][d["knee"]["point"] - 1]["axes"]["p"])' True
# A point starts only when its time fits in what is left of --search-time.
run_atio sweep --search threads --search-time 0.25s --engine null --rand -s 4K -t 0.2
expect_code "--search-time 0.25s: exit 0" 0
expect_match "--search-time: one point" "$OUT" '^search: ended by --search-time after 1 points$'
expect_match "--search-time: the peak line" "$OUT" '^peak: point 1, -p 1: '

# A signal keeps the points done.
start_atio sweep p=1-64 --engine null --rand -s 4K -t 1
t0=$(now_ms)
while ! grep -q '^point 1 of 7' "$OUT" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
expect_code "SIGINT: exit 130" 130
expect_match "SIGINT: the sweep says where it stopped" "$OUT" '^sweep: stopped after [1-7] of 7 points$'
expect_match "SIGINT: the peak of the points done" "$OUT" '^peak: point [1-7], -p '
cut=$(sed -n 's/^point \([0-9]*\) of 7: .* (interrupted: not chosen)$/\1/p' "$OUT")
peak=$(sed -n 's/^peak: point \([0-9]*\), .*/\1/p' "$OUT")
check "SIGINT: the point it cut is marked" [ -n "$cut" ]
check "SIGINT: the point it cut is not the peak ($peak, cut $cut)" [ "$peak" != "$cut" ]

# A signal in a curve keeps the steps done.
start_atio sweep --curve --engine null --rand -s 4K -t 1
t0=$(now_ms)
while ! grep -q '^step 2 of 7' "$OUT" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
expect_code "curve, SIGINT: exit 130" 130
expect_match "curve, SIGINT: the steps done" "$OUT" '^step 2 of 7: 10% of the maximum, aim [0-9]+ IOPS: '
expect_match "curve, SIGINT: where it stopped" "$OUT" '^sweep: stopped after [2-7] of 7 points$'

# --steady: a point measured before it was steady is marked, in its line
# and its JSON, and said once on stderr (a cap of one I/O a second in
# rounds of 0.2 s is never steady).
run_atio sweep p=1,2 --engine null --steady iops --round 0.2 --rounds 5 --rate 1 -t 0.1
expect_code "--steady, never steady: exit 0" 0
expect_match "--steady, never steady: point 1 marked" "$OUT" '^point 1 of 2: .*\(not steady\)$'
expect_match "--steady, never steady: point 2 marked" "$OUT" '^point 2 of 2: .*\(not steady\)$'
# The run's own --rate comes back on the use: line as --cap: grep rate
# finds no line of a sweep.
expect_count "--rate among the options: no line with the result's word" "$OUT" 'rate' 0
expect_match "--rate among the options: the use: line gives it as --cap" "$OUT" '^use: atio .*--cap 1 '
check "--steady, never steady: said once" \
	test "$(grep -c 'warning: --steady: point 1 was not steady' "$ERR")" -eq 1 -a \
	"$(grep -c 'not steady' "$ERR")" -eq 1
run_atio sweep p=1 --engine null --steady iops --round 0.2 --rounds 5 --rate 1 -t 0.1 --json
expect_json "--steady, never steady: the JSON's point says so" 'd["points"][0]["steady"]' False
run_atio sweep p=1 --engine null -t 0.1 --json
expect_json "without --steady: the point's steady is null" 'd["points"][0]["steady"]' None

# Bad sweeps: exit 2, the value named, nothing run.
bad() {
	local what=$1 re=$2

	shift 2
	run_atio sweep "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: the message" "$ERR" "$re"
	expect_empty "$what: nothing on stdout" "$OUT"
}
bad "no axis" 'no axis' --engine null -t 0.1
bad "an axis twice" 'threads=4: the axis p is given twice' p=1,2 threads=4 --engine null
bad "--curve twice" "--curve: given twice" --curve 10,50 --curve 80 --engine null
bad "--search twice" "--search: given twice" --search --search depth --engine null
bad "--knee twice" "--knee=80: given twice \\(--knee, then --knee=80\\)" iodepth=1,2 --knee 90 --knee=80 --engine null
bad "the axis's option among the run's" '--iodepth: --iodepth is swept' iodepth=1,2 --iodepth 4 --engine null
bad "the axis's option among the run's, short" '-p: -p is swept' p=1,2 -p 4 --engine null
bad "a range downward" 'iodepth=8-2: 8-2 is not a range' iodepth=8-2 --engine null
bad "an empty value" 'p=1,,2: an empty value' p=1,,2 --engine null
bad "a target without a unit" '--target p99=2: not a percentile and a latency' iodepth=1 --target p99=2 --engine null
bad "a knee of 0" '--knee 0: a percentage' iodepth=1 --knee 0 --engine null
bad "a bad value at a point" 'point -p 0: ' p=0,1 --engine null --rand -s 4K
bad "-a in a sweep" '-a: a sweep runs tests' iodepth=1 -a --engine null
bad "--precondition in a sweep" '^atio: atio sweep: --precondition: not in a sweep' \
	p=1,2 --steady iops --precondition -s 4K -u 1M -t 0.1 -f "$WORK/sweep-precondition"

bad "an empty curve" '--curve : an empty list' --curve= --engine null
bad "an empty curve word" '--curve : an empty list' --curve '' --engine null
bad "a curve step of 0" '--curve 0,50: not percentages' --curve 0,50 --engine null
bad "a curve step over 100" '--curve 50,101: not percentages' --curve 50,101 --engine null
bad "a stop latency without a unit" '--stop-latency p99=5: not a percentile and a latency' --curve --stop-latency p99=5 --engine null
bad "a stop latency without a curve" '--stop-latency p99=5ms: ends a curve' p=1,2 --stop-latency p99=5ms --engine null
bad "a curve with a grid" '--curve and iodepth=1,2: --curve makes its own points' --curve iodepth=1,2 --engine null
bad "a search with a grid" '--search and p=1,2: --search makes its own points' p=1,2 --search --engine null
bad "a curve and a search" '--curve and --search: one at a time' --curve --search --engine null
bad "a curve with a cap of its own" '--rate: --cap is swept' --curve --rate 100 --engine null
bad "a search of what it cannot" '--search disks: depth or threads' --search disks --engine null
bad "a search time of 0" '--search-time 0: a time more than 0' --search --search-time 0 --engine null
bad "a search time without a search" '--search-time 1m: limits a search' p=1 --search-time 1m --engine null
bad "a search the run refuses at its second load" 'point --iodepth 2: ' --search --engine null -t 0.1
bad "a curve's arrivals unknown" '--arrivals poisson: uniform' --curve --arrivals poisson --engine null

finish
