# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# atio-parallel.sh, sourced part: the output. The nodes' result lines, the
# sums and the test summaries, and the -o document, whose JSON atio merge
# writes from the files named here.

# Summarise one test from its iteration records in file $1 (one line per
# iteration: iteration, counted (1: complete and concurrent), the exact
# sum, the unit, then each node's value or "-") and the merge documents of
# its counted iterations (iter.THREADS.TEST.N.json), with $2 threads and
# test name $3: print "RUNS COUNTED AVERAGE MIN MAX STDDEV UNIT" (the
# figures over the counted iterations only; "-" where there are none),
# then one "HOST PERCENT" line per node, its share of the counted sums,
# and for --mix tests a "+ LINE" per direction, its average;
# atio merge --test-summary computes them and writes them as one JSON
# object to file $4.
test_summary() {
	local runs=0 unit="" u f l files=()
	while IFS=$'\t' read -r _ _ _ u _; do
		runs=$((runs + 1)) unit=$u
	done <"$1"
	for f in "$WORK/iter.$2.$3."*.json; do
		[ -e "$f" ] && files+=("$f")
	done
	printf '%s\n' "${HOSTS[@]}" >"$WORK/hosts"
	"$AT_IO_LOCAL_PATH" merge --test-summary --out "$4" --threads "$2" --test "$3" --unit "$unit" \
		--runs "$runs" --hosts "$WORK/hosts" -- ${files[@]+"${files[@]}"} 2>"$WORK/summary.err" || {
		l=""
		read -r l <"$WORK/summary.err" || true
		warn "atio merge --test-summary failed: $l"
		# Nothing said at all (bad usage): a summary with no figure.
		[ -s "$4" ] || printf '%s 0 - - - - %s\n' "$runs" "$unit"
	}
}

# Print the guide's average line for the test summary on stdin (from
# test_summary) and, with $1 = 1, the share and spread lines that
# at_io_parallel.sh lacked.
print_test_summary() {
	local runs ncomp avg min max sd unit h p shares="" dirs=()
	read -r runs ncomp avg min max sd unit
	if [ "$ncomp" = 0 ]; then
		printf -- '---=== Average value: none, no complete iteration (0 of %s) ===---\n' "$runs"
		return 0
	fi
	printf -- '---=== Average value = { %.5f } %s; ===---' "$avg" "$unit"
	[ "$ncomp" = "$runs" ] || printf ' (INCOMPLETE: %s of %s iterations complete)' "$ncomp" "$runs"
	printf '\n'
	if [ "$1" != 1 ]; then
		cat >/dev/null
		return 0
	fi
	while read -r h p; do
		# A line of its own, per direction (--mix), after the others.
		if [ "$h" = + ] && [[ $p == read:* || $p == write:* ]]; then
			dirs+=("$p")
			continue
		fi
		printf -v p '%.2f' "$p"
		shares+="$h $p%, "
	done
	[ -z "$shares" ] || printf 'share of the sum: %s\n' "${shares%, }"
	if [ "$sd" = - ]; then
		printf 'sums over 1 complete iteration: min %.5f, max %.5f, stddev n/a %s\n' "$min" "$max" "$unit"
	else
		printf 'sums over %s complete iterations: min %.5f, max %.5f, stddev %.5f %s\n' \
			"$ncomp" "$min" "$max" "$sd" "$unit"
	fi
	[ "${#dirs[@]}" = 0 ] || printf '%s\n' "${dirs[@]}"
}

# Print each node's `[i] HH:MM:SS [SUCCESS|FAILURE] host` line for the jobs
# in directory $1, then (with $2 = 1) its result line and the lines per
# direction or call under it or, when it failed, the first lines of its
# errors; set NFAIL and FAILED_HOSTS.
print_nodes() {
	local dir=$1 show=$2 i t l
	NFAIL=0 FAILED_HOSTS=""
	# Read with the shell's own read and mapfile: a fork a node costs a
	# thousand nodes seconds.
	for i in "${!HOSTS[@]}"; do
		t=""
		{ read -r t <"$dir/$i.time"; } 2>/dev/null || printf -v t '%(%H:%M:%S)T' -1
		if [ -e "$dir/$i.ok" ]; then
			printf '[%d] %s [SUCCESS] %s\n' "$((i + 1))" "$t" "${HOSTS[$i]}"
			if [ "$show" = 1 ]; then
				mapfile -t l <"$dir/$i.result"
				[ "${#l[@]}" = 0 ] || printf '%s\n' "${l[@]}"
				if [ -e "$dir/$i.note2" ]; then
					mapfile -t l <"$dir/$i.note2"
					[ "${#l[@]}" = 0 ] || printf '%s\n' "${l[@]}"
				fi
				# Its read and write, or write and sync latency (merge --record).
				if [ -e "$dir/$i.lines" ]; then
					mapfile -t l <"$dir/$i.lines"
					[ "${#l[@]}" = 0 ] || printf '%s\n' "${l[@]}"
				fi
			fi
			if [ -e "$dir/$i.note" ]; then
				read -r l <"$dir/$i.note" || true
				printf '%s: %s: %s\n' "$PROG" "${HOSTS[$i]}" "$l" >&2
			fi
		else
			printf '[%d] %s [FAILURE] %s\n' "$((i + 1))" "$t" "${HOSTS[$i]}"
			# As atio does, keep the word rate to result lines (grep rate).
			{ cat "$dir/$i.why" 2>/dev/null || head -n 5 "$dir/$i.err" 2>/dev/null || true; } |
				sed -e 's/rate/r\\x61te/g' -e 's/^/    /'
			NFAIL=$((NFAIL + 1))
			FAILED_HOSTS+="${FAILED_HOSTS:+, }${HOSTS[$i]}"
		fi
	done
}

# Write the -o file, and --csv's rows from it: one JSON document with the
# settings, the nodes (each with the directory it ran in), and
# per thread count and test the summary and every iteration with every
# node's result (atio merge --matrix, from the node list, the list of the
# tests' summaries and records, and the settings); $1 is the exit status.
# False, with a warning, when it could not be written.
write_matrix() {
	local i n t sum l="" flags=()
	[ "$INTERRUPTED" != 1 ] || flags=(--interrupted)
	for i in "${!HOSTS[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "${HOSTS[$i]}" "${NODE_OFFSET[$i]:-unknown}" "${NODE_ATIO[$i]:-}" \
			"${NODE_TEST_DIR[$i]}"
	done >"$WORK/nodes.tsv"
	for n in "${THREAD_LIST[@]}"; do
		for t in warmup "${TEST_LIST[@]}"; do
			[ -e "$WORK/rec.$n.$t.jsonl" ] || continue
			sum="$WORK/sum.$n.$t.json"
			[ -s "$sum" ] || sum=""
			printf '%s\t%s\t%s\t%s\n' "$n" "$t" "$sum" "$WORK/rec.$n.$t.jsonl"
		done
	done >"$WORK/results.tsv"
	"$AT_IO_LOCAL_PATH" merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" \
		--exit-status "$1" ${flags[@]+"${flags[@]}"} \
		--set "atio_version=$LOCAL_VERSION" --set "time_sec=$TIME" --set "file_size=$FILE_SIZE" \
		--set "threads=$THREADS" --set "iterations=$ITERATIONS" --set "blocksize=$BLOCKSIZE" \
		--set "remote_binaries_path=$REMOTE_BINARIES_PATH" \
		--set "remote_pcs_mount_path=$REMOTE_PCS_MOUNT_PATH" --set "node_dir=$NODE_DIR" \
		--set "pause_sec=$PAUSE" \
		--set "tests=$TESTS" --set "atio_opts=$ATIO_OPTS" --set "warmup_time_sec=$WARMUP_TIME" \
		--set "start_margin_sec=$START_MARGIN" --set "overrun_sec=$OVERRUN" \
		--set "ready_timeout_sec=$READY_TIMEOUT" --set "max_skew_percent=$MAX_SKEW" \
		--set "profile=$PROFILE" --set "node_cap=$NODE_CAP" \
		>"$WORK/matrix.json" 2>"$WORK/matrix.err" || {
		read -r l <"$WORK/matrix.err" || true
		if [ -n "$OUT_JSON" ]; then
			warn "-o $OUT_JSON: could not make the document: $l"
		else
			warn "--csv $OUT_CSV: could not make the document: $l"
		fi
		return 1
	}
	# The sweeps and curves (sweep.sh), each point with its nodes' figures.
	if [ -s "$WORK/sweeps" ]; then
		sweep_document "$WORK/matrix.json" "$WORK/matrix.sweeps.json" 2>"$WORK/matrix.err" || {
			read -r l <"$WORK/matrix.err" || true
			if [ -n "$OUT_JSON" ]; then
				warn "-o $OUT_JSON: could not add the sweeps to the document: $l"
			else
				warn "--csv $OUT_CSV: could not add the sweeps to the document: $l"
			fi
			return 1
		}
		mv -f "$WORK/matrix.sweeps.json" "$WORK/matrix.json"
	fi
	[ -z "$OUT_JSON" ] || write_out_file "$WORK/matrix.json" || l=1
	[ -z "$OUT_CSV" ] || write_csv "$WORK/matrix.json" || l=1
	[ -z "$l" ]
}

# Write the rows of -o document $1 to --csv FILE (merge --matrix-csv):
# on stdout (fd 3) for - and stdout. False, with a warning, when they
# could not be written.
write_csv() {
	local err="$WORK/csv.err"
	# For - and stdout, fd 3 duplicated, not /dev/stdout opened anew: that
	# would truncate the file the driver's stdout goes to.
	if [ "$OUT_CSV" = - ] || [ "$OUT_CSV" = stdout ]; then
		"$AT_IO_LOCAL_PATH" merge --matrix-csv - "$1" 2>"$err" >&3 && return 0
	elif "$AT_IO_LOCAL_PATH" merge --matrix-csv "$OUT_CSV" "$1" 2>"$err"; then
		return 0
	fi
	warn "--csv $OUT_CSV: could not write the results: $(sed -n '1s/^atio: merge --matrix-csv: //p' "$err")"
	return 1
}

# Put file $1 at -o FILE, as atio writes an -o file (merge --output-file):
# through a temporary file beside it renamed over it, keeping the mode and
# owner of the file it replaces, a symbolic link followed only where
# fs.protected_symlinks' rule would. False, with a warning, when the
# document could not be written.
write_out_file() {
	local err="$WORK/out.err"
	if "$AT_IO_LOCAL_PATH" merge --output-file "$OUT_JSON" "$1" 2>"$err"; then
		return 0
	fi
	warn "-o $OUT_JSON: could not write the results: $(sed -n '1s/^atio: merge --output-file: //p' "$err")"
	return 1
}
