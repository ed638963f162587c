#!/bin/bash
# atio report of the driver's --sweep and --curve (atio-parallel.sh -o with
# "sweeps"), from real documents of three sshd nodes (sshd-harness.sh) and
# the null engine: a section per sweep, the cluster's sum curve drawn as a
# single-node sweep is, each node's curve beside it, the cluster's peak,
# knee and target marked, a curve's unheld steps marked, the points table
# with the sum and each node's value; a failed node's point left out of its
# series and said; a curve without a maximum said, nothing drawn. Checked
# in the page and in headless Chromium (the DOM as the file, no console
# message).
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v python3 >/dev/null || skip "python3 is not installed (it reads the pages)"
GEN=$(cd "$(dirname "$0")" && pwd)/report-gen.py
gen() {
	python3 "$GEN" "$@"
}

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
NULL=(TIME=0.5 WARMUP_TIME=0.2 FILE_SIZE=16M THREADS=1 "ATIO_OPTS=--engine null" START_MARGIN=0.5)

# Each node's atio fails a run whose arguments hold the words in its
# bin/fail (a failed node at a point).
for i in 1 2 3; do
	b=$(node_dir "$i")/bin
	rm -f "$b/atio"
	cp "$LOCAL_ATIO" "$b/atio.real"
	cat >"$b/atio" <<'EOS'
#!/bin/sh
d=$(dirname "$0")
if [ -s "$d/fail" ]; then
	case " $* " in
	*" --json "*)
		case " $* " in
		*" $(cat "$d/fail") "*) echo "atio: told to fail" >&2; exit 1 ;;
		esac ;;
	esac
fi
exec "$d/atio.real" "$@"
EOS
	chmod 755 "$b/atio"
done

# make NAME RC ARG...: the driver's -o document $WORK/NAME.json, exit RC.
make_doc() {
	local n=$1 rc=$2

	shift 2
	run_driver "${NULL[@]}" "$@" -o "$WORK/$n.json" "${HOSTS[@]}"
	[ "$RC" = "$rc" ] || die "atio-parallel.sh $*: exit $RC, expected $rc: $(tail -n 5 "$ERR")"
	[ -z "${KEEP_DOCS:-}" ] || cp "$WORK/$n.json" "$KEEP_DOCS/"
}
# Two tests each: randread's sweep with node2 failed at its point -s 8K
# and randwrite's whole; randread's curve without a maximum (node3 failed
# in it) and randwrite's.
echo "--read --rand -s 8K" >"$(node_dir 2)/bin/fail"
make_doc sweep 1 --tests 'randread randwrite' --sweep 's=4K,8K,16K' --target p99=1ms
rm -f "$(node_dir 2)/bin/fail"
echo "--read" >"$(node_dir 3)/bin/fail"
make_doc curve 1 --tests 'randread randwrite' --curve 10,50
rm -f "$(node_dir 3)/bin/fail"
stop_nodes

# want DOC K: what the chart of DOC's sweep K (from 0) must hold, from the
# document alone: the sum's p50 and p99 over its valid points, each node's
# p99 over the points it ran, a ring per chosen point, the unheld steps.
want() {
	python3 - "$1" "$2" <<'EOP'
import json, sys
sw = json.load(open(sys.argv[1]))["sweeps"][int(sys.argv[2])]
pts = sw["points"]
valid = [p for p in pts if p["valid"]]
hosts = []
for p in pts:
    for n in p["nodes"]:
        if n["host"] not in hosts:
            hosts.append(n["host"])
def ran(p, h):
    n = [n for n in p["nodes"] if n["host"] == h]
    r = [r for r in p["iteration"]["nodes"] if r["host"] == h]
    return n and n[0]["ok"] and r and r[0]["ok"]
counts = [len(valid)] * 2 + [sum(1 for p in pts if ran(p, h)) for h in hosts]
picks = [sw[k] for k in ("peak", "knee", "kneedle", "target_point")
         if sw[k] is not None and pts[sw[k] - 1]["valid"]]
counts += [1] * len(picks)
unheld = [p for p in valid if p.get("held") is False]
if unheld:
    counts.append(len(unheld))
print("series=%d points=%s bands=0 bars=0 whiskers=0" % (len(counts), ",".join(map(str, counts))))
EOP
}
# names PAGE CHART: the names of the chart's series, one a line.
names() {
	python3 - "$GEN" "$1" "$2" <<'EOP'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
print("\n".join(gen.parsed(sys.argv[2], sys.argv[3]).names))
EOP
}
report() {
	local n=$1

	run_atio report "$WORK/$n.json" -o "$WORK/$n.html"
	if [ "$RC" -eq 0 ]; then
		ok "atio report $n.json: exit 0"
	else
		not_ok "atio report $n.json: exit 0" "exit $RC: $(cat "$ERR")"
	fi
}
jq_() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}

report sweep
report curve
expect_count "a section per sweep of the document" "$WORK/sweep.html" \
	'^<h2>Cluster sweep: sweep\.json, rand(read|write), 1 thread</h2>$' 2

# --- randwrite's sweep of 3 points over 3 nodes.
expect_out "sweep: the sum's p50 and p99, each node's p99, a ring per chosen point" \
	"$(want "$WORK/sweep.json" 1)" gen count "$WORK/sweep.html" csweep-0-1
got=$(names "$WORK/sweep.html" csweep-0-1 | grep ' p99$' | tr '\n' ' ')
if [ "$got" = "sum p99 node1 p99 node2 p99 node3 p99 " ]; then
	ok "sweep: p99 lines: the sum's and one per node (nodes + 1)"
else
	not_ok "sweep: p99 lines: the sum's and one per node (nodes + 1)" "$got"
fi
gen marks "$WORK/sweep.html" csweep-0-1 >"$WORK/sweep.marks" || true
for k in peak knee target_point; do
	o=$(jq_ "$WORK/sweep.json" "d['sweeps'][1]['points'][d['sweeps'][1]['$k'] - 1]['options']")
	case $k in
	peak) re="^peak: $o\$" ;;
	knee) re="^knee \\(95% of the peak\\): $o\$" ;;
	*) re="^target p99 <= 1 ms: $o\$" ;;
	esac
	expect_match "sweep: the cluster's $k ($o) is ringed and named" "$WORK/sweep.marks" "$re"
done
for k in 1 2 3; do
	sum=$(jq_ "$WORK/sweep.json" "'%.2f' % d['sweeps'][1]['points'][$k - 1]['sum']")
	vals=$(jq_ "$WORK/sweep.json" "'</td><td class=\"n\">'.join('%.2f' % n['value'] for n in d['sweeps'][1]['points'][$k - 1]['nodes'])")
	expect_count "sweep: point $k's row has its sum and each node's value" "$WORK/sweep.html" \
		"^<tr><td class=\"n\">$k</td><td>[0-9]+K</td><td class=\"n\">$sum</td>.*<td class=\"n\">$vals</td>" 1
done
expect_match "sweep: the use: line" "$WORK/sweep.html" "^<p>use: <code>--sweep &#39;s=[0-9]+K&#39;"

# --- randread's: node2 failed at point 2, the sum not drawn there, the
# node left out of its curve, said.
expect_out "failed node: the sum drawn at 2 points, node2's curve at 2, the others' at 3" \
	"$(want "$WORK/sweep.json" 0)" gen count "$WORK/sweep.html" csweep-0-0
expect_match "failed node: the page says the point's sum is not drawn" "$WORK/sweep.html" \
	'Point 2 \(-s 8K\): INCOMPLETE \(2 of 3 nodes\): its sum not drawn\.'
expect_match "failed node: the page says the node is left out of its curve" "$WORK/sweep.html" \
	'node2 failed at point 2 \(-s 8K\): left out of its curve\.'
expect_count "failed node: its cell says failed" "$WORK/sweep.html" '<td><b>failed</b></td>' 1
gen marks "$WORK/sweep.html" csweep-0-0 >"$WORK/failed.marks" || true
expect_no_match "failed node: point 2 is never a mark" "$WORK/failed.marks" ': -s 8K$'

# --- randwrite's curve: the maximum and 2 steps, a step not held ringed.
expect_out "curve: the sum's p50 and p99, each node's p99, the peak, the unheld steps" \
	"$(want "$WORK/curve.json" 1)" gen count "$WORK/curve.html" csweep-0-1
nh=$(jq_ "$WORK/curve.json" "sum(p['held'] is False for p in d['sweeps'][1]['points'])")
expect_count "curve: each unheld step said in the table ($nh)" "$WORK/curve.html" '<td><b>not held</b></td>' "$nh"
cap=$(jq_ "$WORK/curve.json" "'%.10g' % d['sweeps'][1]['points'][1]['nodes'][0]['cap']")
expect_match "curve: a step's cap beside each node's value" "$WORK/curve.html" "\\(cap $cap\\)</td>"

# --- randread's curve, without a maximum: said, nothing drawn.
expect_match "no maximum: the page says it" "$WORK/curve.html" 'No maximum: the curve&#39;s uncapped run was not summed'
expect_no_match "no maximum: no chart" "$WORK/curve.html" 'data-chart="csweep-0-0"'
expect_match "no maximum: no point measured, said" "$WORK/curve.html" 'No point was measured: no chart\.'

# --- One node: its sweep's sum is its value; one node's curve beside it.
python3 - "$WORK/sweep.json" "$WORK/one.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
for sw in d["sweeps"]:
    for p in sw["points"]:
        p["nodes"] = p["nodes"][:1]
        p["iteration"]["nodes"] = p["iteration"]["nodes"][:1]
        p["sum"] = p["nodes"][0]["value"]
json.dump(d, open(sys.argv[2], "w"))
EOP
report one
expect_out "one node: the sum's p50 and p99, the node's p99, the marks" \
	"$(want "$WORK/one.json" 1)" gen count "$WORK/one.html" csweep-0-1

# --- A grid of two axes: a heat map of the sums, no cell for the point
# whose node failed; a sweep the driver was stopped in: said.
python3 - "$WORK/sweep.json" "$WORK/grid.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
d["sweeps"][0]["axes"].append({"name": "iodepth", "option": "--iodepth", "values": ["1"]})
d["sweeps"][1]["points"] = []
d["sweeps"][1]["ended"] = "running"
json.dump(d, open(sys.argv[2], "w"))
EOP
report grid
gen marks "$WORK/grid.html" cheat-0-0 >"$WORK/grid.marks" || true
expect_match "two axes: a heat map, a cell for each of the 2 valid points" "$WORK/grid.marks" '^cells=2 marks=0$'
expect_match "a sweep the driver was stopped in: said" "$WORK/grid.html" \
	'The driver was stopped during the sweep: the points done are kept\.'

# --- Bad sweeps: exit 2 naming the member.
for bad in "'sweeps': 5" "'sweeps': [{'axes': [], 'points': [{'sum': 'x', 'nodes': []}]}]"; do
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.update(eval("{" + sys.argv[3] + "}"))
json.dump(d, open(sys.argv[2], "w"))' "$WORK/sweep.json" "$WORK/bad.json" "$bad"
	run_atio report "$WORK/bad.json" -o "$WORK/bad.html"
	expect_code "a bad sweeps member ($bad): exit 2" 2
	expect_match "a bad sweeps member ($bad): the message names it" "$ERR" 'bad\.json: sweeps'
done

chromium_ready
for n in sweep curve; do
	if chrome "$WORK/$n.html" "$WORK/$n.dom" --dump-dom; then
		ok "$n.html: Chromium loads it"
	else
		not_ok "$n.html: Chromium loads it" "$(tail -n 3 "$WORK/$n.dom.err")"
	fi
	expect_no_match "$n.html: no console message" "$WORK/$n.dom.err" ':CONSOLE'
	expect_out "$n.html: randwrite's chart in the DOM as in the file (series, points)" \
		"$(want "$WORK/$n.json" 1)" gen count "$WORK/$n.dom" csweep-0-1
	gen marks "$WORK/$n.html" csweep-0-1 >"$WORK/$n.file.marks" || true
	gen marks "$WORK/$n.dom" csweep-0-1 >"$WORK/$n.dom.marks" || true
	if cmp -s "$WORK/$n.file.marks" "$WORK/$n.dom.marks"; then
		ok "$n.html: the marks in the DOM as in the file"
	else
		not_ok "$n.html: the marks in the DOM as in the file" "$(diff "$WORK/$n.file.marks" "$WORK/$n.dom.marks")"
	fi
done
finish
