# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the settings it sets and reads are shared with the other parts
#
# atio-parallel.sh, sourced part: the metadata tests. Each of mdcreate,
# mdstat, mdread, mdrename and mddelete is one phase of atio --meta, run
# on every node at one instant, so that the driver's wait for every node
# between two tests is the barrier between two phases (as mdtest's): no
# node stats a file that another has not finished creating. Each node works
# in a tree of its own in its test directory; with MD_NEIGHBOUR, mdstat
# and mdread on node i go to node i+1's tree (the last node's to the
# first's), which needs the nodes to share the test directory. With
# MD_SHARED every node works in one tree, DIR/atio-meta, as member I of
# the N nodes (atio --shared-by I/N, with a seed of the directory and the
# nodes in their order, so that a tree other nodes made is refused rather
# than taken, and one these nodes left is theirs again), and
# MD_NEIGHBOUR is atio's --neighbour there. The nodes' documents are
# summed by the local atio's merge, phase by phase.

MD_TESTS="mdcreate mdstat mdread mdrename mddelete"

# True when test $1 is a metadata test.
md_test() {
	[[ " $MD_TESTS " == *" $1 "* ]]
}

# True when TESTS has a data test (one that needs the loaded files).
has_data_tests() {
	local t
	for t in "${TEST_LIST[@]}"; do
		md_test "$t" || return 0
	done
	return 1
}

# Set T_OPTS, T_TITLE and T_UNIT of metadata test $1 (as test_info does).
md_test_info() {
	local phase=${1#md}
	T_OPTS="--meta $phase" T_UNIT="ops/s"
	T_TITLE="Metadata ${phase}"
}

# Check the metadata settings (validate): exit 2 naming a bad one.
md_validate() {
	local t n last=-1 order MD_LAST=""
	is_count "$MD_FILES" || die "MD_FILES (--md-files) '$MD_FILES': not a whole number from 1 to 999999999"
	is_count "$MD_DIRS" || die "MD_DIRS (--md-dirs) '$MD_DIRS': not a whole number from 1 to 999999999"
	[[ $MD_FILE_SIZE =~ ^[0-9][0-9.]*[A-Za-z]*$ ]] || die "MD_FILE_SIZE (--md-file-size) '$MD_FILE_SIZE': not a size such as 0 or 4K"
	[ "$MD_NEIGHBOUR" = 0 ] || [ "$MD_NEIGHBOUR" = 1 ] || die "MD_NEIGHBOUR $(shown "$MD_NEIGHBOUR"): not 0 (each node reads its own files) nor 1 (--md-neighbour)"
	# The phases in their order: a tree is made, used, then removed.
	for n in "${!TEST_LIST[@]}"; do
		t=${TEST_LIST[n]}
		md_test "$t" || continue
		order=" $MD_TESTS "
		order=${order%% "$t" *}
		read -ra order <<<"$order"
		[ "${#order[@]}" -gt "$last" ] ||
			die "TESTS (--tests) '$TESTS': $t after ${MD_LAST}: the metadata tests go in the order of their phases ($MD_TESTS)"
		last=${#order[@]} MD_LAST=$t
	done
	[ "$MD_SHARED" = 0 ] || [ "$MD_SHARED" = 1 ] || die "MD_SHARED $(shown "$MD_SHARED"): not 0 (a tree each node) nor 1 (--md-shared)"
	if [ "$MD_SHARED" = 1 ]; then
		[ "${#HOSTS[@]}" -ge 2 ] || die "MD_SHARED (--md-shared): the nodes share one tree: give 2 nodes or more"
		[ "$NODE_DIR" = subdir ] || die "MD_SHARED (--md-shared) with NODE_DIR=given: the shared tree goes in the test directory every node shares; leave NODE_DIR unset"
		# One seed for these nodes in this directory: the members know
		# their tree by it (a tree other nodes made there is refused).
		MD_SEED=$(printf '%s\n' "${REMOTE_PCS_MOUNT_PATH%/}" "${HOSTS[@]}" | cksum)
		MD_SEED=${MD_SEED%% *}
	fi
	if [ "$MD_NEIGHBOUR" = 1 ]; then
		[ "${#HOSTS[@]}" -ge 2 ] || die "MD_NEIGHBOUR (--md-neighbour): each node reads the next node's files: give 2 nodes or more"
		[ "$NODE_DIR" = subdir ] || die "MD_NEIGHBOUR (--md-neighbour) with NODE_DIR=given: the nodes' trees must be in subdirectories of one shared test directory"
	fi
}

# After preparation: with MD_NEIGHBOUR or MD_SHARED, every node must see
# every other's tree (one shared test directory); exit 2 otherwise.
md_check_shared() {
	[ "$MD_NEIGHBOUR" = 1 ] || [ "$MD_SHARED" = 1 ] || return 0
	md_test_listed || return 0
	[ "$MD_SHARED" = 0 ] || [ "${SHARED_ALL:-0}" = 1 ] ||
		die "MD_SHARED (--md-shared): the nodes do not all share the test directory $REMOTE_PCS_MOUNT_PATH (see above): they cannot work in one tree there"
	[ "${SHARED_ALL:-0}" = 1 ] ||
		die "MD_NEIGHBOUR (--md-neighbour): the nodes do not all share the test directory $REMOTE_PCS_MOUNT_PATH (see above): node i could not read node i+1's files"
}

# True when TESTS has a metadata test.
md_test_listed() {
	local t
	for t in "${TEST_LIST[@]}"; do
		! md_test "$t" || return 0
	done
	return 1
}

# Set ARGS for metadata test $1 with $2 threads (atio_args): the phase on
# the node's own tree, -f at ARGS_DIR_AT; with MD_NEIGHBOUR, stat and read
# take --neighbour-dir, its value at ARGS_NB_AT (args_for_node). With
# MD_SHARED: -f the test directory for all, --shared-by's value at
# ARGS_MEMBER_AT, and --neighbour for stat and read with MD_NEIGHBOUR.
md_args() {
	md_test_info "$1"
	ARGS=(--meta "${1#md}" -p "$2" --files "$MD_FILES" --file-size "$MD_FILE_SIZE" --dirs "$MD_DIRS" -f)
	ARGS_DIR_AT=${#ARGS[@]}
	ARGS+=("$TEST_DIR_SHOWN")
	ARGS_NB_AT="" ARGS_MEMBER_AT=""
	if [ "$MD_SHARED" = 1 ]; then
		# The test directory itself for every node (args_for_node), each its member number.
		ARGS[ARGS_DIR_AT]=${REMOTE_PCS_MOUNT_PATH%/}
		ARGS+=(--shared-by)
		ARGS_MEMBER_AT=${#ARGS[@]}
		ARGS+=("0/${#HOSTS[@]}" --seed "$MD_SEED")
		[ "$MD_NEIGHBOUR" = 0 ] || { [ "$1" != mdstat ] && [ "$1" != mdread ]; } || ARGS+=(--neighbour)
	elif [ "$MD_NEIGHBOUR" = 1 ] && { [ "$1" = mdstat ] || [ "$1" = mdread ]; }; then
		ARGS+=(--neighbour-dir)
		ARGS_NB_AT=${#ARGS[@]}
		ARGS+=("$TEST_DIR_SHOWN")
	fi
	ARGS+=(${ATIO_EXTRA[@]+"${ATIO_EXTRA[@]}"})
}

# The node's end of a metadata run (run_job): node $1 of the run in
# directory $2, whose atio ended with status $3. Its result line and phase
# line come from the local atio's merge of its one document.
md_job_end() {
	local i=$1 dir=$2 rc=$3 why="" v
	if [ "$rc" = 0 ] && "$AT_IO_LOCAL_PATH" merge "$dir/$i.out" >"$dir/$i.mtext" 2>"$dir/$i.merr"; then
		grep -v '^merged: ' "$dir/$i.mtext" >"$dir/$i.result" || true
		v=$(sed -n 's/.*: { \([0-9.e+-]*\) } .*/\1/p' "$dir/$i.result" | head -n 1)
		printf '%s\tops/s\n' "${v:-0}" >"$dir/$i.value"
		: >"$dir/$i.ok"
	else
		case $rc in
		0) why="its document could not be read: $(head -n 1 "$dir/$i.merr" 2>/dev/null)" ;;
		130) why="atio was interrupted (exit 130)" ;;
		*) why=$(exit_reason "$i" "$dir" "$rc")
			why=${why:-atio exited with status $rc} ;;
		esac
		[ ! -e "$dir/$i.notready" ] || why=$(<"$dir/$i.notready")
		{ printf '%s\n' "$why"; node_err "$dir/$i.err" | head -n 5; } >"$dir/$i.why"
	fi
	echo "$rc" >"$dir/$i.rc"
}

# Print $1 as a JSON string (quotes, backslashes and control characters escaped).
json_str() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//[[:cntrl:]]/ }
	printf '"%s"' "$s"
}

# One run of metadata test $1 ($2 threads), iteration $3: launch it on
# every node at one instant, print the nodes' lines, then the sum of the
# nodes' own figures (the at_io_parallel sum line), the phase's merged
# line (every node's operations over the slowest node's time, and the sum
# of the nodes' own figures) and the start skew. An iteration with a
# failed node is INCOMPLETE, one whose start skew is above MAX_SKEW
# percent of the phase's time NOT CONCURRENT: neither counts in the
# average. Its record goes to rec.THREADS.TEST.tsv and .jsonl (for -o).
md_run_once() {
	local name=$1 threads=$2 iter=$3 dir i outs=() sum=0 note="" counted=1 k=true c=true
	local skew=0 elapsed=0 merged=null node_json="" v l fast=""
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	launch_run "$name" "$threads" 0 "$dir" 1
	print_nodes "$dir" 1
	for i in "${!HOSTS[@]}"; do
		v=null
		if [ -e "$dir/$i.ok" ]; then
			outs+=("$dir/$i.out")
			IFS=$'\t' read -r v _ <"$dir/$i.value" || v=0
		fi
		# Its line in the record: with its document, for a merge of one's own.
		if [ -e "$dir/$i.ok" ]; then
			node_json+="${node_json:+,}{\"host\":$(json_str "${HOSTS[$i]}"),\"ok\":true,\"value\":$v,\"why\":null,\"document\":$(tr -d '\n' <"$dir/$i.out")}"
		else
			l=$(head -n 1 "$dir/$i.why" 2>/dev/null) || l="no answer"
			node_json+="${node_json:+,}{\"host\":$(json_str "${HOSTS[$i]}"),\"ok\":false,\"value\":null,\"why\":$(json_str "$l"),\"document\":null}"
		fi
	done
	if [ "${#outs[@]}" -gt 0 ]; then
		if "$AT_IO_LOCAL_PATH" merge "${outs[@]}" >"$dir/merge.txt" 2>"$dir/merge.err" &&
			"$AT_IO_LOCAL_PATH" merge --json "${outs[@]}" >"$dir/merge.json" 2>>"$dir/merge.err"; then
			merged=$(tr -d '\n' <"$dir/merge.json")
			skew=$(sed -n 's/^start skew: \([0-9.]*\) s.*/\1/p' "$dir/merge.txt")
			elapsed=$(sed -n 's/^time: \([0-9.]*\) sec;.*/\1/p' "$dir/merge.txt")
		else
			warn "atio merge failed: $(head -n 1 "$dir/merge.err")"
			NFAIL=${#HOSTS[@]}
			outs=()
		fi
	fi
	# The nodes' own figures added up, as at_io_parallel.sh added them.
	sum=$(for i in "${!HOSTS[@]}"; do [ ! -e "$dir/$i.ok" ] || cut -f 1 "$dir/$i.value"; done |
		awk '{ s += $1 } END { printf "%.17g", s }')
	[ "$NFAIL" = 0 ] || { note=" (INCOMPLETE: $((${#HOSTS[@]} - NFAIL)) of ${#HOSTS[@]} nodes)"; counted=0 k=false; FAILED=1; }
	if [ "${#outs[@]}" -gt 1 ] && awk -v s="${skew:-0}" -v t="${elapsed:-0}" -v p="$MAX_SKEW" \
		'BEGIN { exit !(s > t * p / 100) }'; then
		note+=" (NOT CONCURRENT: skew $(printf '%.4f' "$skew") s)"
		counted=0 c=false FAILED=1
	fi
	# A phase too fast to time on a node has no rate there: the sum is no figure.
	if [ "${#outs[@]}" -gt 0 ] && grep -q 'too fast to measure' "$dir/merge.txt"; then
		note+=" (TOO FAST TO MEASURE: no figure, not in the average; give more --md-files)"
		counted=0 fast=1
	fi
	printf 'Sum value on iteration %d = { %.5f } ops/s;%s\n' "$iter" "${sum:-0}" "$note"
	if [ "${#outs[@]}" -gt 0 ]; then
		grep -v -e '^time: ' -e '^merged: ' "$dir/merge.txt" | sed 's/^/cluster /' || true
	fi
	printf '%s\t%s\t%.17g\tops/s\n' "$iter" "$counted" "${sum:-0}" >>"$WORK/rec.$threads.$name.tsv"
	printf '{"iteration":%d,"start_at":%s,"complete":%s,"concurrent":%s,"ok_nodes":%d,"nodes_sum_ops_per_sec":%s,"nodes":[%s],"merged":%s}\n' \
		"$iter" "$START" "$k" "$c" "$((${#HOSTS[@]} - NFAIL))" \
		"$([ "${#outs[@]}" -gt 0 ] && [ -z "$fast" ] && echo "${sum:-0}" || echo null)" \
		"$node_json" "$merged" >>"$WORK/rec.$threads.$name.jsonl"
	rm -rf "$dir"
}

# Metadata test $1 with $2 threads: its section line, atio's settings
# header, the iterations (mddelete once: it removes the files the others
# need) and the average of the counted sums; its summary goes to
# sum.THREADS.TEST.json.
md_run_test() {
	local name=$1 threads=$2 iters=$ITERATIONS it line k avg lo hi
	[ "$name" != mddelete ] || iters=1
	atio_args "$name" "$threads" 0
	printf -- '---=== %s (%sthr) ===---\n' "$T_TITLE" "$threads"
	"$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" | grep -Ev '^(Seed|Filesystem):' || true
	[ "$iters" = "$ITERATIONS" ] || echo "mddelete: 1 iteration (it removes the files it deletes)"
	for ((it = 1; it <= iters; it++)); do
		pause
		md_run_once "$name" "$threads" "$it"
	done
	line=$(awk -F '\t' '{ n++ } $2 == 1 { c++; s += $3; if (c == 1 || $3 < lo) lo = $3; if (c == 1 || $3 > hi) hi = $3 }
		END { if (c) printf "%d %d %.17g %.17g %.17g", n, c, s / c, lo, hi; else printf "%d 0 - - -", n }' \
		"$WORK/rec.$threads.$name.tsv")
	read -r it k avg lo hi <<<"$line"
	if [ "$k" = 0 ]; then
		printf -- '---=== Average value: none, no complete iteration (0 of %s) ===---\n' "$it"
		printf '{"test":"%s","phase":"%s","unit":"ops/s","runs":%d,"counted":0,"average":null,"min":null,"max":null}\n' \
			"$name" "${name#md}" "$it" >"$WORK/sum.$threads.$name.json"
		return 0
	fi
	printf -- '---=== Average value = { %.5f } ops/s; ===---' "$avg"
	[ "$k" = "$it" ] || printf ' (INCOMPLETE: %s of %s iterations complete)' "$k" "$it"
	printf '\n'
	printf '{"test":"%s","phase":"%s","unit":"ops/s","runs":%d,"counted":%d,"average":%s,"min":%s,"max":%s}\n' \
		"$name" "${name#md}" "$it" "$k" "$avg" "$lo" "$hi" >"$WORK/sum.$threads.$name.json"
}
