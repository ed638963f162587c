#!/bin/bash
# scripts/atio-parallel.sh with nodes that are not all well (sshd-harness.sh):
# a node without atio gets it copied, one that has it keeps it; a node with
# another atio version is refused before any test, or replaced with
# --replace; a node with no sshd stops the run in preparation, named; atio
# failing on one node marks its runs FAILURE with its stderr, the other
# nodes' results still print and the sums say INCOMPLETE.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
LOCAL_VERSION=$("$LOCAL_ATIO" --version | awk '{print $2}')
[ -n "$LOCAL_VERSION" ] || die "atio --version printed no version"

# snapshot: every file on the nodes, with size and modification time.
snapshot() {
	local i

	for i in 1 2 3; do
		(cd "$(node_dir "$i")" && find . -type f -printf "node$i %p %s %T@\n") | LC_ALL=C sort
	done
}

# expect_nothing_ran WHAT BEFORE: no test section, no sum, and no file on
# any node changed since the snapshot BEFORE.
expect_nothing_ran() {
	local what=$1 before=$2

	expect_no_match "$what: no test section started" "$OUT" '^---==='
	expect_no_match "$what: no sum printed" "$OUT" '^Sum value'
	snapshot >"$WORK/snap.after"
	if cmp -s "$before" "$WORK/snap.after"; then
		ok "$what: no file changed on any node"
	else
		not_ok "$what: no file changed on any node" \
			"$(diff "$before" "$WORK/snap.after" | head -n 6)"
	fi
}

# expect_complete_run WHAT: $OUT is a run over $HOSTS with every sum
# complete and right.
expect_complete_run() {
	local P=$WORK/parsed

	parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
	if ! grep -q '^ERR ' "$P" && [ "$(count_lines "$P" '^SUM .*\|1$')" -ge 2 ] &&
		! grep -qE '^SUM .*\|0$' "$P" && ! grep -q '^FAIL ' "$P"; then
		ok "$what: every node in every run, $(count_lines "$P" '^SUM ') sums right"
	else
		not_ok "$what: every node in every run, the sums right" \
			"$(grep -E '^(ERR|FAIL) ' "$P" | head -n 4)" \
			"$(count_lines "$P" '^SUM .*\|1$') complete sums" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
}

# --- Nodes 1 and 3 have this atio already (an old mtime shows whether it
# is copied again), node2 has none; then node3 gets another version: a small
# script answering "atio 0.0.1" to --version (and failing anything else,
# with a note of each call).
OLD=$(date -d '2001-01-01 00:00:00' +%s)
for i in 1 3; do
	cp "$LOCAL_ATIO" "$(node_dir "$i")/bin/atio"
done
fake=$(node_dir 3)/bin/atio
rm -f "$fake"
cat >"$fake" <<'EOF'
#!/bin/sh
echo "$*" >>"$(dirname "$0")/calls"
case $1 in
--version | -V) echo "atio 0.0.1"; exit 0 ;;
esac
echo "fake atio: called with $*" >&2
exit 1
EOF
chmod 755 "$fake"
cp "$fake" "$WORK/fake.orig"
touch -d "@$OLD" "$(node_dir 1)/bin/atio"
snapshot >"$WORK/snap.before"
run_driver TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
echo "# node2 without atio, node3 with 0.0.1: $WALL_MS ms"
what="node3 with atio 0.0.1"
expect_code "$what: refused, exit 1" 1
# The message: one line naming node3 and both versions, or node3's
# [FAILURE] block with both versions in it.
cat "$OUT" "$ERR" >"$WORK/both"
parse_driver_output "$OUT" "${HOSTS[*]}" | grep '^FAIL node3|' >"$WORK/fail3" || true
if grep -E 'node3' "$WORK/both" | grep -F '0.0.1' | grep -qF "$LOCAL_VERSION" ||
	{ grep -qF '0.0.1' "$WORK/fail3" && grep -qF "$LOCAL_VERSION" "$WORK/fail3"; }; then
	ok "$what: a message names node3 and both versions (0.0.1, $LOCAL_VERSION)"
else
	not_ok "$what: a message names node3 and both versions (0.0.1, $LOCAL_VERSION)" \
		"no line with node3, 0.0.1 and $LOCAL_VERSION, nor a [FAILURE] node3 block with both versions" \
		"command: $LAST"
	show output "$WORK/both"
fi
expect_no_match "$what: no [FAILURE] for node1 or node2" "$OUT" '\[FAILURE\] node[12]$'
cp "$(node_dir 3)/bin/calls" "$WORK/calls" 2>/dev/null || : >"$WORK/calls"
rm -f "$(node_dir 3)/bin/calls"
if bad=$(grep -vxE -- '-V|--version' "$WORK/calls"); then
	not_ok "$what: its atio was asked its version, nothing else" "called with: $(head -n 3 <<<"$bad")"
else
	ok "$what: its atio was asked its version, nothing else ($(wc -l <"$WORK/calls") calls)"
fi
# No test ran: no section, no sum, no data file made or changed. (The note
# of the calls, removed above, is not a change the driver made.)
expect_no_match "$what: no test section started" "$OUT" '^---==='
expect_no_match "$what: no sum printed" "$OUT" '^Sum value'
if diff <(grep -v ' ./bin/' "$WORK/snap.before") <(snapshot | grep -v ' ./bin/') >"$WORK/snap.diff"; then
	ok "$what: no data file made or changed on any node"
else
	not_ok "$what: no data file made or changed on any node" "$(head -n 6 "$WORK/snap.diff")"
fi
if cmp -s "$WORK/fake.orig" "$fake"; then
	ok "$what: its atio was not replaced without --replace"
else
	not_ok "$what: its atio was not replaced without --replace"
fi
what="node2 without atio"
if cmp -s "$LOCAL_ATIO" "$(node_dir 2)/bin/atio"; then
	ok "$what: atio was copied to node2"
else
	not_ok "$what: atio was copied to node2" "node2 bin: $(listing "$(node_dir 2)/bin" | tr "\n" " ")"
fi
if [ "$(stat -c %Y "$(node_dir 1)/bin/atio")" = "$OLD" ]; then
	ok "node1's atio, the same version, was left as it was"
else
	not_ok "node1's atio, the same version, was left as it was" \
		"modified $(stat -c %y "$(node_dir 1)/bin/atio")"
fi

# With --replace node3 gets this atio, and the run works everywhere, node2
# on the atio copied to it.
[ ! -e "$(node_dir 2)/bin/atio" ] || touch -d "@$OLD" "$(node_dir 2)/bin/atio"
run_driver TESTS=seqread ITERATIONS=1 --replace "${HOSTS[@]}"
echo "# --replace: $WALL_MS ms"
what="node3 with atio 0.0.1 and --replace"
expect_code "$what: exit 0" 0
if cmp -s "$LOCAL_ATIO" "$fake"; then
	ok "$what: node3's atio is now this one"
else
	not_ok "$what: node3's atio is now this one" "$(head -c 200 "$fake" | tr -c '[:print:]\n' '?' | head -n 3)"
fi
for i in 1 2; do
	if [ "$(stat -c %Y "$(node_dir "$i")/bin/atio")" = "$OLD" ]; then
		ok "$what: node$i's atio, the same version, was left as it was"
	else
		not_ok "$what: node$i's atio, the same version, was left as it was" \
			"modified $(stat -c %y "$(node_dir "$i")/bin/atio")"
	fi
done
expect_complete_run "$what"

# --- A node with no sshd: node9 is an address where nothing listens.
snapshot >"$WORK/snap.before"
run_driver TESTS=seqread ITERATIONS=1 node1 node9 node2
what="a node with no sshd"
expect_code "$what: exit 1" 1
cat "$OUT" "$ERR" >"$WORK/both"
expect_match "$what: a message names node9" "$WORK/both" 'node9'
# ssh's own words say why: the first lines of its stderr under node9.
if parse_driver_output "$OUT" "node1 node9 node2" | grep -q '^FAIL node9|[1-5]|.*Connection refused'; then
	ok "$what: ssh's reason (Connection refused) is shown under [FAILURE] node9"
else
	not_ok "$what: ssh's reason (Connection refused) is shown under [FAILURE] node9" "command: $LAST"
	show stdout "$OUT"
fi
expect_nothing_ran "$what" "$WORK/snap.before"

# --- atio failing on node2: a 1 MiB tmpfs over its data directory, so
# its space check fails every time.
node_exec 2 mount -t tmpfs -o size=1m atio-test-full "$REMOTE_DATA" ||
	die "cannot mount a tmpfs in node2's namespace"
run_driver TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
echo "# atio failing on node2: $WALL_MS ms"
node_exec 2 umount "$REMOTE_DATA" || die "cannot unmount node2's tmpfs"
what="atio failing on node2"
expect_code "$what: exit 1" 1
P=$WORK/parsed
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
expect_match "$what: [FAILURE] node2 lines" "$OUT" '^\[2\] [0-9]{2}:[0-9]{2}:[0-9]{2} \[FAILURE\] node2$'
expect_no_match "$what: no [FAILURE] line for the other nodes" "$OUT" '\[FAILURE\] node[13]$'
n=$(count_lines "$P" '^FAIL node2\|([1-5])\|.*not enough free space')
if [ "$n" -ge 1 ] && [ "$n" -eq "$(count_lines "$P" '^FAIL ')" ]; then
	ok "$what: under each [FAILURE] node2, 1 to 5 lines of its stderr with atio's message"
else
	not_ok "$what: under each [FAILURE] node2, 1 to 5 lines of its stderr with atio's message" \
		"$(grep '^FAIL ' "$P" | head -n 3)" "command: $LAST"
	show stdout "$OUT"
fi
sums=$(count_lines "$P" '^SUM ')
incomplete=$(count_lines "$OUT" '^Sum value on iteration [0-9]+ = \{ [0-9.]+ \} [^ ]+; \(INCOMPLETE: 2 of 3 nodes\)$')
if [ "$sums" -eq 2 ] && [ "$incomplete" -eq "$sums" ]; then
	ok "$what: each of the $sums sums says (INCOMPLETE: 2 of 3 nodes)"
else
	not_ok "$what: every sum says (INCOMPLETE: 2 of 3 nodes)" \
		"$sums sums, $incomplete of them INCOMPLETE: 2 of 3" "command: $LAST"
	show stdout "$OUT"
fi
n=$(count_lines "$P" '^NODE Sequential read\|1\|[0-9]+\|node[13]\|')
if [ "$n" -eq 2 ] && [ "$(count_lines "$P" '^NODE [^|]*\|[^|]*\|[^|]*\|node2\|')" -eq 0 ]; then
	ok "$what: node1's and node3's results still print"
else
	not_ok "$what: node1's and node3's results still print" \
		"$n results of node1 and node3 in Sequential read, expected 2" "command: $LAST"
fi
if grep -q '^ERR ' "$P"; then
	not_ok "$what: each sum is the sum of the nodes that answered" "$(grep '^ERR ' "$P" | head -n 4)"
else
	ok "$what: each sum is the sum of the nodes that answered"
fi

expect_no_ssh_leftovers "no ssh process is left after the runs"
if [ "$(node_atio_count)" -eq 0 ]; then
	ok "no atio is left running on any node"
else
	not_ok "no atio is left running on any node" "$(node_atio_count) still running"
fi

finish
