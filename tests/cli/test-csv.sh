#!/bin/bash
# --csv FILE: a run's figures as CSV that Python's csv module reads: a
# header of snake_case names with their unit, every row as wide as it, a
# row for the run and one per direction of --mix, the figures equal to the
# --json document's of the same run, the command line as the last column;
# a second run appends its rows; a file of other columns is left alone;
# --csv - puts the CSV alone on stdout; what cannot be written is refused.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the CSV"

CSV=$WORK/runs.csv
# compare CSV JSON: the CSV's rows against the JSON document; problems, if any.
compare() {
	python3 - "$1" "$2" <<'PY'
import csv, json, re, sys

rows = list(csv.reader(open(sys.argv[1], newline="")))
d = json.load(open(sys.argv[2]))
why = []
head, body = rows[0], rows[1:]
for name in head:
    if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", name):
        why.append("header name not snake_case: %r" % name)
if len(set(head)) != len(head):
    why.append("a header name twice")
for i, r in enumerate(body):
    if len(r) != len(head):
        why.append("row %d: %d fields, the header %d" % (i + 1, len(r), len(head)))
last = {}
for r in body:
    last[r[1]] = dict(zip(head, r))
res = d["result"]
want = ["all", "read", "write"] if d.get("read") else ["all"]
if [r[1] for r in body[-len(want):]] != want:
    why.append("the last rows are %r, expected %r" % ([r[1] for r in body], want))

def eq(what, got, exp, rel=0.0):
    try:
        g = float(got)
    except ValueError:
        why.append("%s: %r is not a number" % (what, got))
        return
    if not (g == exp or (rel and abs(g - exp) <= rel * abs(exp))):
        why.append("%s: CSV %r, JSON %r" % (what, got, exp))

fio = ["1", "5", "10", "20", "30", "40", "50", "60", "70", "80", "90", "95", "99", "99.5",
       "99.9", "99.95", "99.99"]
for name in want:
    c = last[name]
    j = res if name == "all" else d[name]
    lat = d["latency_ns"] if name == "all" else d[name]["latency_ns"]
    eq(name + " time_s", c["time_s"], res["time_sec"])
    eq(name + " start_epoch_s", c["start_epoch_s"], d["start_epoch"])
    eq(name + " iops", c["iops"], j["iops"])
    eq(name + " bw_mib_s", c["bw_mib_s"], j["mbs"])
    eq(name + " bw_bytes_s", c["bw_bytes_s"], j["bytes_per_sec"])
    eq(name + " ops", c["ops"], j["ops"])
    eq(name + " bytes", c["bytes"], j["bytes"])
    eq(name + " lat_count", c["lat_count"], lat["count"])
    for k in ("min", "max"):
        eq(name + " lat_%s_us" % k, round(float(c["lat_%s_us" % k]) * 1000), lat[k])
    eq(name + " lat_mean_us", float(c["lat_mean_us"]) * 1000, lat["mean"], 1e-12)
    eq(name + " lat_stdev_us", float(c["lat_stdev_us"]) * 1000, lat["stdev"], 1e-12)
    for p, v in lat["percentiles"].items():
        col = "lat_p%s_us" % p.replace(".", "_")
        if col not in c:
            why.append("no column %s" % col)
        else:
            eq(name + " " + col, round(float(c[col]) * 1000), v)
    for p in fio:
        if "lat_p%s_us" % p.replace(".", "_") not in c:
            why.append("fio's p%s has no column" % p)
    if name == "all":
        eq("value", c["value"], res["value"])
        if c["unit"] != res["unit"]:
            why.append("unit: %r, JSON %r" % (c["unit"], res["unit"]))
        eq("syncs", c["syncs"], res["syncs"])
        for k in ("cpu_user_pct", "cpu_sys_pct"):
            eq(k, c[k], res[k])
        eq("ctx_voluntary", c["ctx_voluntary"], res["ctx_voluntary"])
        eq("ctx_involuntary", c["ctx_involuntary"], res["ctx_involuntary"])
    else:
        eq(name + " share_pct", c["share_pct"], j["share"])
    if c["seed"] != d["settings"]["seed_string"]:
        why.append("%s seed: %r, JSON %r" % (name, c["seed"], d["settings"]["seed_string"]))
    if c["cmdline"] != d["settings"]["cmdline"]:
        why.append("cmdline: %r, JSON %r" % (c["cmdline"], d["settings"]["cmdline"]))
print("\n".join(why))
PY
}

# csv_ok WHAT CSV JSON: compare, as a check.
csv_ok() {
	local problems

	problems=$(compare "$2" "$3" 2>&1) || problems="the files do not read: $problems"
	if [ -z "$problems" ]; then
		ok "$1"
	else
		not_ok "$1" "$problems"
	fi
}

# --- A mixed run: a row for it and one per direction, the JSON's figures ---
run_atio --engine null --mix 70 --rand -p 2 -t 0.3 --percentiles 50,99.999 --seed 5 \
	--json --csv "$CSV"
expect_code "--mix 70 --json --csv FILE: exit 0" 0
cp "$OUT" "$WORK/mix.json"
csv_ok "--mix 70: the rows all, read, write hold the JSON's figures" "$CSV" "$WORK/mix.json"
expect_match "--csv: the header names the units" "$CSV" \
	'^job,direction,.*,iops,bw_mib_s,bw_bytes_s,.*,lat_p99_us,.*,lat_p99_999_us,.*,cmdline$'

# --- A second run of other settings cannot share the file; one of the same appends ---
before=$(cat "$CSV")
run_atio --engine null --read --seq -t 0.2 --csv "$CSV"
expect_code "other columns (no --percentiles) into the file: exit 2" 2
expect_match "other columns: the message names the file" "$ERR" "^atio: --csv $CSV: holds something else"
check "other columns: the file left as it was" [ "$(cat "$CSV")" = "$before" ]
expect_count "other columns: said before the run (no result line)" "$OUT" '^time: ' 0
# A file whose last row was cut (a full disk, a killed writer): a row put
# after it would be glued to it; refused before the run, left as it is.
head -c -7 "$CSV" >"$WORK/cut.csv"
cut_before=$(cat "$WORK/cut.csv")
run_atio --engine null --mix 50 --seq -p 1 -t 0.2 --percentiles 50,99.999 --csv "$WORK/cut.csv"
expect_code "a cut last row: exit 2" 2
expect_match "a cut last row: said" "$ERR" "^atio: --csv $WORK/cut.csv: its last row does not end with a line's end"
expect_count "a cut last row: said before the run (no result line)" "$OUT" '^time: ' 0
check "a cut last row: the file left as it was" [ "$(cat "$WORK/cut.csv")" = "$cut_before" ]
run_atio --engine null --mix 50 --seq -p 1 -t 0.2 --percentiles 50,99.999 --json --csv "$CSV"
expect_code "the same columns: appended, exit 0" 0
cp "$OUT" "$WORK/second.json"
check "appended: 1 header and 6 rows" [ "$(wc -l <"$CSV")" -eq 7 ]
csv_ok "appended: its rows hold its JSON's figures, the file's rows one width" "$CSV" "$WORK/second.json"
expect_count "appended: one header row" "$CSV" '^job,direction,' 1

# --- A plain run, text on stdout as ever, with a sync mode ---
run_atio --fdatasync --rand -s 4K -t 0.3 -u 4M -f "$WORK/ds" --json --csv "$WORK/sync.csv"
expect_code "--fdatasync --csv: exit 0" 0
cp "$OUT" "$WORK/sync.json"
csv_ok "--fdatasync: the row holds the JSON's figures, its syncs too" "$WORK/sync.csv" "$WORK/sync.json"
run_atio --engine null -t 0.2 --csv "$WORK/text.csv"
check_result "--csv FILE: the text on stdout, \"rate\" on the result line alone" MB/s

# --- --csv -: the CSV alone on stdout ---
for name in - stdout; do
	run_atio --engine null -v -t 0.2 --csv "$name"
	expect_code "--csv $name: exit 0" 0
	expect_match "--csv $name: the header first on stdout" "$OUT" '^job,direction,'
	check "--csv $name: stdout is the header and one row" [ "$(wc -l <"$OUT")" -eq 2 ]
	expect_no_match "--csv $name: no text line" "$OUT" '^(time|latency|Cmdline|thread)'
done

# --- Refused: exit 2, the value named, nothing run ---
run_atio --engine null -t 0.2 --csv - --json
expect_code "--csv - --json: exit 2" 2
expect_match "--csv - --json: both on stdout" "$ERR" '^atio: --csv - with --json: both would be on stdout'
run_atio -a --engine null --csv "$WORK/a.csv"
expect_code "-a --csv: exit 2" 2
check "-a --csv: no file" [ ! -e "$WORK/a.csv" ]
run_atio --engine null -t 0.2 --csv ''
expect_code "--csv '': exit 2" 2
run_atio --engine null -t 0.2 --csv "$WORK/no/such/dir.csv"
expect_code "--csv in a missing directory: exit 2" 2
expect_match "--csv in a missing directory: the file named" "$ERR" "--csv $WORK/no/such/dir.csv: "
expect_count "--csv in a missing directory: said before the run (no result line)" "$OUT" '^time: ' 0

# --- A run a signal cut short says so in its row; a whole one too ---
I=$WORK/interrupted.csv
run_atio --engine null --read -t 0.2 --csv "$I"
start_atio --engine null --read -t 60 -vv --csv "$I"
t0=$(now_ms)
while ! grep -q '^atio: 1 s: ' "$ERR" && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
	sleep 0.05
done
kill -s INT "$PID" 2>/dev/null || true
wait_exit 30
expect_code "a run cut by SIGINT: exit 130" 130
got=$(python3 -c 'import csv, sys; print(" ".join(r["interrupted"] for r in csv.DictReader(open(sys.argv[1]))))' "$I" 2>&1)
check "the interrupted column: false for the whole run, true for the cut one ($got)" [ "$got" = "false true" ]

finish
