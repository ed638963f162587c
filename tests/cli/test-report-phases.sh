#!/bin/bash
# atio report of a --mix run, of a run that syncs, of their merge and of a
# metadata run (atio --meta), checked in the page and in headless
# Chromium: a --mix run's reads and writes each have their row in the
# summary (their IOPS the document's); a run that syncs has its sync
# calls' latency on a row of its own, named, beside its write() calls';
# a metadata run gets a table of its phases (a row each, its ops/s the
# document's, "too fast to measure" where it has no rate) and charts of
# ops/s and latency per phase (a bar per phase, and per point). No
# console message in Chromium.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed (it reads the pages)"
GEN=$(cd "$(dirname "$0")" && pwd)/report-gen.py


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

# json_num DOC EXPR: EXPR of the document, as the page writes it (%.2f).
json_num() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("%.2f" % eval(sys.argv[2]))' "$1" "$2"
}

# --- A --mix run: its reads and its writes apart ---
run_atio --engine null --mix 70 --rand -p 2 -t 0.3 --json
cp "$OUT" "$WORK/mix.json"
report mix "$WORK/mix.json"
for d in read write; do
	v=$(json_num "$WORK/mix.json" "d['$d']['iops']")
	expect_count "--mix: the summary's $d row, $v IOPS" "$WORK/mix.html" \
		"<tr class=\"sub\"><td class=\"k\">mix.json</td><td>$d</td><td class=\"n\">$v IOPS</td>" 1
done

# --- A run that syncs: its sync calls' latency named, beside its write() calls' ---
run_atio --fdatasync --rand -s 4K -t 0.3 -u 4M -f "$WORK/ds" --json
cp "$OUT" "$WORK/sync.json"
report sync "$WORK/sync.json"
expect_count "--fdatasync: a row of the sync calls' latency" "$WORK/sync.html" \
	'<td>sync latency</td><td class="n">-</td><td>latency of the fsync\(\)/fdatasync\(\) calls' 1
expect_count "--mix without syncs: no sync row" "$WORK/mix.html" '<td>sync latency</td>' 0
expect_count "--fdatasync: the latency charts say they are of the write() calls" "$WORK/sync.html" \
	'class="title"[^>]*>Latency [a-z ]+ \(of the write\(\) calls; the sync calls(&#39;|.) in the summary\)<' 2
expect_count "--mix: no such note" "$WORK/mix.html" 'of the write\(\) calls' 0

# --- Their merge: the merge's reads and writes ---
run_atio --engine null --mix 70 --rand -p 1 -t 0.3 --json
cp "$OUT" "$WORK/mix2.json"
run_atio merge --unaligned --json "$WORK/mix.json" "$WORK/mix2.json"
cp "$OUT" "$WORK/merged.json"
report merged "$WORK/merged.json"
v=$(json_num "$WORK/merged.json" "d['write']['iops']")
expect_count "a merge of --mix runs: its write row, $v IOPS" "$WORK/merged.html" \
	"<td>write</td><td class=\"n\">$v IOPS</td>" 1

# --- A metadata run: a table and charts of its phases ---
mkdir "$WORK/tree"
run_atio --meta create,stat,read,delete -p 2 --files 400 --dirs 4 --file-size 1K -f "$WORK/tree" --json
[ "$RC" -eq 0 ] || die "atio --meta failed: $(cat "$ERR")"
cp "$OUT" "$WORK/meta.json"
report meta "$WORK/meta.json"
expect_match "--meta: the phases' section" "$WORK/meta.html" '<h2>Metadata: the phases</h2>'
for ph in create stat read delete; do
	if [ "$(python3 -c 'import json, sys; print([p for p in json.load(open(sys.argv[1]))["phases"] if p["phase"] == sys.argv[2]][0]["too_fast"])' "$WORK/meta.json" "$ph")" = True ]; then
		cell='<td>too fast to measure</td>'
	else
		cell="<td class=\"n\">$(json_num "$WORK/meta.json" "[p for p in d['phases'] if p['phase'] == '$ph'][0]['ops_per_sec']") ops/s</td>"
	fi
	expect_count "--meta: the $ph phase's row, its ops/s the document's" "$WORK/meta.html" \
		"<tr><td class=\"k\">$ph</td><td class=\"n\">[0-9]+</td><td class=\"n\">[0-9.]+ s</td>$cell" 1
done
fast=$(python3 -c 'import json, sys; print(sum(p["too_fast"] for p in json.load(open(sys.argv[1]))["phases"]))' "$WORK/meta.json")
expect_out "--meta: a bar of ops/s per phase that has a rate" "series=0 points= bands=0 bars=$((4 - fast)) whiskers=0" \
	python3 "$GEN" count "$WORK/meta.html" meta-rate
expect_out "--meta: a bar of p50, p99 and p99.9 per phase" "series=0 points= bands=0 bars=12 whiskers=0" \
	python3 "$GEN" count "$WORK/meta.html" meta-latency
mkdir "$WORK/tree2"
run_atio --meta create,stat,read,delete -p 2 --files 400 --dirs 4 --file-size 1K -f "$WORK/tree2" --json
cp "$OUT" "$WORK/meta2.json"
run_atio merge --json "$WORK/meta.json" "$WORK/meta2.json"
cp "$OUT" "$WORK/meta-merged.json"
report meta-merged "$WORK/meta-merged.json"
expect_count "a merge of metadata runs: its phases' table" "$WORK/meta-merged.html" \
	'<caption>meta-merged.json: the phases</caption>' 1
expect_count "a merge of metadata runs: the slowest node sets the time" "$WORK/meta-merged.html" \
	'ops/s \(the slowest node sets the time\)' 1
report meta-two "$WORK/meta.json" "$WORK/mix.json"
expect_out "--meta beside a run: the run's summary, the phases' bars" "series=0 points= bands=0 bars=12 whiskers=0" \
	python3 "$GEN" count "$WORK/meta-two.html" meta-latency

# --- The browser: the pages load with no console message ---
chromium_ready
for n in mix sync merged meta meta-two; do
	if chrome "$WORK/$n.html" "$WORK/$n.dom" --dump-dom; then
		ok "$n.html: Chromium loads it"
	else
		not_ok "$n.html: Chromium loads it" "$(tail -n 3 "$WORK/$n.dom.err")"
	fi
	expect_no_match "$n.html: no console message" "$WORK/$n.dom.err" ':CONSOLE'
done
expect_out "the phases' latency chart in the DOM as in the file" \
	"$(python3 "$GEN" count "$WORK/meta.html" meta-latency)" python3 "$GEN" count "$WORK/meta.dom" meta-latency
expect_count "the phases' table in the DOM: a row per phase" "$WORK/meta.dom" \
	'<tr><td class="k">(create|stat|read|delete)</td>' 4
finish
