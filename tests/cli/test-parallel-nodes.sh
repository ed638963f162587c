#!/bin/bash
# scripts/atio-parallel.sh with nodes that are not all well (sshd-harness.sh):
# a node without atio gets it copied, one that has it keeps it; a node with
# another atio version is refused before any test, or replaced with
# --replace; a node with no sshd stops the run in preparation, named; atio
# failing on one node marks its runs FAILURE with its stderr, the other
# nodes' results still print and the sums say INCOMPLETE; a node with this
# atio on its login PATH (as the package installs it) runs it and gets no
# copy, one with another version there gets a copy and runs that; a node
# whose clock is 30 s off is named in a warning.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

# doc_nodes FILE: the "nodes" of the driver's -o document FILE, one
# "HOST CLOCK_OFFSET ATIO" line each (the driver writes each as
# {"host":...,"clock_offset_sec":...,"atio":...,"test_dir":...}, in that
# order).
doc_nodes() {
	grep -oE '\{"host":"[^"]*","clock_offset_sec":[^,]*,"atio":("[^"]*"|null),"test_dir":("[^"]*"|null)\}' "$1" |
		sed -E 's/^\{"host":"([^"]*)","clock_offset_sec":([^,]*),"atio":"?([^",}]*)"?,.*$/\1 \2 \3/'
}

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
# its space check fails every time (--allow-memory-fs: atio refuses a
# memory filesystem otherwise, before it looks at the space).
node_exec 2 mount -t tmpfs -o size=1m atio-test-full "$REMOTE_DATA" ||
	die "cannot mount a tmpfs in node2's namespace"
run_driver TESTS=seqread ITERATIONS=1 ATIO_OPTS=--allow-memory-fs "${HOSTS[@]}"
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

# --- A packaged atio: node1 has this atio on its login PATH (a directory
# of its own there, sshd-harness.sh's node_path_setup), node2 has none
# anywhere, node3 has on its PATH a fake of another version: a script
# answering "atio 0.0.9" to --version, noting every call, failing anything
# else. node1 runs its packaged atio and gets no copy; node2 and node3 get
# one in REMOTE_BINARIES_PATH and run it; the notes and the -o document say
# which atio each node used.
for i in 1 2 3; do
	find "$(node_dir "$i")/bin" -mindepth 1 -delete
done
what="packaged atio"
if ! node_path_setup 1 2>"$WORK/why" || ! node_path_setup 3 2>"$WORK/why"; then
	skip_check "$what: node1's and node3's PATH atio" "$(cat "$WORK/why")"
else
	PKG1=${NODE_PATH_DIR[1]}/atio PKG3=${NODE_PATH_DIR[3]}/atio
	cp "$LOCAL_ATIO" "$(node_dir 1)/path/atio"
	fake=$(node_dir 3)/path/atio
	cat >"$fake" <<'EOF2'
#!/bin/sh
printf '%s\n' "$*" >>"$(dirname "$0")/calls"
case $1 in
--version | -V) echo "atio 0.0.9"; exit 0 ;;
esac
echo "fake atio: called with $*" >&2
exit 1
EOF2
	chmod 755 "$fake"
	cp "$fake" "$WORK/fake.orig"
	found="node1: $(node_which 1 atio); node2: $(node_which 2 atio); node3: $(node_which 3 atio)"
	if [ "$found" != "node1: $PKG1; node2: ; node3: $PKG3" ]; then
		skip_check "$what: node1's and node3's PATH atio" \
			"the nodes' login shells do not find atio as planted (node1 $PKG1, node2 none, node3 $PKG3): $found"
	else
		run_driver TESTS=seqread ITERATIONS=1 -o "$WORK/pkg.json" "${HOSTS[@]}"
		echo "# node1 with a packaged atio, node2 with none, node3 with 0.0.9 on its PATH: $WALL_MS ms"
		expect_code "$what: exit 0" 0
		expect_complete_run "$what"
		if [ -z "$(listing "$(node_dir 1)/bin")" ]; then
			ok "$what: node1: nothing was copied to its REMOTE_BINARIES_PATH"
		else
			not_ok "$what: node1: nothing was copied to its REMOTE_BINARIES_PATH" \
				"node1's $REMOTE_BIN: $(listing "$(node_dir 1)/bin" | tr '\n' ' ')"
		fi
		if cmp -s "$LOCAL_ATIO" "$(node_dir 1)/path/atio"; then
			ok "$what: node1: its packaged atio was left as it was"
		else
			not_ok "$what: node1: its packaged atio was left as it was"
		fi
		for i in 2 3; do
			if cmp -s "$LOCAL_ATIO" "$(node_dir "$i")/bin/atio" &&
				[ "$(listing "$(node_dir "$i")/bin")" = ./atio ]; then
				ok "$what: node$i: this atio was copied to its REMOTE_BINARIES_PATH (and nothing else)"
			else
				not_ok "$what: node$i: this atio was copied to its REMOTE_BINARIES_PATH (and nothing else)" \
					"node$i's $REMOTE_BIN: $(listing "$(node_dir "$i")/bin" | tr '\n' ' ')"
			fi
		done
		if cmp -s "$WORK/fake.orig" "$fake"; then
			ok "$what: node3: its PATH atio (0.0.9) was left as it was"
		else
			not_ok "$what: node3: its PATH atio (0.0.9) was left as it was"
		fi
		# The fake was asked its version, and run with nothing else: the
		# runs on node3 used the copy.
		cp "$(node_dir 3)/path/calls" "$WORK/calls" 2>/dev/null || : >"$WORK/calls"
		if [ ! -s "$WORK/calls" ]; then
			not_ok "$what: node3: its PATH atio was asked its version" "it was never called"
		elif bad=$(grep -vxE -- '-V|--version' "$WORK/calls"); then
			not_ok "$what: node3: its PATH atio was asked its version, and run with nothing else" \
				"called with: $(head -n 3 <<<"$bad")"
		else
			ok "$what: node3: its PATH atio was asked its version, and run with nothing else ($(wc -l <"$WORK/calls") calls)"
		fi
		# Which atio each node used: in the -o document, and in the notes.
		got=$(doc_nodes "$WORK/pkg.json" | awk '{ print $1, $3 }' | tr '\n' ';')
		if [ "$got" = "node1 $PKG1;node2 $REMOTE_BIN/atio;node3 $REMOTE_BIN/atio;" ]; then
			ok "$what: -o FILE: .nodes[].atio is node1's $PKG1, node2's and node3's $REMOTE_BIN/atio"
		else
			not_ok "$what: -o FILE: .nodes[].atio is node1's $PKG1, node2's and node3's $REMOTE_BIN/atio" \
				"it says: $got"
		fi
		grep -E '^atio-parallel\.sh: node1: ' "$ERR" >"$WORK/note1" || true
		grep -E '^atio-parallel\.sh: node2: ' "$ERR" >"$WORK/note2" || true
		grep -E '^atio-parallel\.sh: node3: ' "$ERR" >"$WORK/note3" || true
		if grep -qF "$PKG1" "$WORK/note1" && ! grep -qF "$REMOTE_BIN" "$WORK/note1"; then
			ok "$what: a note says node1 uses $PKG1"
		else
			not_ok "$what: a note says node1 uses $PKG1 (and names no $REMOTE_BIN)" \
				"node1's lines on stderr: $(tr '\n' '|' <"$WORK/note1")"
		fi
		if grep -qF "$REMOTE_BIN/atio" "$WORK/note2"; then
			ok "$what: a note says node2 got $REMOTE_BIN/atio"
		else
			not_ok "$what: a note says node2 got $REMOTE_BIN/atio" \
				"node2's lines on stderr: $(tr '\n' '|' <"$WORK/note2")"
		fi
		if grep -F "$REMOTE_BIN/atio" "$WORK/note3" | grep -qF '0.0.9'; then
			ok "$what: a note says node3's PATH atio is 0.0.9 and node3 got $REMOTE_BIN/atio"
		else
			not_ok "$what: a note says node3's PATH atio is 0.0.9 and node3 got $REMOTE_BIN/atio" \
				"node3's lines on stderr: $(tr '\n' '|' <"$WORK/note3")"
		fi
	fi
fi
node_path_clear 1
node_path_clear 3

# --- node2's clock 30 s ahead: a fake date first on its login PATH adds
# 30 s to `date +%s.%N`, the driver's reading of a node's clock (and passes
# anything else to the real date). A warning names node2 and its offset,
# none names the others; the -o document has the offsets. The driver takes
# node2's instants as 30 s ahead (atio merge --clock-offset), so in its
# clock node2 began 30 s before the others: as a node whose clock is 30 s
# ahead would begin, had atio read the same clock as date. Every run is
# then NOT CONCURRENT and the exit status 1.
what="node2's clock 30 s ahead"
real_date=$(command -v date)
if ! node_path_setup 2 2>"$WORK/why"; then
	skip_check "$what" "$(cat "$WORK/why")"
else
	cat >"$(node_dir 2)/path/date" <<EOF2
#!/bin/sh
printf '%s\n' "\$*" >>"\$(dirname "\$0")/date.calls"
if [ "\$*" = '+%s.%N' ]; then
	$real_date +%s.%N | awk '{ printf "%.9f\n", \$1 + 30 }'
else
	exec $real_date "\$@"
fi
EOF2
	chmod 755 "$(node_dir 2)/path/date"
	d=$(ssh -F "$SSH_CONFIG" node2 'date +%s.%N' </dev/null 2>&1 || true)
	if ! awk -v r="$d" -v l="$("$real_date" +%s.%N)" 'BEGIN { exit !(r - l > 29 && r - l < 31) }'; then
		skip_check "$what" "node2's login shell does not run the fake date first ($(node_which 2 date), it prints $d)"
	else
		rm -f "$(node_dir 2)/path/date.calls"
		run_driver TESTS=seqread ITERATIONS=1 -o "$WORK/clock.json" "${HOSTS[@]}"
		echo "# node2's clock 30 s ahead: $WALL_MS ms"
		expect_code "$what: the runs not concurrent: exit 1" 1
		grep -iE 'warning' "$ERR" | grep -iE 'clock|offset' >"$WORK/clockwarn" || true
		if grep 'node2' "$WORK/clockwarn" | grep -qE '(^|[^0-9.])(29\.[5-9][0-9]*|30(\.[0-9]+)?)( ?s|[^0-9.])'; then
			ok "$what: a warning names node2 and its offset: $(grep -m 1 node2 "$WORK/clockwarn")"
		else
			not_ok "$what: a warning names node2 and its offset (about 30 s)" \
				"clock warnings: $(tr '\n' '|' <"$WORK/clockwarn")" \
				"the fake date was called with: $(sort "$(node_dir 2)/path/date.calls" 2>/dev/null | uniq -c | tr '\n' ' ')"
			show stderr "$ERR"
		fi
		expect_no_match "$what: no clock warning names node1 or node3" "$WORK/clockwarn" 'node[13]'
		got=$(doc_nodes "$WORK/clock.json" | awk '{ print $1, $2 }')
		if awk '$1 == "node2" && $2 > 29.5 && $2 < 30.5 { n++ } $1 ~ /^node[13]$/ && $2 > -0.5 && $2 < 0.5 { n++ }
			END { exit n != 3 }' <<<"$got"; then
			ok "$what: -o FILE: node2's clock_offset_sec is about 30, the others' about 0"
		else
			not_ok "$what: -o FILE: node2's clock_offset_sec is about 30, the others' about 0" \
				"it says: $(tr '\n' ' ' <<<"$got")"
		fi
		expect_count "$what: every run NOT CONCURRENT, by about 30 s" "$OUT" \
			'^Sum value on iteration 1 = \{ [0-9.]+ \} MB/s; \(NOT CONCURRENT: skew (29\.[5-9]|30\.[0-4])[0-9]* s\)$' 2
	fi
fi
node_path_clear 2

expect_no_ssh_leftovers "no ssh process is left after the runs"
if [ "$(node_atio_count)" -eq 0 ]; then
	ok "no atio is left running on any node"
else
	not_ok "no atio is left running on any node" "$(node_atio_count) still running"
fi

finish
