# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034 # SESS_* are read by the other parts
#
# atio-parallel.sh, sourced part: ssh. The ssh and scp clients of each
# node, tracked so that they can be ended, and the node sessions: one
# login per node, the agent it runs, commands written to it and its
# answers read back.

# Run command $2... for node $1 (an index) in the background of the calling
# shell and wait for it, with the caller's standard input; return its
# status. While it runs, the file $SSH_PIDS/NODE.CALLER.PID (CALLER: the
# $BASHPID of the shell that waits) names it, so that the script can end it
# (end_ssh) when it gives up on the node or exits: killing the job that
# waits would leave it running.
tracked() {
	local i=$1 pid rc=0 f
	shift
	"$@" <&0 &
	pid=$!
	f="$SSH_PIDS/$i.$BASHPID.$pid"
	: >"$f"
	wait "$pid" || rc=$?
	rm -f "$f"
	return "$rc"
}

# End the ssh and scp clients still running for node $1 (every node when
# $1 is empty), only those that shell $2 waits for when $2 is given: the
# ones named by files in $SSH_PIDS whose PID is still an ssh or scp.
# SIGTERM first (scp then ends its own ssh), SIGKILL 0.2 s later: a client
# started while the script ignored SIGTERM (on_signal, cleanup) ignores it.
end_ssh() {
	local f name caller p pids=()
	for f in "$SSH_PIDS"/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		caller=${name#*.}
		caller=${caller%.*}
		[ -z "$1" ] || [ "${name%%.*}" = "$1" ] || continue
		[ -z "${2:-}" ] || [ "$caller" = "$2" ] || continue
		p=${name##*.}
		if is_client "$p"; then
			kill "$p" 2>/dev/null || true
			pids+=("$p")
		fi
		rm -f "$f"
	done
	[ "${#pids[@]}" -gt 0 ] || return 0
	nap 0.2
	for p in "${pids[@]}"; do
		! is_client "$p" || kill -KILL "$p" 2>/dev/null || true
	done
}

# Wait until none of processes $2... runs, $1 tenths of a second at most;
# false when some still run then.
wait_gone() {
	local n p left=0
	for ((n = 0; n < $1; n++)); do
		left=0
		for p in "${@:2}"; do ! kill -0 "$p" 2>/dev/null || left=1; done
		[ "$left" = 1 ] || return 0
		nap 0.1
	done
	[ "$left" = 0 ]
}

# True when process $1 runs ssh or scp (or setsid, about to run ssh).
is_client() {
	local c=""
	read -r c 2>/dev/null <"/proc/$1/comm" || true
	[ "$c" = ssh ] || [ "$c" = scp ] || [ "$c" = setsid ]
}

# scp's name for path $2 on host $1, with an IPv6 address in brackets.
scp_target() {
	local user="" host=$1
	if [[ $host == *@* ]]; then
		user=${host%@*}@
		host=${host##*@}
	fi
	[[ $host != *:* ]] || host="[$host]"
	printf '%s%s:%s' "$user" "$host" "$2"
}

# --- Sessions: one ssh session per node, opened in preparation, that every
# later command of the node goes over, so that a run costs no login (PAM,
# LDAP, motd and shell start-up take seconds on some clusters, and a
# hundred nodes logging in at once contend). The session runs a POSIX
# shell that reads one command a line from its stdin, a FIFO the driver
# holds open (SESS_IN), and answers each on its stdout (SESS_OUT) with a
# header line "<RS>R TOKEN STATUS SIZE" and SIZE bytes, the command's
# output, kept in a file on the node until then. A run's stderr streams
# back: a line "<RS>E N" on the session's stderr says that the lines after
# it belong to run N (WORK/run.N/INDEX.err; 0: the session's own log), and
# a reader of the driver (session_split) files them there. The session's
# directory on the node ($D: answers, the start FIFO and the PID of atio)
# goes when the session ends.

# The program of the node's side of a session, run as /bin/sh -c PROGRAM.
# shellcheck disable=SC2016 # expanded by the node's shell
AGENT_SH='umask 077; D=$(mktemp -d "${TMPDIR:-/tmp}/atio-parallel.XXXXXX") || exit 1; trap '\''rm -rf "$D"'\'' EXIT; trap '\''exit 1'\'' HUP TERM; while IFS= read -r l; do eval "$l"; done'
# The session's remote command: that program, in single quotes.
AGENT_CMD="exec /bin/sh -c '${AGENT_SH//\'/\'\\\'\'}'"

# Close, in the calling subshell, the descriptors of every session opened
# so far: a process that outlived the script holding them would keep the
# nodes' sessions from ending.
session_close_fds() {
	local fd
	for fd in ${SESS_IN[@]+"${SESS_IN[@]}"} ${SESS_OUT[@]+"${SESS_OUT[@]}"}; do
		exec {fd}>&-
	done
}

# Open node $1's session (in the script's own shell, which keeps its
# descriptors for the jobs of every later step): the ssh in a session of
# its own (Ctrl-C reaches only the script, which then stops atio), its
# status written to SESS_DIR/INDEX.exit when it ends, and the reader of
# its stderr. Sets SESS_IN, SESS_OUT, SESS_PID (the shell that waits for
# the ssh), SESS_SPLIT (the reader) and SESS_T0 (the instant it was
# opened, in microseconds) of the node. Opening does not wait for the
# login: the first answer tells when the session started (prep_connect).
session_open() {
	local i=$1 d=$SESS_DIR w r
	# A session that ended: its descriptors go, and its processes.
	if [ -n "${SESS_IN[$i]:-}" ]; then
		w=${SESS_IN[$i]} r=${SESS_OUT[$i]}
		exec {w}>&- {r}<&-
		wait "${SESS_PID[$i]}" 2>/dev/null || true
		unset "SESS_IN[$i]" "SESS_OUT[$i]"
	fi
	rm -f "$d/$i.in" "$d/$i.out" "$d/$i.eo" "$d/$i.exit" "$d/$i.pid" "$d/$i.up"
	mkfifo "$d/$i.in" "$d/$i.out" "$d/$i.eo"
	exec {w}<>"$d/$i.in"
	(
		trap '' INT TERM HUP
		session_close_fds
		exec {w}>&-
		session_split "$i" <"$d/$i.eo"
	) &
	SESS_SPLIT[i]=$!
	(
		trap '' INT TERM HUP
		session_close_fds
		exec {w}>&-
		rc=0
		${SETSID[@]+"${SETSID[@]}"} ssh "${SSH_BASE[@]}" -- "${HOSTS[$i]}" "$AGENT_CMD" \
			<"$d/$i.in" >"$d/$i.out" 2>"$d/$i.eo" &
		echo "$!" >"$d/$i.pid"
		wait "$!" 2>/dev/null || rc=$?
		echo "$rc" >"$d/$i.exit"
	) &
	SESS_PID[i]=$!
	exec {r}<"$d/$i.out"
	SESS_IN[i]=$w SESS_OUT[i]=$r
	now_us
	SESS_T0[i]=$NOW_US
}

# The reader of node $1's session stderr (stdin): each line to the file
# of the run the last "<RS>E N" named, the session's log SESS_DIR/INDEX.err
# at first and for N = 0; a run's file, once switched away from, gets
# INDEX.errend beside it (all its lines are in). Lines that no longer have
# a file (a run's directory removed) are dropped.
session_split() {
	local i=$1 f="$SESS_DIR/$1.err" run=0 l n
	while IFS= read -r l || [ -n "$l" ]; do
		if [[ $l != *$'\036E '* ]]; then
			{ printf '%s\n' "$l" >>"$f"; } 2>/dev/null || true
			continue
		fi
		[ -z "${l%%$'\036E '*}" ] || { printf '%s\n' "${l%%$'\036E '*}" >>"$f"; } 2>/dev/null || true
		n=${l##*$'\036E '}
		[[ $n =~ ^[0-9]+$ ]] || continue
		[ "$run" = 0 ] || { : >"$WORK/run.$run/$i.errend"; } 2>/dev/null || true
		run=$n f="$SESS_DIR/$i.err"
		[ "$run" = 0 ] || f="$WORK/run.$run/$i.err"
		{ : >>"$f"; } 2>/dev/null || true
	done
	[ "$run" = 0 ] || { : >"$WORK/run.$run/$i.errend"; } 2>/dev/null || true
}

# True while node $1's session is open: its ssh has not ended.
session_alive() {
	[ -n "${SESS_IN[$1]:-}" ] && [ ! -e "$SESS_DIR/$1.exit" ]
}

# Write command line $2 to node $1's session; false when it is closed (or
# the command is not one line: quote_words keeps words on it, and the
# settings that reach a command have no control characters).
session_send() {
	session_alive "$1" || return 1
	[[ $2 != *$'\n'* ]] || { warn "${HOSTS[$1]}: a command of more than one line is not sent"; return 1; }
	{ printf '%s\n' "$2" >&"${SESS_IN[$1]}"; } 2>/dev/null
}

# Set SESS_WHY to why node $1's session gave no answer: $2 = lost (it
# ended) or late (none within $3 seconds).
session_why() {
	local i=$1 rc="" first=""
	if [ "$2" = late ]; then
		SESS_WHY="connected, but the node did not answer within $3 s"
		return 0
	fi
	# The ssh's status comes after its output ends, however long the ssh
	# takes to exit: its shell writes it, then ends. Its last words (why
	# it could not connect) are in once the reader of its stderr has ended.
	if wait_file "$SESS_DIR/$i.exit" "${SESS_PID[$i]:-}"; then read -r rc <"$SESS_DIR/$i.exit" || true; fi
	wait_file "" "${SESS_SPLIT[$i]:-}" || true
	first=$(grep -av $'^\036' "$SESS_DIR/$i.err" 2>/dev/null | tail -n 1) || true
	if [ ! -e "$SESS_DIR/$i.up" ]; then
		# It never answered.
		case $rc in
		255) SESS_WHY="could not connect (ssh exit 255)${first:+: $first}" ;;
		*) SESS_WHY="connected, but the session ended before the node answered (ssh exit ${rc:-unknown}: its login shell or sshd ended it)${first:+: $first}" ;;
		esac
		return 0
	fi
	case $rc in
	255) SESS_WHY="ssh failed (exit 255): the connection to the node was lost${first:+: $first}" ;;
	*) SESS_WHY="the session to the node ended (ssh exit ${rc:-unknown})${first:+: $first}" ;;
	esac
}

# Wait until file $1 exists, while process $2, which makes it before it
# ends, runs (an empty $2: no wait); false when it ended without it (an
# empty $1: wait until process $2 has ended). An
# event, not a time: how busy the machine is changes when the wait ends,
# never what it finds. For the node jobs: it naps by a `read -t` on a FIFO
# nobody writes to, which starts no process (the script's own shell,
# whose traps must run where they belong, naps with nap).
wait_file() {
	while [ ! -e "$1" ] && [ -n "$2" ] && kill -0 "$2" 2>/dev/null; do
		read -r -t 0.1 _ <>"$SESS_DIR/nap" || true
	done
	[ -e "$1" ]
}

# Read node $1's answer to the command of token $2 into file $3, waiting
# $4 seconds at most (0: as long as it takes); older answers (to commands
# whose wait ended) are skipped. Return the command's status on the node;
# 255 with SESS_WHY set when the session ended, 254 when no answer came in
# time.
session_answer() {
	local i=$1 tok=$2 out=$3 limit=$4 fd=${SESS_OUT[$1]} line st size end=0 left t rc
	if [ "$limit" != 0 ]; then
		to_us end "$limit"
		now_us
		end=$((NOW_US + end))
	fi
	while :; do
		t=()
		if [ "$end" != 0 ]; then
			now_us
			left=$((end - NOW_US))
			[ "$left" -gt 0 ] || { session_why "$i" late "$limit"; return 254; }
			t=(-t "$(us_to_sec "$left")")
		fi
		rc=0
		IFS= read -r ${t[@]+"${t[@]}"} line <&"$fd" || rc=$?
		if [ "$rc" -gt 128 ]; then
			session_why "$i" late "$limit"
			return 254
		elif [ "$rc" != 0 ]; then
			session_why "$i" lost
			return 255
		fi
		[[ $line == *$'\036R '"$tok "* ]] || continue
		read -r st size SESS_EXTRA <<<"${line##*$'\036R '"$tok "}"
		if ! [[ $st =~ ^[0-9]+$ && $size =~ ^[0-9]+$ ]]; then continue; fi
		[ -e "$SESS_DIR/$i.up" ] || : >"$SESS_DIR/$i.up"
		if [ "$size" -gt 0 ]; then
			head -c "$size" <&"$fd" >"$out" || true
		else
			: >"$out"
		fi
		return "$st"
	done
}

# A token for one command: unique among the commands of this script.
session_token() {
	SESS_TOKEN="$BASHPID.$RANDOM$RANDOM"
}

# Read node $1's clock over its session: set SESS_EXTRA to its `date
# +%s.%N`, waiting $2 seconds at most. Returns as session_answer. The time
# is in the answer's header: nothing on the node runs between the date
# and the answer but printf.
session_clock() {
	session_token
	session_alive "$1" || { session_why "$1" lost; return 255; }
	# shellcheck disable=SC2016 # expanded by the node's shell
	session_send "$1" "printf '\\036R %s 0 0 %s\\n' $SESS_TOKEN \"\$(date +%s.%N)\"" ||
		{ session_why "$1" lost; return 255; }
	session_answer "$1" "$SESS_TOKEN" /dev/null "$2"
}

# Close every session: each node's shell sees its stdin end and exits,
# removing its directory; a session still there 3 s later is killed.
session_close_all() {
	local i fd pids=()
	for i in "${!SESS_IN[@]}"; do
		fd=${SESS_IN[$i]}
		exec {fd}>&-
		fd=${SESS_OUT[$i]}
		exec {fd}<&-
		pids+=("${SESS_PID[$i]}")
	done
	SESS_IN=() SESS_OUT=()
	[ "${#pids[@]}" -gt 0 ] || return 0
	if ! wait_gone 30 "${pids[@]}"; then
		for i in "${!SESS_PID[@]}"; do session_kill "$i"; done
	fi
	wait "${pids[@]}" 2>/dev/null || true
}

# End node $1's session at once (it stopped answering, or would not
# close): its ssh, named in SESS_DIR/INDEX.pid, is killed.
session_kill() {
	local p=""
	read -r p 2>/dev/null <"$SESS_DIR/$1.pid" || true
	[ -z "$p" ] || ! is_client "$p" || kill -KILL "$p" 2>/dev/null || true
}

# The wait, in seconds, for a node whose session took $1 seconds to open:
# $2 seconds, or WAIT_FACTOR times its login when that is longer.
wait_limit() {
	awk -v l="$1" -v b="$2" -v f="$WAIT_FACTOR" 'BEGIN { w = l * f; if (w < b) w = b; printf "%.3f\n", w }'
}

# Run shell command $2 on node $1 over its session, its stdin /dev/null,
# its stdout and stderr to file $3; wait $4 seconds at most (0: as long
# as it takes). Returns as session_answer.
session_call() {
	local i=$1 cmd=$2
	session_token
	session_alive "$i" || { session_why "$i" lost; return 255; }
	# shellcheck disable=SC2016 # expanded by the node's shell
	session_send "$i" "{ $cmd ; } </dev/null >\"\$D/a\" 2>&1; s=\$?; printf '\\036R %s %s %s\\n' $SESS_TOKEN \"\$s\" \"\$(wc -c <\"\$D/a\")\"; cat \"\$D/a\"" ||
		{ session_why "$i" lost; return 255; }
	session_answer "$i" "$SESS_TOKEN" "$3" "$4"
}
