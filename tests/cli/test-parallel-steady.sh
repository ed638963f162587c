#!/bin/bash
# scripts/atio-parallel.sh with --steady in ATIO_OPTS against three real
# sshd nodes (sshd-harness.sh): every node runs all its rounds
# (--all-rounds), and the steady state is judged on the cluster's sum,
# round k of the cluster the sum of every node's round k. python3 sums
# the nodes' own rounds (kept in the -o document) and judges them again:
# the same rounds, the same verdict as the driver's lines and record. A
# node that failed is not in the sum, and the steady line says so.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (it recomputes the verdict)"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
DOC=$WORK/steady.json
OPTS="--cap 500 --steady iops --round 0.2 --rounds 6"

run_driver TIME=1 TESTS=randread ITERATIONS=1 "ATIO_OPTS=$OPTS" -o "$DOC" "${HOSTS[@]}"
expect_code "--steady in ATIO_OPTS, 3 nodes: exit 0" 0
expect_match "the nodes run every round (--all-rounds in the settings line)" "$OUT" \
	'--steady iops --round 0\.2 --rounds 6 --all-rounds'
expect_match "the cluster's verdict under the sum" "$OUT" \
	'^steady \(cluster of 3 nodes\): iops in 6 round\(s\) of 0\.2 sec: (steady at round [56] \(window: rounds [12] to [56]\)|not steady after 6 rounds)$'
expect_match "the last start is counted after the rounds, not from the agreed instant alone" "$OUT" \
	'^start skew: [0-9.]+ s over 3 nodes \(last start -?0\.[0-9]{4} s after the agreed instant and the rounds\);'
expect_match "each node's own verdict, named by its host" "$OUT" \
	'^steady of each node alone: node1 [^,]*, node2 [^,]*, node3 '

# python3: the randread iteration's nodes' rounds summed and judged, against
# the driver's record and its text.
cat >"$WORK/judge.py" <<'PY'
import json, re, sys

def first(v):
    for k in range(5, len(v) + 1):
        w = v[k - 5:k]
        avg = sum(w) / 5
        if avg <= 0:
            continue
        slope = sum((i - 2) * (y - avg) for i, y in enumerate(w)) / 10
        if (max(w) - min(w)) * 100 / avg <= 20 and abs(slope) * 4 * 100 / avg <= 10:
            return k
    return None

doc = json.load(open(sys.argv[1]))
it = [i for r in doc["results"] for t in r["tests"] if t["test"] == "randread"
      for i in t["iterations"]][0]
s = it["merge"]["steady"]
each = [d["values"] for d in s["each_document"]]
n = min(len(v) for v in each)
want = [sum(v[k] for v in each) for k in range(n)]
why = []
if len(each) != 3 or n != 6:
    why.append("%d nodes of %d rounds, expected 3 of 6" % (len(each), n))
if any(abs(a - b) > 1e-9 * a for a, b in zip(want, s["values"])) or len(s["values"]) != n:
    why.append("summed rounds %s, the record has %s" % (want, s["values"]))
at = first(want)
if at != s["steady_at"]:
    why.append("python3 finds the sum steady at round %s, the record %s" % (at, s["steady_at"]))
text = open(sys.argv[2]).read()
# The randread section's line: the warm-up before it has rounds of its own.
text = text[text.find("---=== Random read"):]
line = re.search(r"^steady rounds summed \(IOPS\): (.*)$", text, re.M)
shown = [float(x.split(": ")[1]) for x in line.group(1).split(", ")] if line else []
if [round(x, 2) for x in want] != shown:
    why.append("the driver's line shows %s, the sums are %s" % (shown, want))
alone = [first(v) for v in each]
if alone != [d["steady_at"] for d in s["each_document"]]:
    why.append("each node alone: python3 %s, the record %s" % (alone, s["each_document"]))
print("; ".join(why) or "ok: steady at %s" % at)
PY
got=$(python3 "$WORK/judge.py" "$DOC" "$OUT" 2>&1) || true
why=()
[[ $got == ok:* ]] || why+=("$got")
verdict "-o: the cluster's rounds are the nodes' summed round by round, judged as python3 judges them ($got)" "$DOC" "$OUT"

# atio report of the -o document: the randread test's summed rounds and
# each node's, named by its host, the window shaded.
"$ATIO" report "$DOC" -o "$WORK/steady.html" 2>"$WORK/report.err" || true
got=$(python3 "$(dirname "$0")/report-gen.py" count "$WORK/steady.html" steady-0-0 2>&1) || true
if [ "$got" = "series=4 points=6,6,6,6 bands=1 bars=0 whiskers=0" ] &&
	grep -q '>node3<' "$WORK/steady.html"; then
	ok "atio report of -o: the cluster's rounds and each node's, the window shaded"
else
	not_ok "atio report of -o: the cluster's rounds and each node's, the window shaded" \
		"got: $got" "$(head -n 3 "$WORK/report.err")"
fi

# The rounds' time counts in the run's deadline: 4 s of rounds and 1 s
# measured, with OVERRUN 3 s, is no overrun (a deadline of TIME + OVERRUN
# alone, 4 s, would stop every node in its measured time).
run_driver TIME=1 OVERRUN=3 TESTS=randread ITERATIONS=1 \
	"ATIO_OPTS=--cap 500 --steady iops --round 0.5 --rounds 8" "${HOSTS[@]}"
expect_code "rounds of 4 s, OVERRUN 3 s: exit 0" 0
expect_no_match "rounds of 4 s, OVERRUN 3 s: no overrun" "$ERR" 'overran'
expect_match "rounds of 4 s: the cluster's verdict over 8 rounds" "$OUT" \
	'^steady \(cluster of 3 nodes\): iops in 8 round\(s\) of 0\.5 sec: '

# A node whose atio is killed in its rounds: the sum is of the others, and
# the steady line says so (rounds of 0.5 s: 3 s of rounds to kill it in).
what="node2's atio killed in its rounds"
start_driver TIME=1 TESTS=randread ITERATIONS=1 \
	"ATIO_OPTS=--cap 500 --steady iops --round 0.5 --rounds 6" "${HOSTS[@]}"
wait_node_run '---=== Random read (1thr) ===---' 2
mapfile -t pids < <(node_procs 2 atio)
if [ ${#pids[@]} -eq 0 ]; then
	not_ok "$what: the run started on node2" "command: $LAST"
	show stdout "$OUT"
	kill -KILL -- "-$PID" 2>/dev/null || true
else
	kill -KILL "${pids[@]}"
	wait_exit 90
	expect_code "$what: exit 1" 1
	expect_match "$what: node2 is a FAILURE" "$OUT" '^\[2\] [0-9:]{8} \[FAILURE\] node2$'
	expect_match "$what: the steady line is of the 2 nodes left and says INCOMPLETE" "$OUT" \
		'^steady \(cluster of 2 nodes\): iops in 6 round.*\(INCOMPLETE: 2 of 3 nodes\)$'
fi
kill -KILL -- "-$PID" 2>/dev/null || true

finish
