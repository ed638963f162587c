#!/bin/bash
# atio report's charts of sweeps and of runs of one study, checked in the
# page and in headless Chromium. A real atio sweep gives a
# throughput-latency chart with a point per sweep point on its p50 and p99
# lines and the peak, knee, Kneedle's knee and target ringed and named as
# the document chose them; a two-axis grid a heat map of rows by columns
# cells; a curve's step not held (aim and held, optional) ringed and said
# in the table. Run documents that overlapped on the wall clock share one
# axis (x since the earliest start: a run started 3 s later begins at 3 s),
# each unit its own rate chart, each run's span drawn; documents that did
# not overlap stay at their own starts and the page says so. Legends of
# many long names lay out without two entries overlapping. No console
# message in Chromium.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed (it reads the pages)"
GEN=$(cd "$(dirname "$0")" && pwd)/report-gen.py
gen() {
	python3 "$GEN" "$@"
}


# report NAME DOC...: atio report of DOC... to $WORK/NAME.html, exit 0.
report() {
	local n=$1

	shift
	run_atio report "$@" -o "$WORK/$n.html"
	if [ "$RC" -eq 0 ]; then
		ok "atio report $n.html: exit 0"
	else
		not_ok "atio report $n.html: exit 0" "exit $RC: $(cat "$ERR")"
	fi
}

# --- A real sweep of one axis: 4 points (threads 1, 2, 4, 8) of the null engine.
run_atio sweep p=1-8 --engine null --rand -s 4K -t 0.2 --target p99=1ms --json
[ "$RC" -eq 0 ] || die "atio sweep failed: $(cat "$ERR")"
cp "$OUT" "$WORK/sweep.json"
report sweep "$WORK/sweep.json"
marked=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(sum(d[k] is not None for k in ("peak", "knee", "kneedle", "target_point")))' "$WORK/sweep.json")
ones=$(printf ',1%.0s' $(seq "$marked"))
expect_out "a sweep: p50 and p99 with a point per sweep point, and $marked marks of one" \
	"series=$((2 + marked)) points=4,4$ones bands=0 bars=0 whiskers=0" gen count "$WORK/sweep.html" sweep-0
expect_out "a sweep: the series are p50 and p99, then the marks" "p50 p99" \
	sh -c "grep -o 'data-name=\"p[0-9]*\"' '$WORK/sweep.html' | sed 's/data-name=\"//; s/\"//' | head -2 | tr '\n' ' ' | sed 's/ \$//'"
gen marks "$WORK/sweep.html" sweep-0 >"$WORK/sweep.marks" || true
expect_match "a sweep: one ring per mark" "$WORK/sweep.marks" "^cells=0 marks=$marked\$"
expect_match "a sweep: the peak is ringed and named" "$WORK/sweep.marks" '^peak: -p [0-9]+$'
expect_match "a sweep: the knee is ringed and named" "$WORK/sweep.marks" '^knee \(95% of the peak\): -p [0-9]+$'
expect_match "a sweep: the target's point is ringed and named" "$WORK/sweep.marks" '^target p99 <= 1 ms: -p [0-9]+$'
if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kneedle"] is not None)' "$WORK/sweep.json")" = True ]; then
	expect_match "a sweep: Kneedle's knee is ringed and named" "$WORK/sweep.marks" "^Kneedle's knee: -p [0-9]+\$"
fi
peak=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["peak"]["point"])' "$WORK/sweep.json")
expect_match "a sweep: the table says which point is the peak" "$WORK/sweep.html" \
	"<tr><td class=\"n\">$peak</td>.*<td>[a-z, ]*peak"
expect_count "a sweep: a row per point" "$WORK/sweep.html" '^<tr><td class="n">[1-4]</td><td>[1248]</td>' 4
expect_no_match "a sweep without a curve's steps: no aim column" "$WORK/sweep.html" '<th>aim</th>'
expect_match "a sweep: the use: line" "$WORK/sweep.html" '<p>use: <code>atio .*-p [0-9]+</code>'
expect_out "a sweep: its legend's entries do not overlap" "items=$((2 + marked)) overlaps=0" \
	gen legend "$WORK/sweep.html" sweep-0

# A curve's steps: aim and held when the document has them; a step not held ringed.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
for i, p in enumerate(d["points"]):
    p["aim"] = p["value"] * (1.0 if i < 3 else 1.5)
    p["held"] = i < 3
json.dump(d, open(sys.argv[2], "w"))' "$WORK/sweep.json" "$WORK/curve.json"
report curve "$WORK/curve.json"
expect_match "a curve's steps: aim and held columns" "$WORK/curve.html" '<th>aim</th><th>held</th>'
expect_count "a curve's steps: the step not held said" "$WORK/curve.html" '<td><b>not held</b></td>' 1
gen marks "$WORK/curve.html" sweep-0 >"$WORK/curve.marks" || true
expect_match "a curve's steps: the step not held ringed" "$WORK/curve.marks" '^not held: below its aim$'

# --- A grid of two axes: a heat map of rows (s: 3) by columns (p: 2).
run_atio sweep p=1,2 s=4K,8K,16K --engine null --rand -t 0.1 --json
[ "$RC" -eq 0 ] || die "atio sweep of a grid failed: $(cat "$ERR")"
cp "$OUT" "$WORK/grid.json"
report grid "$WORK/grid.json"
expect_out "a grid: a heat map of 2 x 3 cells" "cells=6 marks=0" \
	sh -c "python3 '$GEN' marks '$WORK/grid.html' heat-0 | head -1"
expect_count "a grid: each cell labelled with its value" "$WORK/grid.html" '<text class="value" ' 6
expect_match "a grid: the columns are p, the rows s" "$WORK/grid.html" '>p \(-p\)</text>'

# --- A sweep document of the wrong form: exit 2, naming it.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["points"] = 3; json.dump(d, open(sys.argv[2], "w"))' \
	"$WORK/sweep.json" "$WORK/bad-sweep.json"
run_atio report "$WORK/bad-sweep.json" -o "$WORK/bad.html"
expect_code "a sweep without points: exit 2" 2
expect_match "a sweep without points: named" "$ERR" 'bad-sweep\.json: a sweep without sweep\.axes or points'

# --- One study on one timeline: a reader (IOPS) and a writer (MB/s)
# started 3 s later, a reader 1 s later, from documents of known epochs.
G=$WORK/gen
mkdir -p "$G"
gen nodes "$G" 3 12 2
cp "$G/node-1.json" "$G/reader-randread-4k-node1.json"
gen shift "$G/node-2.json" "$G/writer-seqwrite-1m-node2.json" 3 mbs
gen shift "$G/node-3.json" "$G/second-reader-4k-node3.json" 1
report study "$G/reader-randread-4k-node1.json" "$G/writer-seqwrite-1m-node2.json" \
	"$G/second-reader-4k-node3.json"
expect_out "one timeline: the IOPS chart has the two readers, the second from 1 s" "0.50 1.50" \
	gen firstx "$WORK/study.html" rate-0
expect_out "one timeline: the writer's MB/s has its own chart, from 3 s" "3.50" \
	gen firstx "$WORK/study.html" rate-0-1
expect_match "one timeline: each chart named by its unit" "$WORK/study.html" 'Rate over time \(MB/s\)'
expect_count "one timeline: each run's span drawn" "$WORK/study.html" '<rect class="span" ' 3
expect_match "one timeline: the writer's span from 3 s to 15 s" "$WORK/study.html" \
	'<td class="k">writer-seqwrite-1m-node2.json</td><td class="n">3.000 s</td><td class="n">15.000 s</td><td>MB/s</td>'
expect_match "one timeline: the axis says so" "$WORK/study.html" 'time since the earliest start \(s\)'
expect_out "3 documents: the latency chart's 12 legend entries do not overlap" "items=12 overlaps=0" \
	gen legend "$WORK/study.html" lat-0

gen shift "$G/node-2.json" "$G/later.json" 30
report apart "$G/node-1.json" "$G/later.json"
expect_match "runs that did not overlap: the page says so" "$WORK/apart.html" \
	'The runs did not overlap in time: each is drawn from its own measured start'
expect_out "runs that did not overlap: each from its own start" "0.50 0.50" \
	gen firstx "$WORK/apart.html" rate-0
# Two that overlapped and one 30 s later: the two share the axis, the
# third stays at its own start (not 30 s out), said.
report mixed "$G/node-1.json" "$G/second-reader-4k-node3.json" "$G/later.json"
expect_out "two overlapped, one apart: the two aligned, the third from its own start" \
	"0.50 1.50 0.50" gen firstx "$WORK/mixed.html" rate-0
expect_match "two overlapped, one apart: the page names the one apart" "$WORK/mixed.html" \
	'later\.json overlapped none of the others: it is drawn from its own measured start'

# Two real runs that overlapped: each given its start instant beforehand
# (--start-at), the writer 0.7 s after the reader, while the reader runs 2 s.
t0=$(python3 -c 'import time; print("%.3f" % (time.time() + 0.8))')
t1=$(python3 -c "print('%.3f' % ($t0 + 0.7))")
"$ATIO" --engine null --iops -t 2 --interval 0.25 --start-at "$t0" --json >"$WORK/reader.json" 2>"$WORK/reader.err" &
PID=$!
BG_PIDS+=("$PID")
run_atio --engine null --mbs --write -t 0.5 --interval 0.25 --start-at "$t1" --json
cp "$OUT" "$WORK/writer.json"
wait_exit 60
[ "$RC" -eq 0 ] || die "the reader failed: $(cat "$WORK/reader.err")"
report real-study "$WORK/reader.json" "$WORK/writer.json"
offset=$(python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
overlap = b["start_epoch"] < a["end_epoch"] and a["start_epoch"] < b["end_epoch"]
print("%.3f" % (b["start_epoch"] - a["start_epoch"] + 0.125) if overlap else "none")' "$WORK/reader.json" "$WORK/writer.json")
if [ "$offset" = none ]; then
	expect_match "two real runs that did not overlap (a stalled machine): said" "$WORK/real-study.html" \
		'did not overlap in time'
else
	got=$(gen firstx "$WORK/real-study.html" rate-0-1) || true
	check "two real runs: the writer's first point at its start after the reader's ($offset s, got $got)" \
		fcmp "$(awk -v a="$got" -v b="$offset" 'BEGIN { d = a - b; print d < 0 ? -d : d }')" '<' 0.05
	expect_match "two real runs: IOPS and MB/s on charts of their own" "$WORK/real-study.html" \
		'data-chart="rate-0-1"'
fi

# --- The browser: the pages load with no console message, their DOM as the file.
chromium_ready
for n in sweep curve grid study; do
	if chrome "$WORK/$n.html" "$WORK/$n.dom" --dump-dom; then
		ok "$n.html: Chromium loads it"
	else
		not_ok "$n.html: Chromium loads it" "$(tail -n 3 "$WORK/$n.dom.err")"
	fi
	expect_no_match "$n.html: no console message" "$WORK/$n.dom.err" ':CONSOLE'
done
expect_out "the sweep's chart in the DOM as in the file" "$(gen count "$WORK/sweep.html" sweep-0)" \
	gen count "$WORK/sweep.dom" sweep-0
expect_out "the grid's heat map in the DOM as in the file" "$(gen marks "$WORK/grid.html" heat-0)" \
	gen marks "$WORK/grid.dom" heat-0
expect_out "the study's legend in the DOM: no overlap" "items=12 overlaps=0" gen legend "$WORK/study.dom" lat-0
if chrome "$WORK/sweep.html" "$WORK/sweep.png.out" --window-size=820,900 --screenshot="$WORK/sweep.png" &&
	[ "$(head -c 4 "$WORK/sweep.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
	ok "a sweep: Chromium takes a screenshot of the page"
else
	not_ok "a sweep: Chromium takes a screenshot of the page" "$(tail -n 3 "$WORK/sweep.png.out.err")"
fi
finish
