#!/bin/bash
# scripts/atio-parallel.sh --csv FILE against three real sshd nodes
# (sshd-harness.sh): the results as CSV that Python's csv module reads,
# every row as wide as the header; per iteration a node row for each
# node, once, and the sum's row, per test the average's; a --mix test's
# rows per direction; the figures the -o document's. A node whose atio
# fails has its FAILURE row, with what it said; --csv - puts the CSV alone
# on stdout; a file of other columns is refused before anything runs.
# atio report of the -o document shows randrw's reads and writes apart.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the CSV"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)

# problems CSV DOC FAILED: the CSV against the -o document DOC, FAILED the
# host whose every run failed ("" for none; its rows say why, as its
# record: its first 3 lines of stderr); a line per problem.
problems() {
	python3 - "$@" <<'PY' 2>&1 || echo "the check failed"
import csv, json, sys

rows = list(csv.reader(open(sys.argv[1], newline="")))
doc = json.load(open(sys.argv[2]))
failed = sys.argv[3]
head, body = rows[0], rows[1:]
why = []
lead = ["row", "threads_given", "test", "iteration", "host", "status", "message"]
if head[:len(lead) + 2] != lead + ["job", "direction"]:
    why.append("the first columns: %r" % head[:9])
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
        why.append("%s: CSV %r, document %r" % (what, got, exp))

def dirs(what, got, o, name):
    want = ["all", "read", "write"] if isinstance(o.get("read"), dict) else ["all"]
    if [c["direction"] for c in got] != want:
        why.append("%s: %s rows %r, expected %r" % (what, name, [c["direction"] for c in got], want))
        return False
    for c in got[1:]:
        eq(what + " " + c["direction"] + " iops", c["iops"], o[c["direction"]]["iops"])
        eq(what + " " + c["direction"] + " ops", c["ops"], o[c["direction"]]["ops"])
    return True

ntests = 0
for g in doc["results"]:
    for t in g["tests"]:
        ntests += 1
        key = (str(g["threads"]), t["test"])
        mine = [c for c in rows if (c["threads_given"], c["test"]) == key]
        for it in t["iterations"]:
            w = "%s/%s/%d" % (key + (it["iteration"],))
            here = [c for c in mine if c["iteration"] == str(it["iteration"])]
            for n in it["nodes"]:
                got = [c for c in here if c["row"] == "node" and c["host"] == n["host"]]
                if not n["ok"]:
                    if [(c["status"], c["direction"]) for c in got] != [("FAILURE", "all")]:
                        why.append("%s %s failed: rows %r" % (w, n["host"], got))
                    elif got[0]["message"] != "; ".join(n["stderr"][:3]) or got[0]["value"]:
                        why.append("%s %s: a FAILURE row with message %r (its stderr %r), value %r"
                                   % (w, n["host"], got[0]["message"], n["stderr"], got[0]["value"]))
                    elif len(n["stderr"]) < 2:
                        why.append("%s %s: its record says only %r" % (w, n["host"], n["stderr"]))
                    continue
                if n["host"] == failed:
                    why.append("%s: %s gave a result" % (w, failed))
                if not dirs(w + " " + n["host"], got, n, "node"):
                    continue
                c = got[0]
                if c["status"] != "SUCCESS":
                    why.append("%s %s: status %r" % (w, n["host"], c["status"]))
                eq(w + " " + n["host"] + " value", c["value"], n["value"])
                eq(w + " " + n["host"] + " ops", c["ops"], n["ops"])
                eq(w + " " + n["host"] + " iops", c["iops"], n["iops"])
                eq(w + " " + n["host"] + " p50", c["lat_p50_us"], n["latency_us"]["p50"])
                eq(w + " " + n["host"] + " p99", c["lat_p99_us"], n["latency_us"]["p99"])
                if c["cmdline"] == "" or c["unit"] != n["unit"]:
                    why.append("%s %s: cmdline %r, unit %r" % (w, n["host"], c["cmdline"], c["unit"]))
            hosts = sorted(c["host"] for c in here if c["row"] == "node" and c["direction"] == "all")
            if hosts != sorted(n["host"] for n in it["nodes"]):
                why.append("%s: node rows for %r, the nodes are %r" % (w, hosts, [n["host"] for n in it["nodes"]]))
            s = [c for c in here if c["row"] == "sum"]
            if dirs(w + " sum", s, it["merge"], "sum"):
                eq(w + " sum value", s[0]["value"], it["sum"])
                eq(w + " sum ops", s[0]["ops"], it["merge"]["ops"])
                eq(w + " sum p50", round(float(s[0]["lat_p50_us"]) * 1000), it["merge"]["latency_ns"]["p50"])
                ok_iops = sum(n["iops"] for n in it["nodes"] if n["ok"])
                if abs(float(s[0]["iops"]) - ok_iops) > 1e-9 * ok_iops:
                    why.append("%s: sum iops %s, the nodes' %r" % (w, s[0]["iops"], ok_iops))
        a = [c for c in mine if c["row"] == "average"]
        if not a or a[0]["direction"] != "all":
            why.append("%s/%s: no average row" % key)
        else:
            if t["average"] is None:
                if a[0]["value"] != "" or a[0]["status"] != "INCOMPLETE":
                    why.append("%s/%s: no average, the row has %r" % (key + (a[0],)))
            else:
                eq("%s/%s average" % key, a[0]["value"], t["average"])
            if isinstance(t.get("read"), dict):
                if [c["direction"] for c in a] != ["all", "read", "write"]:
                    why.append("%s/%s: average rows %r" % (key + ([c["direction"] for c in a],)))
                else:
                    eq("average read iops", a[1]["iops"], t["read"]["average_iops"])
if ntests == 0:
    why.append("no test in the document")
print("\n".join(why))
PY
}

# csv_ok WHAT CSV DOC FAILED: problems, as a check.
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

# --- Every node runs: a random read and a random 70/30 mix ---
CSV=$WORK/results.csv DOC=$WORK/results.json
run_driver TESTS="randread randrw" ITERATIONS=1 -o "$DOC" --csv "$CSV" "${HOSTS[@]}"
expect_code "--csv FILE -o DOC, 3 nodes, randread and randrw: exit 0" 0
csv_ok "--csv: a row per node and iteration, the sums', the averages', the document's figures" \
	"$CSV" "$DOC" ""
expect_match "--csv FILE: the driver's lines on stdout as ever" "$OUT" '^---=== Average value = '
cp "$DOC" "$WORK/mix.json"
run_atio report "$WORK/mix.json" -o "$WORK/mix.html"
expect_code "atio report of the -o document: exit 0" 0
expect_count "the page: randrw's table of nodes has its reads and writes apart" "$WORK/mix.html" \
	'<th>reads \(IOPS\)</th><th>writes \(IOPS\)</th>' 1
expect_count "the page: the summary's read and write rows of randrw" "$WORK/mix.html" \
	'<td>randrw, 1 thread: (read|write)</td>' 2

# --- A node whose atio fails: its FAILURE row, with what it said; --csv - ---
node_exec 2 mount -t tmpfs -o size=1m atio-test-full "$REMOTE_DATA" ||
	die "cannot mount a tmpfs in node2's namespace"
run_driver TESTS=randread ITERATIONS=1 ATIO_OPTS=--allow-memory-fs -o "$DOC" \
	--csv - "${HOSTS[@]}"
node_exec 2 umount "$REMOTE_DATA" || die "cannot unmount node2's tmpfs"
expect_code "node2 failing, --csv -: exit 1" 1
cp "$OUT" "$WORK/stdout.csv"
csv_ok "--csv -: stdout is the CSV alone, node2's FAILURE rows in it" "$WORK/stdout.csv" "$DOC" node2
expect_match "--csv -: the driver's lines on stderr" "$ERR" '\[FAILURE\] node2$'

# --- A file of other columns: refused before anything runs ---
printf 'job,direction\n1,all\n' >"$WORK/other.csv"
run_driver TESTS=randread ITERATIONS=1 --csv "$WORK/other.csv" "${HOSTS[@]}"
expect_code "--csv of a file of other columns: exit 2" 2
expect_match "other columns: said, the file named" "$ERR" "--csv $WORK/other.csv: holds something else"
check "other columns: the file left as it was" [ "$(cat "$WORK/other.csv")" = "$(printf 'job,direction\n1,all')" ]

finish
