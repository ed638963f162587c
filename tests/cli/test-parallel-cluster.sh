#!/bin/bash
# scripts/atio-parallel.sh at cluster scale, against three real sshd nodes
# (sshd-harness.sh): a REMOTE_BINARIES_PATH missing on the nodes is
# created, or the node fails naming the path and why; a node whose atio
# starts late (held back by a wrapper) makes its iteration NOT CONCURRENT,
# kept out of the average, exit 1; the start and end skew of every
# iteration are printed; a node that stops answering mid-run (frozen) or
# whose sshd is killed is a FAILURE within a bounded time, never a hang,
# and no ssh process of the driver outlives it.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
P=$WORK/parsed

# --- REMOTE_BINARIES_PATH missing on every node: created, atio copied
# into it, the run complete.
what="a REMOTE_BINARIES_PATH that does not exist on the nodes"
run_driver TESTS=seqread ITERATIONS=1 REMOTE_BINARIES_PATH="$REMOTE_BIN/new/dir" "${HOSTS[@]}"
expect_code "$what: exit 0" 0
for i in 1 2 3; do
	if cmp -s "$LOCAL_ATIO" "$(node_dir "$i")/bin/new/dir/atio"; then
		ok "$what: node$i: created, and atio copied into it"
	else
		not_ok "$what: node$i: created, and atio copied into it" \
			"$(listing "$(node_dir "$i")/bin" | tr '\n' ' ')" "command: $LAST"
		show stderr "$ERR"
	fi
done
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
expect_count "$what: one complete Sequential read sum" "$P" '^SUM Sequential read\|1\|1\|[0-9.]+\|MB/s\|1$' 1

# --- One that cannot be created (a file is where a directory would go):
# every node fails, naming the path and why; nothing runs; exit 1.
what="a REMOTE_BINARIES_PATH that cannot be created"
for i in 1 2 3; do
	: >"$(node_dir "$i")/bin/afile"
done
run_driver TESTS=seqread ITERATIONS=1 REMOTE_BINARIES_PATH="$REMOTE_BIN/afile/dir" "${HOSTS[@]}"
expect_code "$what: exit 1" 1
expect_count "$what: [FAILURE] for each node" "$OUT" '^\[[1-3]\] [0-9:]{8} \[FAILURE\] node[1-3]$' 3
expect_count "$what: each node's failure names the path and why" "$OUT" \
	"cannot create REMOTE_BINARIES_PATH $REMOTE_BIN/afile/dir there \\(mkdir -p exit [0-9]+\\)" 3
expect_count "$what: mkdir's own reason is shown" "$OUT" 'mkdir: .*Not a directory' 3
expect_match "$what: the driver says preparation failed" "$ERR" 'preparation failed: no usable atio on 3 of 3 nodes'
expect_no_match "$what: nothing ran" "$OUT" '^(---===|Sum value)'
for i in 1 2 3; do
	rm -f "$(node_dir "$i")/bin/afile"
done

# --- A node held back: node3's atio is a wrapper that hands its atio the
# start instant plus 3 s, so node3 starts 3 s after the others: a start
# skew of 3 s, 6 times MAX_SKEW (50% of TIME = 0.5 s, as driver_setup sets
# it). The iteration is NOT CONCURRENT, out of the average, and the exit
# status is 1; with MAX_SKEW=1000 (10 s) it is concurrent.
b=$(node_dir 3)/bin
rm -f "$b/atio"
cp "$LOCAL_ATIO" "$b/atio.real"
cat >"$b/atio" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
case " $* " in
*" --start-at - "*) ;;
*) exec "$d/atio.real" "$@" ;;
esac
{
	read -r t && awk -v t="$t" 'BEGIN { printf "%.6f\n", t + 3 }'
} | "$d/atio.real" "$@"
EOF
chmod 755 "$b/atio"
what="node3 held back 3 s"
run_driver TESTS=seqread ITERATIONS=2 "${HOSTS[@]}"
expect_code "$what: exit 1" 1
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
if grep -q '^ERR ' "$P"; then
	not_ok "$what: the sums and averages add up" "$(grep '^ERR ' "$P" | head -n 5)"
else
	ok "$what: the sums and averages add up"
fi
n=$(count_lines "$P" '^NOTCONC Sequential read\|1\|[12]\|(2\.[5-9]|3\.[0-9]|4\.[0-4])[0-9]*$')
if [ "$n" -eq 2 ]; then
	ok "$what: both Sequential read iterations NOT CONCURRENT, with a skew of about 3 s"
else
	not_ok "$what: both Sequential read iterations NOT CONCURRENT, with a skew of about 3 s" \
		"$(grep -E '^(NOTCONC|SUM) ' "$P")" "command: $LAST"
	show stdout "$OUT"
fi
expect_match "$what: the warm-up is NOT CONCURRENT too" "$P" '^NOTCONC Warming\|1\|1\|'
expect_count "$what: no average of NOT CONCURRENT sums" "$OUT" \
	'^---=== Average value: none, no complete iteration \(0 of [12]\) ===---$' 2
expect_count "$what: start and end skew on every iteration" "$OUT" \
	'^start skew: (2\.[5-9]|3\.[0-9]|4\.[0-4])[0-9]{2,3} s over 3 nodes \(last start (2\.[5-9]|3\.[0-9]|4\.[0-4])[0-9]{2,3} s after the agreed instant\); end skew: [0-9]+\.[0-9]{4} s$' 3
what="node3 held back 3 s, MAX_SKEW=1000"
run_driver TESTS=seqread ITERATIONS=1 MAX_SKEW=1000 "${HOSTS[@]}"
expect_code "$what: exit 0" 0
expect_no_match "$what: no NOT CONCURRENT" "$OUT" 'NOT CONCURRENT'
# With TIME=10 the limit is 5 s: Sequential read is concurrent, the 1 s
# warm-up (limit 0.5 s) is not, and a warm-up measures nothing: exit 0.
what="node3 held back 3 s, TIME=10"
run_driver TIME=10 TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
expect_code "$what: exit 0" 0
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
expect_match "$what: the warm-up is NOT CONCURRENT" "$P" '^NOTCONC Warming\|1\|1\|'
expect_no_match "$what: Sequential read is concurrent" "$P" '^NOTCONC Sequential read'
expect_match "$what: its sum counts in the average" "$P" '^SUM Sequential read\|1\|1\|[0-9.]+\|MB/s\|1$'
rm -f "$b/atio" "$b/atio.real"
cp "$LOCAL_ATIO" "$b/atio"

# --- Together, with no wrapper: skew within MAX_SKEW, every start and end
# skew printed and below TIME.
what="three nodes started at one instant"
run_driver TESTS=seqread ITERATIONS=2 "${HOSTS[@]}"
expect_code "$what: exit 0" 0
expect_no_match "$what: no NOT CONCURRENT" "$OUT" 'NOT CONCURRENT'
expect_count "$what: start and end skew on every iteration, below a second" "$OUT" \
	'^start skew: 0\.[0-9]{4} s over 3 nodes \(last start -?[0-9]+\.[0-9]{4} s after the agreed instant\); end skew: 0\.[0-9]{4} s$' 3

# --- node2 frozen mid-run: every process in its namespace (sshd, the
# session, atio) stopped with SIGSTOP, as a machine that hangs: its TCP
# connection stays open and nothing on it answers. ssh's keepalive is set
# to a minute (SSH_OPTS), so that only the driver can notice in time.
# The freeze must come between node2's ready line and the end of its run:
# a run of 10 s, for a test that finds node2's processes slowly on a busy
# machine (a run of 1 s could end first). At the overrun deadline (TIME +
# OVERRUN, 11 s) the driver stops atio on every node, gives node2
# STOP_GRACE (10 s) + 3 s to answer and its job 2 s more, gives up on it,
# and at exit gives its cleanup 3 s: about 30 s from the freeze, 90 s
# allowed. node2 is a FAILURE saying it did not answer,
# the others complete, the sum is INCOMPLETE, exit 1, and no ssh process
# of that driver (a client naming its ControlPath, or a connection master
# named after it) is left: ending the job that waits for an ssh in a
# session of its own does not end that ssh.
what="node2 frozen mid-run"
start_driver "SSH_OPTS=-F $SSH_CONFIG -o ServerAliveInterval=60" TIME=10 OVERRUN=1 \
	TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
wait_node_run '---=== Sequential read (1thr) ===---' 2
wdir=$(driver_workdir "-F $SSH_CONFIG -o ServerAliveInterval=60")
# Frozen before its ready line, node2 would be waited for (READY_TIMEOUT),
# not stopped: on a busy machine its atio can take seconds to get there.
ready=0
[ -z "$wdir" ] || ! wait_node_ready "$wdir" 2 || ready=1
sleep 0.5
mapfile -t FROZEN < <(node_procs 2)
if [ -z "$(node_procs 2 atio)" ] || [ "$ready" = 0 ] || [ ${#FROZEN[@]} -eq 0 ]; then
	not_ok "$what: the run started on node2" "work directory: '$wdir', node2 ready: $ready" "command: $LAST"
	show stdout "$OUT"
	kill -KILL -- "-$PID" 2>/dev/null || true
	FROZEN=()
else
	kill -STOP "${FROZEN[@]}"
	t_freeze=$(now_ms)
	expect_given_up "$what" 2 1 "the freeze" "$t_freeze"
	sed -n '/^---=== Sequential read (1thr) ===---$/,$p' "$OUT" >"$WORK/run"
	expect_count "$what: node1 and node3 succeeded in that run" "$WORK/run" '^\[[13]\] [0-9:]{8} \[SUCCESS\] node[13]$' 2
	expect_match "$what: the sum is INCOMPLETE: 2 of 3 nodes" "$WORK/run" \
		'^Sum value on iteration 1 = \{ [0-9]+\.[0-9]{5} \} MB/s; \(INCOMPLETE: 2 of 3 nodes\)$'
	expect_no_driver_procs "$what: no ssh process of the driver is left" "$wdir"
fi
kill -KILL -- "-$PID" 2>/dev/null || true
thaw

# --- node2's sshd (the daemon and its sessions) killed while a 20 s run
# goes: node2 is a FAILURE saying the connection was lost, the others
# complete, the sum INCOMPLETE, exit 1, and the driver ends well within
# TIME + OVERRUN (60 s).
what="node2's sshd killed mid-run"
start_driver TIME=20 TESTS=seqread ITERATIONS=1 "${HOSTS[@]}"
wait_node_run '---=== Sequential read (1thr) ===---' 2
sleep 2
mapfile -t pids < <(node_procs 2 sshd)
if [ -z "$(node_procs 2 atio)" ] || [ ${#pids[@]} -eq 0 ]; then
	not_ok "$what: the run started on node2" "command: $LAST"
	show stdout "$OUT"
	kill -KILL -- "-$PID" 2>/dev/null || true
else
	kill -KILL "${pids[@]}"
	t_kill=$(now_ms)
	wait_exit 90
	if [ "$RC" = 1 ]; then
		ok "$what: the driver ended with exit 1, $(($(now_ms) - t_kill)) ms after the kill"
	else
		not_ok "$what: the driver ended with exit 1 within 90 s of the kill" \
			"exit $RC (999: still running after 90 s, killed)" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
	expect_match "$what: node2 is a FAILURE" "$OUT" '^\[2\] [0-9:]{8} \[FAILURE\] node2$'
	expect_match "$what: its reason: the connection was lost" "$OUT" '^    ssh failed \(exit 255\): the connection to the node was lost'
	sed -n '/^---=== Sequential read (1thr) ===---$/,$p' "$OUT" >"$WORK/run"
	expect_count "$what: node1 and node3 succeeded in that run" "$WORK/run" '^\[[13]\] [0-9:]{8} \[SUCCESS\] node[13]$' 2
	expect_match "$what: the sum is INCOMPLETE: 2 of 3 nodes" "$OUT" \
		'^Sum value on iteration 1 = \{ [0-9]+\.[0-9]{5} \} MB/s; \(INCOMPLETE: 2 of 3 nodes\)$'
fi
kill -KILL -- "-$PID" 2>/dev/null || true

finish
