#!/bin/bash
# atio merge --csv FILE and --csv in a plan (--and, --then): the rows that
# Python's csv module reads, every row as wide as the header, the header a
# run's with columns of their own in front; a merge's row per document
# and per direction holds the document's figures, its sum's rows the
# merge's; a plan's row per job holds the job's; a path or command with a
# comma or a quote stays one field; stdout as the file; what is refused.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the CSV"

# problems CHECK CSV JSON...: the Python check CHECK (merge or plan) of the
# CSV against the JSON documents; a line per problem, nothing when none.
problems() {
	python3 - "$@" <<'PY' 2>&1 || echo "the check failed"
import csv, json, sys

kind, path, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = list(csv.reader(open(path, newline="")))
head, body = rows[0], rows[1:]
why = []
for i, r in enumerate(body):
    if len(r) != len(head):
        why.append("row %d: %d fields, the header %d" % (i + 1, len(r), len(head)))
rows = [dict(zip(head, r)) for r in body]

def eq(what, got, exp):
    try:
        ok = float(got) == float(exp)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        why.append("%s: CSV %r, JSON %r" % (what, got, exp))

def latency(what, c, lat):
    eq(what + " lat_count", c["lat_count"], lat["count"])
    for p, v in lat["percentiles"].items():
        eq(what + " p" + p, round(float(c["lat_p%s_us" % p.replace(".", "_")]) * 1000), v)
    eq(what + " lat_max_us", round(float(c["lat_max_us"]) * 1000), lat["max"])

def run_rows(what, got, d):
    # The rows of run document d: all, then read and write with --mix.
    want = ["all", "read", "write"] if d.get("read") else ["all"]
    if [c["direction"] for c in got] != want:
        why.append("%s: directions %r, expected %r" % (what, [c["direction"] for c in got], want))
        return
    for c in got:
        name = c["direction"]
        j = d["result"] if name == "all" else d[name]
        eq(what + " " + name + " iops", c["iops"], j["iops"])
        eq(what + " " + name + " bw_mib_s", c["bw_mib_s"], j["mbs"])
        eq(what + " " + name + " ops", c["ops"], j["ops"])
        latency(what + " " + name, c, d["latency_ns"] if name == "all" else j["latency_ns"])
        if name == "all":
            eq(what + " value", c["value"], j["value"])
            eq(what + " time_s", c["time_s"], j["time_sec"])
            if c["cmdline"] != d["settings"]["cmdline"]:
                why.append("%s cmdline %r, JSON %r" % (what, c["cmdline"], d["settings"]["cmdline"]))

if kind == "merge":
    m = json.load(open(docs[0]))
    if head[:3] != ["row", "file", "host"]:
        why.append("the first columns: %r" % head[:3])
    for k, f in enumerate(docs[1:]):
        got = [c for c in rows if c["row"] == "document" and c["file"] == f]
        run_rows(f, got, json.load(open(f)))
    sums = [c for c in rows if c["row"] == "sum"]
    want = ["all", "read", "write"] if m.get("read") else ["all"]
    if [c["direction"] for c in sums] != want:
        why.append("sum rows %r, expected %r" % ([c["direction"] for c in sums], want))
    else:
        eq("sum value", sums[0]["value"], m["sum"])
        eq("sum ops", sums[0]["ops"], m["ops"])
        eq("sum start", sums[0]["start_epoch_s"], m["first_start_epoch"])
        latency("sum", sums[0], m["latency_ns"])
        for c in sums[1:]:
            eq("sum " + c["direction"] + " iops", c["iops"], m[c["direction"]]["iops"])
            eq("sum " + c["direction"] + " ops", c["ops"], m[c["direction"]]["ops"])
            latency("sum " + c["direction"], c, m[c["direction"]]["latency_ns"])
    if len(rows) != len(sums) + sum(len([c for c in rows if c["file"] == f]) for f in docs[1:]):
        why.append("%d rows: others than the documents' and the sum's" % len(rows))
else:
    p = json.load(open(docs[0]))
    if head[0] != "phase":
        why.append("the first column: %r" % head[0])
    for k, ph in enumerate(p["phases"]):
        for j, d in enumerate(ph["jobs"]):
            got = [c for c in rows if c["phase"] == str(k + 1) and c["job"] == str(j + 1)]
            run_rows("phase %d job %d" % (k + 1, j + 1), got, d)
    n = sum(3 if d.get("read") else 1 for ph in p["phases"] for d in ph["jobs"])
    if len(rows) != n:
        why.append("%d rows, the jobs have %d" % (len(rows), n))
print("\n".join(why))
PY
}

# csv_ok WHAT CHECK CSV JSON...: problems, as a check.
csv_ok() {
	local what=$1 p
	shift
	p=$(problems "$@")
	if [ -z "$p" ]; then
		ok "$what"
	else
		not_ok "$what" "$p"
	fi
}

# --- Two mixed runs merged (--unaligned: one after the other): a row per
# document and direction, the sum's ---
D1=$WORK/a,\"b\".json D2=$WORK/two.json CSV=$WORK/merge.csv
run_atio --engine null --mix 70 --rand -p 2 -t 0.3 --percentiles 50,99.999 --json
cp "$OUT" "$D1"
run_atio --engine null --mix 70 --rand -p 1 -t 0.3 --percentiles 50,99.999 --json
cp "$OUT" "$D2"
run_atio merge --unaligned --json --csv "$CSV" "$D1" "$D2"
expect_code "merge --json --csv FILE: exit 0" 0
cp "$OUT" "$WORK/merge.json"
csv_ok "merge --csv: a row per document and direction, the sum's, the JSON's figures" \
	merge "$CSV" "$WORK/merge.json" "$D1" "$D2"
run_atio --engine null --mix 70 --rand -t 0.2 --percentiles 50,99.999 --csv "$WORK/run.csv"
check "merge --csv: the header is a run's (same --percentiles) after row,file,host" \
	[ "$(head -n 1 "$CSV")" = "row,file,host,$(head -n 1 "$WORK/run.csv")" ]
check "merge --csv: 1 header, 6 document rows, 3 sum rows" [ "$(wc -l <"$CSV")" -eq 10 ]

# --- Documents of other --percentiles: the first one's columns, one width ---
run_atio --engine null --mix 70 --rand -t 0.3 --percentiles 12.5 --json
cp "$OUT" "$WORK/other-pct.json"
run_atio merge --unaligned --csv "$WORK/pct.csv" "$D1" "$WORK/other-pct.json"
expect_code "merge --csv of documents of other --percentiles: exit 0" 0
got=$(python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
print(sorted(set(len(r) for r in rows)) == [len(rows[0])], len(rows), "lat_p99_999_us" in rows[0], "lat_p12_5_us" in rows[0])' "$WORK/pct.csv")
check "other --percentiles: 10 lines of one width, the first document's points ($got)" \
	[ "$got" = "True 10 True False" ]

# --- Appended under the same header; a file of other columns left alone ---
run_atio merge --unaligned --csv "$CSV" "$D1" "$D2"
expect_code "merge --csv into a file of its header: exit 0" 0
check "appended: 19 lines" [ "$(wc -l <"$CSV")" -eq 19 ]
check "appended: one header" [ "$(grep -c '^row,file' "$CSV")" -eq 1 ]
expect_match "merge --csv FILE: the text on stdout as ever" "$OUT" '^Sum value = '
before=$(cat "$WORK/run.csv")
run_atio merge --unaligned --csv "$WORK/run.csv" "$D1" "$D2"
expect_code "merge --csv into a run's CSV (other columns): exit 2" 2
expect_match "other columns: said, the file named" "$ERR" "^atio: merge: --csv $WORK/run.csv: holds something else"
check "other columns: the file left as it was" [ "$(cat "$WORK/run.csv")" = "$before" ]

# --- --csv -: the CSV alone on stdout ---
for name in - stdout; do
	run_atio merge --unaligned --csv "$name" "$D1" "$D2"
	expect_code "merge --csv $name: exit 0" 0
	cp "$OUT" "$WORK/stdout.csv"
	csv_ok "merge --csv $name: stdout is the CSV alone" merge "$WORK/stdout.csv" \
		"$WORK/merge.json" "$D1" "$D2"
done

# --- Refused, the file untouched ---
run_atio --engine null --read -t 0.2 --json
cp "$OUT" "$WORK/plain.json"
rm -f "$WORK/refused.csv"
run_atio merge --unaligned --csv "$WORK/refused.csv" "$D1" "$WORK/plain.json"
expect_code "merge of a --mix run and a plain one, --csv: exit 2" 2
check "a merge refused: no CSV made" [ ! -e "$WORK/refused.csv" ]
run_atio merge --unaligned --csv - --json "$D1" "$D2"
expect_code "merge --csv - --json: exit 2" 2
expect_match "merge --csv - --json: said" "$ERR" 'both want standard output'
run_atio merge --csv "$WORK/x.csv" --csv "$WORK/y.csv" "$D1"
expect_code "merge --csv twice: exit 2" 2
run_atio merge --sequential --csv "$WORK/x.csv" "$D1" "$D2"
expect_code "merge --sequential --csv: exit 2" 2
run_atio merge "$D1" --csv
expect_code "merge --csv without FILE: exit 2" 2
mkdir "$WORK/tree"
run_atio --meta create,delete -p 1 --files 50 --dirs 1 -f "$WORK/tree" --json
cp "$OUT" "$WORK/meta.json"
run_atio merge --csv "$WORK/meta.csv" "$WORK/meta.json"
expect_code "merge --csv of metadata documents: exit 2" 2
expect_match "merge --csv of metadata documents: said" "$ERR" '^atio: merge: --csv: not with metadata documents'
check "merge --csv of metadata documents: no file" [ ! -e "$WORK/meta.csv" ]

# --- A plan: a row per job and direction, the phase in front ---
P=$WORK/plan.csv
run_atio --engine null --mix 60 -t 0.3 --percentiles 99.999 --json --csv "$P" \
	--and --engine null --read -t 0.3 --then --engine null --write -p 2 -t 0.3
expect_code "a plan of 3 jobs in 2 phases, --json --csv FILE: exit 0" 0
cp "$OUT" "$WORK/plan.json"
csv_ok "plan --csv: a row per job and direction, the job's figures" plan "$P" "$WORK/plan.json"
expect_match "plan --csv: the header is the phase and a run's columns" "$P" \
	'^phase,job,direction,.*,lat_p99_999_us,.*,cmdline$'
run_atio --engine null -t 0.2 --csv - --then --engine null --write -t 0.2
expect_code "a plan with --csv -: exit 0" 0
expect_match "plan --csv -: the header first on stdout" "$OUT" '^phase,job,direction,'
check "plan --csv -: stdout is the header and a row per job" [ "$(wc -l <"$OUT")" -eq 3 ]
run_atio --engine null -t 0.1 --and --engine null -t 0.1 --csv "$WORK/second.csv"
expect_code "--csv in the second job: exit 2" 2
expect_match "--csv in the second job: said" "$ERR" 'job 2 of phase 1: --csv: .* given once, in the first job'
check "--csv in the second job: no file" [ ! -e "$WORK/second.csv" ]

# A document a signal cut short: its row and the sum's say so.
start_atio --engine null --read -t 60 -vv --json
t0=$(now_ms)
while ! grep -q '^atio: 1 s: ' "$ERR" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -s INT "$PID" 2>/dev/null || true
wait_exit 30
expect_code "a run cut by SIGINT, --json: exit 130" 130
cp "$OUT" "$WORK/cut.json"
run_atio --engine null --read -t 0.2 --json
cp "$OUT" "$WORK/whole.json"
run_atio merge --unaligned --csv "$WORK/cut.csv" "$WORK/whole.json" "$WORK/cut.json"
expect_code "merge --csv of a whole and a cut document: exit 1 (a document interrupted)" 1
got=$(python3 -c 'import csv, sys; print(" ".join(r["row"] + ":" + r["interrupted"] for r in csv.DictReader(open(sys.argv[1]))))' "$WORK/cut.csv" 2>&1)
check "merge --csv: the cut document's row and the sum's interrupted ($got)" \
	[ "$got" = "document:false document:true sum:true" ]

finish
