#!/bin/bash
# scripts/atio-parallel.sh with nodes whose login takes 12 s
# (sshd-harness.sh's SSHD_LOGIN_SLEEP: a ~/.bashrc that sleeps, as LDAP,
# PAM or a motd script do on real clusters). A slow node is slow, not
# failed: every node is a SUCCESS in every section, each node's clock is
# read (no warning that it could not be, a number in -o), every sum is
# complete and right, the exit status is 0, nothing on stderr is the
# shell's own error, and no ssh process of the driver is left.
#
# The run is bounded, not timed: a driver that logs in once per node
# needs about one login plus the runs (some 30 s here), one that logs in
# for every command about 13 logins (some 160 s); it gets 600 s.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

LOGIN=12
SSHD_LOGIN_SLEEP=$LOGIN
sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
DRIVER_TIMEOUT=600

# Shell errors that must never reach the driver's stderr (bash's messages
# under set -u and set -e, and of a descriptor closed under a job).
SHELL_ERRORS='(line [0-9]+: |unbound variable|command not found|syntax error|[Bb]ad file descriptor)'

# --- The node's login is slow: check that the profile took (a login now
# takes at least LOGIN seconds), so that a pass means something.
t0=$(now_ms)
ssh -F "$SSH_CONFIG" node1 true </dev/null
login_ms=$(($(now_ms) - t0))
if [ "$login_ms" -ge $((LOGIN * 1000)) ]; then
	ok "a login on node1 takes $login_ms ms (the profile sleeps $LOGIN s)"
else
	not_ok "a login on node1 takes $LOGIN s or more" "it took $login_ms ms"
fi

what="3 nodes with a $LOGIN s login"
run_driver TIME=2 ITERATIONS=2 TESTS=randread THREADS=1 FILE_SIZE=16M PAUSE=0 \
	"ATIO_OPTS=--rate 200" -o "$WORK/slow.json" "${HOSTS[@]}"
echo "# $what: the driver took $WALL_MS ms"
expect_code "$what: exit 0" 0
expect_no_match "$what: no shell error on stderr" "$ERR" "$SHELL_ERRORS"
expect_no_match "$what: no node is a FAILURE" "$OUT" '\[FAILURE\]'
for i in 1 2 3; do
	# Preparation, Loading, the warm-up and the two runs each name it.
	n=$(count_lines "$OUT" "^\\[$i\\] [0-9:]{8} \\[SUCCESS\\] node$i\$")
	if [ "$n" -ge 4 ]; then
		ok "$what: node$i is a SUCCESS in every section ($n lines)"
	else
		not_ok "$what: node$i is a SUCCESS in every section" "$n SUCCESS lines, 4 or more expected" \
			"command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
done

P=$WORK/parsed
parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
why=()
grep -q '^ERR ' "$P" && why+=("$(grep '^ERR ' "$P" | head -n 4)")
[ "$(count_lines "$P" '^SUM Random read\|1\|[12]\|.*\|1$')" -eq 2 ] ||
	why+=("$(count_lines "$P" '^SUM Random read\|1\|[12]\|.*\|1$') of the 2 random read sums are complete")
[ "$(count_lines "$P" '^NODE Random read\|1\|')" -eq 6 ] ||
	why+=("$(count_lines "$P" '^NODE Random read\|1\|') node results in the random read runs, 6 expected")
grep -qE '^AVG Random read\|1\|[0-9.]+\|IOPS$' "$P" || why+=("no average of the random read runs")
verdict "$what: both sums complete (3 of 3 nodes), each the sum of the values above it, and their average" \
	"$OUT" "$ERR"

# The clock of every node was read: a slow login is no reason not to.
expect_no_match "$what: no warning about a node's clock" "$ERR" 'warning: .*clock'
offsets=$(grep -oE '"clock_offset_sec":[^,}]*' "$WORK/slow.json" 2>/dev/null || true)
if [ "$(grep -cE ':-?[0-9]' <<<"$offsets")" -eq 3 ]; then
	ok "$what: -o gives the 3 nodes' clock offsets"
else
	not_ok "$what: -o gives the 3 nodes' clock offsets" "${offsets:-no clock_offset_sec in the document}"
fi
expect_match "$what: -o says exit status 0" "$WORK/slow.json" '"exit_status":0}$'
expect_no_ssh_leftovers "$what: no ssh process of the driver is left"

finish
