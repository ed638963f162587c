#!/bin/bash
# scripts/atio-parallel.sh's metadata tests (mdcreate mdstat mdread
# mdrename mddelete) on three real sshd nodes that share one directory
# (sshd-harness.sh, SSHD_SHARED), each node in a tree of its own under its
# subdirectory. Counts exact across the nodes (each phase's merged
# operations are nodes x threads x files: no node counted twice, none
# left out), every node's tree gone after mddelete; with --md-neighbour
# node i stats and reads node i+1's tree (the command lines say so, and a
# neighbour's missing tree fails the node that reads it, not another),
# without it no node names another's tree; the -o document carries each
# phase's merged figures, which equal `atio merge` of the nodes' own
# documents it holds; bad settings refused with exit 2 naming the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v jq >/dev/null 2>&1 || skip "needs jq to read the -o document"
SSHD_SHARED=1
sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
S=$WORK/shared
# Small trees: 2 threads of 40 files on each of 3 nodes, 240 a phase.
# Phases of milliseconds: the start skew is judged against a share of
# their time large enough for one busy machine.
MD=(NODE_DIR=subdir "REMOTE_PCS_MOUNT_PATH=$REMOTE_SHARED" THREADS=2 ITERATIONS=1 MAX_SKEW=100000
	"TESTS=mdcreate mdstat mdread mdrename mddelete" "ATIO_OPTS=--keep-cache")
PHASES="create stat read rename delete"

# --- Bad settings: exit 2, the value named, nothing run.
for bad in "--md-files 0|MD_FILES \\(--md-files\\) '0'" "--md-dirs x|MD_DIRS \\(--md-dirs\\) 'x'" \
	"--md-file-size 4Q4|MD_FILE_SIZE \\(--md-file-size\\) '4Q4'"; do
	read -ra a <<<"${bad%%|*}"
	run_driver "${MD[@]}" "${a[@]}" "${HOSTS[@]}"
	expect_code "${bad%%|*}: exit 2" 2
	expect_match "${bad%%|*}: named" "$ERR" "${bad#*|}"
done
run_driver "${MD[@]}" MD_NEIGHBOUR=yes "${HOSTS[@]}"
expect_code "MD_NEIGHBOUR=yes: exit 2" 2
expect_match "MD_NEIGHBOUR=yes: named" "$ERR" "MD_NEIGHBOUR 'yes': not 0"
run_driver "${MD[@]}" "TESTS=mdstat mdcreate" "${HOSTS[@]}"
expect_code "mdcreate after mdstat: exit 2" 2
expect_match "mdcreate after mdstat: named" "$ERR" "mdcreate after mdstat: the metadata tests go in the order"
run_driver "${MD[@]}" --md-neighbour node1
expect_code "--md-neighbour on one node: exit 2" 2
expect_match "--md-neighbour on one node: said" "$ERR" "give 2 nodes or more"
run_driver "${MD[@]}" "ATIO_OPTS=--keep-cache --bogus" "${HOSTS[@]}"
expect_code "an option atio refuses: exit 2" 2
expect_match "an option atio refuses: named" "$ERR" "atio refuses the options of mdcreate .*--bogus"
expect_no_match "bad settings: nothing ran" "$OUT" '^(Loading|---===|Sum value)'

# --- Without --md-neighbour no node's command names another's tree;
# with it, node i's mdstat and mdread name node i+1's (node3's node1's).
run_driver "${MD[@]}" --dry-run "${HOSTS[@]}"
expect_code "dry run: exit 0" 0
expect_no_match "without --md-neighbour: no --neighbour-dir" "$OUT" 'neighbour-dir'
expect_no_match "metadata tests alone: no loading nor warm-up" "$OUT" '^  (load|warmup) '
run_driver "${MD[@]}" --md-neighbour --dry-run "${HOSTS[@]}"
for t in mdstat mdread; do
	expect_count "--md-neighbour: $t of each node names the next node's directory" "$OUT" \
		"^  $t \\(2 threads\\): .*--meta ${t#md} .*-f $REMOTE_SHARED/node-node([123]) --neighbour-dir $REMOTE_SHARED/node-node([123]) " 3
	for p in "1 2" "2 3" "3 1"; do
		read -r a b <<<"$p"
		expect_match "--md-neighbour: $t: node$a reads node$b's" "$OUT" \
			"^  $t \\(2 threads\\): .*-f $REMOTE_SHARED/node-node$a --neighbour-dir $REMOTE_SHARED/node-node$b "
	done
done
expect_no_match "--md-neighbour: create, rename and delete stay on the node's own tree" "$OUT" \
	'^  md(create|rename|delete) .*neighbour-dir'

# --- The five phases on three nodes, node i reading node i+1's files.
what="the metadata tests with --md-neighbour"
run_driver "${MD[@]}" --md-neighbour --md-files 40 --md-file-size 4K --md-dirs 3 \
	-o "$WORK/meta.json" "${HOSTS[@]}"
echo "# five metadata phases on 3 nodes: $WALL_MS ms"
expect_code "$what: exit 0" 0
expect_no_match "$what: no [FAILURE] line" "$OUT" '\[FAILURE\]'
expect_no_match "$what: no loading, no warm-up" "$OUT" '^(Loading|---=== Warming)'
expect_count "$what: SUCCESS on every node in the 2 rounds of preparation and each of the 5 runs" "$OUT" \
	'^\[[1-3]\] [0-9:]{8} \[SUCCESS\] node[1-3]$' $((3 * 7))
for p in $PHASES; do
	expect_count "$what: $p: a section" "$OUT" "^---=== Metadata $p \\(2thr\\) ===---$" 1
	expect_count "$what: $p: each node's phase line, 80 operations" "$OUT" "^$p: .* 80 ops in " 3
	expect_count "$what: $p: the cluster's line, 240 operations" "$OUT" "^cluster $p: .* 240 ops in " 1
done
expect_count "$what: one result line per node per phase (grep rate)" "$OUT" rate 15
expect_count "$what: a sum per phase" "$OUT" \
	'^Sum value on iteration 1 = \{ [0-9.]+ \} ops/s;( \(TOO FAST TO MEASURE: no figure, not in the average; give more --md-files\))?$' 5
# A phase too fast to time on a node is no figure in the cluster either:
# its sum says so and is not averaged (these trees are small: most are).
fast=$(grep -c '^cluster [a-z]*: too fast to measure' "$OUT" || true)
printf '# %s of the 5 phases too fast to measure\n' "$fast"
expect_count "$what: a sum marked too fast for each phase the merge calls so" "$OUT" \
	'^Sum value on iteration 1 = .*\(TOO FAST TO MEASURE' "$fast"
expect_count "$what: no average of a phase too fast" "$OUT" \
	'^---=== Average value: none, no complete iteration \(0 of 1\) ===---$' "$fast"
expect_count "$what: an average of each other phase" "$OUT" \
	'^---=== Average value = \{ [0-9.]+ \} ops/s; ===---$' "$((5 - fast))"
expect_count "$what: a start skew per phase" "$OUT" '^cluster start skew: [0-9.]+ s, end skew: [0-9.]+ s over 3 nodes$' 5
for i in 1 2 3; do
	if [ -d "$S/node-node$i" ] && [ -z "$(ls -A "$S/node-node$i")" ]; then
		ok "$what: node$i's tree and lock are gone after mddelete"
	else
		not_ok "$what: node$i's tree and lock are gone after mddelete" "$(ls -A "$S/node-node$i" 2>&1)"
	fi
done

# The -o document: per phase, the merged operations; and the merge of
# the nodes' own documents it holds gives the driver's figures.
doc() {
	jq -c "$1" "$WORK/meta.json"
}
if [ "$(doc '[.results[].tests[].iterations[].nodes[].document.settings | [.files, .file_size, .dirs, .threads]] | unique')" = '[[40,4096,3,2]]' ]; then
	ok "$what: -o: every node's document has the settings of the tests"
else
	not_ok "$what: -o: every node's document has the settings of the tests" "$(doc '[.results[].tests[].iterations[].nodes[].document.settings]')"
fi
if [ "$(doc '[.results[].tests[] | .test]')" = '["mdcreate","mdstat","mdread","mdrename","mddelete"]' ]; then
	ok "$what: -o: a test per phase"
else
	not_ok "$what: -o: a test per phase" "$(doc '[.results[].tests[] | .test]')"
fi
if [ "$(doc '[.results[].tests[].iterations[] | .merged.phases[0].ops]')" = '[240,240,240,240,240]' ]; then
	ok "$what: -o: each phase's merged operations, 240"
else
	not_ok "$what: -o: each phase's merged operations, 240" "$(doc '[.results[].tests[].iterations[] | .merged.phases[0].ops]')"
fi
if [ "$(doc '[.results[].tests[].iterations[] | .complete and .ok_nodes == 3 and (.nodes | length) == 3] | all')" = true ]; then
	ok "$what: -o: every iteration complete, three nodes each"
else
	not_ok "$what: -o: every iteration complete, three nodes each" "$(doc '[.results[].tests[].iterations[] | [.complete, .ok_nodes]]')"
fi
for t in mdcreate mdstat mdread mdrename mddelete; do
	mkdir -p "$WORK/docs.$t"
	for i in 0 1 2; do
		doc ".results[].tests[] | select(.test == \"$t\") | .iterations[0].nodes[$i].document" >"$WORK/docs.$t/$i.json"
	done
	"$ATIO" merge --json "$WORK/docs.$t/"*.json >"$WORK/docs.$t/merged.json" 2>"$WORK/docs.$t/err" || true
	want=$(jq -c '.phases[0] | [.ops, .elapsed_ns, .ops_per_sec, .nodes_sum_ops_per_sec, .latency_ns.count, .latency_ns.max]' "$WORK/docs.$t/merged.json" 2>&1) || true
	got=$(doc ".results[].tests[] | select(.test == \"$t\") | .iterations[0].merged.phases[0] | [.ops, .elapsed_ns, .ops_per_sec, .nodes_sum_ops_per_sec, .latency_ns.count, .latency_ns.max]")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "$what: -o: $t: atio merge of the nodes' documents gives the driver's figures ($got)"
	else
		not_ok "$what: -o: $t: atio merge of the nodes' documents gives the driver's figures" \
			"merge: $want" "-o: $got" "$(cat "$WORK/docs.$t/err")"
	fi
done

# --- node1's tree removed: mdstat fails on node1 (no tree of its own)
# and on node3 (whose neighbour node1 is), each naming it; node2, which
# reads node3's tree, succeeds and is summed alone; no node makes node1's
# tree.
what="node1's tree missing"
run_driver "${MD[@]}" "TESTS=mdcreate" --md-files 20 "${HOSTS[@]}"
expect_code "$what: the trees made: exit 0" 0
rm -rf "$S/node-node1/atio-meta"
run_driver "${MD[@]}" "TESTS=mdstat" --md-neighbour --md-files 20 "${HOSTS[@]}"
expect_code "$what: exit 1" 1
expect_count "$what: two nodes fail" "$OUT" '^\[[1-3]\] [0-9:]{8} \[FAILURE\] ' 2
expect_match "$what: node2 succeeds" "$OUT" '^\[2\] [0-9:]{8} \[SUCCESS\] node2$'
expect_match "$what: node1 names its missing tree" "$OUT" "no tree at $REMOTE_SHARED/node-node1/atio-meta to stat"
expect_match "$what: node3 names its neighbour's" "$OUT" "neighbour-dir: $REMOTE_SHARED/node-node1/atio-meta: "
expect_match "$what: the sum is INCOMPLETE" "$OUT" '^Sum value on iteration 1 = .*INCOMPLETE: 1 of 3 nodes'
expect_match "$what: the cluster line is node2's alone" "$OUT" "^cluster stat: .* 40 ops in "
if [ ! -e "$S/node-node1/atio-meta" ]; then
	ok "$what: no node made node1's tree"
else
	not_ok "$what: no node made node1's tree" "$(ls -A "$S/node-node1")"
fi
run_driver "${MD[@]}" "TESTS=mddelete" --md-files 20 node2 node3
expect_code "$what: the other trees deleted: exit 0" 0

finish
