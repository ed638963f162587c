#!/bin/bash
# atio report draws --steady's rounds: a chart of one point a round, the
# measurement window shaded and the verdict named above it; for a merge,
# the cluster's summed rounds with each document's beside them; nothing
# for a document without rounds. Checked in the page and in headless
# Chromium (the DOM as the file, no console message).
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed (it reads the pages)"
GEN=$(cd "$(dirname "$0")" && pwd)/report-gen.py
gen() {
	python3 "$GEN" "$@"
}
# doc NAME ARG...: a run of the null engine to $WORK/NAME.json.
doc() {
	local n=$1

	shift
	run_atio --engine null --rand -s 4K --rate 2000 -t 0.2 "$@" --json
	[ "$RC" -eq 0 ] || die "atio $*: exit $RC: $(cat "$ERR")"
	cp "$OUT" "$WORK/$n.json"
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

doc a --steady iops --round 0.1 --rounds 6 --all-rounds
doc b --steady iops --round 0.1 --rounds 6 --all-rounds
doc plain
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/b.json"
[ "$RC" -eq 0 ] || die "atio merge: exit $RC: $(cat "$ERR")"
cp "$OUT" "$WORK/ab.json"

report run "$WORK/a.json"
expect_out "a --steady run: one series of 6 rounds, the window shaded" \
	"series=1 points=6 bands=1 bars=0 whiskers=0" gen count "$WORK/run.html" steady-0-0
at=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["steady"]
print("steady at round %d" % s["steady_at"] if s["steady"] else "not steady after 6 rounds")' "$WORK/a.json")
expect_match "a --steady run: the verdict named as the document has it ($at)" "$WORK/run.html" \
	"class=\"steady-verdict\">a\\.json: the run's rounds, judged on iops: <strong>$at</strong>"
expect_match "a --steady run: the band names the window" "$WORK/run.html" \
	'(measurement window: steady|last window: not steady)'

report cluster "$WORK/ab.json"
expect_out "a merge: the summed rounds and each document's, 6 each, the window shaded" \
	"series=3 points=6,6,6 bands=1 bars=0 whiskers=0" gen count "$WORK/cluster.html" steady-0-0
expect_match "a merge: the cluster's verdict" "$WORK/cluster.html" \
	"class=\"steady-verdict\">ab\\.json: the cluster's rounds, judged on iops: "
expect_match "a merge: its documents named by their files" "$WORK/cluster.html" '>a\.json<'

report plain "$WORK/plain.json"
expect_no_match "a run without --steady: no steady chart, no verdict" "$WORK/plain.html" \
	'(data-chart="steady-|steady-verdict)'

# Rounds of another length: the merge does not sum them; the page says so, no chart.
doc c --steady iops --round 0.2 --rounds 6 --all-rounds
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/c.json"
cp "$OUT" "$WORK/ac.json"
report unsummed "$WORK/ac.json"
expect_match "rounds not summed: the page says why" "$WORK/unsummed.html" \
	'not judged: .*c\.json: rounds of 0\.2 sec'
expect_no_match "rounds not summed: no chart of them" "$WORK/unsummed.html" 'data-chart="steady-'

chromium_ready
for n in run cluster; do
	if chrome "$WORK/$n.html" "$WORK/$n.dom" --dump-dom; then
		ok "$n.html: Chromium loads it"
	else
		not_ok "$n.html: Chromium loads it" "$(tail -n 3 "$WORK/$n.dom.err")"
	fi
	expect_no_match "$n.html: no console message" "$WORK/$n.dom.err" ':CONSOLE'
	expect_out "$n.html: the steady chart in the DOM as in the file (rounds, window)" \
		"$(gen count "$WORK/$n.html" steady-0-0)" gen count "$WORK/$n.dom" steady-0-0
done
finish
