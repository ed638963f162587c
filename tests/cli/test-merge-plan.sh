#!/bin/bash
# atio merge of plans: the --json documents of one plan (jobs at once with
# --and, phases with --then) run on two "nodes" (two directories here, one
# after the other: merged with --unaligned) merge job by job with the merge
# of single runs, and each phase's figures combine its merged jobs: ops
# and bytes are the sums per job and per phase, the percentiles are those
# of merging the jobs' own documents with atio merge, the phase's value
# every job's I/O over the phase's time. One text line with "rate" per
# phase. A plan with a single run's document, plans of another shape
# (phases, jobs in a phase, a plan stopped early), and --values: exit 2,
# naming the file and what differs. atio report of a plan: exit 2.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# plan DIR: the plan on "node" DIR: a capped random reader and a capped
# sequential writer at once (the writer from 0.5 s on), then a sequential
# reader.
plan() {
	mkdir -p "$1/r" "$1/w"
	run_atio --read --rand -s 4K -p 1 -t 1 -u 4M --rate 300 -f "$1/r" --json \
		--and --write --seq -s 64K -p 1 -t 0.5 --delay 0.5 -u 4M --rate 4 -f "$1/w" \
		--then --read --seq -s 64K -p 1 -t 0.5 -u 4M -f "$1/w"
}

plan "$WORK/n1"
expect_code "node 1's plan: exit 0" 0
cp "$OUT" "$WORK/p1.json"
plan "$WORK/n2"
expect_code "node 2's plan: exit 0" 0
cp "$OUT" "$WORK/p2.json"

# Each job's document alone, for the merge of single runs to compare with.
python3 - "$WORK" <<'PY'
import json, sys
w = sys.argv[1]
for n in (1, 2):
    d = json.load(open(f"{w}/p{n}.json"))
    for k, ph in enumerate(d["phases"]):
        for j, job in enumerate(ph["jobs"]):
            json.dump(job, open(f"{w}/p{n}-{k + 1}-{j + 1}.json", "w"))
PY

"$ATIO" merge --unaligned --json "$WORK/p1.json" "$WORK/p2.json" >"$WORK/m.json" 2>"$ERR" && RC=0 || RC=$?
LAST="atio merge --unaligned --json p1.json p2.json"
expect_code "merge of two plans: exit 0" 0
OUT=$WORK/m.json
expect_json "merge: a plan's document of two phases" \
	'[d["plan"]["phases"], len(d["phases"]), d["phases_run"], d["complete"], d["documents"]]' \
	'[2, 2, 2, True, 2]'
expect_json "merge: two jobs, then one" '[len(p["jobs"]) for p in d["phases"]]' '[2, 1]'
expect_json "merge: each job's ops and bytes the sum of its documents'" \
	"all(d['phases'][k]['jobs'][j][x] == sum(json.load(open(f'$WORK/p{n}.json'))['phases'][k]['jobs'][j]['result'][x] for n in (1, 2)) for k, j in ((0, 0), (0, 1), (1, 0)) for x in ('ops', 'bytes'))" True
expect_json "merge: each phase's ops and bytes the sum of every job of every document" \
	"all(p['result'][x] == sum(j['result'][x] for n in (1, 2) for j in json.load(open(f'$WORK/p{n}.json'))['phases'][k]['jobs']) for k, p in enumerate(d['phases']) for x in ('ops', 'bytes'))" True
expect_json "merge: each phase's value its I/O in the first job's unit over its time" \
	'[p["result"]["unit"] for p in d["phases"]] == ["IOPS", "MB/s"] and abs(d["phases"][0]["result"]["value"] - d["phases"][0]["result"]["ops"] / d["phases"][0]["result"]["time_sec"]) < 1e-6 and abs(d["phases"][1]["result"]["value"] - d["phases"][1]["result"]["bytes"] / 2**20 / d["phases"][1]["result"]["time_sec"]) < 1e-6' True
expect_json "merge: a phase's time from the first start to the last end of its jobs" \
	"abs(d['phases'][0]['result']['time_sec'] - (max(j['end_epoch'] for n in (1, 2) for j in json.load(open(f'$WORK/p{n}.json'))['phases'][0]['jobs']) - min(j['start_epoch'] for n in (1, 2) for j in json.load(open(f'$WORK/p{n}.json'))['phases'][0]['jobs']))) < 1e-5" True
expect_json "merge: each document's own figure of a phase" \
	"[x['value'] for x in d['phases'][0]['documents_merged']] == [json.load(open(f'$WORK/p{n}.json'))['phases'][0]['result']['value'] for n in (1, 2)]" True

# The percentiles of each job: those of the merge of its documents alone.
for kj in 1-1 1-2 2-1; do
	"$ATIO" merge --unaligned --json "$WORK/p1-$kj.json" "$WORK/p2-$kj.json" >"$WORK/s-$kj.json"
	k=${kj%-*} j=${kj#*-}
	expect_json "merge: job $j of phase $k: the latency of the merge of its documents alone" \
		"[d['phases'][$k - 1]['jobs'][$j - 1][x] for x in ('sum', 'ops', 'bytes', 'latency_ns')] == [json.load(open('$WORK/s-$kj.json'))[x] for x in ('sum', 'ops', 'bytes', 'latency_ns')]" True
done
# A phase's latency: one histogram of its jobs' I/O on both nodes (a
# reader's and a writer's, which merge itself does not sum): its count,
# min and max those of the jobs' merges, its median between theirs.
expect_json "merge: phase 1's latency of all its jobs' histograms" \
	"(lambda p, a, b: p['count'] == a['count'] + b['count'] and p['min'] == min(a['min'], b['min']) and p['max'] == max(a['max'], b['max']) and min(a['p50'], b['p50']) <= p['p50'] <= max(a['p50'], b['p50']))(d['phases'][0]['result']['latency_ns'], json.load(open('$WORK/s-1-1.json'))['latency_ns'], json.load(open('$WORK/s-1-2.json'))['latency_ns'])" True

# The text: per phase one line with "rate", the jobs' merges below.
"$ATIO" merge --unaligned "$WORK/p1.json" "$WORK/p2.json" >"$WORK/m.txt" 2>"$ERR" && RC=0 || RC=$?
LAST="atio merge --unaligned p1.json p2.json"
expect_code "merge of two plans, text: exit 0" 0
expect_count "text: one line with rate per phase" "$WORK/m.txt" 'rate' 2
expect_match "text: phase 1's result line" "$WORK/m.txt" '^time: [0-9.]+ sec; rate: \{ [0-9.]+ \} IOPS;$'
expect_match "text: phase 2's result line" "$WORK/m.txt" '^time: [0-9.]+ sec; rate: \{ [0-9.]+ \} MB/s;$'
expect_match "text: job 2's sum" "$WORK/m.txt" '^job 2: Sum value = \{ [0-9.]+ \} MB/s;$'
expect_count "text: each job's merge says its documents" "$WORK/m.txt" '^job [12]: documents: 2, interrupted: 0$' 3

# Runs one after another are refused as single runs' are, naming the job.
"$ATIO" merge "$WORK/p1.json" "$WORK/p2.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
expect_code "plans one after another, without --unaligned: exit 2" 2
expect_match "plans one after another: the phase and job named" "$ERR" 'phase 1, job 1: .*p2\.json'
cp "$WORK/p1.json" "$WORK/copy.json"
"$ATIO" merge --unaligned "$WORK/p1.json" "$WORK/copy.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
expect_code "a plan and its copy: exit 2" 2

# Bad shapes: the file and what differs named.
bad() { # NAME PYTHON-EDIT-OF-d: p2.json edited into bad.json
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2; json.dump(d, open(sys.argv[2], 'w'))" \
		"$WORK/p2.json" "$WORK/bad.json"
	"$ATIO" merge --unaligned "$WORK/p1.json" "$WORK/bad.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
	LAST="atio merge p1.json bad.json ($1)"
	expect_code "$1: exit 2" 2
	expect_match "$1: the file named" "$ERR" 'bad\.json'
}
bad "a job fewer in phase 1" 'del d["phases"][0]["jobs"][1]'
expect_match "a job fewer: what differs" "$ERR" 'phase 1 has 1 jobs, the first document.*2'
bad "a plan of one phase" 'd["phases"] = d["phases"][:1]; d["plan"]["phases"] = 1; d["phases_run"] = 1'
expect_match "a plan of one phase: what differs" "$ERR" 'a plan of 1 phases, the first document.*2'
bad "a plan stopped after phase 1" 'd["phases"] = d["phases"][:1]; d["phases_run"] = 1; d["complete"] = False'
expect_match "a plan stopped early: what differs" "$ERR" 'stopped after phase 1 of 2'
"$ATIO" merge --unaligned "$WORK/p1.json" "$WORK/p1-1-1.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
expect_code "a plan, then a single run: exit 2" 2
expect_match "a plan, then a single run: said" "$ERR" "p1-1-1\.json: a single run's document, the documents before it plans'"
"$ATIO" merge --unaligned "$WORK/p1-1-1.json" "$WORK/p2.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
expect_code "a single run, then a plan: exit 2" 2
expect_match "a single run, then a plan: said" "$ERR" "p2\.json: a plan's document"
"$ATIO" merge --unaligned --values "$WORK/v" "$WORK/p1.json" "$WORK/p2.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
expect_code "a merge of plans with --values: exit 2" 2

# atio report of a plan, and of the merge of plans: a row for each phase,
# each job's charts, a job started later placed at its start.
for doc in p1 m; do
	"$ATIO" report -o "$WORK/$doc.html" "$WORK/$doc.json" >/dev/null 2>"$ERR" && RC=0 || RC=$?
	LAST="atio report -o $doc.html $doc.json"
	expect_code "atio report of $doc.json: exit 0" 0
	for key in "phase 1, job 1" "phase 1, job 2" "phase 2, job 1"; do
		expect_match "atio report of $doc.json: $key charted" "$WORK/$doc.html" "<h2>$key</h2>"
	done
	expect_count "atio report of $doc.json: each phase's row" "$WORK/$doc.html" \
		"<td>phase [12]</td><td class=\"n\">[0-9.]+ (IOPS|MB/s)</td><td>the phase's" 2
done
expect_match "atio report of a plan: job 2 placed at its start" "$WORK/p1.html" \
	"p1\\.json: this job's measured time began 0\\.[5-9][0-9]* s after its phase's"
# The job's first interval is drawn from its start on: no point before 0.5 s.
python3 - "$WORK/p1.json" >"$WORK/offset" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["phases"][0]["jobs"][1]
print(round(j["start_epoch"] - d["phases"][0]["result"]["start_epoch"], 3))
PY
expect_match "the plan: job 2 began 0.5 s or more after job 1" "$WORK/offset" '^0\.[5-9]'

# The driver does not run plans yet: refused before any node is reached
# (the host here does not exist), with exit 2 and why.
DRIVER=${ATIO_PARALLEL:-$(cd "$(dirname "$0")/../.." && pwd)/scripts/atio-parallel.sh}
for sep in --and --then --jobs; do
	AT_IO_LOCAL_PATH=$ATIO "$DRIVER" -d "$WORK/n1" --atio-opts "-s 8K $sep -f /x" \
		no-such-node.invalid >/dev/null 2>"$ERR" && RC=0 || RC=$?
	LAST="atio-parallel.sh --atio-opts '-s 8K $sep -f /x'"
	expect_code "the driver with $sep in ATIO_OPTS: exit 2" 2
	expect_match "the driver with $sep in ATIO_OPTS: said" "$ERR" \
		"ATIO_OPTS \(--atio-opts\) '-s 8K $sep -f /x': $sep makes a plan .* not yet run by the driver"
done

finish
