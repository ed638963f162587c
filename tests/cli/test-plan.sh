#!/bin/bash
# Plans: jobs at once (--and), phases one after another (--then), and the
# same from a file (--jobs). Two jobs of one run each hold their own rate
# cap and their own shape; a job with --delay starts that long after the
# others; the run's result line counts every job; phases give one JSON
# document with each phase; a bad job is refused before anything runs,
# naming the job (or the file and line) and the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

A=$WORK/a
B=$WORK/b
mkdir "$A" "$B"

# Two jobs at once, each with its own cap, mode, size and files; the
# second starts 1 s after the first and runs 1 s.
run_atio --read --rand -s 4K -p 1 -t 2 -u 8M --rate 400 -f "$A" --json \
	--and --write --seq -s 64K -p 2 -t 1 --delay 1 -u 8M --rate 8 -f "$B"
expect_code "two jobs: exit 0" 0
expect_json "two jobs: two documents in the phase" 'len(d["phases"][0]["jobs"])' 2
expect_json "two jobs: job 1 is the random reader" \
	'[d["phases"][0]["jobs"][0]["settings"][k] for k in ("mode", "pattern", "block_size", "threads")]' \
	"['read', 'rand', 4096, 1]"
expect_json "two jobs: job 2 is the sequential writer" \
	'[d["phases"][0]["jobs"][1]["settings"][k] for k in ("mode", "pattern", "block_size", "threads")]' \
	"['write', 'seq', 65536, 2]"
# Each cap held (never more I/O than the cap allows in the job's time, a
# thread's first I/O of slack) and reached at least half-way.
expect_json "two jobs: job 1 held its cap of 400 IOPS" \
	'(lambda r: 0.5 * 400 * r["time_sec"] <= r["ops"] <= 400 * r["time_sec"] + 1)(d["phases"][0]["jobs"][0]["result"])' True
expect_json "two jobs: job 2 held its cap of 8 MB/s" \
	'(lambda r: 0.5 * 8 * r["time_sec"] <= r["bytes"] / 2**20 <= 8 * r["time_sec"] + 2 / 16)(d["phases"][0]["jobs"][1]["result"])' True
expect_json "two jobs: job 2 began its measured time 1 s or more after job 1" \
	'd["phases"][0]["jobs"][1]["start_epoch"] - d["phases"][0]["jobs"][0]["start_epoch"] >= 0.999' True
expect_json "two jobs: job 2's delay in its settings" 'd["phases"][0]["jobs"][1]["settings"]["delay_sec"] == 1' True
expect_json "two jobs: the run's I/O is both jobs'" \
	'd["phases"][0]["result"]["ops"] == sum(j["result"]["ops"] for j in d["phases"][0]["jobs"])' True
expect_json "two jobs: the run's time runs from the first start to the last end" \
	'abs(d["phases"][0]["result"]["time_sec"] - (max(j["end_epoch"] for j in d["phases"][0]["jobs"]) - min(j["start_epoch"] for j in d["phases"][0]["jobs"]))) < 0.001' True
expect_json "two jobs: the run's value in job 1's unit over the run's time" \
	'(lambda r: r["unit"] == "IOPS" and abs(r["value"] - r["ops"] / r["time_sec"]) < 0.01)(d["phases"][0]["result"])' True
expect_json "two jobs: the plan is complete" 'd["complete"]' True

# The text: one result line with "rate" (scripts grep it), the jobs below.
run_atio --read --rand -s 4K -p 1 -t 1 -u 8M -f "$A" \
	--and --write --seq -s 64K -p 1 -t 0.5 -u 8M -f "$B"
expect_code "two jobs, text: exit 0" 0
expect_count "two jobs, text: one line with rate" "$OUT" 'rate' 1
head -1 "$OUT" >"$WORK/first"
expect_match "two jobs, text: the result line first" "$WORK/first" \
	'^time: [0-9.]+ sec; rate: \{ [0-9.]+ \} IOPS;$'
expect_match "two jobs, text: job 1's command line" "$OUT" \
	"^job 1: --read --rand -s 4K --iops -p 1 -n 1 -t 1 --cached -u 8M -f $A\$"
expect_match "two jobs, text: job 2's value line" "$OUT" \
	'^job 2: time: [0-9.]+ sec; value: \{ [0-9.]+ \} MB/s;$'

# Phases: write, then read, one document.
run_atio --write --seq -s 64K -p 1 -t 0.5 -u 8M -f "$A" --json --then --read --rand -s 4K -p 1 -t 0.5 -u 8M -f "$A"
expect_code "phases: exit 0" 0
expect_json "phases: each phase in the document, in order" \
	'[(p["phase"], p["jobs"][0]["settings"]["mode"], p["jobs"][0]["result"]["ops"] > 0) for p in d["phases"]]' \
	"[(1, 'write', True), (2, 'read', True)]"
expect_json "phases: both run" '(d["plan"]["phases"], d["phases_run"], d["complete"])' "(2, 2, True)"
run_atio --write --seq -s 64K -p 1 -t 0.3 -u 8M -f "$A" --then --read -s 4K -p 1 -t 0.3 -u 8M -f "$A"
expect_code "phases, text: exit 0" 0
expect_count "phases, text: a result line per phase" "$OUT" '^time: .* rate: ' 2
expect_match "phases, text: the second phase named" "$OUT" '^phase: 2 of 2$'

# The same plan from a file: comments, blank lines, quotes, a --then line.
J=$WORK/jobs
cat >"$J" <<EOF2
# a reader and a writer, then a reader alone
--read --rand -s 4K -p 1 -t 0.3 -u 8M -f '$A' --json
--write --seq -s 64K -p 1 -t 0.3 -u 8M -f "$B"   # the writer

--then
--read --seq -s 64K -p 1 -t 0.3 -u 8M -f $B
EOF2
run_atio --jobs "$J"
expect_code "--jobs: exit 0" 0
expect_json "--jobs: two jobs, then one" '[len(p["jobs"]) for p in d["phases"]]' "[2, 1]"
expect_json "--jobs: the paths as quoted" '[j["settings"]["path"] for p in d["phases"] for j in p["jobs"]]' \
	"['$A', '$B', '$B']"

# Bad plans: refused before anything runs, naming the job and the value.
rm -rf "$WORK/c"
bad() {
	local what=$1 re=$2

	shift 2
	run_atio "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: the message" "$ERR" "$re"
	check "$what: nothing made" [ ! -e "$WORK/c" ]
}
mkdir "$WORK/c.d"
bad "--and at the end" 'job 2 of phase 1: no options' --read -t 1 -f "$WORK/c" --and
bad "two --and in a row" 'job 2 of phase 1: no options' --read -t 1 -f "$WORK/c" --and --and --read -f "$A"
bad "--then first" 'job 1 of phase 1: no options' --then --read -t 1 -f "$WORK/c"
bad "one -f for two jobs" "job 2 of phase 1: -f $WORK/c: job 1 of phase 1 uses it too" \
	--read -t 1 -f "$WORK/c" --and --write -t 1 -f "$WORK/c"
bad "--json in job 2" 'job 2 of phase 1: --json: .* in the first job' \
	--read -t 1 -f "$WORK/c" --and --write -t 1 -f "$A" --json
bad "--prepare in a plan" 'job 1 of phase 2: --prepare: .* run --prepare on its own' \
	--read -t 1 -f "$WORK/c" --then --prepare -f "$A"
bad "an unknown option in job 2" 'job 2 of phase 1: .*--bogus' \
	--read -t 1 -f "$WORK/c" --and --bogus -f "$A"
bad "--delay garbage" 'job 2 of phase 1: .*--delay.*soon' \
	--read -t 1 -f "$WORK/c" --and --write --delay soon -f "$A"
bad "--jobs beside options" '--jobs .*: give --jobs alone' --jobs "$J" -t 1
printf '%s\n' "--read -t 1 -f $WORK/c" "--write -t 1 --bogus -f $A" >"$WORK/j2"
bad "--jobs: an unknown option" "--jobs $WORK/j2:2: .*--bogus" --jobs "$WORK/j2"
printf '%s\n' "--read -t 1 -f '$WORK/c" >"$WORK/j3"
bad "--jobs: an unclosed quote" "--jobs $WORK/j3:1: a quote is not closed" --jobs "$WORK/j3"
printf '%s\n' "--read -t 1 -f $WORK/c" "--then" >"$WORK/j4"
bad "--jobs: --then at the end" "--then with no job after it" --jobs "$WORK/j4"
bad "--jobs: no file" "--jobs $WORK/none: No such file" --jobs "$WORK/none"

# A signal ends the plan after the phase it came in: the document is whole.
start_atio --read --rand -s 4K -p 1 -t 30 -u 8M -vv -f "$A" --json --then --read -s 4K -t 30 -u 8M -f "$A"
t0=$(now_ms)
while ! grep -q 'IOPS' "$ERR" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
expect_code "SIGINT in phase 1: exit 130" 130
expect_json "SIGINT in phase 1: one phase run, the plan incomplete" \
	'(len(d["phases"]), d["phases_run"], d["complete"], d["phases"][0]["interrupted"])' "(1, 1, False, True)"

# A signal while a job waits out its --delay: every job stops at once.
start_atio --read --rand -s 4K -p 1 -t 0.5 -u 8M -vv -f "$A" --and --read --rand -s 4K -p 1 -t 1 \
	-u 8M --delay 1h -f "$B"
t0=$(now_ms)
while ! grep -q 'job 1: .*IOPS' "$ERR" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
expect_code "SIGINT in a job's --delay of 1h: exit 130" 130
expect_match "SIGINT in a job's --delay: job 2 measured nothing" "$OUT" \
	'^job 2: interrupted: by SIGINT before the measured time began'
expect_match "SIGINT in a job's --delay: job 1's result stands" "$OUT" \
	'^job 1: time: [0-9.]+ sec; value: '

# -v: each job's settings before the run.
run_atio --read --rand -s 4K -p 1 -t 0.2 -u 8M -v -f "$A" --and --write -s 64K -p 1 -t 0.2 -u 8M -f "$B"
expect_code "-v: exit 0" 0
expect_count "-v: a settings header per job" "$OUT" '^Cmdline: ' 2
expect_match "-v: job 2's settings named" "$OUT" '^settings of job 2 of phase 1:$'

# A signal after a job ended is no interruption of it: only of the job
# still running (the job 1 of 0.3 s ended long before job 2's second 1).
start_atio --read --rand -s 4K -p 1 -t 0.3 -u 8M -f "$A" --json --and --read --rand -s 4K -p 1 \
	-t 300 -u 8M -vv -f "$B"
t0=$(now_ms)
while ! grep -q 'job 2: 1 s:' "$ERR" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
expect_code "SIGINT after job 1 ended: exit 130" 130
expect_json "SIGINT after job 1 ended: job 1 whole, job 2 interrupted" \
	'[j["interrupted"] for j in d["phases"][0]["jobs"]]' "[False, True]"
expect_json "SIGINT after job 1 ended: job 1 ran its 0.3 s" \
	'round(d["phases"][0]["jobs"][0]["result"]["time_sec"], 1)' 0.3

# A job that fails stops the others (here job 2 reads a block that is
# not atio's with --verify while job 1 would read for 300 s), and the
# message names the job.
mkdir "$WORK/v"
run_atio --prepare -p 1 -s 64K -u 64K -f "$WORK/v"
dd if=/dev/zero of="$WORK/v/atio.0" bs=4096 count=1 conv=notrunc status=none
start_atio --read --rand -s 4K -p 1 -t 300 -u 8M -f "$A" --and --read --seq -s 64K -p 1 \
	-t 300 -u 64K --verify -f "$WORK/v"
wait_exit 60
expect_code "a job failing: the run stops, exit 1" 1
expect_match "a job failing: its message" "$ERR" '^atio: verify: .*atio\.0'
expect_match "a job failing: the job named" "$ERR" '^atio: \(in job 2 of phase 1\)$'

# One dataset under two spellings, -w in a run of jobs, a later phase's
# missing directory, a null-engine job beside one that does I/O: refused
# before anything runs.
ln -s "$A" "$WORK/alink"
bad "one dataset by a link" "job 2 of phase 1: -f $WORK/alink/: job 1 of phase 1 uses it too" \
	--read -s 4K -t 1 -u 8M -f "$A" --and --read -s 4K -t 1 -u 8M -f "$WORK/alink/"
bad "-w in a run of jobs" 'job 2 of phase 1: -w: ' \
	--read -s 4K -t 1 -u 8M -f "$A" --and --read -s 4K -t 1 -w 1 -u 8M -f "$B"
bad "a later phase's -f missing" "-f $WORK/nodir/: no such directory" \
	--read -s 4K -t 1 -u 8M -f "$A" --then --read -s 4K -t 1 -u 8M -f "$WORK/nodir/"
check "a later phase's -f missing: phase 1 did not run" [ ! -s "$OUT" ]
bad "a null-engine job beside a real one" 'job 2 of phase 1: --engine null does no I/O' \
	--read -s 4K -t 1 -u 8M -f "$A" --and --read -s 4K -t 1 --engine null
mkfifo "$WORK/fifo"
bad "--jobs: a FIFO" "--jobs $WORK/fifo: not a regular file" --jobs "$WORK/fifo"

# The result's word on one line only, also with --rate in a job's command line.
run_atio --read -s 64K -p 1 -t 0.2 -u 8M -f "$A" --and --read -s 64K -p 1 -t 0.2 -u 8M --rate 100 -f "$B"
expect_count "--rate in job 2: one line with rate" "$OUT" 'rate' 1

finish
