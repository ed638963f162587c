# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # FAILED and TIME are shared with the other parts
#
# atio-parallel.sh, sourced part: one run. The node job of a run
# (run_job), a run on every node with its result lines and sum (run_once),
# a test's iterations, the loading of the files and the data check.

# Print why node $1's remote command in the run of directory $2 ended with
# status $3 when that was not atio's own: 255, ssh's (the connection lost
# or never made), or 128+N, atio killed by signal N (the OOM killer, a
# user, or the script's SIGKILL after its SIGINT was not obeyed); print
# nothing for other statuses. atio exits 130 itself when interrupted.
exit_reason() {
	local i=$1 dir=$2 rc=$3 sig name
	if [ "$rc" = 255 ] && [ -s "$dir/$i.lost" ]; then
		cat "$dir/$i.lost"
	elif [ "$rc" = 255 ]; then
		echo "ssh failed (exit 255): the connection to the node was lost, or could not be made"
	elif [ "$rc" = 126 ] || [ "$rc" = 127 ]; then
		echo "atio could not be started on the node (exit $rc): see below"
	elif [ "$rc" -gt 128 ] && [ "$rc" -le 192 ] && [ "$rc" != 130 ]; then
		sig=$((rc - 128))
		name=$(kill -l "$sig" 2>/dev/null) || name=
		if [ -n "$name" ]; then name="SIG${name#SIG} (signal $sig, exit $rc)"; else name="signal $sig (exit $rc)"; fi
		printf 'atio was killed by %s on the node, whose connection held' "$name"
		if [ "$sig" = 9 ] && [ -e "$dir/$i.stopped" ]; then
			printf '; the script had stopped it: it did not exit within %s s of SIGINT\n' "$STOP_GRACE"
		elif [ "$sig" = 9 ]; then
			printf ' (the kernel'\''s OOM killer sends SIGKILL: see the node'\''s kernel log)\n'
		else
			printf '\n'
		fi
	fi
}

# The stderr of a node's atio, file $1, without its ready line and the
# interval lines of -vv; nothing when there is no file (the run never
# reached the node: its session could not be opened).
node_err() {
	[ -e "$1" ] || return 0
	grep -av -e '^atio: ready:' -e '^atio: [0-9.]* s: ' -e '^atio: [a-z]*: [0-9.]* s: ' "$1" || true
}

# -vv: one line on stderr from the last interval line (atio -vv) each node
# of the run in directory $1 has printed: their values in the test's unit
# added up, and the node with the smallest. A node whose last line says
# that an interval is overdue (no I/O completed) counts 0, "(stalled)".
live_line() {
	local dir=$1 i l v at sum=0 n=0 low="" lowhost="" lownote="" note re stall
	re="^atio: ([0-9.]+) s: .* ([0-9.]+) $T_UNIT,"
	stall='^atio: ([0-9.]+) s: interval [0-9]+ not closed'
	for i in "${!HOSTS[@]}"; do
		l=$(grep -a '^atio: [0-9.]* s: ' "$dir/$i.err" 2>/dev/null | tail -n 1) || true
		note=""
		if [[ $l =~ $re ]]; then
			at=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		elif [[ $l =~ $stall ]]; then
			at=${BASH_REMATCH[1]} v=0 note=" (stalled)"
		else
			continue
		fi
		sum=$(awk -v a="$sum" -v b="$v" 'BEGIN { printf "%.2f", a + b }')
		n=$((n + 1))
		if [ -z "$low" ] || awk -v a="$v" -v b="$low" 'BEGIN { exit !(a < b) }'; then
			low=$v lowhost=${HOSTS[$i]} lownote=$note
		fi
	done
	[ "$n" -gt 0 ] || return 0
	printf '%s: %s s: cluster %s %s (%d of %d nodes); slowest %s: %s %s%s\n' "$PROG" "$at" \
		"$sum" "$T_UNIT" "$n" "${#HOSTS[@]}" "$lowhost" "$low" "$T_UNIT" "$lownote" >&2
}

# Node job of a run: send session line $3 (remote_run_cmd, answering to
# token $4) to node $1's session and wait for atio's end; keep the node's
# result line, why it failed, and its record (INDEX.json, written by atio
# merge --record from its document).
run_job() {
	local i=$1 dir=$2 cmd=$3 tok=$4 rc=0 v="" u="" why="" ok="" k l
	# Ctrl-C is the script's to handle (it stops atio on every node and
	# prints what the jobs found): a job ignores it, explicitly, since
	# bash's read would otherwise take SIGINT while it waits.
	trap '' INT
	if session_send "$i" "$cmd"; then
		session_answer "$i" "$tok" "$dir/$i.out" 0 || rc=$?
	else
		session_why "$i" lost
		rc=255
	fi
	[ "$rc" != 255 ] || echo "$SESS_WHY" >"$dir/$i.lost"
	# The node is done; what is left is the driver's (wait_jobs).
	: >"$dir/$i.answered"
	# The last of its stderr, which comes on another stream: all of it is
	# in once the reader of the session's stderr has passed the run's end,
	# or has ended (the session is gone).
	wait_file "$dir/$i.errend" "${SESS_SPLIT[$i]:-}" || true
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	if [[ $cmd == *" --check "* ]]; then
		# --check: its summary line is the node's line; a node whose data
		# is bad (exit 1) is a FAILURE showing what --check named.
		if [ "$rc" = 0 ]; then
			head -n 1 "$dir/$i.out" >"$dir/$i.result"
			: >"$dir/$i.ok"
		else
			why=$(exit_reason "$i" "$dir" "$rc")
			case $rc in
			1) echo "atio --check found bad data, or could not read it (exit 1):" ;;
			*) echo "${why:-atio --check failed (exit $rc)}" ;;
			esac >"$dir/$i.why"
			{ grep -E '^(check|bad|missing):' "$dir/$i.out" | head -n 6
			  node_err "$dir/$i.err" | head -n 3; } >>"$dir/$i.why" || true
		fi
		echo "$rc" >"$dir/$i.rc"
		return 0
	fi
	if [[ $cmd == *" --prepare "* ]]; then
		# Loading with atio --prepare: its document is no result to add up.
		if [ "$rc" = 0 ]; then
			: >"$dir/$i.ok"
		else
			why=$(exit_reason "$i" "$dir" "$rc")
			echo "${why:-atio --prepare failed (exit $rc)}" >"$dir/$i.why"
			node_err "$dir/$i.err" | head -n 5 >>"$dir/$i.why" || true
		fi
		echo "$rc" >"$dir/$i.rc"
		return 0
	fi
	# A metadata test: its document is summed phase by phase (meta.sh).
	if [[ $cmd == *" --meta "* ]]; then
		md_job_end "$i" "$dir" "$rc"
		return 0
	fi
	if [ "$rc" != 0 ]; then
		case $rc in
		130) why="atio was interrupted (exit 130)"
			[ ! -e "$dir/overran" ] || why="stopped: the run overran its time by $OVERRUN s (atio exit 130)" ;;
		*) why=$(exit_reason "$i" "$dir" "$rc")
			why=${why:-atio exited with status $rc}
			[ ! -e "$dir/overran" ] || [ "$rc" = 255 ] || why="stopped: the run overran its time by $OVERRUN s; $why" ;;
		esac
	fi
	# A node not ready in time: that is why, unless its document has a result.
	[ ! -e "$dir/$i.notready" ] || why=$(<"$dir/$i.notready")
	node_err "$dir/$i.err" | head -n 5 >"$dir/$i.why" || true
	# Its record ($dir/$i.json), from its document or its failure, and the
	# values of its lines, one KEY<TAB>VALUE a line: atio merge --record.
	"$AT_IO_LOCAL_PATH" merge --record --out "$dir/$i.json" --host "${HOSTS[$i]}" --exit-status "$rc" \
		--stderr "$dir/$i.why" ${why:+--why "$why"} -- "$dir/$i.out" >"$dir/$i.rv" 2>"$dir/$i.merr" || true
	while IFS=$'\t' read -r k l; do
		case $k in
		ok) ok=$l ;;
		why) why=$l ;;
		value) v=$l ;;
		unit) u=$l ;;
		result) printf '%s\n' "$l" >"$dir/$i.result" ;;
		line) printf '%s\n' "$l" >>"$dir/$i.lines" ;;
		verify) printf '%s\n' "$l" >"$dir/$i.note2" ;;
		esac
	done <"$dir/$i.rv"
	[ -n "$ok" ] || why="no record from atio: $(head -n 1 "$dir/$i.merr" 2>/dev/null)"
	if [ "$ok" = true ]; then
		printf '%s\t%s\n' "$v" "$u" >"$dir/$i.value"
		: >"$dir/$i.ok"
	else
		# The reason first, then the node's own lines.
		mapfile -t l <"$dir/$i.why"
		printf '%s\n' "$why" ${l[@]+"${l[@]}"} >"$dir/$i.why"
	fi
	echo "$rc" >"$dir/$i.rc"
}

# One run of test $1 ($2 threads, $3 seconds), iteration $4: launch it,
# print the nodes and the sum (from `atio merge` of the nodes' documents),
# then the start and end skew and the cluster latency: for --mix tests a
# read and a write line after it, for tests that sync the write and the
# sync latency in its place (the merge's lines, merge --values). An iteration with a
# failed node is INCOMPLETE; one whose start skew is above MAX_SKEW percent
# of its time is NOT CONCURRENT; neither counts in the average, both make
# the exit status 1 (a NOT CONCURRENT warm-up does not: it measures
# nothing). Its record goes to rec.THREADS.TEST.tsv (for the
# average) and rec.THREADS.TEST.jsonl (for -o).
run_once() {
	local name=$1 threads=$2 iter=$4 dir i sum=0 unit m="" note="" counted=1 vals="" k v
	local nodes=() outs=() margs=() merge=() skew=null eskew=null late p50 p99 p999 last max_us pct_us skew_us
	local syncs=0 lines=() key=${POINT_KEY:-$1} steadies=() okhosts=()
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	launch_run "$name" "$threads" "$3" "$dir" 1
	print_nodes "$dir" 1
	for i in "${!HOSTS[@]}"; do
		[ ! -e "$dir/$i.json" ] || nodes+=("$dir/$i.json")
		if [ -e "$dir/$i.ok" ]; then
			outs+=("$dir/$i.out")
			# The node's instants in this machine's clock, for the skew.
			if [ -n "${NODE_SKEW_OFFSET[i]:-}" ]; then
				margs+=(--clock-offset "${NODE_SKEW_OFFSET[i]}")
			fi
			margs+=("$dir/$i.out")
			okhosts+=("${HOSTS[$i]}")
			IFS=$'\t' read -r m _ <"$dir/$i.value" || true
			vals+=$'\t'$m
			m=""
		else
			vals+=$'\t-'
		fi
	done
	test_info "$name"
	unit=$T_UNIT
	# The merge's figures, one KEY<TAB>VALUE a line (merge --values).
	# --unaligned: a node that started so late that its run shared no
	# instant with the others' is summed too; the start skew against
	# MAX_SKEW below says whether the iteration was concurrent.
	if [ "${#outs[@]}" -gt 0 ] && "$AT_IO_LOCAL_PATH" merge --json --unaligned --values "$dir/merge.tsv" "${margs[@]}" \
		>"$dir/merge.json" 2>"$dir/merge.err"; then
		merge=(--merge "$dir/merge.json")
		while IFS=$'\t' read -r k v; do
			case $k in
			sum) sum=$v ;;
			unit) unit=$v ;;
			start_skew_sec) skew=$v ;;
			end_skew_sec) eskew=$v ;;
			last_start_epoch) last=$v ;;
			p50_us) p50=$v ;;
			p99_us) p99=$v ;;
			p99.9_us) p999=$v ;;
			syncs) syncs=$v ;;
			line) lines+=("$v") ;;
			steady_line) steadies+=("$v") ;;
			esac
		done <"$dir/merge.tsv"
	elif [ "${#outs[@]}" -gt 0 ]; then
		warn "atio merge failed: $(head -n 1 "$dir/merge.err")"
		NFAIL=${#HOSTS[@]}
		outs=()
	fi
	[ "$NFAIL" = 0 ] || { note=" (INCOMPLETE: $((${#HOSTS[@]} - NFAIL)) of ${#HOSTS[@]} nodes)"; counted=0; FAILED=1; }
	# MAX_SKEW percent of the time, in microseconds.
	to_us max_us "$3"
	to_us pct_us "$MAX_SKEW"
	max_us=$((max_us * pct_us / 100000000))
	if [ "${#outs[@]}" -gt 1 ]; then
		printf -v skew '%.6f' "$skew"
		to_us skew_us "$skew"
		if [ "$skew_us" -gt "$max_us" ]; then
			note+=" (NOT CONCURRENT: skew $(printf '%.4f' "$skew") s)"
			counted=0
			# The warm-up measures nothing: marked, but no failure.
			[ "$name" = warmup ] || FAILED=1
		fi
	fi
	printf 'Sum value on iteration %d = { %.5f } %s;%s\n' "$iter" "$sum" "$unit" "$note"
	if [ "${#outs[@]}" -gt 0 ]; then
		# --steady: the measured start comes after the rounds (STEADY_US).
		late=$(awk -v a="$last" -v s="$START" -v r="${STEADY_US:-0}" 'BEGIN { printf "%.4f", a - s - r / 1e6 }')
		printf 'start skew: %.4f s over %d nodes (last start %s s after the agreed instant%s); end skew: %.4f s\n' \
			"$skew" "${#outs[@]}" "$late" "$([ "${STEADY_US:-0}" = 0 ] || echo " and the rounds")" "$eskew"
		# A test that syncs has its write and sync latency among the lines below.
		if [ "$syncs" = 0 ] && { [ "$p50" != 0.000 ] || [ "$p99" != 0.000 ]; }; then
			printf 'latency (usec): p50 %.2f, p99 %.2f, p99.9 %.2f (merged from %d nodes)\n' \
				"$p50" "$p99" "$p999" "${#outs[@]}"
		fi
		# Per direction (--mix) and per call (write, sync), from the merge.
		[ "${#lines[@]}" = 0 ] || printf '%s\n' "${lines[@]}"
		[ "${#steadies[@]}" = 0 ] || steady_lines "$dir" "$note" ${okhosts[@]+"${okhosts[@]}"} -- "${steadies[@]}"
	fi
	printf '%s\t%s\t%.17g\t%s%s\n' "$iter" "$counted" "$sum" "$unit" "$vals" >>"$WORK/rec.$threads.$key.tsv"
	# Its record, from the merge and the nodes' records (merge --iteration-record).
	k=true v=true
	[ "$NFAIL" = 0 ] || k=false
	[[ $note != *"NOT CONCURRENT"* ]] || v=false
	"$AT_IO_LOCAL_PATH" merge --iteration-record --iteration "$iter" --start-at "$START" --complete "$k" \
		--concurrent "$v" --ok-nodes "$((${#HOSTS[@]} - NFAIL))" --unit "$unit" \
		--max-skew-sec "$(us_to_sec "$max_us")" ${merge[@]+"${merge[@]}"} -- ${nodes[@]+"${nodes[@]}"} \
		>>"$WORK/rec.$threads.$key.jsonl" 2>"$dir/record.err" ||
		warn "atio merge --iteration-record failed: $(head -n 1 "$dir/record.err")"
	[ "$counted" = 0 ] || [ "${#merge[@]}" = 0 ] || mv -f "$dir/merge.json" "$WORK/iter.$threads.$key.$iter.json"
	# A sweep's point (sweep.sh) keeps the documents its merge summed.
	[ -z "${POINT_KEY:-}" ] || sweep_keep_docs "$dir" "$key" ${outs[@]+"${outs[@]}"}
	rm -rf "$dir"
}

# --steady: print the cluster's steady-state lines of the merge (steady_line
# in merge --values, after --), its documents named by their nodes ($3...,
# the hosts of the documents in the order merged, before --), the first
# line followed by the iteration's note $2 when it has one (a failed node
# is not in the sum: said, never silent). $1 is the run's directory.
steady_lines() {
	local dir=$1 note=$2 hosts=() l k
	shift 2
	while [ "$1" != -- ]; do hosts+=("$1"); shift; done
	shift
	for l in "$@"; do
		if [[ $l == "steady (cluster of "* ]]; then
			l="${l/ documents)/ nodes)}${note}"
		elif [[ $l == "steady of each document alone:"* ]]; then
			l="steady of each node alone:${l#*alone:}"
			for k in "${!hosts[@]}"; do l=${l//"[$((k + 1))]"/${hosts[k]}}; done
		fi
		for k in "${!HOSTS[@]}"; do l=${l//"$dir/$k.out"/${HOSTS[k]}}; done
		printf '%s\n' "$l"
	done
}

# Test $1 with $2 threads: its section line, atio's settings header, the
# iterations (each after a pause) and the average line; its summary goes
# to sum.THREADS.TEST.json.
run_test() {
	local name=$1 threads=$2 time=$TIME iters=$ITERATIONS it extras=1
	[ "$name" != warmup ] || { time=$WARMUP_TIME iters=1 extras=0; }
	atio_args "$name" "$threads" "$time"
	printf -- '---=== %s (%sthr) ===---\n' "$T_TITLE" "$threads"
	# The seed of -a is not the nodes' seed, nor the filesystem here theirs:
	# leave them out.
	"$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" | grep -Ev '^(Seed|Filesystem):' || true
	# The word of atio's option stays off this line: grep rate finds results only.
	[ -z "$NODE_CAP" ] || [ "$name" = warmup ] ||
		printf 'cap: %s %s on each node (ATIO_OPTS), not on the cluster: the sum may reach %s times that\n' \
			"$NODE_CAP" "$T_UNIT" "${#HOSTS[@]}"
	for ((it = 1; it <= iters; it++)); do
		pause
		run_once "$name" "$threads" "$time" "$it"
	done
	test_summary "$WORK/rec.$threads.$name.tsv" "$threads" "$name" "$WORK/sum.$threads.$name.json" |
		print_test_summary "$extras"
}

# The check step of TESTS: atio --check of the files of $1 threads on every
# node (no common start, no time limit: reading them takes what it takes),
# each node's summary line, or a FAILURE with the bad ranges atio named;
# then how many nodes' data checked out. A node's bad data makes the exit
# status 1 and is never a figure in a sum.
check_data() {
	local dir
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	printf -- '---=== Check (%sthr) ===---\n' "$1"
	launch_run check "$1" 0 "$dir" 0
	print_nodes "$dir" 1
	printf 'Check: the data of %d of %d nodes checked out%s\n' "$((${#HOSTS[@]} - NFAIL))" \
		"${#HOSTS[@]}" "$([ "$NFAIL" = 0 ] || echo " (FAILURE: $FAILED_HOSTS)")"
	[ "$NFAIL" = 0 ] || FAILED=1
	rm -rf "$dir"
}

# Create and fill the files of $1 threads on every node ("Loading in N
# threads..."), passing atio's warnings on.
load_files() {
	local dir i
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	echo "Loading in $1 threads..."
	launch_run load "$1" "$LOAD_TIME" "$dir" 0
	print_nodes "$dir" 0
	for i in "${!HOSTS[@]}"; do
		{ grep -h 'warning' "$dir/$i.err" 2>/dev/null || true; } | sed "s|^|$PROG: ${HOSTS[$i]}: |" >&2
	done
	[ "$NFAIL" = 0 ] || FAILED=1
	rm -rf "$dir"
}
