#!/bin/bash
# scripts/atio-parallel.sh with a node that dies at each step of a run
# (sshd-harness.sh): one node of two fails there, and the driver ends
# (within the bound of the case), with no shell error on its stderr, the
# failing node's FAILURE line followed by an indented reason that names
# what happened, the other node a SUCCESS wherever it is named, exit
# status 1, and no ssh process of the driver left.
#
# What fails, and the words its reason must hold (grep -Ei; any one of
# them, so that the wording may change):
#   connecting, no sshd at the address (node9)          connect
#   connecting, the node's sshd frozen (no banner)      connect|answer
#   logging in, the login shell never ends              answer
#   identifying (a `uname` that hangs), connection lost lost
#   reading the clock (a `date` that hangs), lost       lost|clock, or no
#       FAILURE but a warning naming node2's clock (exit 0 then)
#   checking atio (an atio whose --version hangs), lost lost
#   Loading, atio exits 3                               exit ... 3
#   Loading, atio killed (SIGKILL)                      killed
#   warm-up, atio never ready (READY_TIMEOUT=5)         ready|answer
#   waiting for the start instant, atio killed          killed
#   the measured run, the connection lost               lost
#   the same with an ssh slow to exit, then no connection  lost, then
#       "could not connect", ssh's status in each
#   the stop after an overrun, atio does not obey       killed
#   the stop after an overrun, the connection lost      lost|killed|answer
#
# How: node2 has a directory of its own first on its login PATH
# (node_path_setup) holding the fake command of a case, and an atio there
# that is the real one with a note of each call and of its stderr (so
# that the test sees "atio: ready:"), which the driver runs since it is
# this atio's version; a file ACT makes it, once, exit 3 or stop itself
# (SIGSTOP) before it starts. A connection is lost when the test kills
# node2's session processes (node_sessions), a node answers nothing when
# they are stopped. Each case is bounded (120 s), never timed; a login that
# never ends is the one step a driver can only give up on by a deadline of
# its own (LOGIN_TIMEOUT, here LOGIN_BOUND). DIE_CASES=ERE runs only the cases whose names
# match ERE (all by default).
# shellcheck disable=SC2317 # the conditions wait_for polls are called through it
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

# A login profile that does nothing until a case makes node2's login hang.
SSHD_LOGIN_SLEEP=0
sshd_start 2
driver_setup
node_path_setup 2 || die "cannot give node2 a directory of its own on its PATH"
FAKES=$(node_dir 2)/path
D=$WORK/node2-atio
mkdir -p "$D"
RUN=(TIME=1 ITERATIONS=1 TESTS=randread THREADS=1 FILE_SIZE=16M PAUSE=0)
# The two cases that end by the driver's own login deadline (a node that
# never answers) set it to 20 s rather than 120: long enough for node1's
# login on a busy machine, short enough that they do not wait 2 minutes each.
LOGIN_BOUND=20
BOUND=120

# Shell errors that must never reach the driver's stderr (bash's messages
# under set -u and set -e, and of a descriptor closed under a job).
SHELL_ERRORS='(line [0-9]+: |unbound variable|command not found|syntax error|[Bb]ad file descriptor)'

# node2's atio: the real one ($LOCAL_ATIO), each call noted in $D/calls
# and its stderr copied to $D/err; $D/act (read once, then removed) makes
# the Loading ("load": no --start-at) or a run ("run") exit 3 ("exit
# KIND") or stop itself ("stop KIND"), or --version hang ("hang
# version").
cat >"$FAKES/atio" <<EOF
#!/bin/bash
printf '%s\\n' "\$*" >>$D/calls
kind=load
case " \$* " in
*" --version "*) kind=version ;;
*" --start-at "*) kind=run ;;
esac
# Its pid is atio's once it runs atio (exec).
[ "\$kind" = version ] || echo \$\$ >$D/pid
act=
[ ! -e $D/act ] || read -r act <$D/act
case \$act in
"exit \$kind") rm -f $D/act; echo "atio: made to fail by the test" >&2; exit 3 ;;
"stop \$kind") rm -f $D/act; kill -STOP \$\$ ;;
"hang \$kind") rm -f $D/act; exec sleep 100000 ;;
esac
[ "\$kind" = version ] || exec 2> >(exec tee -a $D/err >&2)
exec $LOCAL_ATIO "\$@"
EOF
chmod 755 "$FAKES/atio"
[ "$(node_which 2 atio)" = "${NODE_PATH_DIR[2]}/atio" ] || die "node2's login PATH does not find its own atio first"

# fake_hang NAME: node2's NAME notes its call in $D/NAME.calls and hangs.
fake_hang() {
	cat >"$FAKES/$1" <<EOF
#!/bin/sh
printf '%s\\n' "\$0 \$*" >>$D/$1.calls
exec sleep 100000
EOF
	chmod 755 "$FAKES/$1"
}

# want WHAT: case WHAT is one to run: all of them, or those whose name
# matches the ERE in DIE_CASES.
want() {
	[[ $1 =~ ${DIE_CASES:-.} ]]
}

# wait_for SECONDS COMMAND...: poll COMMAND until it succeeds, SECONDS at
# most and while the driver ($PID) runs; false when it did not.
wait_for() {
	local limit=$(($1 * 1000)) t0

	shift
	t0=$(now_ms)
	while ! "$@"; do
		kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt "$limit" ] || return 1
		sleep 0.1
	done
}

# called NAME: node2's fake NAME was called.
called() {
	[ -s "$D/$1.calls" ]
}

# readies N: node2's atio has said "atio: ready:" N times or more.
readies() {
	[ -e "$D/err" ] && [ "$(count_lines "$D/err" '^atio: ready:')" -ge "$1" ]
}

# atio_pid: node2's atio of the last run (or Loading) while it runs: its
# wrapper noted its pid, which is atio's once it runs it. (A look through
# /proc for it takes seconds on a busy machine.)
atio_pid() {
	local p=

	[ ! -r "$D/pid" ] || read -r p <"$D/pid" || true
	[ -z "$p" ] || ! kill -0 "$p" 2>/dev/null || echo "$p"
}

# atio_up: node2 runs an atio.
atio_up() {
	[ -n "$(atio_pid)" ]
}

# wrapper_stopped: node2's atio wrapper has stopped itself.
wrapper_stopped() {
	local p

	p=$(atio_pid)
	[ -n "$p" ] && [ "$(awk '/^State:/ { print $2 }' "/proc/$p/status" 2>/dev/null)" = T ]
}

# cpu_ticks PID: the CPU time process PID has used, in clock ticks.
cpu_ticks() {
	[ -n "$1" ] || { echo 0; return 0; }
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# running PID TICKS: process PID has used more than TICKS + 10 ticks of
# CPU: its threads do I/O, the measured run has started.
running() {
	[ "$(cpu_ticks "$1")" -gt $(($2 + 10)) ]
}

# sigint_pending PID: process PID has a SIGINT pending (it is stopped, and
# the driver's stop has sent it one).
sigint_pending() {
	local k v

	while read -r k v; do
		case $k in
		ShdPnd: | SigPnd:) [ $((0x$v & 2)) = 0 ] || return 0 ;;
		esac
	done <"/proc/$1/status" 2>/dev/null
	return 1
}

# kill_sessions SIGNAL: send SIGNAL to node2's session processes.
kill_sessions() {
	local pids=()

	mapfile -t pids < <(node_sessions 2)
	[ ${#pids[@]} -eq 0 ] || kill "-$1" "${pids[@]}" 2>/dev/null || true
}

# expect_failure WHAT HOST KEYS [RC]: the driver ended, with exit RC (1),
# no shell error on stderr, HOST a FAILURE whose first reason matches
# KEYS and each FAILURE of HOST with a reason, the other host a SUCCESS
# and never a FAILURE, and no ssh process of the driver left.
expect_failure() {
	local what=$1 host=$2 keys=$3 want=${4:-1} h P=$WORK/parsed fails=() f n text

	if [ "$RC" = 999 ]; then
		not_ok "$what: the driver ends within $BOUND s" "still running, killed" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	else
		ok "$what: the driver ends ($WAITED_MS ms)"
		expect_code "$what: exit $want" "$want"
	fi
	expect_no_match "$what: no shell error on stderr" "$ERR" "$SHELL_ERRORS"
	parse_driver_output "$OUT" "node1 $host" >"$P"
	mapfile -t fails < <(grep "^FAIL $host|" "$P" || true)
	if [ ${#fails[@]} -eq 0 ]; then
		not_ok "$what: $host is a FAILURE" "command: $LAST"
		show stdout "$OUT"
	else
		ok "$what: $host is a FAILURE"
		IFS='|' read -r _ n text <<<"${fails[0]}"
		if [ "$n" -gt 0 ] && grep -Eiq -- "$keys" <<<"$text"; then
			ok "$what: the reason under it says so ($keys): $text"
		else
			not_ok "$what: the reason under it says so ($keys)" "reason: ${text:-(none)}" "command: $LAST"
			show stdout "$OUT"
			show stderr "$ERR"
		fi
		n=0
		for f in "${fails[@]}"; do
			IFS='|' read -r _ f _ <<<"$f"
			[ "$f" -gt 0 ] || n=$((n + 1))
		done
		if [ "$n" = 0 ]; then
			ok "$what: each of its ${#fails[@]} FAILURE lines has a reason"
		else
			not_ok "$what: each of its ${#fails[@]} FAILURE lines has a reason" "$n have none"
		fi
	fi
	h=node1
	if grep -qE "^\\[[0-9]+\\] [0-9:]{8} \\[SUCCESS\\] $h\$" "$OUT" &&
		! grep -qE "\\[FAILURE\\] $h\$" "$OUT"; then
		ok "$what: $h is a SUCCESS, never a FAILURE"
	else
		not_ok "$what: $h is a SUCCESS, never a FAILURE" "command: $LAST"
		show stdout "$OUT"
	fi
	[ "$RC" = 999 ] || expect_no_ssh_leftovers "$what: no ssh process of the driver is left"
}

# not_reached WHAT STEP: the driver did not get to STEP on node2.
not_reached() {
	not_ok "$1: the driver reaches $2 on node2" "command: $LAST"
	show stdout "$OUT"
	show stderr "$ERR"
}

# reset: end what is left of the case: the driver, its ssh clients, node2's
# sessions and fakes; node2's login quick again.
reset() {
	local pids=()

	kill -KILL -- "-$PID" 2>/dev/null || true
	thaw
	mapfile -t pids < <(ssh_leftovers)
	[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
	node_login_sleep 2 0
	kill_sessions KILL
	find "$FAKES" -mindepth 1 ! -name atio -delete
	rm -f "$D"/*
}

# --- Connecting: no sshd at node9's address.
what="connecting, no sshd"
if want "$what"; then
	start_driver "${RUN[@]}" node1 node9
	wait_exit "$BOUND"
	expect_failure "$what" node9 'connect'
	reset
fi

# --- Connecting: node2's sshd frozen, the connection is accepted by the
# kernel and nothing answers on it.
what="connecting, node2's sshd frozen"
if want "$what"; then
	FROZEN=("${NODE_PID[2]}")
	kill -STOP "${FROZEN[@]}"
	start_driver "${RUN[@]}" LOGIN_TIMEOUT="$LOGIN_BOUND" node1 node2
	wait_exit "$BOUND"
	thaw
	expect_failure "$what" node2 'connect|answer'
	reset
fi

# --- Logging in: node2's login shell never ends (connected, logged in,
# its command never starts).
what="logging in, node2's login never ends"
if want "$what"; then
	node_login_sleep 2 100000
	start_driver "${RUN[@]}" LOGIN_TIMEOUT="$LOGIN_BOUND" node1 node2
	wait_exit "$BOUND"
	expect_failure "$what" node2 'answer'
	reset
fi

# --- Identifying: node2's uname hangs, then its connection is lost.
what="identifying, node2's connection lost"
if want "$what"; then
	fake_hang uname
	start_driver "${RUN[@]}" node1 node2
	if wait_for 60 called uname; then
		kill_sessions KILL
		wait_exit "$BOUND"
		expect_failure "$what" node2 'lost'
	else
		wait_exit "$BOUND"
		if [ "$RC" = 0 ]; then
			skip_check "$what" "the driver runs no uname on the node"
		else
			not_reached "$what" "its identity (uname)"
		fi
	fi
	reset
fi

# --- Reading the clock: node2's date hangs, then its connection is lost.
# A FAILURE naming it, or (the node answers again on a new connection) a
# warning that its clock could not be read.
what="reading the clock, node2's connection lost"
if want "$what"; then
	fake_hang date
	start_driver "${RUN[@]}" node1 node2
	if wait_for 60 called date; then
		kill_sessions KILL
		wait_exit "$BOUND"
		if grep -q '\[FAILURE\] node2$' "$OUT"; then
			expect_failure "$what" node2 'lost|clock'
		else
			expect_code "$what: no FAILURE: exit 0" 0
			expect_match "$what: no FAILURE: a warning names node2's clock" "$ERR" 'warning: .*node2.*clock'
			expect_no_match "$what: no shell error on stderr" "$ERR" "$SHELL_ERRORS"
		fi
	else
		wait_exit "$BOUND"
		if [ "$RC" = 0 ]; then
			skip_check "$what" "the driver runs no date on the node"
		else
			not_reached "$what" "its clock (date)"
		fi
	fi
	reset
fi

# --- Checking atio: node2's atio --version hangs, then its connection is
# lost.
what="checking atio, node2's connection lost"
if want "$what"; then
	echo "hang version" >"$D/act"
	start_driver "${RUN[@]}" node1 node2
	if wait_for 60 test ! -e "$D/act"; then
		kill_sessions KILL
		wait_exit "$BOUND"
		expect_failure "$what" node2 'lost'
	else
		wait_exit "$BOUND"
		not_reached "$what" "its atio --version"
	fi
	reset
fi

# --- Loading: node2's atio exits 3.
what="Loading, node2's atio exits 3"
if want "$what"; then
	echo "exit load" >"$D/act"
	start_driver "${RUN[@]}" node1 node2
	wait_exit "$BOUND"
	if [ -e "$D/act" ]; then
		not_reached "$what" "Loading with its atio"
	else
		expect_failure "$what" node2 'exit[^0-9]*3'
	fi
	reset
fi

# --- Loading: node2's atio killed (SIGKILL; stopped first, so that it
# does not end before).
what="Loading, node2's atio killed"
if want "$what"; then
	echo "stop load" >"$D/act"
	start_driver "${RUN[@]}" node1 node2
	if wait_for 60 test ! -e "$D/act" && wait_for 10 wrapper_stopped; then
		kill -KILL "$(atio_pid)" 2>/dev/null || true
		wait_exit "$BOUND"
		expect_failure "$what" node2 'killed'
	else
		wait_exit "$BOUND"
		not_reached "$what" "Loading with its atio"
	fi
	reset
fi

# --- The warm-up: node2's atio never gets ready (it stops itself before
# it starts); READY_TIMEOUT 5 s.
what="waiting for ready, node2's atio never ready"
if want "$what"; then
	echo "stop run" >"$D/act"
	start_driver "${RUN[@]}" READY_TIMEOUT=5 OVERRUN=5 node1 node2
	wait_exit "$BOUND"
	if [ -e "$D/act" ]; then
		not_reached "$what" "a run with its atio"
	else
		expect_failure "$what" node2 'ready|answer'
	fi
	reset
fi

# --- Waiting for the start instant: node2's atio, ready in the random
# read run (its second ready line, after the warm-up's), killed. A start
# margin of 6 s leaves time to do it before the start on a busy machine.
what="waiting for the start instant, node2's atio killed"
if want "$what"; then
	start_driver "${RUN[@]}" START_MARGIN=6 node1 node2
	if wait_for 90 readies 2 && wait_for 10 atio_up; then
		kill -KILL "$(atio_pid)" 2>/dev/null || true
		wait_exit "$BOUND"
		expect_failure "$what" node2 'killed'
	else
		wait_exit "$BOUND"
		not_reached "$what" "the random read run's ready line"
	fi
	reset
fi

# start_run: once node2's atio is ready in the random read run and has
# used CPU since (it is running), set APID to it; false when that did not
# happen.
start_run() {
	wait_for 90 readies 2 && wait_for 10 atio_up || return 1
	APID=$(atio_pid)
	[ -n "$APID" ] || return 1
	t=$(cpu_ticks "$APID")
	wait_for 30 running "$APID" "$t"
}

# --- The measured run: node2's connection lost.
what="the measured run, node2's connection lost"
if want "$what"; then
	start_driver "${RUN[@]}" TIME=6 node1 node2
	if start_run; then
		kill_sessions KILL
		wait_exit "$BOUND"
		expect_failure "$what" node2 'lost'
	else
		wait_exit "$BOUND"
		not_reached "$what" "the random read run"
	fi
	reset
fi

# --- The measured run: node2's connection lost, and its ssh slow to exit
# after its output has ended, its own last words later still (as on a
# machine busy enough: node2's session goes through a wrapper of ssh that
# closes the ssh's output at once, exits with its status 3 s later, and
# passes on what ssh said itself, its -E log, 4 s later); then, in the
# second iteration, node2 cannot connect (its sshd frozen: no banner).
# Each iteration's reason says what happened, with ssh's status and, for
# the connection, ssh's words, whatever the time they took to come; a run
# that never reached node2 leaves no stray message.
what="the measured run, node2's connection lost, its ssh slow to exit; then no connection"
if want "$what"; then
	mkdir -p "$WORK/slow-ssh"
	cat >"$WORK/slow-ssh/ssh" <<EOF
#!/bin/bash
case " \$* " in
*" -- node2 exec /bin/sh -c "*) ;;
*) exec $(command -v ssh) "\$@" ;;
esac
log=$WORK/slow-ssh/log.\$\$
$(command -v ssh) -E "\$log" "\$@"
rc=\$?
exec >&- </dev/null
{ sleep 4; cat "\$log" >&2; rm -f "\$log"; } &
exec 2>&-
sleep 3
exit \$rc
EOF
	chmod 755 "$WORK/slow-ssh/ssh"
	start_driver "${RUN[@]}" TIME=6 ITERATIONS=2 PATH="$WORK/slow-ssh:$PATH" node1 node2
	if start_run; then
		FROZEN=("${NODE_PID[2]}")
		kill -STOP "${FROZEN[@]}"
		kill_sessions KILL
		wait_exit "$BOUND"
		thaw
		expect_failure "$what" node2 'lost'
		expect_match "$what: the first reason has ssh's status" "$OUT" \
			'^    ssh failed \(exit 255\): the connection to the node was lost'
		expect_match "$what: the second iteration's reason: no connection, with ssh's status and words" "$OUT" \
			'^    could not connect \(ssh exit 255\): .*banner exchange'
		expect_no_match "$what: no status unknown" "$OUT" 'ssh exit unknown'
		expect_no_match "$what: no stray message on stderr" "$ERR" 'No such file or directory'
	else
		wait_exit "$BOUND"
		not_reached "$what" "the random read run"
	fi
	reset
fi

# --- The stop after an overrun: node2's atio, stopped (SIGSTOP) in the
# run, cannot obey the driver's stop (OVERRUN 3 s).
what="the stop, node2's atio does not obey"
if want "$what"; then
	start_driver "${RUN[@]}" TIME=6 OVERRUN=3 node1 node2
	if start_run; then
		FROZEN=("$APID")
		kill -STOP "$APID" 2>/dev/null || true
		wait_exit "$BOUND"
		expect_failure "$what" node2 'killed'
	else
		wait_exit "$BOUND"
		not_reached "$what" "the random read run"
	fi
	reset
fi

# --- The stop after an overrun: node2's atio stopped in the run, and its
# connection lost once the driver's stop has reached it (a SIGINT pending
# on the stopped atio).
what="the stop, node2's connection lost"
if want "$what"; then
	start_driver "${RUN[@]}" TIME=6 OVERRUN=3 node1 node2
	if start_run; then
		kill -STOP "$APID" 2>/dev/null || true
		if wait_for 60 sigint_pending "$APID"; then
			kill_sessions KILL
			wait_exit "$BOUND"
			expect_failure "$what" node2 'lost|killed|answer'
		else
			kill -CONT "$APID" 2>/dev/null || true
			wait_exit "$BOUND"
			not_reached "$what" "a stop of its atio (SIGINT)"
		fi
	else
		wait_exit "$BOUND"
		not_reached "$what" "the random read run"
	fi
	reset
fi

finish
