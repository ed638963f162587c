#!/bin/bash
# atio merge FILE...: the --json results of several runs (real runs here)
# added up: the sum is the sum of their values, the operations, bytes and
# syncs add, the latency is that of one histogram holding every value
# (min and max are the extremes, the count the sum), each document's share
# adds up to 100%; --json gives the same as one JSON document. A file that
# is missing, empty, truncated, not JSON, another program's JSON, an atio
# -a settings or --check document, or whose value its own ops and time
# contradict: exit 2, naming the file. Mixed units, reads with writes:
# exit 2. Other settings that differ, and intervals left out: said on
# stderr. A thousand documents merge in little memory. One run given
# twice (the same file, or a copy) is refused, naming both; runs that ran
# one after another (measured times sharing no instant) are refused unless
# --unaligned sums them or --sequential tabulates them. The runs here ran
# one after another: merged with --unaligned where their sum is the point.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
run_atio -t 0.1 -s 4K -p 2 -u 16M -f "$D"
expect_code "prepare a dataset: exit 0" 0

# Three runs of random reads, one of random fdatasync writes.
for k in 1 2 3; do
	run_atio --read --rand -s 4K --iops -p 2 -t 0.5 -u 16M -f "$D" --json
	expect_code "random read run $k: exit 0" 0
	cp "$OUT" "$WORK/r$k.json"
done
run_atio --fdatasync --rand -s 4K --iops -p 1 -t 0.5 -u 16M -f "$D" --json
expect_code "fdatasync run: exit 0" 0
cp "$OUT" "$WORK/w.json"

# field NAME FILE: the first "NAME":VALUE of the one-line JSON FILE.
field() {
	local re="\"$1\":(-?[0-9][0-9.eE+-]*|\"[^\"]*\"|true|false|null)" m
	m=$(cat "$2")
	[[ $m =~ $re ]] && printf '%s\n' "${BASH_REMATCH[1]}"
}

# --- Text: the sum line, the totals, one line per document.
run_atio merge --unaligned "$WORK/r1.json" "$WORK/r2.json" "$WORK/r3.json"
what="atio merge of three random read runs"
expect_code "$what: exit 0" 0
cp "$OUT" "$WORK/merge.txt"
want=$(for k in 1 2 3; do field value "$WORK/r$k.json"; done | awk '{ s += $1 } END { printf "%.5f", s }')
expect_match "$what: the sum line is the sum of the three values" "$WORK/merge.txt" \
	"^Sum value = \\{ $want \\} IOPS;\$"
ops=$(for k in 1 2 3; do field ops "$WORK/r$k.json"; done | awk '{ s += $1 } END { printf "%.0f\n", s }')
bytes=$(for k in 1 2 3; do field bytes "$WORK/r$k.json"; done | awk '{ s += $1 } END { printf "%.0f\n", s }')
expect_match "$what: operations and bytes add up" "$WORK/merge.txt" "^io: $ops ops, $bytes bytes "
expect_match "$what: three documents, none interrupted" "$WORK/merge.txt" '^documents: 3, interrupted: 0$'
expect_match "$what: start skew" "$WORK/merge.txt" '^start skew: [0-9]+\.[0-9]{6} s \(first [0-9.]+, last [0-9.]+\)$'
expect_match "$what: end skew" "$WORK/merge.txt" '^end skew: [0-9]+\.[0-9]{6} s \(first done [0-9.]+, last done [0-9.]+\)$'
expect_match "$what: the merged latency" "$WORK/merge.txt" \
	'^latency \(usec\): min [0-9.]+, mean [0-9.]+, p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+ \(merged from 3 documents\)$'
expect_no_match "$what: no sync latency without syncs" "$WORK/merge.txt" '^sync latency'
for k in 1 2 3; do
	expect_match "$what: document $k's line, its value and share" "$WORK/merge.txt" \
		"^\\[$k\\] [0-9]+\\.[0-9]{6} IOPS over [0-9.]+ s, share [0-9]+\\.[0-9]{2}%, start \\+[0-9.]+ s, end \\+[0-9.]+ s: $WORK/r$k.json\$"
done
total=$(sed -n 's/^\[[0-9]\] .* share \([0-9.]*\)%.*/\1/p' "$WORK/merge.txt" | awk '{ s += $1 } END { printf "%.1f", s }')
if [ "$total" = 100.0 ]; then ok "$what: the shares add up to 100%"; else not_ok "$what: the shares add up to 100%" "they add up to $total"; fi
expect_no_match "$what: the word rate is on no line" "$WORK/merge.txt" 'rate'

# --- --json: one document, with the same figures.
run_atio merge --json --unaligned "$WORK/r1.json" "$WORK/r2.json" "$WORK/r3.json"
what="atio merge --json"
expect_code "$what: exit 0" 0
cp "$OUT" "$WORK/merge.json"
expect_count "$what: one line" "$WORK/merge.json" '.' 1
got=$(printf '%.5f' "$(field sum "$WORK/merge.json")")
if [ "$got" = "$want" ]; then ok "$what: sum $got"; else not_ok "$what: the same sum" "$got, the text says $want"; fi
if [ "$(field ops "$WORK/merge.json")" = "$ops" ] && [ "$(field documents "$WORK/merge.json")" = 3 ]; then
	ok "$what: ops and documents"
else
	not_ok "$what: ops and documents" "$(head -c 300 "$WORK/merge.json")"
fi
# The merged count is the sum of the counts; min and max the extremes.
c=$(for k in 1 2 3; do grep -o '"latency_ns":{"count":[0-9]*' "$WORK/r$k.json" | head -n 1 | grep -o '[0-9]*$'; done | awk '{ s += $1 } END { printf "%.0f\n", s }')
expect_match "$what: the merged latency count is the sum of the counts" "$WORK/merge.json" "\"latency_ns\":\\{\"count\":$c,"
if command -v jq >/dev/null 2>&1; then
	if jq -e . "$WORK/merge.json" >/dev/null 2>&1; then ok "$what: valid JSON (jq)"; else not_ok "$what: valid JSON (jq)"; fi
else
	skip_check "$what: valid JSON (jq)" "jq is not installed"
fi

# --- One document: its own figures back.
run_atio merge --json "$WORK/w.json"
expect_code "atio merge of one fdatasync run: exit 0" 0
for k in p50 p99 p99.9; do
	a=$(grep -o "\"latency_ns\":{[^}]*" "$WORK/w.json" | head -n 1 | grep -o "\"$k\":[0-9]*")
	b=$(grep -o "\"latency_ns\":{[^}]*" "$OUT" | head -n 1 | grep -o "\"$k\":[0-9]*")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "one document: its own latency $a"; else not_ok "one document: its own latency $k" "atio: $a, merge: $b"; fi
done
run_atio merge "$WORK/w.json"
expect_match "one fdatasync document: sync latency shown" "$OUT" '^sync latency \(usec\): min '

# pyj FILE EXPR: the Python expression EXPR on the JSON document FILE (d).
pyj() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# --- --mix runs: a read and a write line, each the sum of the documents'
# own figures for that direction, with the merged latency; the driver's
# lines (--values) the same sums.
for k in 1 2; do
	run_atio --mix 70 --rand -s 4K --iops -p 2 -t 0.5 -u 16M -f "$D" --json
	expect_code "--mix 70 run $k: exit 0" 0
	cp "$OUT" "$WORK/m$k.json"
done
what="atio merge of two --mix 70 runs"
run_atio merge --unaligned --json "$WORK/m1.json" "$WORK/m2.json"
cp "$OUT" "$WORK/mix.json"
run_atio merge --unaligned --values "$WORK/mix.tsv" "$WORK/m1.json" "$WORK/m2.json"
expect_code "$what: exit 0" 0
for dir in read write; do
	want=$(python3 -c 'import json, sys
print("%.2f IOPS, %.2f MB/s" % tuple(sum(json.load(open(f))[sys.argv[1]][k] for f in sys.argv[2:])
				       for k in ("iops", "mbs")))' "$dir" "$WORK/m1.json" "$WORK/m2.json")
	pct=$(pyj "$WORK/mix.json" "'p50 %.2f, p99 %.2f, p99.9 %.2f' % tuple(d['$dir']['latency_ns'][k] / 1000 for k in ('p50', 'p99', 'p99.9'))")
	# the text's line has the default points (p50, p90, p99, p99.9): p90 between
	txt=$(pyj "$WORK/mix.json" "'p50 %.2f, p90 [0-9.]+, p99 %.2f, p99.9 %.2f' % tuple(d['$dir']['latency_ns'][k] / 1000 for k in ('p50', 'p99', 'p99.9'))")
	expect_match "$what: the $dir line, the sum of the documents' $dir figures ($want)" "$OUT" \
		"^$dir: $want, [0-9]+ ops, .* latency \\(usec\\): .*$txt, max "
	expect_match "$what: --values: the driver's $dir line ($want, $pct)" "$WORK/mix.tsv" \
		"^line	$dir: $want, latency \\(usec\\): $pct \\(merged from 2 nodes\\)\$"
done
expect_no_match "$what: no write or sync latency without syncs" "$OUT" '^(write|sync) latency'
expect_no_match "$what: --values: the word rate is on no line" "$WORK/mix.tsv" 'rate'

# --- Runs that sync: the write() calls' latency and the sync calls' apart,
# named; the sync figures those of the merged sync_latency_ns histograms.
for k in 1 2; do
	run_atio --fsync --rand -s 4K --iops -p 1 -t 0.5 -u 16M -f "$D" --json
	expect_code "fsync run $k: exit 0" 0
	cp "$OUT" "$WORK/f$k.json"
done
what="atio merge of two --fsync runs"
run_atio merge --unaligned --json "$WORK/f1.json" "$WORK/f2.json"
cp "$OUT" "$WORK/fsync.json"
run_atio merge --unaligned --values "$WORK/fsync.tsv" "$WORK/f1.json" "$WORK/f2.json"
expect_code "$what: exit 0" 0
wpct=$(pyj "$WORK/fsync.json" "'p50 %.2f, p90 %.2f, p99 %.2f' % tuple(d['latency_ns'][k] / 1000 for k in ('p50', 'p90', 'p99'))")
spct=$(pyj "$WORK/fsync.json" "'p50 %.2f, p90 %.2f, p99 %.2f' % tuple(d['sync_latency_ns'][k] / 1000 for k in ('p50', 'p90', 'p99'))")
sdrv=$(pyj "$WORK/fsync.json" "'p50 %.2f, p99 %.2f, p99.9 %.2f' % tuple(d['sync_latency_ns'][k] / 1000 for k in ('p50', 'p99', 'p99.9'))")
expect_match "$what: the write latency line, named ($wpct)" "$OUT" \
	"^write latency \\(usec\\): min [0-9.]+, mean [0-9.]+, $wpct, "
expect_match "$what: the sync latency line, its p50 the merged histograms' ($spct)" "$OUT" \
	"^sync latency \\(usec\\): min [0-9.]+, mean [0-9.]+, $spct, "
expect_no_match "$what: no latency line without its name" "$OUT" '^latency'
expect_match "$what: --values: the driver's write latency line" "$WORK/fsync.tsv" \
	'^line	write latency \(usec\): p50 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+ \(merged from 2 nodes\)$'
expect_match "$what: --values: the driver's sync latency line ($sdrv)" "$WORK/fsync.tsv" \
	"^line	sync latency \\(usec\\): $sdrv \\(merged from 2 nodes\\)\$"
s1=$(pyj "$WORK/f1.json" "d['sync_latency_ns']['count']")
s2=$(pyj "$WORK/f2.json" "d['sync_latency_ns']['count']")
expect_match "$what: the sync histograms merged ($s1 + $s2 calls)" "$WORK/fsync.json" "\"sync_latency_ns\":\\{\"count\":$((s1 + s2)),"

# --- Refused, exit 2, naming the file.
refused() {
	local what=$1 file=$2 re=$3
	shift 3
	run_atio merge --unaligned "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: the message names $file and says why" "$ERR" "^atio: merge: $file: $re"
	expect_empty "$what: nothing on stdout" "$OUT"
}
refused "a missing file" "$WORK/none.json" "cannot open" "$WORK/r1.json" "$WORK/none.json"
: >"$WORK/empty.json"
refused "an empty file" "$WORK/empty.json" "empty: no JSON document in it\$" "$WORK/empty.json"
printf ' \n\n' >"$WORK/blank.json"
refused "a file of white space" "$WORK/blank.json" "empty: no JSON document in it\$" "$WORK/blank.json"
head -c 500 "$WORK/r2.json" >"$WORK/cut.json"
refused "a truncated document" "$WORK/cut.json" "truncated" "$WORK/r1.json" "$WORK/cut.json"
echo 'time: 1.0 sec; rate: { 5.0 } MB/s;' >"$WORK/text.txt"
refused "atio's text output" "$WORK/text.txt" "not JSON" "$WORK/text.txt"
echo '{"fio version": "fio-3.36", "jobs": []}' >"$WORK/fio.json"
refused "another program's JSON" "$WORK/fio.json" "not an atio --json result" "$WORK/fio.json"
run_atio -a --json -f "$D" -u 16M
cp "$OUT" "$WORK/settings.json"
refused "an atio -a settings document" "$WORK/settings.json" "an atio settings document" "$WORK/settings.json"
run_atio --check -s 4K -p 2 -u 16M -f "$D" --json
cp "$OUT" "$WORK/check.json"
refused "an atio --check --json document" "$WORK/check.json" "an atio --check result .*no rate to add" \
	"$WORK/r1.json" "$WORK/check.json"
# A value that its own ops and time contradict: 1.7e308 would make the sum
# inf, twice the true value would count a node twice; both refused with
# the figures.
json_set() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["result"][sys.argv[2]] = float(sys.argv[3])
json.dump(d, open(sys.argv[4], "w"))' "$@"
}
if command -v python3 >/dev/null; then
	json_set "$WORK/r2.json" value 1.7e308 "$WORK/huge.json"
	refused "a value of 1.7e308" "$WORK/huge.json" \
		"result\.value is 1\.7e\+308 IOPS, but its result\.ops $(field ops "$WORK/r2.json") over result\.time_sec [0-9.]+ s make [0-9.]+ IOPS" \
		"$WORK/r1.json" "$WORK/huge.json" "$WORK/huge.json"
	json_set "$WORK/r2.json" value "$(awk -v v="$(field value "$WORK/r2.json")" 'BEGIN { printf "%.6f", 2 * v }')" "$WORK/twice.json"
	refused "a value twice its ops over its time" "$WORK/twice.json" "result\.value is [0-9.]+ IOPS, but its result\.ops" \
		"$WORK/twice.json"
else
	skip_check "documents with a forged value" "python3 is not installed"
fi
refused "documents in IOPS and sync/s" "$WORK/w.json" "its value is in sync/s, the documents before it in IOPS" \
	"$WORK/r1.json" "$WORK/w.json"
# Reads with writes: refused, whichever comes first.
run_atio --engine null --write --rand -s 4K --iops -t 0.3 --json
cp "$OUT" "$WORK/nw.json"
run_atio --engine null --read --rand -s 4K --iops -t 0.3 --json
cp "$OUT" "$WORK/nr.json"
refused "a --write run after --read runs" "$WORK/nw.json" \
	"a --write run, the documents before it --read runs: a sum of reads and writes is neither" \
	"$WORK/nr.json" "$WORK/nw.json"
refused "a --read run after --write runs" "$WORK/nr.json" "a --read run, the documents before it --write runs" \
	"$WORK/nw.json" "$WORK/nr.json"

# Unlike settings: summed, each difference said on stderr with the files
# and values; intervals of other lengths left out, and said.
run_atio --engine null --read -s 4K --mbs -t 0.3 --interval 0.1 --json
cp "$OUT" "$WORK/s4k.json"
run_atio --engine null --read -s 16M --mbs -t 1 --interval 0.5 --json
cp "$OUT" "$WORK/s16m.json"
run_atio --engine null --read -s 16M --mbs -t 1 --interval 0.5 --json
cp "$OUT" "$WORK/s16m2.json"
run_atio merge --unaligned "$WORK/s4k.json" "$WORK/s16m.json" "$WORK/s16m2.json"
what="a 4K 0.3 s run with two 16M 1 s runs"
expect_code "$what: summed, exit 0" 0
expect_match "$what: the sum line" "$OUT" '^Sum value = \{ [0-9.]+ \} MB/s;$'
expect_match "$what: -s differs, said with both files" "$ERR" \
	"^atio: merge: warning: -s \(block_size\) differs: 4096 in $WORK/s4k\.json \(the first document\), 16777216 in $WORK/s16m\.json and 1 more of the documents: the sum adds up unlike runs\$"
expect_match "$what: -t differs, said" "$ERR" \
	"^atio: merge: warning: -t \(time_sec\) differs: 0\.3 in $WORK/s4k\.json \(the first document\), 1 in $WORK/s16m\.json"
expect_match "$what: the intervals left out, said" "$ERR" \
	"^atio: merge: warning: the intervals are left out: $WORK/s4k\.json has intervals of 0\.1 s, $WORK/s16m\.json has intervals of 0\.5 s"
expect_no_match "$what: no intervals line" "$OUT" '^intervals:'
expect_no_match "$what: no warning about what is alike" "$ERR" 'pattern|engine|cached'
run_atio merge --unaligned "$WORK/s16m.json" "$WORK/s16m2.json"
expect_code "two alike runs: exit 0" 0
expect_empty "two alike runs: nothing on stderr" "$ERR"
expect_match "two alike runs: their intervals summed" "$OUT" '^intervals: [0-9]+ x 0\.5 s'

# Memory: each document is read, added and freed before the next, so a
# thousand documents (the histograms of each ~300 KB: 300 MB when all are
# held) merge in an address space of 100 MB, ten times what one needs.
# Each a copy of one run with a seed of its own: a thousand runs of one
# instant.
mkdir "$WORK/many"
for k in $(seq 1 1000); do
	sed "s/\"seed_string\":\"[0-9]*\"/\"seed_string\":\"$k\"/" "$WORK/s16m.json" >"$WORK/many/$k.json"
done
rc=0
(ulimit -v 100000 && exec "$ATIO" merge "$WORK"/many/*.json) >"$OUT" 2>"$ERR" || rc=$?
if [ "$rc" = 0 ] && grep -q '^documents: 1000, interrupted: 0$' "$OUT"; then
	ok "a thousand documents merge in 100 MB of address space"
else
	not_ok "a thousand documents merge in 100 MB of address space" "exit $rc: $(head -c 300 "$ERR")"
fi

run_atio merge
expect_code "no file: exit 2" 2
expect_match "no file: says what merge takes" "$ERR" 'merge: no file given'
run_atio merge --frobnicate "$WORK/r1.json"
expect_code "an unknown option: exit 2" 2
expect_match "an unknown option: named" "$ERR" 'merge: --frobnicate: unknown option'

# --clock-offset: a document of a host whose clock ran 0.25 s ahead is
# moved back by it. The same document twice (the copy with another seed:
# another run of the same instant), once moved: the skews are exactly the
# offset.
sed 's/"seed_string":"[0-9]*"/"seed_string":"1"/' "$WORK/r1.json" >"$WORK/r1b.json"
run_atio merge "$WORK/r1.json" --clock-offset 0.25 "$WORK/r1b.json"
expect_code "--clock-offset 0.25 on a copy: exit 0" 0
expect_match "--clock-offset 0.25 on a copy: start skew 0.25 s" "$OUT" '^start skew: 0\.250000 s '
expect_match "--clock-offset 0.25 on a copy: end skew 0.25 s" "$OUT" '^end skew: 0\.250000 s '
# The runs measure 0.5 s: an offset of 0.2 keeps 0.3 s of them together
# (0.5 would leave them no shared instant, or one, by a hair).
run_atio merge --clock-offset -0.2 "$WORK/r1.json" "$WORK/r1b.json"
expect_code "--clock-offset applies to the next file only: exit 0" 0
expect_match "--clock-offset applies to the next file only: start skew 0.2 s" "$OUT" '^start skew: 0\.200000 s '
for bad in x 1e9 "" nan; do
	run_atio merge --clock-offset "$bad" "$WORK/r1.json"
	expect_code "--clock-offset '$bad': exit 2" 2
	expect_match "--clock-offset '$bad': named" "$ERR" "merge: --clock-offset $bad: not a number of seconds"
done
run_atio merge "$WORK/r1.json" --clock-offset 1
expect_code "--clock-offset with no file after it: exit 2" 2

# --- --iterations: the merges of iterations summarised. Three iterations
# of two nodes each (real runs: r1+r2, r2+r3, r3+r1), checked against the
# mean, min, max and sample standard deviation computed here from the
# merges' sums, and each node's share against its values.
for k in 1 2 3; do
	j=$((k % 3 + 1))
	run_atio merge --json --unaligned "$WORK/r$k.json" "$WORK/r$j.json"
	expect_code "merge of iteration $k: exit 0" 0
	cp "$OUT" "$WORK/it$k.json"
done
sums=$(for k in 1 2 3; do field sum "$WORK/it$k.json"; done)
want=$(awk '{ v[NR] = $1; s += $1 } END {
	m = s / NR; mn = v[1]; mx = v[1]
	for (k = 1; k <= NR; k++) { ss += (v[k] - m) ^ 2; if (v[k] < mn) mn = v[k]; if (v[k] > mx) mx = v[k] }
	printf "%.5f %.5f %.5f %.5f\n", m, mn, mx, sqrt(ss / (NR - 1)) }' <<<"$sums")
read -r avg mn mx sd <<<"$want"
run_atio merge --iterations "$WORK/it1.json" "$WORK/it2.json" "$WORK/it3.json"
what="atio merge --iterations of three iterations"
expect_code "$what: exit 0" 0
expect_match "$what: the average line is the mean of the sums" "$OUT" \
	"^Average value = \\{ $avg \\} IOPS; over 3 iterations\$"
expect_match "$what: min, max and stddev of the sums" "$OUT" "^sums: min $mn, max $mx, stddev $sd IOPS\$"
# Node 1 of iteration k is r_k, node 2 r_(k%3+1): each r counts once in
# each place, so both nodes' shares are (r1+r2+r3) / (2 (r1+r2+r3)) = 50%.
expect_match "$what: each node's share of the sums" "$OUT" '^share of the sums: \[1\] 50\.00%, \[2\] 50\.00%$'
expect_no_match "$what: the word rate is on no line" "$OUT" 'rate'
run_atio merge --iterations --json "$WORK/it1.json" "$WORK/it2.json"
expect_code "$what --json: exit 0" 0
expect_match "$what --json: one document with the iterations, unit and stddev" "$OUT" \
	'^\{"iterations":2,"unit":"IOPS","average":[0-9.e+]+,"min":[0-9.e+]+,"max":[0-9.e+]+,"stddev":[0-9.e+]+,"shares_percent":\[[0-9.e+]+,[0-9.e+]+\],"sums":\[.*\]\}$'
run_atio merge --iterations "$WORK/it1.json"
expect_match "one iteration: no stddev" "$OUT" '^sums: min [0-9.]+, max [0-9.]+, stddev n/a IOPS$'
run_atio merge --json "$WORK/w.json"
cp "$OUT" "$WORK/itw.json"
run_atio merge --iterations "$WORK/it1.json" "$WORK/itw.json"
expect_code "--iterations in two units: exit 2" 2
expect_match "--iterations in two units: the file named" "$ERR" "merge: $WORK/itw.json: its sum is in sync/s, the iterations before it in IOPS"
run_atio merge --json --unaligned "$WORK/r1.json" "$WORK/r2.json" "$WORK/r3.json"
cp "$OUT" "$WORK/it3n.json"
run_atio merge --iterations "$WORK/it1.json" "$WORK/it3n.json"
expect_code "--iterations of 2 and 3 nodes: exit 2" 2
expect_match "--iterations of 2 and 3 nodes: the file named" "$ERR" "merge: $WORK/it3n.json: it merged 3 documents, the iterations before it 2"
run_atio merge --iterations "$WORK/r1.json"
expect_code "--iterations of a run's result: exit 2" 2
expect_match "--iterations of a run's result: said" "$ERR" "merge: $WORK/r1.json: an atio run's result, not an atio merge --json document"
printf '{"sum": 1, "unit": "IOPS"' >"$WORK/cut.json"
run_atio merge --iterations "$WORK/cut.json"
expect_code "--iterations of a truncated file: exit 2" 2
expect_match "--iterations of a truncated file: said" "$ERR" "merge: $WORK/cut.json: truncated"
printf '{"sum": 1, "unit": "IOPS", "documents_merged": [{"value": "x"}]}\n' >"$WORK/bad.json"
run_atio merge --iterations "$WORK/bad.json"
expect_code "--iterations with a bad value: exit 2" 2
expect_match "--iterations with a bad value: the member named" "$ERR" 'documents_merged\[0\]\.value: missing or not a number'
run_atio merge --iterations
expect_code "--iterations without a file: exit 2" 2
run_atio merge --iterations --clock-offset 1 "$WORK/it1.json"
expect_code "--iterations with --clock-offset: exit 2" 2

# --- One run summed once: a copy of a document is one run (host, seed
# and start instant): exit 2, both named, nothing summed. One file given
# twice (by one name, or by a hard link) is refused as such, whatever its
# document says of its run (an older one has no start instant).
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["start_epoch"] = None; d["end_epoch"] = None
json.dump(d, open(sys.argv[2], "w"))' "$WORK/r1.json" "$WORK/old.json"
ln "$WORK/old.json" "$WORK/old-link.json"
for second in "$WORK/old.json" "$WORK/old-link.json"; do
	what="one file given twice, no start instant ($(basename "$second"))"
	run_atio merge "$WORK/old.json" "$second"
	expect_code "$what: exit 2" 2
	expect_match "$what: both named" "$ERR" \
		"^atio: merge: $WORK/old\\.json and $second are one file given twice: its run would be summed twice\$"
	expect_empty "$what: nothing on stdout" "$OUT"
done
run_atio merge --unaligned "$WORK/r1.json" "$WORK/r2.json" "$WORK/r1.json"
expect_code "one file given twice among others: exit 2" 2
cp "$WORK/r1.json" "$WORK/copy.json"
second=$WORK/copy.json
what="a run given twice ($(basename "$second"))"
run_atio merge --unaligned "$WORK/r1.json" "$WORK/r2.json" "$second"
expect_code "$what: exit 2" 2
expect_match "$what: both named, one run" "$ERR" \
	"^atio: merge: $WORK/r1\\.json and $second: one run \\(host [^,]+, seed [0-9]+, started at [0-9.]+\\), given twice: a run is summed once\$"
expect_empty "$what: nothing on stdout" "$OUT"
run_atio merge "$WORK/r1.json" "$second"
expect_code "$what, alone: exit 2" 2
run_atio merge --sequential "$WORK/r1.json" "$second"
expect_code "$what, --sequential: still exit 2" 2

# --- Runs one after another: r1 ended before r2 began. Refused by
# default, naming both and their windows; --unaligned sums them,
# --sequential tabulates them without a sum.
what="two runs one after another"
run_atio merge "$WORK/r1.json" "$WORK/r2.json"
expect_code "$what: exit 2" 2
s1=$(field start_epoch "$WORK/r1.json")
expect_match "$what: both named with their windows" "$ERR" \
	"^atio: merge: $WORK/r1\\.json ran \\[${s1%%.*}\\.[0-9]{6}, [0-9.]+\\], $WORK/r2\\.json \\[[0-9.]+, [0-9.]+\\]: their measured times share no instant"
expect_match "$what: the options said" "$ERR" '--sequential for passes run one after another.*--unaligned'
expect_empty "$what: nothing on stdout" "$OUT"
run_atio merge "$WORK/r3.json" "$WORK/r1.json"
expect_code "$what, the later one first: exit 2" 2
run_atio merge --sequential "$WORK/r1.json" "$WORK/r2.json" "$WORK/r3.json"
expect_code "$what, --sequential: exit 0" 0
expect_match "$what, --sequential: passes, not summed" "$OUT" '^Passes: 3, one after another: tabulated, not summed$'
expect_no_match "$what, --sequential: no sum, no share" "$OUT" '^Sum value|share'
expect_match "$what, --sequential: each pass's line" "$OUT" \
	"^\\[2\\] [0-9]+\\.[0-9]{6} IOPS over [0-9.]+ s, start \\+[0-9.]+ s, end \\+[0-9.]+ s: $WORK/r2\\.json\$"
for o in --json "--values $WORK/v.tsv" --unaligned; do
	# shellcheck disable=SC2086
	run_atio merge --sequential $o "$WORK/r1.json" "$WORK/r2.json"
	expect_code "$what, --sequential with ${o%% *}: exit 2" 2
	expect_match "$what, --sequential with ${o%% *}: said" "$ERR" "merge: --sequential with ${o%% *}: "
done
# Windows that share time: r2 moved to r1's instants is summed by default.
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
b["start_epoch"] = a["start_epoch"] + 0.1; b["end_epoch"] = a["end_epoch"] + 0.1
json.dump(b, open(sys.argv[3], "w"))' "$WORK/r1.json" "$WORK/r2.json" "$WORK/r2at1.json"
	run_atio merge "$WORK/r1.json" "$WORK/r2at1.json"
	expect_code "two runs whose windows overlap: summed, exit 0" 0
	expect_match "two runs whose windows overlap: the sum" "$OUT" '^documents: 2, interrupted: 0$'
else
	skip_check "two runs whose windows overlap" "python3 is not installed"
fi

# --- An option given twice: exit 2, named.
for o in --json --unaligned --sequential; do
	run_atio merge "$o" "$o" "$WORK/r1.json"
	expect_code "merge $o $o: exit 2" 2
	expect_match "merge $o $o: said" "$ERR" "merge: $o: given twice"
done
run_atio merge --values "$WORK/a.tsv" --values "$WORK/b.tsv" "$WORK/r1.json"
expect_code "merge --values twice: exit 2" 2
expect_match "merge --values twice: said" "$ERR" "merge: --values: given twice"
run_atio merge --clock-offset 1 --clock-offset 2 "$WORK/r1.json"
expect_code "merge --clock-offset twice for one file: exit 2" 2
expect_match "merge --clock-offset twice for one file: said" "$ERR" "merge: --clock-offset: given twice for one FILE"

# --- Trailing data after a document, and a directory: said as such.
{ cat "$WORK/r1.json"; printf 'x'; } >"$WORK/trail.json"
{ cat "$WORK/r1.json"; printf '{"a":1}\n'; } >"$WORK/trail2.json"
for t in trail trail2; do
	run_atio merge "$WORK/$t.json"
	expect_code "$t.json: exit 2" 2
	expect_match "$t.json: trailing data, not truncated" "$ERR" \
		"^atio: merge: $WORK/$t\\.json: trailing data after the JSON document, which ends at byte [0-9]+: one document a file\$"
done
{ cat "$WORK/r1.json"; printf ' \n\n'; } >"$WORK/blanks.json"
run_atio merge "$WORK/blanks.json"
expect_code "white space after a document: exit 0" 0
mkdir "$WORK/adir"
run_atio merge "$WORK/adir"
expect_code "a directory: exit 2" 2
expect_match "a directory: said" "$ERR" "^atio: merge: $WORK/adir: is a directory, not a JSON document\$"
run_atio report -o "$WORK/p.html" "$WORK/adir"
expect_code "atio report of a directory: exit 2" 2
expect_match "atio report of a directory: said" "$ERR" "$WORK/adir: is a directory"
run_atio report -o "$WORK/pa.html" -o "$WORK/pb.html" "$WORK/r1.json"
expect_code "atio report -o twice: exit 2" 2
expect_match "atio report -o twice: said" "$ERR" "report: -o: -o given twice: the page goes to one file \\($WORK/pa\\.html given before\\)"
check "atio report -o twice: no page written" test ! -e "$WORK/pa.html" -a ! -e "$WORK/pb.html"
run_atio report -o "$WORK/p.html" "$WORK/trail.json"
expect_match "atio report of trailing data: said" "$ERR" "$WORK/trail\\.json: trailing data after the JSON document"

finish
