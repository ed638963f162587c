#!/bin/bash
# scripts/atio-parallel.sh and what must not happen (sshd-harness.sh): a
# host name with shell metacharacters or a leading dash is refused (exit 2)
# before any connection and runs nothing; --dry-run prints each node's
# commands and connects to none; host keys are checked; a test path with
# shell metacharacters works and runs nothing; SIGINT in the middle of a run, to the
# driver alone or to its whole process group as Ctrl-C sends it, ends it
# with 130 and leaves no atio running on any node, even with a node that
# has stopped answering, and no ssh process of the driver; a run that
# overruns its time by OVERRUN is stopped on every node.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
PWNED=$WORK/pwned

# --- Hostile host names: refused with exit 2, no login on any node, and
# the command they carry never runs.
HOSTILE=(
	"node1;touch $PWNED"
	"node1 && touch $PWNED"
	"\$(touch $PWNED)"
	"\`touch $PWNED\`"
	"node1|touch $PWNED"
	"-oProxyCommand=touch $PWNED"
	"node1'\"\$(touch $PWNED)"
)
refused() {
	local what=$1 logins=$2

	expect_code "$what: refused with exit 2" 2
	if [ -e "$PWNED" ]; then
		not_ok "$what: the command in it did not run" "$PWNED exists"
		rm -f "$PWNED"
	else
		ok "$what: the command in it did not run"
	fi
	if [ "$(all_logins)" -eq "$logins" ]; then
		ok "$what: no node was connected to"
	else
		not_ok "$what: no node was connected to" "$(($(all_logins) - logins)) logins"
	fi
}
for h in "${HOSTILE[@]}"; do
	logins=$(all_logins)
	# A host after a good one: the name is never taken for an option.
	run_driver -- node1 "$h"
	refused "host name '$h' on the command line" "$logins"
	printf '# hosts\nnode2\n%s\n' "$h" >"$WORK/hosts"
	run_driver -h "$WORK/hosts"
	refused "host name '$h' in a -h file" "$logins"
done

# --- ATIO_OPTS that clash with what the driver adds at launch (--json,
# --start-at -): refused before any node is touched, naming atio's reason.
logins=$(all_logins)
run_driver --atio-opts "--start-at 1900000000" node1
expect_code "ATIO_OPTS with --start-at: refused with exit 2" 2
expect_match "ATIO_OPTS with --start-at: atio's reason is given" "$ERR" \
	"atio refuses the options of .*--start-at given twice"
if [ "$(all_logins)" -eq "$logins" ]; then
	ok "ATIO_OPTS with --start-at: no node was connected to"
else
	not_ok "ATIO_OPTS with --start-at: no node was connected to" "$(($(all_logins) - logins)) logins"
fi

# --- A test path with a control character (a tab) is refused before any
# node is touched; UTF-8 letters are not control characters (below).
logins=$(all_logins)
run_driver TESTS=seqread REMOTE_PCS_MOUNT_PATH="$REMOTE_DATA/a"$'\t'"b" node1
expect_code "a test path with a tab: refused with exit 2" 2
expect_match "a test path with a tab: said" "$ERR" 'REMOTE_PCS_MOUNT_PATH \(-d\): control characters in the path'
if [ "$(all_logins)" -eq "$logins" ]; then
	ok "a test path with a tab: no node was connected to"
else
	not_ok "a test path with a tab: no node was connected to" "$(($(all_logins) - logins)) logins"
fi

# --- --dry-run: node9 has no sshd; the commands for each node are printed,
# nothing connects, nothing is copied. A -h file with a comment, a blank
# line and user@host.
rm -f "$(node_dir 1)/bin/atio"
printf '# the nodes\nnode1\n\nroot@node9\n# node7\n' >"$WORK/hosts"
logins=$(all_logins)
run_driver --dry-run -h "$WORK/hosts"
what="--dry-run with node1 and root@node9 (no sshd)"
expect_code "$what: exit 0" 0
cat "$OUT" "$ERR" >"$WORK/both"
# block HOST: the lines the dry run printed for HOST, from its "[i] HOST"
# line to the next node's.
block() {
	awk -v h="$1" '/^\[[0-9]+\] / { on = ($2 == h) && NF == 2; next } on' "$OUT"
}
for h in node1 root@node9; do
	block "$h" >"$WORK/block"
	expect_match "$what: $h: its atio commands, on the test path" "$WORK/block" \
		"$REMOTE_BIN/atio'? .*-f '?$REMOTE_DATA"
	expect_match "$what: $h: the seqread command" "$WORK/block" "atio'? --read --seq -s 16M --mbs -p 1 -t 1 "
	expect_match "$what: $h: the randwrite command" "$WORK/block" "atio'? --fdatasync --rand -s 4K --iops -p 1 -t 1 "
done
expect_no_match "$what: the commented-out node7 is no host" "$WORK/both" 'node7'
if [ "$(all_logins)" -eq "$logins" ]; then
	ok "$what: no node was connected to"
else
	not_ok "$what: no node was connected to" "$(($(all_logins) - logins)) logins"
fi
if [ ! -e "$(node_dir 1)/bin/atio" ]; then
	ok "$what: atio was not copied"
else
	not_ok "$what: atio was not copied" "node1 has $REMOTE_BIN/atio"
fi

# --- Host keys are checked: with an ssh_config that leaves host-key
# checking at ssh's default and a known_hosts without the nodes' keys, no
# node is logged into and no key is added.
: >"$WORK/ssh/known_hosts.none"
sed -e '/StrictHostKeyChecking/d' -e "s|$WORK/ssh/known_hosts\$|$WORK/ssh/known_hosts.none|" \
	"$SSH_CONFIG" >"$SSH_CONFIG.nokeys"
grep -q 'known_hosts.none' "$SSH_CONFIG.nokeys" || die "cannot make $SSH_CONFIG.nokeys"
logins=$(all_logins)
run_driver "SSH_OPTS=-F $SSH_CONFIG.nokeys" TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
what="nodes whose host keys are unknown"
expect_code "$what: exit 1" 1
expect_count "$what: [FAILURE] for each node" "$OUT" '^\[[1-3]\] [0-9:]{8} \[FAILURE\] node[1-3]$' 3
if [ "$(all_logins)" -eq "$logins" ]; then
	ok "$what: no node was logged into"
else
	not_ok "$what: no node was logged into" "$(($(all_logins) - logins)) logins"
fi
expect_empty "$what: no host key was added to known_hosts" "$WORK/ssh/known_hosts.none"

# --- A test path with blanks, quotes, command substitutions and UTF-8
# letters in it: it works, on every node, and nothing in it runs.
sub="a b;\$(touch $PWNED)\`touch $PWNED\`'\"x-d"$'\xc3\xa9'"j"$'\xc3\xa0'
for i in 1 2 3; do
	mkdir -p "$(node_dir "$i")/data/$sub"
done
run_driver TESTS=seqread ITERATIONS=1 REMOTE_PCS_MOUNT_PATH="$REMOTE_DATA/$sub" "${HOSTS[@]}"
echo "# a hostile test path: $WALL_MS ms"
what="a test path with blanks, quotes, \$(...), \`...\` and UTF-8"
expect_code "$what: exit 0" 0
if [ -e "$PWNED" ]; then
	not_ok "$what: nothing in it ran" "$PWNED exists"
	rm -f "$PWNED"
else
	ok "$what: nothing in it ran"
fi
for i in 1 2 3; do
	n=$(find "$(node_dir "$i")/data/$sub" -maxdepth 1 -type f | wc -l)
	if [ "$n" -ge 1 ]; then
		ok "$what: node$i's files are in that directory"
	else
		not_ok "$what: node$i's files are in that directory" "none there" "command: $LAST"
	fi
done

# --- SIGINT in the middle of a 30 s run. wait_running: the test section
# has begun and atio runs on every node (at most 60 s).
wait_running() {
	local t0 i n

	t0=$(now_ms)
	while kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 60000 ]; do
		if grep -q '^---=== Sequential read (1thr) ===---$' "$OUT"; then
			n=0
			for i in 1 2 3; do
				[ -z "$(node_procs "$i" atio)" ] || n=$((n + 1))
			done
			[ "$n" -lt 3 ] || return 0
		fi
		sleep 0.1
	done
	return 1
}

# interrupt WHAT TARGET: start a run, SIGINT TARGET (pid, or -pgid) once it
# runs on every node, and check how it ends.
interrupt() {
	local what=$1 target t0 left

	start_driver TIME=30 TESTS=seqread ITERATIONS=2 "${HOSTS[@]}"
	if ! wait_running; then
		not_ok "$what: the run started on every node" \
			"atio processes: node1 $(node_procs 1 atio | wc -l), node2 $(node_procs 2 atio | wc -l), node3 $(node_procs 3 atio | wc -l)" \
			"command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
		kill -KILL -- "-$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
		return 0
	fi
	sleep 1
	target=$PID
	[ "$2" = pid ] || target=-$PID
	kill -s INT -- "$target"
	# The stop is bounded by STOP_GRACE (10 s) and 3 s more for a node
	# to answer; it takes about a second (scripts/bench-parallel.sh).
	wait_exit 60
	if [ "$RC" = 130 ]; then
		ok "$what: exit 130, $WAITED_MS ms after SIGINT"
	else
		not_ok "$what: exit 130 within 60 s of SIGINT" \
			"exit $RC after $WAITED_MS ms (999: still running after 60 s, killed)" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
	t0=$(now_ms)
	while left=$(node_atio_count) && [ "$left" -ne 0 ] && [ $(($(now_ms) - t0)) -lt 5000 ]; do
		sleep 0.1
	done
	if [ "$left" -eq 0 ]; then
		ok "$what: no atio left on any node ($(($(now_ms) - t0)) ms after the driver ended)"
	else
		not_ok "$what: no atio left on any node 5 s after the driver ended" "$left still running"
		for i in 1 2 3; do
			mapfile -t left < <(node_procs "$i" atio)
			[ ${#left[@]} -eq 0 ] || kill -KILL "${left[@]}" 2>/dev/null || true
		done
	fi
	expect_no_ssh_leftovers "$what: no ssh process is left"
	kill -KILL -- "-$PID" 2>/dev/null || true
}
interrupt "SIGINT to the driver" pid
interrupt "Ctrl-C (SIGINT to the driver's process group)" group

# --- A run that overruns: each atio warms up 30 s (-w 30) before its 1 s
# test, and OVERRUN is 1 s, so every timed run (the warm-up run and
# Sequential read; the loading before them has no time limit) is still
# going OVERRUN s after its time and is stopped on every node: [FAILURE]
# for every node, no complete sum, a warning about the overrun, exit 1, no
# atio left on any node. Each run is over long before atio's own end (31 s
# after the start): within 20 s of its header, four times what it takes
# (the readiness of the nodes, START_MARGIN + TIME + OVERRUN, and a stop of
# about a second; scripts/bench-parallel.sh measures it).

# wait_line ERE SECONDS: wait until a line of $OUT matches ERE, while $PID
# runs; sets LINE_MS to the time it was seen (now_ms). Fails when $PID
# ended or the time ran out first.
wait_line() {
	local t0

	t0=$(now_ms)
	while [ $(($(now_ms) - t0)) -lt $(($2 * 1000)) ]; do
		if grep -qE -- "$1" "$OUT"; then
			LINE_MS=$(now_ms)
			return 0
		fi
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# nodes_running_atio: on how many nodes atio runs.
nodes_running_atio() {
	local i n=0

	for i in 1 2 3; do
		[ -z "$(node_procs "$i" atio)" ] || n=$((n + 1))
	done
	printf '%s\n' "$n"
}

what="a run overrunning TIME by OVERRUN"
start_driver TIME=1 OVERRUN=1 ATIO_OPTS="-w 30" TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
if ! wait_line '^---=== Warming \(1thr\) ===---$' 150; then
	not_ok "$what: the warm-up run began" "command: $LAST"
	show stdout "$OUT"
	show stderr "$ERR"
	kill -KILL -- "-$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
else
	t_warm=$LINE_MS
	# atio runs on every node, until the driver stops it.
	t0=$(now_ms)
	while n=$(nodes_running_atio) && [ "$n" -lt 3 ] && [ $(($(now_ms) - t0)) -lt 5000 ]; do
		sleep 0.1
	done
	if [ "$n" -eq 3 ]; then
		ok "$what: the warm-up run runs on every node"
	else
		not_ok "$what: the warm-up run runs on every node" "atio runs on $n of 3 nodes"
	fi
	if wait_line '^---=== Sequential read \(1thr\) ===---$' 45; then
		t_seq=$LINE_MS
		warm_ms=$((t_seq - t_warm))
	else
		t_seq=$(now_ms)
		warm_ms=none
	fi
	wait_exit 45
	end_ms=$(($(now_ms) - t_seq))
	if [ "$warm_ms" != none ] && [ "$warm_ms" -le 20000 ] && [ "$RC" != 999 ] && [ "$end_ms" -le 20000 ]; then
		ok "$what: each run stopped in time: the warm-up run over in $warm_ms ms, Sequential read and the driver in $end_ms ms"
	else
		not_ok "$what: each run stopped within 20 s, long before atio's own end" \
			"warm-up run: $warm_ms ms; Sequential read to the driver's end: $end_ms ms (driver exit $RC, 999: killed after 45 s)" \
			"command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
	expect_code "$what: exit 1" 1
	P=$WORK/parsed
	parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
	for i in 1 2 3; do
		n=$(count_lines "$P" "^FAIL node$i\|[1-9][0-9]*\|")
		if [ "$n" -eq 2 ]; then
			ok "$what: node$i: [FAILURE] with its reason in both runs"
		else
			not_ok "$what: node$i: [FAILURE] with its reason in both runs" \
				"$n [FAILURE] node$i blocks with a reason, expected 2" "command: $LAST"
			show stdout "$OUT"
		fi
	done
	n=$(count_lines "$OUT" '^    stopped: the run overran its time by 1 s \(atio exit 130\)$')
	if [ "$n" -eq 6 ]; then
		ok "$what: each node's FAILURE says the run overran, in both runs"
	else
		not_ok "$what: each node's FAILURE says the run overran, in both runs" \
			"$n such lines, expected 6" "command: $LAST"
	fi
	n=$(count_lines "$OUT" '^Sum value on iteration 1 = \{ 0\.00000 \} MB/s; \(INCOMPLETE: 0 of 3 nodes\)$')
	if [ "$n" -eq 2 ] && [ "$(count_lines "$P" '^NODE ')" -eq 0 ] && ! grep -q '^ERR ' "$P"; then
		ok "$what: no result from any node, both sums (INCOMPLETE: 0 of 3 nodes)"
	else
		not_ok "$what: no result from any node, both sums (INCOMPLETE: 0 of 3 nodes)" \
			"$n such sums, $(count_lines "$P" '^NODE ') node results" "$(grep '^ERR ' "$P" | head -n 3)"
		show stdout "$OUT"
	fi
	expect_count "$what: a warning about the overrun for each of the 2 runs" "$ERR" \
		'warning: .*overr(an|un)' 2
	t0=$(now_ms)
	while nleft=$(node_atio_count) && [ "$nleft" -ne 0 ] && [ $(($(now_ms) - t0)) -lt 3000 ]; do
		sleep 0.1
	done
	if [ "$nleft" -eq 0 ]; then
		ok "$what: no atio left on any node ($(($(now_ms) - t0)) ms after the driver ended)"
	else
		not_ok "$what: no atio left on any node 3 s after the driver ended" "$nleft still running:" \
			"$(for i in 1 2 3; do node_procs "$i" atio; done | xargs -r ps -o pid=,args= -p | cut -c 1-150)"
		for i in 1 2 3; do
			mapfile -t pids < <(node_procs "$i" atio)
			[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
		done
	fi
	expect_no_ssh_leftovers "$what: no ssh process is left"
	kill -KILL -- "-$PID" 2>/dev/null || true
fi

# --- SIGINT while node2 is frozen: every process in its namespace (sshd,
# the session, atio) stopped with SIGSTOP, as a machine that hangs, and
# ssh's keepalive set to a minute (SSH_OPTS), so that only the driver can
# notice in time. The driver stops atio on node1 and node3, gives node2
# STOP_GRACE (10 s) + 3 s to answer and its job 2 s more, gives up on it,
# and at exit gives its cleanup 3 s: about 20 s, 90 s allowed. Exit 130,
# node2 a FAILURE saying it did not answer, no atio left on node1 and
# node3, and no ssh process of that driver (a client naming its
# ControlPath, or a connection master named after it) left: the stops
# started after SIGINT ignore SIGTERM as the driver then does.
what="SIGINT with node2 frozen"
start_driver "SSH_OPTS=-F $SSH_CONFIG -o ServerAliveInterval=60" TIME=30 TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
wdir=
if wait_running; then
	wdir=$(driver_workdir "-F $SSH_CONFIG -o ServerAliveInterval=60")
	mapfile -t FROZEN < <(node_procs 2)
fi
if [ -z "$wdir" ] || [ ${#FROZEN[@]} -eq 0 ]; then
	not_ok "$what: the run started on every node" "work directory: '$wdir'" "command: $LAST"
	show stdout "$OUT"
	FROZEN=()
else
	kill -STOP "${FROZEN[@]}"
	sleep 0.5
	kill -s INT "$PID"
	t_int=$(now_ms)
	expect_given_up "$what" 2 130 SIGINT "$t_int"
	t0=$(now_ms)
	while natio=$(($(node_procs 1 atio | wc -l) + $(node_procs 3 atio | wc -l))) && [ "$natio" -ne 0 ] &&
		[ $(($(now_ms) - t0)) -lt 5000 ]; do
		sleep 0.1
	done
	if [ "$natio" -eq 0 ]; then
		ok "$what: no atio left on node1 and node3"
	else
		not_ok "$what: no atio left on node1 and node3 5 s after the driver ended" "$natio still running"
	fi
	expect_no_driver_procs "$what: no ssh process of the driver is left" "$wdir"
fi
kill -KILL -- "-$PID" 2>/dev/null || true
thaw

finish
