#!/bin/bash
# scripts/atio-parallel.sh --md-shared: the metadata tests on three real
# sshd nodes that share one directory (sshd-harness.sh, SSHD_SHARED), all
# of them in ONE tree there (DIR/atio-meta), each node a member of it
# (atio --shared-by I/3, one seed for the run). Counts exact (every
# node's files created, stat'ed, read and deleted: nodes x threads x
# files a phase), the nodes' names side by side in the tree's directories
# and never one name twice, --md-neighbour reading the next node's files
# in the tree, the tree gone after mddelete; a tree the same nodes left
# made again by mdcreate; one other nodes made refused and left as it
# is (a run without --shared-by removes it); a foreign atio-meta refused;
# a directory the nodes do not share refused; bad settings exit 2.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

SSHD_SHARED=1
sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
S=$WORK/shared
MD=(NODE_DIR=subdir "REMOTE_PCS_MOUNT_PATH=$REMOTE_SHARED" THREADS=2 ITERATIONS=1 MAX_SKEW=100000
	"ATIO_OPTS=--keep-cache" "TESTS=mdcreate mdstat mdread mdrename mddelete")
MDO=(--md-shared --md-files 30 --md-file-size 512 --md-dirs 2)

# --- Bad settings: exit 2, said, nothing run.
run_driver "${MD[@]}" MD_SHARED=yes "TESTS=mdcreate" "${MDO[@]:1}" "${HOSTS[@]}"
expect_code "MD_SHARED=yes: exit 2" 2
expect_match "MD_SHARED=yes: named" "$ERR" "MD_SHARED 'yes': not 0"
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" node1
expect_code "--md-shared on one node: exit 2" 2
expect_match "--md-shared on one node: said" "$ERR" "the nodes share one tree: give 2 nodes or more"
run_driver "${MD[@]}" "TESTS=mdcreate" "REMOTE_PCS_MOUNT_PATH=$REMOTE_DATA" "${MDO[@]}" "${HOSTS[@]}"
expect_code "--md-shared on a directory the nodes do not share: exit 2" 2
expect_match "--md-shared on a directory the nodes do not share: said" "$ERR" \
	"MD_SHARED \\(--md-shared\\): the nodes do not all share the test directory"

# --- The command lines: one tree, each node its member number.
run_driver "${MD[@]}" "${MDO[@]}" --md-neighbour --dry-run "${HOSTS[@]}"
expect_code "dry run: exit 0" 0
for i in 1 2 3; do
	expect_count "node$i: every test in the shared directory as member $((i - 1)) of 3" "$OUT" \
		"^  md[a-z]+ \\(2 threads\\): .*-f $REMOTE_SHARED --shared-by $((i - 1))/3 --seed [0-9]+ " 5
done
expect_count "--md-neighbour: --neighbour on mdstat and mdread only" "$OUT" '^  md(stat|read) .* --neighbour( |$)' 6
expect_no_match "--md-neighbour with --md-shared: no --neighbour-dir" "$OUT" 'neighbour-dir'

# --- The phases on three nodes in one tree; the listing after mdcreate.
what="--md-shared"
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" "${HOSTS[@]}"
expect_code "$what: mdcreate: exit 0" 0
expect_count "$what: mdcreate: each node's line, 60 operations" "$OUT" "^create: .* 60 ops in " 3
expect_count "$what: mdcreate: the cluster's line, 180 operations" "$OUT" "^cluster create: .* 180 ops in " 1
names=$(find "$S/atio-meta" -type f -printf '%f\n' 2>/dev/null) || true
if [ "$(wc -l <<<"$names")" = 180 ] && [ -z "$(sort <<<"$names" | uniq -d)" ] &&
	[ "$(cut -d. -f1 <<<"$names" | sort -u | tr '\n' ' ')" = "t0 t1 t2 t3 t4 t5 " ]; then
	ok "$what: one tree, 180 files, the 6 threads' names t0..t5, no name twice"
else
	not_ok "$what: one tree, 180 files, no name twice" "$(cut -d. -f1 <<<"$names" | sort | uniq -c)"
fi
if [ "$(find "$S/atio-meta/shared/d0" -type f -name 't[01].*' | wc -l)" -gt 0 ] &&
	[ "$(find "$S/atio-meta/shared/d0" -type f -name 't[45].*' | wc -l)" -gt 0 ]; then
	ok "$what: the first and last nodes' files side by side in one directory"
else
	not_ok "$what: the nodes' files side by side" "$(find "$S/atio-meta/shared/d0" | head)"
fi

run_driver "${MD[@]}" "TESTS=mdstat mdread mdrename mddelete" "${MDO[@]}" --md-neighbour "${HOSTS[@]}"
expect_code "$what: mdstat mdread mdrename mddelete with --md-neighbour: exit 0" 0
expect_no_match "$what: no [FAILURE] line" "$OUT" '\[FAILURE\]'
for p in stat read rename delete; do
	expect_match "$what: $p: the cluster's line, 180 operations" "$OUT" "^cluster $p: .* 180 ops in "
done
expect_count "$what: every node's line, 60 operations, in every phase" "$OUT" '^(stat|read|rename|delete): .* 60 ops in ' 12
if [ ! -e "$S/atio-meta" ] && [ ! -e "$S/atio-meta.lock" ]; then
	ok "$what: the tree is gone after mddelete"
else
	not_ok "$what: the tree is gone after mddelete" "$(find "$S/atio-meta" | head)"
fi

# --- A tree these nodes left is theirs again: a second mdcreate removes
# each node's own files first. A tree other nodes made (the same count,
# in another order: another seed) is refused and left as it is.
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" "${HOSTS[@]}"
expect_code "a tree left: made: exit 0" 0
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" "${HOSTS[@]}"
expect_code "the same nodes' mdcreate again: exit 0" 0
expect_count "the same nodes' mdcreate again: the cluster's line, 180 operations" "$OUT" "^cluster create: .* 180 ops in " 1
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" node2 node3 node1
expect_code "other nodes' run on that tree: exit 1" 1
expect_count "every node refuses it" "$OUT" '^\[[1-3]\] [0-9:]{8} \[FAILURE\] ' 3
expect_match "naming it another run's" "$OUT" "$REMOTE_SHARED/atio-meta: the tree of another run"
if [ "$(find "$S/atio-meta" -type f | wc -l)" = 180 ]; then
	ok "the other run's tree left whole"
else
	not_ok "the other run's tree left whole" "$(find "$S/atio-meta" -type f | wc -l)"
fi
run_driver "${MD[@]}" "TESTS=mddelete" "${MDO[@]}" node2 node3 node1
expect_code "other nodes' mddelete on that tree: exit 1" 1
if [ "$(find "$S/atio-meta" -type f | wc -l)" = 180 ]; then
	ok "the tree still whole"
else
	not_ok "the tree still whole" "$(find "$S/atio-meta" -type f | wc -l)"
fi
"$ATIO" --meta create,delete -p 1 --files 1 --keep-cache -f "$S" >/dev/null 2>&1 || true
if [ ! -e "$S/atio-meta" ]; then
	ok "a run without --shared-by removes the tree left"
else
	not_ok "a run without --shared-by removes the tree left"
fi

# --- A foreign atio-meta: refused by every node, left as it is.
mkdir "$S/atio-meta"
echo mine >"$S/atio-meta/note"
run_driver "${MD[@]}" "TESTS=mdcreate" "${MDO[@]}" "${HOSTS[@]}"
expect_code "a foreign atio-meta: exit 1" 1
expect_match "a foreign atio-meta: said" "$OUT" 'a directory atio did not make'
if [ "$(cat "$S/atio-meta/note")" = mine ] && [ "$(find "$S/atio-meta" -mindepth 1)" = "$S/atio-meta/note" ]; then
	ok "the foreign directory left as it is"
else
	not_ok "the foreign directory left as it is" "$(find "$S/atio-meta")"
fi
rm -r "$S/atio-meta"

finish
