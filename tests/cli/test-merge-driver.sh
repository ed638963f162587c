#!/bin/bash
# atio merge's modes for the cluster driver: --record makes a node's record
# of a run from its --json document (its figures, the result line and the
# --verify note printed as KEY<TAB>VALUE lines) or of its failure; --values
# gives a merge's figures the same way; --iteration-record, --test-summary
# and --matrix put records, summaries and the -o document together. Bad
# input (a missing or bad document, a bad option value, a bad line):
# a message naming it and a non-zero exit.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads the records back)"

D=$WORK/d
mkdir "$D"
run_atio --read --rand -s 4K --iops -p 1 -t 0.3 -u 8M -f "$D" --verify --json
expect_code "a random read run with --verify: exit 0" 0
cp "$OUT" "$WORK/n1.json"
printf 'atio: warning: one\n\natio: warning: two\n' >"$WORK/why"
# Another node's run of the same instant: the document with another seed.
sed 's/"seed_string":"[0-9]*"/"seed_string":"1"/' "$WORK/n1.json" >"$WORK/n2.json"

# kv KEY FILE: the VALUE of the KEY<TAB>VALUE line of FILE.
kv() {
	sed -n "s/^$1\t//p" "$2"
}

# --- A node's record from its document.
what="merge --record of a run"
run_atio merge --record --out "$WORK/r1.rec" --host node1 --exit-status 0 --stderr "$WORK/why" "$WORK/n1.json"
expect_code "$what: exit 0" 0
expect_match "$what: ok true" "$OUT" '^ok	true$'
check "$what: its value is the document's" \
	test "$(kv value "$OUT")" = "$(jq -r .result.value "$WORK/n1.json")"
check "$what: the record's value is the document's" \
	test "$(jq -r .value "$WORK/r1.rec")" = "$(jq -r .result.value "$WORK/n1.json")"
expect_match "$what: the result line" "$OUT" '^result	time: [0-9]+\.[0-9]{6} sec; rate: \{ [0-9]+\.[0-9]{5} \} IOPS;$'
expect_match "$what: the verify note, with the bytes checked" "$OUT" \
	"^verify	verify: every block read checked, $(jq -r .verify.bytes_checked "$WORK/n1.json") bytes, none bad$"
check "$what: the record's members in the driver's order" test \
	"$(jq -c keys_unsorted "$WORK/r1.rec")" = '["host","ok","value","unit","time_sec","ops","bytes","start_epoch","end_epoch","latency_us","read","write","sync_latency_us","iops","mbs","bytes_per_sec","syncs","cpu_user_pct","cpu_sys_pct","ctx_voluntary","ctx_involuntary","latency_ns","block_size","seed","cmdline","interval_values","stalls","longest_stall_sec","threads","total_size","system","filesystem","stderr"]'
check "$what: the stderr lines, the empty one left out" \
	test "$(jq -c .stderr "$WORK/r1.rec")" = '["atio: warning: one","atio: warning: two"]'
check "$what: the system object is the document's" \
	test "$(jq -c .system "$WORK/r1.rec")" = "$(jq -c .system "$WORK/n1.json")"

# --- A failed node: the reason first, then its lines.
what="merge --record of a node that exited 3"
run_atio merge --record --out "$WORK/r2.rec" --host node2 --exit-status 3 --stderr "$WORK/why" --why "atio exited with status 3"
expect_code "$what: exit 1" 1
expect_match "$what: ok false" "$OUT" '^ok	false$'
check "$what: the record" test "$(jq -c . "$WORK/r2.rec")" = \
	'{"host":"node2","ok":false,"rc":3,"stderr":["atio exited with status 3","atio: warning: one","atio: warning: two"]}'
run_atio merge --record --out "$WORK/r3.rec" --host node3 --exit-status none --stderr "$WORK/why"
check "merge --record --exit-status none: rc null" test "$(jq -c .rc "$WORK/r3.rec")" = null

# --- Bad documents: the node failed, the message names the file.
for bad in missing empty cut other; do
	case $bad in
	missing) f=$WORK/nothere.json ;;
	empty) f=$WORK/empty.json; : >"$f" ;;
	cut) f=$WORK/cut.json; head -c 300 "$WORK/n1.json" >"$f" ;;
	other) f=$WORK/other.json; echo '{"name": "not atio"}' >"$f" ;;
	esac
	what="merge --record of a $bad document"
	run_atio merge --record --out "$WORK/b.rec" --host node1 --exit-status 0 --stderr "$WORK/why" "$f"
	expect_code "$what: exit 1" 1
	expect_match "$what: the file named on stderr" "$ERR" "^atio: merge --record: $f: "
	expect_match "$what: ok false, why naming the file" "$OUT" "^why	no result from atio: atio: merge: $f: "
	check "$what: a failure record, rc 0, the reason first" \
		test "$(jq -c '[.ok, .rc, (.stderr[0] | startswith("no result from atio"))]' "$WORK/b.rec")" = '[false,0,true]'
done

# --- Bad options: exit 2, the value named, no record.
rm -f "$WORK/x.rec"
run_atio merge --record --out "$WORK/x.rec" --host node1 --exit-status 256 --stderr "$WORK/why" "$WORK/n1.json"
expect_code "merge --record --exit-status 256: exit 2" 2
expect_match "merge --record --exit-status 256: named" "$ERR" '--exit-status 256: not a whole number from 0 to 255'
run_atio merge --record --out "$WORK/x.rec" --host node1 --exit-status 0 --stderr "$WORK/nowhy" "$WORK/n1.json"
expect_code "merge --record, a missing --stderr file: exit 2" 2
expect_match "merge --record, a missing --stderr file: named" "$ERR" "--stderr $WORK/nowhy: cannot open"
run_atio merge --record --out "$WORK/x.rec" --exit-status 0 --stderr "$WORK/why" "$WORK/n1.json"
expect_code "merge --record without --host: exit 2" 2
expect_match "merge --record without --host: said" "$ERR" '--host missing'
run_atio merge --record --out "$WORK/nodir/x.rec" --host node1 --exit-status 0 --stderr "$WORK/why" "$WORK/n1.json"
expect_code "merge --record to a directory that does not exist: exit 2" 2
expect_match "merge --record to a directory that does not exist: named" "$ERR" "--out $WORK/nodir/x.rec: cannot write"
check "merge --record refused: no record" test ! -e "$WORK/x.rec"

# --- merge --values: the figures the driver prints.
what="merge --values"
run_atio merge --json --values "$WORK/m.tsv" "$WORK/n1.json" "$WORK/n2.json"
expect_code "$what: exit 0" 0
cp "$OUT" "$WORK/m.json"
check "$what: the sum is the merge's" test "$(kv sum "$WORK/m.tsv")" = "$(jq -r .sum "$WORK/m.json")"
check "$what: p50_us is the merge's p50 in microseconds" \
	test "$(kv p50_us "$WORK/m.tsv")" = "$(jq -r '.latency_ns.p50 / 1000 | tostring' "$WORK/m.json" | awk '{ printf "%.3f", $1 }')"
run_atio merge --json --values "$WORK/nodir/m.tsv" "$WORK/n1.json"
expect_code "merge --values to a directory that does not exist: exit 2" 2
expect_match "merge --values to a directory that does not exist: named" "$ERR" "--values $WORK/nodir/m.tsv: cannot write"

# --- An iteration's record: node 1 gave a result (its merge m1.json),
# node 2 failed.
what="merge --iteration-record"
run_atio merge --json "$WORK/n1.json"
cp "$OUT" "$WORK/m1.json"
run_atio merge --iteration-record --iteration 1 --start-at 1800000000.25 --complete true --concurrent true \
	--ok-nodes 1 --unit IOPS --max-skew-sec 0.01 --merge "$WORK/m1.json" "$WORK/r1.rec" "$WORK/r2.rec"
expect_code "$what: exit 0" 0
check "$what: the merge and the records in it as they were" test \
	"$(jq -c '[.merge == $m[0], .nodes[0] == $a[0], .nodes[1] == $b[0], .sum == $m[0].sum]' \
		--slurpfile m "$WORK/m1.json" --slurpfile a "$WORK/r1.rec" --slurpfile b "$WORK/r2.rec" "$OUT")" = '[true,true,true,true]'
# What its options say against its files: refused, exit 2, named.
ir() {
	run_atio merge --iteration-record --iteration 1 --start-at null --complete true --concurrent true \
		--max-skew-sec 0.01 "$@"
}
ir --ok-nodes 5 --unit IOPS "$WORK/r1.rec" "$WORK/r2.rec"
expect_code "$what --ok-nodes 5 with 2 records: exit 2" 2
expect_match "$what --ok-nodes 5 with 2 records: said" "$ERR" \
	'--ok-nodes 5: more than the 1 of the 2 records given that say ok'
expect_empty "$what --ok-nodes 5 with 2 records: nothing written" "$OUT"
ir --ok-nodes 2 --unit IOPS --merge "$WORK/m.json" "$WORK/r1.rec" "$WORK/r2.rec"
expect_code "$what --ok-nodes 2 with one ok record: exit 2" 2
ir --ok-nodes 1 --unit IOPS --merge "$WORK/n1.json" "$WORK/r1.rec"
expect_code "$what with a run's result as its merge: exit 2" 2
expect_match "$what with a run's result as its merge: said" "$ERR" \
	"--merge $WORK/n1.json: an atio run's result, not an atio merge --json document"
ir --ok-nodes 1 --unit IOPS --merge "$WORK/m.json" "$WORK/r1.rec"
expect_code "$what with a merge of 2 documents, --ok-nodes 1: exit 2" 2
expect_match "$what with a merge of 2 documents, --ok-nodes 1: said" "$ERR" \
	"--merge $WORK/m.json merged 2 documents, --ok-nodes says 1 nodes gave one"
ir --ok-nodes 1 --unit MB/s --merge "$WORK/m1.json" "$WORK/r1.rec"
expect_code "$what --unit MB/s with a merge in IOPS: exit 2" 2
expect_match "$what --unit MB/s with a merge in IOPS: said" "$ERR" "--merge $WORK/m1.json: its sum is in IOPS, --unit says MB/s"
ir --ok-nodes 0 --unit IOPS "$WORK/n1.json"
expect_code "$what of a run's result as a record: exit 2" 2
expect_match "$what of a run's result as a record: said" "$ERR" "$WORK/n1.json: not a node's record"
ir --ok-nodes 1 --ok-nodes 1 --unit IOPS "$WORK/r1.rec"
expect_code "$what --ok-nodes twice: exit 2" 2
expect_match "$what --ok-nodes twice: said" "$ERR" '--ok-nodes: given twice'
run_atio merge --iteration-record --iteration 1 --start-at null --complete maybe --concurrent true \
	--ok-nodes 1 --unit IOPS --max-skew-sec 0.01 "$WORK/r1.rec"
expect_code "$what --complete maybe: exit 2" 2
expect_match "$what --complete maybe: named" "$ERR" '--complete maybe: not true or false'
run_atio merge --iteration-record --iteration 1 --start-at null --complete true --concurrent true \
	--ok-nodes 1 --unit IOPS --max-skew-sec 0.01 "$WORK/norec.json"
expect_code "$what of a missing record: exit 2" 2
expect_match "$what of a missing record: named" "$ERR" "$WORK/norec.json: cannot open"
printf '[1,2]\n' >"$WORK/arr.json"
run_atio merge --iteration-record --iteration 1 --start-at null --complete true --concurrent true \
	--ok-nodes 1 --unit IOPS --max-skew-sec 0.01 --merge "$WORK/arr.json" "$WORK/r1.rec"
expect_code "$what with a merge that is no object: exit 2" 2
expect_match "$what with a merge that is no object: named" "$ERR" "$WORK/arr.json: not a JSON object"

# --- A test's summary.
printf 'node1\n' >"$WORK/hosts"
cp "$WORK/m1.json" "$WORK/it1.json"
run_atio merge --json "$WORK/n1.json" >/dev/null
run_atio merge --json "$WORK/n1.json"
cp "$OUT" "$WORK/it2.json"
run_atio merge --test-summary --out "$WORK/sum.json" --threads 1 --test randread --unit IOPS --runs 2 \
	--hosts "$WORK/hosts" "$WORK/it2.json" "$WORK/it2.json"
expect_code "merge --test-summary: exit 0" 0
expect_match "merge --test-summary: RUNS COUNTED AVERAGE MIN MAX STDDEV UNIT" "$OUT" '^2 2 [0-9.e+]+ [0-9.e+]+ [0-9.e+]+ 0 IOPS$'
expect_match "merge --test-summary: the host's share" "$OUT" '^node1 100$'
check "merge --test-summary: the summary's average is the printed one" \
	test "$(jq -r .average "$WORK/sum.json")" = "$(head -n 1 "$OUT" | cut -d ' ' -f 3)"
cp "$WORK/sum.json" "$WORK/sum.good"
run_atio merge --test-summary --out "$WORK/sum.json" --threads 1 --test randread --unit MB/s --runs 2 \
	--hosts "$WORK/hosts" "$WORK/it2.json" "$WORK/it2.json"
expect_code "merge --test-summary --unit MB/s over IOPS merges: exit 2" 2
expect_match "merge --test-summary --unit MB/s over IOPS merges: said" "$ERR" \
	"--unit MB/s, but the sums of $WORK/it2.json are in IOPS"
check "merge --test-summary --unit MB/s over IOPS merges: the summary left alone" cmp -s "$WORK/sum.json" "$WORK/sum.good"
run_atio merge --test-summary --out "$WORK/sum.json" --threads 1 --test randread --unit IOPS --runs 2 \
	--hosts "$WORK/hosts" "$WORK/n1.json"
expect_code "merge --test-summary of a run's result: exit 1" 1
expect_match "merge --test-summary of a run's result: named" "$ERR" "$WORK/n1.json: an atio run's result"
expect_match "merge --test-summary of a run's result: no figures" "$OUT" '^2 0 - - - - IOPS$'
check "merge --test-summary of a run's result: a summary without figures" \
	test "$(jq -c '[.complete_iterations, .average]' "$WORK/sum.json")" = '[0,null]'
run_atio merge --test-summary --out "$WORK/sum.json" --threads 1 --test randread --unit IOPS --runs two \
	--hosts "$WORK/hosts"
expect_code "merge --test-summary --runs two: exit 2" 2
expect_match "merge --test-summary --runs two: named" "$ERR" '--runs two: not a whole number'

# --- The -o document.
SETS=(--set "atio_version=atio 0.1.0" --set time_sec=1 --set file_size=32M --set "threads=1 2"
	--set iterations=1 --set blocksize=4K --set remote_binaries_path=/b --set remote_pcs_mount_path=/d --set node_dir=subdir
	--set pause_sec=0 --set "tests=randread" --set atio_opts= --set warmup_time_sec=1
	--set start_margin_sec=1 --set overrun_sec=60 --set ready_timeout_sec=120
	--set max_skew_percent=50 --set profile=at_io --set node_cap=)
printf 'node1\t0.001\t/b/atio\n' >"$WORK/nodes.tsv"
run_atio merge --iteration-record --iteration 1 --start-at 1800000000.25 --complete true --concurrent true \
	--ok-nodes 1 --unit IOPS --max-skew-sec 0.01 --merge "$WORK/m1.json" "$WORK/r1.rec"
cp "$OUT" "$WORK/rec.jsonl"
printf '1\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/rec.jsonl" >"$WORK/results.tsv"
what="merge --matrix"
run_atio merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" --exit-status 0 "${SETS[@]}"
expect_code "$what: exit 0" 0
check "$what: the document's members and types" test \
	"$(jq -c '[keys_unsorted, (.settings.threads), (.nodes[0].clock_offset_sec), (.results[0].threads), (.results[0].tests[0].iterations | length), .interrupted, .exit_status]' "$OUT")" = \
	'[["settings","nodes","results","interrupted","exit_status"],[1,2],0.001,1,1,false,0]'
run_atio merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" --exit-status 0 \
	"${SETS[@]/#time_sec=1/time_sec=soon}"
expect_code "$what --set time_sec=soon: exit 2" 2
expect_match "$what --set time_sec=soon: named" "$ERR" '--set time_sec=soon: not a number'
expect_empty "$what --set time_sec=soon: nothing written" "$OUT"
run_atio merge --matrix --nodes "$WORK/nonodes.tsv" --results "$WORK/results.tsv" --exit-status 0 "${SETS[@]}"
expect_code "$what of a missing node list: exit 2" 2
expect_match "$what of a missing node list: named" "$ERR" "$WORK/nonodes.tsv: cannot open"
printf '1\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/cut.json" >"$WORK/badres.tsv"
run_atio merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/badres.tsv" --exit-status 0 "${SETS[@]}"
expect_code "$what with a bad record: exit 2" 2
expect_match "$what with a bad record: file and line named" "$ERR" "$WORK/cut.json: line 1: not an iteration's record"
expect_empty "$what with a bad record: nothing written" "$OUT"

# Settings and lines that contradict what the document holds: exit 2,
# naming the line or value, nothing written.
mx() {
	local what=$1 re=$2
	shift 2
	run_atio merge --matrix --exit-status 0 "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: named" "$ERR" "$re"
	expect_empty "$what: nothing written" "$OUT"
}
mx "$what --set time_sec=1 --set time_sec=2" '--set time_sec=1, then --set time_sec=2: one KEY given twice' \
	--nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" "${SETS[@]}" --set time_sec=2
mx "$what --interrupted twice" '--interrupted: given twice' --interrupted --interrupted \
	--nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" "${SETS[@]}"
mx "$what --set threads=\"1 x\"" '--set threads=1 x: x: not a thread count' \
	--nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" "${SETS[@]/#threads=1 2/threads=1 x}"
for off in nan 1e999 inf x; do
	printf 'node1\t%s\t/b/atio\n' "$off" >"$WORK/badnodes.tsv"
	mx "$what with a clock offset of $off" "$WORK/badnodes.tsv: line 1: clock offset '$off': not a finite number" \
		--nodes "$WORK/badnodes.tsv" --results "$WORK/results.tsv" "${SETS[@]}"
done
printf 'node1\tunknown\t\n' >"$WORK/unknodes.tsv"
run_atio merge --matrix --nodes "$WORK/unknodes.tsv" --results "$WORK/results.tsv" --exit-status 0 "${SETS[@]}"
check "$what with an unknown clock offset: null" test "$(jq -c '.nodes[0].clock_offset_sec' "$OUT")" = null
printf 'node1\t0\t/b/atio\nnode1\t0\t/b/atio\n' >"$WORK/dupnodes.tsv"
mx "$what with one node twice" "$WORK/dupnodes.tsv: line 2: node node1 again \\(line 1\\)" \
	--nodes "$WORK/dupnodes.tsv" --results "$WORK/results.tsv" "${SETS[@]}"
printf 'node1\t0.001\t/b/atio\r\n' >"$WORK/crnodes.tsv"
mx "$what with a CRLF node list" "$WORK/crnodes.tsv: line 1: a carriage return in it" \
	--nodes "$WORK/crnodes.tsv" --results "$WORK/results.tsv" "${SETS[@]}"
printf '1\trandread\t%s\t%s\r\n' "$WORK/sum.json" "$WORK/rec.jsonl" >"$WORK/crres.tsv"
mx "$what with CRLF results" "$WORK/crres.tsv: line 1: a carriage return in it" \
	--nodes "$WORK/nodes.tsv" --results "$WORK/crres.tsv" "${SETS[@]}"
printf 'x\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/rec.jsonl" >"$WORK/xres.tsv"
mx "$what with a thread count x" "$WORK/xres.tsv: line 1: thread count 'x': not a whole number above 0, or auto" \
	--nodes "$WORK/nodes.tsv" --results "$WORK/xres.tsv" "${SETS[@]}"
printf '1\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/rec.jsonl" >"$WORK/dupres.tsv"
printf '1\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/rec.jsonl" >>"$WORK/dupres.tsv"
mx "$what with a test's line twice" "$WORK/dupres.tsv: line 2: test randread with 1 threads again \\(line 1\\)" \
	--nodes "$WORK/nodes.tsv" --results "$WORK/dupres.tsv" "${SETS[@]}"
printf 'auto\trandread\t%s\t%s\n' "$WORK/sum.json" "$WORK/rec.jsonl" >"$WORK/autores.tsv"
run_atio merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/autores.tsv" --exit-status 0 "${SETS[@]}"
expect_code "$what with thread count auto: exit 0" 0

# --- merge --record --why: a reason with a newline and a tab stays one
# line of the KEY<TAB>VALUE output, escaped; the record holds it as it is.
what="merge --record --why with a newline and a tab"
run_atio merge --record --out "$WORK/w.rec" --host node1 --exit-status 1 --stderr "$WORK/why" \
	--why "$(printf 'boom\nok\ttrue')"
expect_code "$what: exit 1" 1
expect_count "$what: two lines" "$OUT" '.' 2
expect_match "$what: why escaped" "$OUT" '^why	boom\\nok\\ttrue$'
expect_no_match "$what: no ok line of the reason" "$OUT" '^ok	true'
check "$what: the record holds the reason as given" \
	test "$(jq -c '.stderr[0]' "$WORK/w.rec")" = '"boom\nok\ttrue"'
# The driver's reader of these lines takes the reason as one value.
ok_v="" why_v=""
while IFS=$'\t' read -r k l; do
	case $k in ok) ok_v=$l ;; why) why_v=$l ;; esac
done <"$OUT"
check "$what: read back by the driver's loop, ok false and one reason" \
	test "$ok_v|$why_v" = 'false|boom\nok\ttrue'
run_atio merge --record --out "$WORK/w.rec" --host node1 --exit-status 1 --stderr "$WORK/why" --why 'a\b'
expect_match "merge --record --why with a backslash: doubled" "$OUT" '^why	a\\\\b$'

finish
