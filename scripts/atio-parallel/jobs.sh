# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # OVERRUN and OVERRAN are shared with the other parts
#
# atio-parallel.sh, sourced part: clocks and the node jobs. The time in
# microseconds, naps, and the background job each node gets in a step:
# started, waited for within a limit, stopped.

# Print the time as seconds since the epoch, with microseconds or better.
now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then echo "$EPOCHREALTIME"; else date +%s.%N; fi
}

# Set NOW_US to the time in microseconds since the epoch (no fork with
# bash 5's EPOCHREALTIME).
now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		NOW_US=${EPOCHREALTIME/./}
	else
		NOW_US=$(date +%s%6N)
	fi
	NOW_US=$((10#$NOW_US))
}

# Set variable $1 to the seconds $2 (digits, an optional decimal part; as
# is_number takes them) in whole microseconds, rounded down.
to_us() {
	local s=$2 int frac
	int=${s%%.*}
	frac=
	[[ $s != *.* ]] || frac=${s#*.}
	frac="${frac}000000"
	printf -v "$1" '%d' "$((10#${int:-0} * 1000000 + 10#${frac:0:6}))"
}

# Print microseconds $1 as seconds with 6 decimals.
us_to_sec() {
	printf '%d.%06d' "$(($1 / 1000000))" "$(($1 % 1000000))"
}

# Sleep $1 seconds. An external sleep, not a `read -t` on an idle FIFO
# (which would start no process): bash runs the trap of a signal that
# comes during `read -t` inside the read, and a process the trap then
# starts in the background resumes the interrupted loop instead of its
# own command. After a foreground sleep the trap runs where it belongs.
nap() {
	sleep "$1"
}

# Start "$1 INDEX $2 $3..." in the background for every node, the job
# leaving its files in directory $2; set JOB_PIDS and JOB_DIR.
for_all_nodes() {
	local fn=$1 dir=$2 i
	shift 2
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	for i in "${!HOSTS[@]}"; do
		"$fn" "$i" "$dir" "$@" &
		JOB_PIDS[i]=$!
	done
}

# True while the job of node $1 runs (a job writes INDEX.rc last).
job_running() {
	[ -n "${JOB_PIDS[$1]:-}" ] && [ ! -e "$JOB_DIR/$1.rc" ] && kill -0 "${JOB_PIDS[$1]}" 2>/dev/null
}

# True while the job of a node runs that has not had its node's answer.
any_unanswered() {
	local i
	for i in "${!HOSTS[@]}"; do
		! job_running "$i" || [ -e "$JOB_DIR/$i.answered" ] || return 0
	done
	return 1
}

# True while the job of any node runs.
any_running() {
	local i
	for i in "${!HOSTS[@]}"; do
		! job_running "$i" || return 0
	done
	return 1
}

# Wait for the jobs; past the instant $1 (microseconds since the epoch; 0:
# never) stop atio on every node still running and set OVERRAN.
wait_jobs() {
	local deadline=$1 i next=0
	while any_running; do
		if [ "$VERBOSE" -ge 2 ] && [ "$deadline" != 0 ]; then
			now_us
			if [ "$NOW_US" -ge "$next" ]; then
				[ "$next" = 0 ] || live_line "$JOB_DIR"
				next=$((NOW_US + 1000000))
			fi
		fi
		if [ "$deadline" != 0 ]; then
			now_us
			# Past it, a run overruns only while a node has not answered:
			# the driver's own reading of the answers is not the nodes'.
			if [ "$NOW_US" -gt "$deadline" ] && any_unanswered; then
				warn "the run overran its time by OVERRUN ($OVERRUN s): stopping atio on every node"
				OVERRAN=1
				: >"$JOB_DIR/overran"
				stop_nodes
				break
			fi
		fi
		nap 0.1
	done
	for i in "${!JOB_PIDS[@]}"; do wait "${JOB_PIDS[$i]}" 2>/dev/null || true; done
}

# Stop atio on every node of the current run that has not ended well and
# was not stopped yet (a line to each node's session), then wait for their
# jobs: STOP_GRACE seconds for atio to exit and 3 for the answer (or
# WAIT_FACTOR times the slowest login, when longer). A node whose job is
# still waiting then is given up on: its session is ended.
stop_nodes() {
	local i n limit
	for i in "${!HOSTS[@]}"; do
		{ [ -n "${JOB_PIDS[$i]:-}" ] && [ ! -e "$JOB_DIR/$i.ok" ] && [ ! -e "$JOB_DIR/$i.stopped" ]; } || continue
		: >"$JOB_DIR/$i.stopped"
		# Also where the job ended: its atio may outlive it.
		session_send "$i" "$(remote_stop_cmd)" || true
	done
	to_us limit "$(wait_limit "$MAX_LOGIN" $((STOP_GRACE + 3)))"
	for ((n = 0; n < limit / 100000; n++)); do
		any_unanswered || break
		nap 0.1
	done
	for i in "${!HOSTS[@]}"; do
		if job_running "$i" && [ -e "$JOB_DIR/$i.answered" ]; then
			wait "${JOB_PIDS[$i]}" 2>/dev/null || true
		elif job_running "$i"; then
			warn "${HOSTS[$i]}: no answer after stopping atio; giving up on it"
			# Its session (the job waits on it), then the job.
			session_kill "$i"
			end_ssh "$i"
			kill "${JOB_PIDS[$i]}" 2>/dev/null || true
			wait "${JOB_PIDS[$i]}" 2>/dev/null || true
			gave_up "$i"
		fi
	done
}

# Record node $1 of the current run as failed when its job had to be
# killed before it could say anything itself.
gave_up() {
	local i=$1 dir=$JOB_DIR
	[ ! -e "$dir/$i.ok" ] || return 0
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "no answer from the node after stopping its atio" >"$dir/$i.why"
	"$AT_IO_LOCAL_PATH" merge --record --out "$dir/$i.json" --host "${HOSTS[$i]}" --exit-status none \
		--stderr "$dir/$i.why" >/dev/null 2>&1 || true
}
