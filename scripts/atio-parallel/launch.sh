# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the test's and the run's settings are shared with the other parts
#
# atio-parallel.sh, sourced part: what a run sends to the nodes and when.
# The atio command line of each test, the session lines that run and stop
# it, the wait until every node's atio is ready and the start instant
# written to all of them; --dry-run prints those commands.

# Set T_OPTS (atio options), T_TITLE (section title) and T_UNIT (expected
# unit) of test $1 in PROFILE; "warmup" and "load" are the warm-up read
# and the run that makes the files.
test_info() {
	local q="" d="" seq=16M
	T_UNIT="MB/s"
	# vhi: seed 000's profiles, O_DIRECT at depth 32 (expand as its sync job).
	[ "$PROFILE" != vhi ] || { q=" --iodepth 32" d=" --uncached" seq=1M; }
	case $1 in
	warmup) T_OPTS="--read --seq -s $seq --mbs$q" T_TITLE="Warming" ;;
	load) T_OPTS="--read --seq -s 16M --mbs" T_TITLE="Loading"
		[ "$PROFILE" != vhi ] || { T_OPTS="--prepare"; return 0; } ;;
	seqread) T_OPTS="--read --seq -s $seq --mbs$q" T_TITLE="Sequential read" ;;
	seqwrite) T_OPTS="--write --seq -s $seq --mbs$q" T_TITLE="Sequential write" ;;
	randread) T_OPTS="--read --rand -s $BLOCKSIZE --iops$q" T_TITLE="Random read" T_UNIT="IOPS" ;;
	randwrite) T_OPTS="--fdatasync --rand -s $BLOCKSIZE --iops" T_TITLE="Random write" T_UNIT="sync/s"
		[ "$PROFILE" != vhi ] || T_OPTS="--write --rand -s $BLOCKSIZE --iops$q" T_UNIT="IOPS" ;;
	randfsync) T_OPTS="--fsync --rand -s $BLOCKSIZE -q 32 --iops" T_TITLE="Random fsync" T_UNIT="sync/s" ;;
	randrw) T_OPTS="--mix 70 --rand -s $BLOCKSIZE --iops$q" T_TITLE="Random read/write 70/30" T_UNIT="IOPS" ;;
	expand) T_OPTS="--expand -s 16M --mbs" T_TITLE="Expand" ;;
	dsyncwrite) T_OPTS="--write --rand -s $BLOCKSIZE --dsync --iops" T_TITLE="Random dsync write" T_UNIT="IOPS" ;;
	check) T_OPTS="--check" T_TITLE="Check"; return 0 ;;
	md*) md_test "$1" || return 1
		md_test_info "$1"; return 0 ;;
	*) return 1 ;;
	esac
	T_OPTS+=$d
}

# Set ARGS to atio's arguments for test $1 with $2 threads for $3 seconds:
# the guide's command line, then ATIO_OPTS (whose --uncached drops --cached,
# which atio would call contradictory). Its -f is TEST_DIR_SHOWN (DIR, or
# DIR/node-HOST), at index ARGS_DIR_AT: args_for_node puts each node's
# own there.
atio_args() {
	local n
	if md_test "$1"; then
		md_args "$1" "$2"
		return 0
	fi
	ARGS_NB_AT="" ARGS_MEMBER_AT=""
	test_info "$1"
	read -ra ARGS <<<"$T_OPTS"
	if [ "$T_OPTS" = --prepare ] || [ "$T_OPTS" = --check ]; then
		# atio --prepare and --check take the options that shape the
		# files only (the smallest block keeps -u's minimum the tests';
		# --check reads in 4M, its default, whatever the files' size).
		ARGS+=(-s "$([ "$T_OPTS" = --check ] && echo 4M || echo 4K)" -p "$2" -u "$FILE_SIZE" -f)
		ARGS_DIR_AT=${#ARGS[@]}
		ARGS+=("$TEST_DIR_SHOWN")
		for n in "${!ATIO_EXTRA[@]}"; do
			case ${ATIO_EXTRA[n]} in
			-n) ARGS+=(-n "${ATIO_EXTRA[n + 1]:-}") ;;
			-n?* | --allow-memory-fs) ARGS+=("${ATIO_EXTRA[n]}") ;;
			--take-over) [ "$T_OPTS" = --check ] || ARGS+=("${ATIO_EXTRA[n]}") ;;
			esac
		done
		return 0
	fi
	ARGS+=(-p "$2" -t "$3" -u "$FILE_SIZE" -S)
	[[ " $T_OPTS $ATIO_OPTS " == *" --uncached "* ]] || ARGS+=(--cached)
	ARGS+=(-f)
	ARGS_DIR_AT=${#ARGS[@]}
	ARGS+=("$TEST_DIR_SHOWN" ${ATIO_EXTRA[@]+"${ATIO_EXTRA[@]}"})
	# A point of a sweep (sweep.sh): its options in place of the test's.
	[ -z "${POINT_OPTS:-}" ] || point_args
	# --steady: every node runs every round; the cluster's sum is judged.
	[ -z "${NODE_STEADY:-}" ] || ARGS+=(--all-rounds)
}

# Set STEADY_US to the time in microseconds the rounds of ARGS (atio_args)
# add before the measured time: --rounds times --round, as atio -a's
# Steady line says them; 0 without --steady.
steady_time() {
	local l re='^Steady: [a-z]+ in rounds of ([0-9.]+) sec, at most ([0-9]+);'
	STEADY_US=0
	[ -n "${NODE_STEADY:-}" ] || return 0
	while IFS= read -r l; do
		[[ $l =~ $re ]] || continue
		to_us STEADY_US "${BASH_REMATCH[1]}"
		STEADY_US=$((STEADY_US * BASH_REMATCH[2]))
	done < <("$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" 2>/dev/null || true)
}

# Set NODE_ARGS to ARGS (atio_args) with node $1's test directory as -f.
args_for_node() {
	NODE_ARGS=("${ARGS[@]}")
	NODE_ARGS[ARGS_DIR_AT]=${NODE_TEST_DIR[$1]}
	# A metadata test's --neighbour-dir: the next node's directory.
	[ -z "${ARGS_NB_AT:-}" ] || NODE_ARGS[ARGS_NB_AT]=${NODE_TEST_DIR[($1 + 1) % ${#HOSTS[@]}]}
	# MD_SHARED: every node a member of the one tree in the test directory.
	[ -z "${ARGS_MEMBER_AT:-}" ] ||
		NODE_ARGS[ARGS_DIR_AT]=${ARGS[ARGS_DIR_AT]} NODE_ARGS[ARGS_MEMBER_AT]=$1/${#HOSTS[@]}
	# A curve's step (sweep.sh): the node's own cap.
	[ -z "${POINT_CAP[$1]:-}" ] || NODE_ARGS+=(--cap "${POINT_CAP[$1]}")
}

# Print words $@ quoted for a POSIX shell (the nodes' sessions run
# /bin/sh, which may be dash: no $'...'), separated by spaces: a word of
# letters, digits and ./_:=@%+,- as it is, any other in single quotes.
quote_words() {
	local w out=""
	for w in "$@"; do
		if [[ -n $w && $w != *[!A-Za-z0-9./_:=@%+,-]* ]]; then
			out+="$w "
		else
			out+="'${w//\'/\'\\\'\'}' "
		fi
	done
	printf '%s' "${out% }"
}

# The session line that runs atio with arguments $5... as run $2 (its
# stderr goes to that run's file) in the background of node $1's shell, and
# answers to token $4 when atio ends. A child shell records its PID in
# $D/pid (session_stop signals it) and becomes atio, whose status the
# answer carries: 128+N when signal N killed it. atio's stdin: with $3 =
# start, the FIFO $D/s, which the session's shell holds open on descriptor
# 4 until the start instant comes (launch_run); else /dev/null. Its
# stdout is kept in $D/o until the answer. (The shell's own word on a
# killed job, bash's "Killed", is left out: the status says it.)
remote_run_cmd() {
	local run=$2 in=$3 tok=$4 open="" src=/dev/null
	shift 4
	if [ "$in" = start ]; then
		# shellcheck disable=SC2016 # expanded by the node's shell
		open='rm -f "$D/s" && mkfifo "$D/s" && command exec 4<>"$D/s" && '
		# shellcheck disable=SC2016 # expanded by the node's shell
		src='"$D/s"'
	fi
	# shellcheck disable=SC2016 # expanded by the node's shell
	printf '%s' "printf '\\036E $run\\n' >&2; rm -f \"\$D/o\" \"\$D/pid\"; if ${open}:; then { sh -c 'echo \$\$ >\"\$1\" && shift && exec \"\$@\"' sh \"\$D/pid\" $(quote_words "$@") <$src >\"\$D/o\" 4>&- & wait \$! 2>/dev/null; s=\$?; printf '\\036E 0\\n' >&2; printf '\\036R $tok %s %s\\n' \"\$s\" \"\$(wc -c <\"\$D/o\")\"; cat \"\$D/o\"; } 4>&- & else printf '\\036E 0\\n' >&2; printf '\\036R $tok 126 0\\n'; fi"
}

# The session line that stops the atio of the node's current run if it
# still runs, in the background of the session's shell: SIGINT (atio
# prints its results so far), STOP_GRACE seconds to exit, then SIGKILL.
# The PID counts only while it still belongs to an atio. The grace is
# timed by a sleep of its own, not counted in rounds of the loop, which a
# busy node runs slower.
remote_stop_cmd() {
	# shellcheck disable=SC2016 # expanded by the node's shell
	printf '( p=$(cat "$D/pid" 2>/dev/null) || exit 0; alive() { c=; read -r c 2>/dev/null </proc/$p/comm; [ "$c" = atio ]; }; ! alive || kill -INT "$p"; sleep %d >/dev/null 2>&1 & t=$!; while alive && kill -0 $t 2>/dev/null; do sleep 0.05; done; kill $t 2>/dev/null; ! alive || kill -KILL "$p" ) </dev/null >/dev/null 2>&1 &' \
		"$STOP_GRACE"
}

# Sleep PAUSE seconds in a way a signal interrupts at once.
pause() {
	awk -v p="$PAUSE" 'BEGIN { exit !(p > 0) }' || return 0
	sleep "$PAUSE" &
	SLEEP_PID=$!
	wait "$SLEEP_PID" || true
	SLEEP_PID=""
}

# True when atio's stderr, file $1, has its ready line (--start-at -).
node_ready() {
	local l lines=()
	mapfile -t lines 2>/dev/null <"$1" || return 1
	for l in ${lines[@]+"${lines[@]}"}; do
		[[ $l != "atio: ready:"* ]] || return 0
	done
	return 1
}

# Wait until the atio of every node of the current run is ready, its job
# has ended (it failed), or READY_TIMEOUT seconds have passed; a node not
# ready by then gets INDEX.notready, its reason. Sets READY[i] to 1 for
# the nodes that are ready.
wait_ready() {
	local i left end limit
	READY=()
	now_us
	limit=$(wait_limit "$MAX_LOGIN" "$READY_TIMEOUT")
	to_us end "$limit"
	end=$((NOW_US + end))
	while :; do
		left=0
		for i in "${!HOSTS[@]}"; do
			[ -z "${READY[$i]:-}" ] || continue
			job_running "$i" || continue
			if node_ready "$JOB_DIR/$i.err"; then
				READY[i]=1
			else
				left=1
			fi
		done
		[ "$left" = 1 ] || return 0
		now_us
		[ "$NOW_US" -lt "$end" ] || break
		nap 0.05
	done
	for i in "${!HOSTS[@]}"; do
		if [ -n "${READY[$i]:-}" ] || ! job_running "$i"; then continue; fi
		echo "not ready within $limit s (READY_TIMEOUT, or WAIT_FACTOR times the slowest login): atio had not checked and opened its files and set up its threads by then" \
			>"$JOB_DIR/$i.notready"
	done
}

# Run test $1 with $2 threads for $3 seconds on every node, the jobs' files
# in directory $4. With $5 = 1 all nodes start at one instant: each atio
# (--start-at -) prepares everything and says it is ready, and once every
# node is ready (or READY_TIMEOUT has passed) the instant START, the time
# now plus START_MARGIN, is written to every node's open session; a run
# still going OVERRUN seconds after its time is stopped. Loading has
# neither: filling the files takes what it takes. Nodes that failed are
# then stopped too, in case their atio outlived their ssh.
launch_run() {
	local dir=$4 deadline=0 i margin t in=none
	atio_args "$1" "$2" "$3"
	steady_time
	# --check's text output is its node line; everything else reports JSON.
	[ "$1" = check ] || ARGS+=(--json)
	# -vv: the nodes' interval lines stream back on their stderr.
	if [ "$VERBOSE" -ge 2 ] && [ "$5" = 1 ] && [ "$1" != check ]; then
		ARGS+=(-vv)
	fi
	START=null
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	if [ "$5" = 1 ]; then
		ARGS+=(--start-at -)
		in=start
	fi
	# A node whose session ended (it was lost, or given up on) gets a new
	# one; its login then counts in the wait for its ready line.
	for i in "${!HOSTS[@]}"; do
		session_alive "$i" || session_open "$i"
	done
	RUN_ACTIVE=1
	for i in "${!HOSTS[@]}"; do
		session_token
		args_for_node "$i"
		run_job "$i" "$dir" "$(remote_run_cmd "$i" "$RUN_SEQ" "$in" "$SESS_TOKEN" "${NODE_ATIO[$i]}" "${NODE_ARGS[@]}")" \
			"$SESS_TOKEN" &
		JOB_PIDS[i]=$!
	done
	if [ "$5" = 1 ]; then
		wait_ready
		to_us margin "$START_MARGIN"
		to_us t "$3"
		now_us
		START=$((NOW_US + margin))
		deadline=$((START + t + STEADY_US))
		to_us t "$OVERRUN"
		deadline=$((deadline + t))
		# No time of its own (a metadata phase): it takes what it takes.
		[ "$3" != 0 ] || deadline=0
		START=$(us_to_sec "$START")
		# The instant to the ready nodes' atio; the others see their stdin end.
		for i in "${!HOSTS[@]}"; do
			if [ -n "${READY[$i]:-}" ]; then
				session_send "$i" "printf '%s\\n' $START >&4; exec 4>&-" || true
			else
				session_send "$i" 'exec 4>&-' || true
			fi
		done
	fi
	wait_jobs "$deadline"
	for i in "${!HOSTS[@]}"; do
		[ -e "$dir/$i.ok" ] || { stop_nodes; break; }
	done
	JOB_PIDS=() RUN_ACTIVE=0
}

# Print, per node, the remote commands a session would send: connect to
# nothing, copy nothing, run nothing.
dry_run() {
	local i n t time path="$REMOTE_BINARIES_PATH/atio" tmp="$REMOTE_BINARIES_PATH/.atio-parallel.RUNID.tmp"
	RUN_ID=RUNID MARK_TOKEN=TOKEN
	echo "Dry run: nothing is connected to, copied or run."
	echo "Each node's session (one login, at most $FANOUT being opened at once): ssh $(quote_words ${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -o BatchMode=yes \
		-o ConnectTimeout=5 -o ControlMaster=auto -o ControlPath=DIR/%C -o ControlPersist=600 \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3) -- HOST $AGENT_CMD"
	echo "Every COMMAND below is one line written to that session; \$D is its directory on the node. --start-at -: once every node's atio says \"atio: ready:\" on stderr, the driver writes one EPOCH (that time + $START_MARGIN s) to every node's session; N: the run's number, TOKEN: the answer's."
	for i in "${!HOSTS[@]}"; do
		printf '[%d] %s\n  connect, and say what the node is: %s\n  make a marker in the test directory: %s\n  clock: date +%%s.%%N\n' \
			"$((i + 1))" "${HOSTS[$i]}" "$(remote_identity_cmd)" "$(remote_mark_cmd "$i")"
		echo "  test directory, and another node's marker there (DIR: the marker's): $(remote_dir_cmd "$i" DIR)"
		echo "    then: rm -f -- DIR/.atio-parallel-shared.$MARK_TOKEN.$i"
		echo "  installed atio: $(remote_installed_probe_cmd)"
		echo "    if it prints PATH<TAB>$LOCAL_VERSION: PATH is the atio of the commands below, in place of $path; nothing is checked or copied"
		echo "  else check atio: $(remote_probe_cmd "$path")"
		printf '  if atio is missing%s: scp %s %s\n' "$([ "$REPLACE" = 0 ] || echo " or of another version")" \
			"$(quote_words "$AT_IO_LOCAL_PATH")" "$(scp_target "${HOSTS[$i]}" "$tmp")"
		echo "    then: chmod 755 $(quote_words "$tmp") && mv -f $(quote_words "$tmp" "$path")"
		for n in "${THREAD_LIST[@]}"; do
			if has_data_tests; then
				atio_args load "$n" "$LOAD_TIME"
				args_for_node "$i"
				echo "  load ($n threads): $(remote_run_cmd "$i" N none TOKEN "$path" "${NODE_ARGS[@]}" --json)"
			fi
			for t in warmup "${TEST_LIST[@]}"; do
				[ "$t" != warmup ] || has_data_tests || continue
				time=$TIME
				[ "$t" != warmup ] || time=$WARMUP_TIME
				atio_args "$t" "$n" "$time"
				args_for_node "$i"
				if [ "$t" = check ]; then
					echo "  $t ($n threads): $(remote_run_cmd "$i" N none TOKEN "$path" "${NODE_ARGS[@]}")"
				else
					echo "  $t ($n threads): $(remote_run_cmd "$i" N start TOKEN "$path" "${NODE_ARGS[@]}" --json --start-at -)"
					printf '    then: printf %s EPOCH >&4; exec 4>&-\n' "'%s\\n'"
				fi
			done
		done
		echo "  stop (Ctrl-C, overrun, failure): $(remote_stop_cmd)"
		echo "  at the end: the session's input closed (its shell removes \$D)"
	done
}
