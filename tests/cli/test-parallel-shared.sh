#!/bin/bash
# scripts/atio-parallel.sh on a cluster filesystem's mount, as at_io_iops'
# guide uses it: three real sshd nodes (sshd-harness.sh, SSHD_SHARED), each
# a machine of its own to the driver (its own boot id and host name), all
# seeing one directory. By default each node runs in a subdirectory of its
# own, named for it, made by the driver: the default matrix (seqread
# seqwrite randread randwrite randfsync) succeeds on every node, each sum
# is the sum of the nodes' own figures, the output and the -o document say
# where each node ran, and the next run finds the same subdirectories.
# The directory as given (NODE_DIR=given), where three nodes would run on
# one dataset (reads summed three times over one file, writes refused on
# all but one node), is refused with exit 2 before any run; so is a
# subdirectory that two hosts would share, and a missing test directory
# fails preparation; one node under two names is refused. No marker file
# of the driver is left behind.
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
P=$WORK/parsed
# top: what the shared directory holds, its names in order, one a line.
top() {
	find "$S" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort
}
# Small and short: 1 thread, 1 s runs, one iteration, 16 MiB of files.
QUICK=(NODE_DIR=subdir "REMOTE_PCS_MOUNT_PATH=$REMOTE_SHARED" THREADS=1 TIME=1 ITERATIONS=1
	FILE_SIZE=16M)

# --- The nodes are three machines to the driver: each its own boot id and
# host name, none the boot id of this machine; and all see one directory.
ids=() names=()
for i in 1 2 3; do
	ids+=("$(ssh -F "$SSH_CONFIG" "node$i" cat /proc/sys/kernel/random/boot_id </dev/null)")
	names+=("$(ssh -F "$SSH_CONFIG" "node$i" uname -n </dev/null)")
done
if [ "$(printf '%s\n' "${ids[@]}" | sort -u | wc -l)" = 3 ] &&
	[[ " ${ids[*]} " != *" $(cat /proc/sys/kernel/random/boot_id) "* ]]; then
	ok "each node has a boot id of its own (${ids[*]})"
else
	not_ok "each node has a boot id of its own" "boot ids: ${ids[*]}"
fi
if [ "${names[*]}" = "node1 node2 node3" ]; then
	ok "each node has a host name of its own"
else
	not_ok "each node has a host name of its own" "host names: ${names[*]}"
fi
ssh -F "$SSH_CONFIG" node1 "echo seen >$REMOTE_SHARED/probe" </dev/null
if [ "$(ssh -F "$SSH_CONFIG" node3 "cat $REMOTE_SHARED/probe" </dev/null)" = seen ] && [ -f "$S/probe" ]; then
	ok "a file node1 makes in $REMOTE_SHARED is node3's too"
else
	not_ok "a file node1 makes in $REMOTE_SHARED is node3's too" "$(top | head -n 3)"
fi
rm -f "$S/probe"

# --- The directory as given: three nodes would write one dataset. Refused
# (exit 2) before any run, the nodes named; nothing made there, no marker
# left.
what="NODE_DIR=given on the shared directory"
run_driver "${QUICK[@]}" NODE_DIR=given TESTS=randwrite "${HOSTS[@]}"
expect_code "$what: refused with exit 2" 2
expect_match "$what: the nodes that share it are named" "$ERR" \
	"test directory $REMOTE_SHARED is shared by nodes node1, node2, node3 .*NODE_DIR=given .* one dataset"
expect_no_match "$what: nothing ran" "$OUT" '^(Loading|---===|Sum value)'
if [ -z "$(top)" ]; then
	ok "$what: nothing is left in the directory (its markers removed)"
else
	not_ok "$what: nothing is left in the directory (its markers removed)" "$(top | head -n 5)"
fi

# --- node3 with a directory of its own at that path (a tmpfs mounted over
# it in its namespace): only node1 and node2 share it, and only they are
# named.
what="NODE_DIR=given, node3's directory its own"
node_exec 3 mount -t tmpfs -o size=1m atio-test-own "$REMOTE_SHARED" ||
	die "cannot mount a tmpfs over node3's $REMOTE_SHARED"
run_driver "${QUICK[@]}" NODE_DIR=given TESTS=randwrite "${HOSTS[@]}"
expect_code "$what: refused with exit 2" 2
expect_match "$what: node1 and node2 named, not node3" "$ERR" \
	"test directory $REMOTE_SHARED is shared by nodes node1, node2 \("
expect_no_match "$what: node3 is not said to share it" "$ERR" 'shared by nodes .*node3'
node_exec 3 umount "$REMOTE_SHARED" || die "cannot unmount node3's tmpfs"

# --- Two hosts that would run in one subdirectory (one node by two
# names, where ssh -G cannot tell): refused before any node is touched.
what="two hosts of one subdirectory name"
run_driver "${QUICK[@]}" --dry-run node1 NODE1
expect_code "$what: refused with exit 2" 2
expect_match "$what: both named, and the subdirectory" "$ERR" \
	"hosts 'node1' and 'NODE1' would run in one subdirectory $REMOTE_SHARED/node-node1"

# --- A test directory that does not exist: no node runs; nothing is made.
what="a missing test directory"
run_driver "${QUICK[@]}" "REMOTE_PCS_MOUNT_PATH=$REMOTE_SHARED/none" TESTS=seqread "${HOSTS[@]}"
expect_code "$what: exit 1" 1
expect_match "$what: preparation failed on every node" "$ERR" \
	'preparation failed: no test directory to run in on 3 of 3 nodes'
expect_count "$what: each node says why" "$OUT" "^    test directory $REMOTE_SHARED/none does not exist on the node" 3
if [ ! -e "$S/none" ]; then ok "$what: not made"; else not_ok "$what: not made" "$S/none exists"; fi

# --- The default: each node in a subdirectory of its own, the default
# matrix on every node, sums that add up.
what="the default matrix in a shared directory"
run_driver "${QUICK[@]}" -u TESTS -o "$WORK/shared.json" "${HOSTS[@]}"
echo "# the default matrix on 3 nodes sharing a directory: $WALL_MS ms"
expect_code "$what: exit 0" 0
expect_match "$what: the output says the directory is shared" "$OUT" \
	"^test directory $REMOTE_SHARED is shared by nodes node1, node2, node3: each node runs in its own subdirectory$"
expect_match "$what: the output says where each node runs" "$OUT" \
	"^Test directory: $REMOTE_SHARED/node-HOST on each node, a subdirectory of its own \\($REMOTE_SHARED/node-node1 \\.\\.\\. $REMOTE_SHARED/node-node3; made on 3 of 3 nodes\\)$"
expect_no_match "$what: no [FAILURE] line" "$OUT" '\[FAILURE\]'
expect_no_match "$what: no INCOMPLETE sum" "$OUT" 'INCOMPLETE'
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
if grep -q '^ERR ' "$P"; then
	not_ok "$what: every sum is the sum of the nodes' own figures above it" \
		"$(grep '^ERR ' "$P" | head -n 5)" "command: $LAST"
else
	ok "$what: every sum is the sum of the nodes' own figures above it ($(count_lines "$P" '^SUM ') sums)"
fi
for t in "Sequential read|MB/s" "Sequential write|MB/s" "Random read|IOPS" "Random write|sync/s" \
	"Random fsync|sync/s"; do
	expect_count "$what: ${t%|*}: a complete sum" "$P" "^SUM ${t%|*}\\|1\\|1\\|[0-9.]+\\|${t#*|}\\|1$" 1
	expect_count "$what: ${t%|*}: a figure from each node" "$P" "^NODE ${t%|*}\\|1\\|1\\|node[1-3]\\|[0-9.]+\\|${t#*|}$" 3
done
expect_count "$what: SUCCESS on every node in preparation, loading and each of the 6 runs" "$OUT" \
	'^\[[1-3]\] [0-9:]{8} \[SUCCESS\] node[1-3]$' $((3 * 9))

# Each node's dataset in its own subdirectory; nothing else in the directory.
for i in 1 2 3; do
	n=$(find "$S/node-node$i" -maxdepth 1 -type f -name 'atio.*' | wc -l)
	if [ "$n" -ge 1 ]; then
		ok "$what: node$i's dataset is in node-node$i ($n files)"
	else
		not_ok "$what: node$i's dataset is in node-node$i" "$(top | head -n 8)"
	fi
done
if [ "$(top | tr '\n' ' ')" = "node-node1 node-node2 node-node3 " ]; then
	ok "$what: the shared directory holds the three subdirectories only (no marker left)"
else
	not_ok "$what: the shared directory holds the three subdirectories only" "$(top | head -n 8)"
fi

# doc_ok WHAT FILTER: jq FILTER is true of the -o document.
doc_ok() {
	local got
	got=$(jq -c "$2" "$WORK/shared.json" 2>&1) || true
	if [ "$got" = true ]; then
		ok "$1"
	else
		not_ok "$1" "jq '$2' gives '$got'" "command: $LAST"
	fi
}
# The -o document says where each node ran, and its sums are its nodes'.
doc_ok "$what: -o: settings.node_dir is subdir" '.settings.node_dir == "subdir"'
doc_ok "$what: -o: each node's test_dir" \
	"[.nodes[].test_dir] == [\"$REMOTE_SHARED/node-node1\", \"$REMOTE_SHARED/node-node2\", \"$REMOTE_SHARED/node-node3\"]"
doc_ok "$what: -o: six complete iterations (warm-up and five tests), each sum its three nodes' values" \
	'[.results[].tests[].iterations[] | .complete and (.nodes | length) == 3 and
		((.sum - (.nodes | map(.value) | add)) | fabs) <= 1.5e-5] | length == 6 and all'

# --- One node under two names that ssh -G cannot tell apart (node1 and a
# second sshd of node1's, on another address): each would have a
# subdirectory of its own, but it is one machine, summed twice. Refused
# (exit 2) once the nodes said what they are, before anything ran; the
# markers the nodes had made by then are removed at the exit.
A1B=127.0.0.12
d=$SSH_DIR/node1
up=0
node_second_address 1 "$A1B" && up=1
what="node1 and $A1B, a second address of node1"
if [ "$up" = 0 ]; then
	skip_check "$what" "a second sshd on $A1B:$SSH_PORT did not start: $(tail -n 2 "$d/sshd2.log" 2>/dev/null | tr '\n' ' ')"
else
	run_driver "${QUICK[@]}" TESTS=seqread node1 node2 "$A1B"
	expect_code "$what: refused with exit 2" 2
	expect_match "$what: the message names both and the shared directory" "$ERR" \
		"hosts 'node1' and '$A1B' are one node: .* with one test directory $REMOTE_SHARED "
	expect_no_match "$what: nothing ran" "$OUT" '^(Loading|---===|Sum value)'
	if [ "$(top | tr '\n' ' ')" = "node-node1 node-node2 node-node3 " ]; then
		ok "$what: no marker is left in the shared directory, no subdirectory made"
	else
		not_ok "$what: no marker is left in the shared directory, no subdirectory made" "$(top | head -n 8)"
	fi
fi

# --- The next run finds the same subdirectories, makes none, and uses the
# datasets there.
inode=$(stat -c %i "$S/node-node2")
what="a second run"
run_driver "${QUICK[@]}" TESTS=randread "${HOSTS[@]}"
expect_code "$what: exit 0" 0
expect_match "$what: the same subdirectories, none made" "$OUT" \
	"^Test directory: $REMOTE_SHARED/node-HOST on each node, a subdirectory of its own \\($REMOTE_SHARED/node-node1 \\.\\.\\. $REMOTE_SHARED/node-node3\\)$"
if [ "$(stat -c %i "$S/node-node2")" = "$inode" ] &&
	[ "$(top | tr '\n' ' ')" = "node-node1 node-node2 node-node3 " ]; then
	ok "$what: node2's subdirectory is the one of the first run"
else
	not_ok "$what: node2's subdirectory is the one of the first run" "$(top | head -n 8)"
fi

finish
