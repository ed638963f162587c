# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# atio-parallel.sh, sourced part: the output. The nodes' result lines, the
# sums and the test summaries, the -o document, and the JSON helpers that
# write and read it.

# Print string $1 as a JSON string: quote, backslash and control
# characters escaped.
json_str() {
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/\\t}
	s=${s//$'\r'/\\r}
	s=${s//[[:cntrl:]]/?}
	printf '"%s"' "$s"
}

# Print lines of file $1 as a JSON array of strings, empty lines left out.
json_lines() {
	local l out="" lines=()
	[ ! -e "$1" ] || mapfile -t lines <"$1"
	for l in ${lines[@]+"${lines[@]}"}; do
		[ -z "$l" ] || out+="${out:+,}$(json_str "$l")"
	done
	printf '[%s]' "$out"
}

# Set variable $1 to the value of the first member named $2 in the JSON
# line $3 (a number, a string with its quotes, true, false or null), or
# to "null" when there is none. Enough for `atio merge --json`, whose
# members come in a fixed order: the first "p50" is that of latency_ns.
json_get() {
	local re="\"$2\":(-?[0-9][0-9.eE+-]*|\"[^\"]*\"|true|false|null)"
	if [[ $3 =~ $re ]]; then
		printf -v "$1" '%s' "${BASH_REMATCH[1]}"
	else
		printf -v "$1" '%s' null
	fi
}

# Print at_io_iops' result line for time $1, value $2 and unit $3.
result_line() {
	printf 'time: %f sec; rate: { %.5f } %s;\n' "$1" "$2" "$3"
}

# Summarise one test from its iteration records in file $1 (one line per
# iteration: iteration, counted (1: complete and concurrent), the exact
# sum, the unit, then each node's value or "-") and the merge documents of
# its counted iterations (iter.THREADS.TEST.N.json), with $2 threads and
# test name $3: print "RUNS COUNTED AVERAGE MIN MAX STDDEV UNIT" (the
# figures over the counted iterations only, from atio merge --iterations;
# "-" where there are none), then one "HOST PERCENT" line per node, its
# share of the counted sums; write the same as one JSON object to file $4.
test_summary() {
	local runs=0 n=0 unit="" u line m="" avg=null min=null max=null sd=null shares="" i=0 p re files=()
	while IFS=$'\t' read -r _ _ _ u _; do
		runs=$((runs + 1)) unit=$u
	done <"$1"
	for line in "$WORK/iter.$2.$3."*.json; do
		[ -e "$line" ] && files+=("$line")
	done
	n=${#files[@]}
	if [ "$n" -gt 0 ] && ! m=$("$AT_IO_LOCAL_PATH" merge --iterations --json "${files[@]}" 2>&1); then
		warn "atio merge --iterations failed: ${m%%$'\n'*}"
		n=0 m=""
	fi
	if [ "$n" = 0 ]; then
		printf '%s 0 - - - - %s\n' "$runs" "$unit"
	else
		json_get avg average "$m"
		json_get min min "$m"
		json_get max max "$m"
		json_get sd stddev "$m"
		printf '%s %s %s %s %s %s %s\n' "$runs" "$n" "$avg" "$min" "$max" "${sd/null/-}" "$unit"
		re='"shares_percent":\[([^]]*)\]'
		[[ $m =~ $re ]] || true
		for p in ${BASH_REMATCH[1]//,/ }; do
			printf '%s %s\n' "${HOSTS[$i]}" "$p"
			shares+="${shares:+,}{\"host\":$(json_str "${HOSTS[$i]}"),\"percent\":$p}"
			i=$((i + 1))
		done
	fi
	printf '{"threads":%s,"test":%s,"unit":%s,"runs":%d,"complete_iterations":%d,"average":%s,"min":%s,"max":%s,"stddev":%s,"shares":[%s]}\n' \
		"$(json_words "$2" n | tr -d '[]')" "$(json_str "$3")" "$(json_str "$unit")" "$runs" "$n" \
		"$avg" "$min" "$max" "$sd" "$shares" >"$4"
}

# Print the guide's average line for the test summary on stdin (from
# test_summary) and, with $1 = 1, the share and spread lines that
# at_io_parallel.sh lacked.
print_test_summary() {
	local runs ncomp avg min max sd unit h p shares=""
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
}

# Print nanoseconds $1 (a whole number) as microseconds, exactly.
ns_to_us() {
	printf '%d.%03d' "$(($1 / 1000))" "$(($1 % 1000))"
}

# Print each node's `[i] HH:MM:SS [SUCCESS|FAILURE] host` line for the jobs
# in directory $1, then (with $2 = 1) its result line or, when it failed,
# the first lines of its errors; set NFAIL and FAILED_HOSTS.
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

# Print the words of $1 as a JSON array of strings ($2 = n: whole numbers
# as numbers, other words, such as auto, as strings).
json_words() {
	local w out="" words=()
	read -ra words <<<"$1" || true
	for w in ${words[@]+"${words[@]}"}; do
		if [ "${2:-}" = n ] && [[ $w =~ ^[0-9]+$ ]]; then out+="${out:+,}$((10#$w))"; else out+="${out:+,}$(json_str "$w")"; fi
	done
	printf '[%s]' "$out"
}

# Write the -o file: one JSON document with the settings, the nodes, and
# per thread count and test the summary and every iteration with every
# node's result; $1 is the exit status. False, with a warning, when it
# could not be written.
write_matrix() {
	local i n t first_t first_n off atio rec sum
	{
		printf '{"settings":{"atio_version":%s,"time_sec":%s,"file_size":%s,"threads":%s,' \
			"$(json_str "$LOCAL_VERSION")" "$TIME" "$(json_str "$FILE_SIZE")" "$(json_words "$THREADS" n)"
		printf '"iterations":%s,"blocksize":%s,"remote_binaries_path":%s,"remote_pcs_mount_path":%s,' \
			"$((10#$ITERATIONS))" "$(json_str "$BLOCKSIZE")" "$(json_str "$REMOTE_BINARIES_PATH")" \
			"$(json_str "$REMOTE_PCS_MOUNT_PATH")"
		printf '"pause_sec":%s,"tests":%s,"atio_opts":%s,"warmup_time_sec":%s,"start_margin_sec":%s,' \
			"$PAUSE" "$(json_words "$TESTS")" "$(json_str "$ATIO_OPTS")" "$WARMUP_TIME" "$START_MARGIN"
		printf '"overrun_sec":%s,"ready_timeout_sec":%s,"max_skew_percent":%s,"profile":%s,' \
			"$OVERRUN" "$READY_TIMEOUT" "$MAX_SKEW" "$(json_str "$PROFILE")"
		printf '"node_cap":%s},"nodes":[' "$(if [ -n "$NODE_CAP" ]; then json_str "$NODE_CAP"; else echo null; fi)"
		for i in "${!HOSTS[@]}"; do
			off=${NODE_OFFSET[$i]:-unknown}
			is_number "${off#-}" || off=null
			atio=null
			[ -z "${NODE_ATIO[$i]:-}" ] || atio=$(json_str "${NODE_ATIO[$i]}")
			printf '%s{"host":%s,"clock_offset_sec":%s,"atio":%s}' "$([ "$i" = 0 ] || echo ,)" \
				"$(json_str "${HOSTS[$i]}")" "$off" "$atio"
		done
		printf '],"results":['
		first_t=1
		for n in "${THREAD_LIST[@]}"; do
			ls "$WORK"/rec."$n".*.jsonl >/dev/null 2>&1 || continue
			[ "$first_t" = 1 ] || printf ','
			first_t=0
			printf '{"threads":%s,"tests":[' "$(json_words "$n" n | tr -d '[]')"
			first_n=1
			for t in warmup "${TEST_LIST[@]}"; do
				rec="$WORK/rec.$n.$t.jsonl"
				[ -e "$rec" ] || continue
				[ "$first_n" = 1 ] || printf ','
				first_n=0
				sum="$WORK/sum.$n.$t.json"
				if [ -s "$sum" ]; then
					# The summary without its closing brace, then the iterations.
					sum=$(cat "$sum")
					printf '%s,"iterations":[' "${sum%\}}"
				else
					printf '{"test":%s,"iterations":[' "$(json_str "$t")"
				fi
				paste -s -d , "$rec"
				printf ']}'
			done
			printf ']}'
		done
		printf '],"interrupted":%s,"exit_status":%d}\n' \
			"$([ "$INTERRUPTED" = 1 ] && echo true || echo false)" "$1"
	} >"$WORK/matrix.json" 2>"$WORK/matrix.err" || {
		warn "-o $OUT_JSON: could not make the document: $(head -n 1 "$WORK/matrix.err")"
		return 1
	}
	write_out_file "$WORK/matrix.json"
}

# Put file $1 at OUT_PATH (see out_target): copied to a new temporary file
# beside it, which then replaces it (mv -T: never into a directory made
# there meanwhile), keeping the mode of the file it replaces. What is at
# OUT_PATH now and is not a regular file is left alone. False, with a
# warning, when the document could not be written.
write_out_file() {
	local d tmp="" err="$WORK/out.err"
	if [ -L "$OUT_PATH" ] || { [ -e "$OUT_PATH" ] && [ ! -f "$OUT_PATH" ]; }; then
		warn "-o $OUT_JSON: $OUT_PATH is no longer a regular file: the results were not written"
		return 1
	fi
	d=$(dirname -- "$OUT_PATH")
	if tmp=$(mktemp -- "$d/.${OUT_PATH##*/}.XXXXXX" 2>"$err") && cat -- "$1" >"$tmp" 2>"$err" &&
		{ [ ! -e "$OUT_PATH" ] || chmod --reference="$OUT_PATH" -- "$tmp" 2>"$err"; } &&
		mv -f -T -- "$tmp" "$OUT_PATH" 2>"$err"; then
		return 0
	fi
	[ -z "$tmp" ] || rm -f -- "$tmp"
	warn "-o $OUT_JSON: could not write the results: $(head -n 1 "$err")"
	return 1
}
