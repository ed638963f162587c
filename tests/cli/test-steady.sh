#!/bin/bash
# --steady: SNIA's steady state before the measured time. A capped run
# (--rate: every round does the same I/Os) is steady at its fifth round;
# its window in text (one line with the word of the result line) and in
# JSON, whose criteria are computed here again from the rounds' values
# and agree. A cap of one I/O a second in rounds of 0.2 s is never steady
# (one round of five has the I/O): the warning, exit 0, the measured time
# still run. --precondition's writes on a small dataset, said in the
# header and JSON. Bad values and combinations exit 2 naming them.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DIR=$WORK/dir
mkdir "$DIR"

# recheck WHAT: SNIA's criteria recomputed from the JSON's values agree with its verdict.
recheck() {
	local got

	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steady"]
v = s["values"]
assert s["rounds"] == len(v), "rounds"
w = v[-5:]
n = len(w)
avg = sum(w) / n
mx = (n - 1) / 2
slope = sum((i - mx) * (y - avg) for i, y in enumerate(w)) / sum((i - mx) ** 2 for i in range(n))
rng = (max(w) - min(w)) * 100 / avg
exc = abs(slope) * (n - 1) * 100 / avg
steady = rng <= 20 and exc <= 10
def near(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
assert near(s["range_pct"], rng), ("range", s["range_pct"], rng)
assert near(s["excursion_pct"], exc), ("excursion", s["excursion_pct"], exc)
assert near(s["slope"], slope), ("slope", s["slope"], slope)
assert s["steady"] == steady, ("steady", s["steady"], steady)
assert s["window"]["first"] == len(v) - 4 and s["window"]["last"] == len(v), "window"
# Steady: at its first window that holds, none before it.
for k in range(5, len(v) if steady else len(v) + 1):
    u = v[k - 5:k]
    a = sum(u) / 5
    b = sum((i - 2) * (y - a) for i, y in enumerate(u)) / 10
    assert not ((max(u) - min(u)) * 100 / a <= 20 and abs(b) * 400 / a <= 10), ("earlier", k)
assert s["steady_at"] == (len(v) if steady else None), "steady_at"
print("agrees")
' "$OUT" 2>&1) || true
	if [ "$got" = agrees ]; then
		ok "$1"
	else
		not_ok "$1" "$got" "command: $LAST"
	fi
}

# Steady: 2000 I/Os a second on a fixed schedule, 400 a round.
run_atio --engine null --rand -s 4K --rate 2000 -t 0.4 --steady iops --round 0.2 --json
expect_code "steady: exit 0" 0
expect_json "steady: steady" 'd["steady"]["steady"]' True
expect_json "steady: at the fifth round" 'd["steady"]["steady_at"]' 5
expect_json "steady: the judged figure" 'd["steady"]["judge"]' iops
expect_json "steady: the round" 'd["steady"]["round_sec"]' 0.2
expect_json "steady: the settings" \
	'[d["settings"]["steady"][k] for k in ("judge", "max_rounds", "window", "precondition")]' \
	"['iops', 25, 5, False]"
expect_json "steady: each round near 2000 IOPS" \
	'all(abs(x - 2000) <= 20 for x in d["steady"]["values"])' True
expect_json "steady: the measured time followed" 'd["measured"] and d["result"]["ops"] > 0' True
recheck "steady: the criteria recomputed agree"
expect_empty "steady: nothing on stderr" "$ERR"

run_atio --engine null --rand -s 4K --rate 2000 -t 0.4 --steady iops --round 0.2 -v
expect_code "steady, text: exit 0" 0
expect_count "steady, text: one line with the word of the result line" "$OUT" rate 1
expect_match "steady, text: the header" "$OUT" '^Steady: iops in rounds of 0\.2 sec, at most 25; '
expect_match "steady, text: no fixed warm-up" "$OUT" '^Warmup: until steady'
expect_match "steady, text: the Cmdline" "$OUT" '^Cmdline: .* --steady iops --round 0\.2 --rounds 25 '
expect_match "steady, text: the verdict" "$OUT" \
	'^steady: iops in 5 round\(s\) of 0\.2 sec: steady at round 5 \(window: rounds 1 to 5\)$'
expect_match "steady, text: each round" "$OUT" '^steady rounds \(IOPS\): 1: [0-9.]+, 2: [0-9.]+, 3: [0-9.]+, 4: [0-9.]+, 5: [0-9.]+$'
expect_match "steady, text: the window" "$OUT" \
	'^steady window: average [0-9.]+ IOPS, range [0-9.]+ \([0-9.]+% of the average, at most 20%\), excursion [0-9.]+ \([0-9.]+%, at most 10%\), slope '
expect_match "steady, -v: a line a round on stderr" "$ERR" '^atio: steady: round 5: [0-9.]+ IOPS: steady$'

# Never steady: one I/O a second, in rounds of 0.2 s: 5, 0, 0, 0, 0 IOPS.
run_atio --engine null --rand -s 4K --rate 1 -t 0.2 --steady iops --round 0.2 --rounds 5 --json
expect_code "not steady: exit 0" 0
expect_match "not steady: the warning" "$ERR" \
	'^atio: warning: not steady after 5 rounds of 0\.2 sec: .*the measured time followed anyway$'
expect_json "not steady: steady false" 'd["steady"]["steady"]' False
expect_json "not steady: five rounds run" 'd["steady"]["rounds"]' 5
expect_json "not steady: their values" 'd["steady"]["values"]' '[5, 0, 0, 0, 0]'
expect_json "not steady: measured all the same" 'd["measured"] and d["result"]["time_sec"] > 0' True
recheck "not steady: the criteria recomputed agree"
# --steady lat: a round that completed no I/O has no latency: "-", not nan.
run_atio --engine null --rand -s 4K --rate 1 -t 0.2 --steady lat --round 0.2 --rounds 5 -v
expect_code "--steady lat, rounds without I/O: exit 0" 0
expect_match "--steady lat, rounds without I/O: the round said unknown" "$ERR" \
	'^atio: steady: round 2: - usec \(no I/O completed\)'
expect_no_match "--steady lat, rounds without I/O: no nan" "$ERR" 'nan'
run_atio --engine null --rand -s 4K --rate 1 -t 0.2 --steady iops --round 0.2 --rounds 5
expect_code "not steady, text: exit 0" 0
expect_match "not steady, text: says so" "$OUT" \
	'^steady: iops in 5 round\(s\) of 0\.2 sec: not steady after 5 rounds; the measured time followed anyway$'
expect_count "not steady, text: one line with the word of the result line" "$OUT" rate 1

# --precondition: twice the 8M dataset in 128K writes, then reads until steady.
run_atio --read --rand -s 4K -u 8M -p 2 --rate 2000 -t 0.2 --steady iops --round 0.2 \
	--precondition --json -f "$DIR"
expect_code "--precondition: exit 0" 0
expect_json "--precondition: twice the dataset written" 'd["steady"]["precondition"]["bytes"]' 16777216
expect_json "--precondition: in 128K blocks" 'd["steady"]["precondition"]["block_size"]' 131072
expect_json "--precondition: in the settings" 'd["settings"]["steady"]["precondition"]' True
expect_json "--precondition: the reads measured" 'd["result"]["ops"] > 0 and d["settings"]["mode"]' read
run_atio -a --read --rand -s 4K -u 8M --steady iops --precondition -f "$DIR"
expect_match "--precondition: the header" "$OUT" '^Precondition: sequential O_DIRECT writes of twice the dataset in 128K blocks'
run_atio --read -u 64K --steady iops --precondition -f "$DIR"
expect_code "--precondition, -u 64K: exit 2" 2
expect_match "--precondition, -u 64K: says so" "$ERR" '^atio: --precondition: -u 64K: .* use -u 128K or more'

# Bad values and combinations.
bad() {
	local what=$1 msg=$2

	shift 2
	run_atio --engine null -t 1 "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: names it" "$ERR" "$msg"
}
bad "--round 0" '^atio: --round 0: a round lasts 0\.1 s or more' --steady iops --round 0
bad "--round -1" '^atio: --round -1: cannot be negative' --steady iops --round -1
bad "--round x" '^atio: --round x: not a time' --steady iops --round x
bad "--rounds 4" '^atio: --rounds 4: between 5 \(the rounds of the window' --steady iops --rounds 4
bad "--rounds x" '^atio: --rounds x: the most rounds to run must be a whole number' --steady iops --rounds x
bad "--steady foo" '^atio: --steady foo: judge iops, mbs or lat' --steady foo
bad "--round without --steady" '^atio: --round 1: rounds are --steady' --round 1
bad "--rounds without --steady" '^atio: --rounds 9: rounds are --steady' --rounds 9
bad "--precondition with the null engine" '^atio: --precondition --engine null: the null engine writes nothing' \
	--steady iops --precondition
bad "--precondition without --steady" '^atio: --precondition: it comes before --steady' --precondition
bad "-w with --steady" '^atio: -w 5 with --steady lat: the warm-up lasts until the rounds are steady' -w 5 --steady lat
bad "--steady --prepare" '^atio: --steady mbs: --prepare measures nothing' --steady mbs --prepare -f "$DIR"
bad "--steady in a run of two jobs" '^atio: job 1 of phase 1: --steady iops: each job of a run' \
	--steady iops --and --engine null -t 1
# (on files: the null engine's own refusal would come first)
run_atio -t 1 --steady iops --precondition -f "$DIR" --then --engine null -t 1
expect_code "--precondition in a plan: exit 2" 2
expect_match "--precondition in a plan: names it" "$ERR" \
	'^atio: job 1 of phase 1: --precondition: not in a plan'

finish
