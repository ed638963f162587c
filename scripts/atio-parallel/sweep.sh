# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the sweep's settings are shared with the other parts
#
# atio-parallel.sh, sourced part: sweeps and curves (--sweep, --curve).
# Each point is an ordinary run of the driver (every node started at one
# instant, the nodes' documents summed by atio merge); the local atio
# reads the points' records and says which point comes next (a curve's
# step with each node's cap) and what the sweep found (merge
# --sweep-plan and --sweep-summary), as atio sweep does on one node.

# Set SWEEP_WORDS to the words of the sweep for atio merge --sweep-plan
# and --sweep-summary: the axes of SWEEP, then --knee, --target,
# --stop-latency and --curve (last: its list is optional).
sweep_words() {
	SWEEP_WORDS=()
	[ -z "$SWEEP" ] || read -ra SWEEP_WORDS <<<"$SWEEP"
	[ -z "$SWEEP_KNEE" ] || SWEEP_WORDS+=(--knee "$SWEEP_KNEE")
	[ -z "$SWEEP_TARGET" ] || SWEEP_WORDS+=(--target "$SWEEP_TARGET")
	[ -z "$SWEEP_STOP_LATENCY" ] || SWEEP_WORDS+=(--stop-latency "$SWEEP_STOP_LATENCY")
	case $SWEEP_CURVE in
	'') ;;
	default) SWEEP_WORDS+=(--curve) ;;
	*) SWEEP_WORDS+=("--curve=$SWEEP_CURVE") ;;
	esac
}

# Check the sweep's settings before any node is touched (exit 2 naming the
# bad value) and set SWEEPING (1: each test is swept), SWEEP_KIND (grid or
# curve) and SWEEP_POINTS (a grid's points' options, one entry a point).
sweep_validate() {
	local plan l k v n t opt name i
	SWEEPING=0 SWEEP_KIND="" SWEEP_POINTS=() SWEEP_STEPS=""
	if [ -z "$SWEEP$SWEEP_CURVE" ]; then
		for name in SWEEP_KNEE:--knee SWEEP_TARGET:--target SWEEP_STOP_LATENCY:--stop-latency; do
			v=${name%%:*}
			[ -z "${!v}" ] ||
				die "$v (${name#*:}) $(shown "${!v}"): judges a sweep or a curve: give --sweep or --curve too"
		done
		return 0
	fi
	for name in SWEEP:--sweep SWEEP_CURVE:--curve SWEEP_KNEE:--knee SWEEP_TARGET:--target \
		SWEEP_STOP_LATENCY:--stop-latency; do
		v=${name%%:*}
		[[ ${!v} != *[[:cntrl:]]* ]] ||
			die "$v (${name#*:}) $(shown "${!v}"): a control character in it (a newline?): separate the axes with spaces"
	done
	for t in "${TEST_LIST[@]}"; do
		! md_test "$t" ||
			die "$(sweep_option_shown) with the metadata test $t: a sweep's axes are options of data runs; sweep data tests only"
	done
	sweep_words
	if ! plan=$("$AT_IO_LOCAL_PATH" merge --sweep-plan -- "${SWEEP_WORDS[@]}" 2>&1); then
		plan=${plan#atio: merge --sweep-plan: }
		# A message about an axis gets the sweep's words; an option's names it.
		[[ $plan == --* ]] || plan="$(sweep_option_shown): $plan"
		die "$plan"
	fi
	while IFS=$'\t' read -r k v; do
		case $k in
		kind) SWEEP_KIND=$v ;;
		point) SWEEP_POINTS+=("$v") ;;
		step) SWEEP_STEPS+="${SWEEP_STEPS:+, }$v%" ;;
		esac
	done <<<"$plan"
	SWEEPING=1
	for t in "${TEST_LIST[@]}"; do
		[ "$t" != check ] ||
			die "TESTS (--tests) '$TESTS': check reads the files back and has no figure to sweep: leave it out of a $SWEEP_KIND"
	done
	# An option the points set, also in ATIO_OPTS: each point would give it twice.
	for i in "${!ATIO_EXTRA[@]}"; do
		opt=${ATIO_EXTRA[i]%%=*}
		[ "$opt" != --rate ] || opt=--cap
		if [ "$SWEEP_KIND" = curve ] && [ "$opt" = --cap ]; then
			die "ATIO_OPTS (--atio-opts) $(shown "$ATIO_OPTS"): ${ATIO_EXTRA[i]%%=*}: a curve caps each node itself: leave it out"
		fi
		# A grid's points all set the same options: the first one's say which.
		[[ " ${SWEEP_POINTS[0]:-} " != *" $opt "* ]] ||
			die "ATIO_OPTS (--atio-opts) $(shown "$ATIO_OPTS"): ${ATIO_EXTRA[i]%%=*} is swept (--sweep $(shown "$SWEEP")): leave it out of ATIO_OPTS"
	done
	# Every point's options, as each node will run them.
	for n in "${THREAD_LIST[@]}"; do
		for t in "${TEST_LIST[@]}"; do
			test_info "$t"
			if [[ " ${SWEEP_POINTS[0]:-} " == *" --mix "* ]] && [[ " $T_OPTS " != *" --mix "* ]]; then
				die "--sweep $(shown "$SWEEP"): mix= sweeps the share of reads of a test that mixes them (randrw); $t does not"
			fi
			if [ "$SWEEP_KIND" = curve ]; then
				POINT_OPTS="--cap 1"
				sweep_check_point "$t" "$n" "a capped step"
				continue
			fi
			for l in "${SWEEP_POINTS[@]}"; do
				POINT_OPTS=$l
				sweep_check_point "$t" "$n" "the point $l"
			done
		done
	done
	POINT_OPTS=""
}

# The options of the sweep as given, for a message.
sweep_option_shown() {
	local s=""
	[ -z "$SWEEP" ] || s="--sweep $(shown "$SWEEP")"
	case $SWEEP_CURVE in
	'') ;;
	default) s+="${s:+ }--curve" ;;
	*) s+="${s:+ }--curve $SWEEP_CURVE" ;;
	esac
	printf '%s' "$s"
}

# atio -a of test $1 with $2 threads at the point POINT_OPTS, as the nodes
# will run it; exit 2 naming point $3 when atio refuses it.
sweep_check_point() {
	local h
	atio_args "$1" "$2" "$TIME"
	ARGS+=(--json --start-at -)
	h=$("$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" 2>&1 >/dev/null) ||
		die "atio refuses $3 of $1 with $2 threads: $(head -n 1 <<<"$h")"
}

# Put the point's options (POINT_OPTS, "--iodepth 8 -s 4K") into ARGS
# (atio_args): in place of the test's own value of that option, or after
# the test's options.
point_args() {
	local w k i found
	read -ra w <<<"$POINT_OPTS"
	for ((k = 0; k + 1 < ${#w[@]}; k += 2)); do
		found=0
		for ((i = 0; i + 1 < ARGS_DIR_AT; i++)); do
			if [ "${ARGS[i]}" = "${w[k]}" ]; then
				ARGS[i + 1]=${w[k + 1]}
				found=1
			fi
		done
		[ "$found" = 1 ] || ARGS+=("${w[k]}" "${w[k + 1]}")
	done
}

# Keep the documents that run_once's merge summed for a sweep's point
# ($3..., each in the run's directory $1; $2 the point's key) in
# docs.RUN/, and set SWEEP_DOCS to their paths, each after a tab: the
# point's merged latency is judged on them.
sweep_keep_docs() {
	local f keep="$WORK/docs.$RUN_SEQ"
	shift 2
	SWEEP_DOCS=""
	mkdir -p "$keep"
	for f in "$@"; do
		mv -f "$f" "$keep/${f##*/}"
		SWEEP_DOCS+=$'\t'"$keep/${f##*/}"
	done
}

# The summary of the sweep of test $2 with $1 threads over the points in
# the list $3 (their records): its text on stdout, its JSON to
# sweep.THREADS.TEST.json, what comes next to sweep.next.
sweep_summary() {
	"$AT_IO_LOCAL_PATH" merge --sweep-summary --points "$3" --values "$WORK/sweep.next" \
		--threads "$1" --test "$2" --out "$WORK/sweep.$1.$2.json" -- "${SWEEP_WORDS[@]}"
}

# Sweep test $1 with $2 threads: its section line and settings, then each
# point as the local atio names it (a grid's options, or a curve's
# maximum and then its steps, each node capped at its own share), each run
# on every node at one instant with its nodes' lines and sum as any
# run; then the sweep's summary.
sweep_test() {
	local name=$1 threads=$2 k=0 pts what v w host l caps
	local -a next
	pts="$WORK/sweep.$threads.$name.points"
	: >"$pts"
	atio_args "$name" "$threads" "$TIME"
	printf -- '---=== %s (%sthr) %s: %s ===---\n' "$T_TITLE" "$threads" "$SWEEP_KIND" "$(sweep_option_shown)"
	"$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" | grep -Ev '^(Seed|Filesystem):' || true
	[ -z "$NODE_CAP" ] ||
		printf 'cap: %s %s on each node (ATIO_OPTS), not on the cluster: the sum may reach %s times that\n' \
			"$NODE_CAP" "$T_UNIT" "${#HOSTS[@]}"
	printf '%s\t%s\n' "$threads" "$name" >>"$WORK/sweeps"
	while :; do
		sweep_summary "$threads" "$name" "$pts" >"$WORK/sweep.txt" 2>"$WORK/sweep.err" || {
			l=""
			read -r l <"$WORK/sweep.err" || true
			warn "atio merge --sweep-summary failed: $l"
			FAILED=1
			return 0
		}
		what="" POINT_OPTS="" POINT_CAP=() caps=""
		while IFS=$'\t' read -r l v w; do
			case $l in
			next) what=$v next=("$v" "$w") ;;
			cap) for host in "${!HOSTS[@]}"; do
					[ "${HOSTS[host]}" != "$v" ] || POINT_CAP[host]=$w
				done
				caps+="${caps:+, }$v $w" ;;
			end) [ "$v" != "no maximum" ] || FAILED=1 ;;
			esac
		done <"$WORK/sweep.next"
		[ -n "$what" ] || break
		k=$((k + 1))
		case $what in
		point) POINT_OPTS=${next[1]}
			printf -- '---=== %s (%sthr) point %d of %d: %s ===---\n' "$T_TITLE" "$threads" "$k" \
				"${#SWEEP_POINTS[@]}" "$POINT_OPTS" ;;
		maximum) printf -- '---=== %s (%sthr) step %d: maximum (uncapped) ===---\n' "$T_TITLE" "$threads" "$k" ;;
		step) printf -- '---=== %s (%sthr) step %d: %s%% of each node'\''s maximum ===---\n' "$T_TITLE" \
				"$threads" "$k" "${next[1]}"
			printf 'cap: %s %s (each node at %s%% of its own maximum in the uncapped step)\n' "$caps" \
				"$T_UNIT" "${next[1]}" ;;
		esac
		pause
		POINT_KEY="$name.sweep.$k" SWEEP_DOCS=""
		run_once "$name" "$threads" "$TIME" 1
		POINT_KEY="" POINT_OPTS="" POINT_CAP=()
		printf '%s%s\n' "$WORK/rec.$threads.$name.sweep.$k.jsonl" "$SWEEP_DOCS" >>"$pts"
	done
	printf -- '---=== Sweep summary: %s (%sthr), %d %s ===---\n' "$T_TITLE" "$threads" "$k" \
		"$([ "$SWEEP_KIND" = curve ] && echo steps || echo points)"
	cat "$WORK/sweep.txt"
}

# The -o document in file $1 with the sweeps' summaries added (merge
# --sweep-document), into file $2; false when it could not be made.
sweep_document() {
	local t n files=()
	while IFS=$'\t' read -r n t; do
		[ ! -s "$WORK/sweep.$n.$t.json" ] || files+=("$WORK/sweep.$n.$t.json")
	done <"$WORK/sweeps"
	"$AT_IO_LOCAL_PATH" merge --sweep-document --matrix "$1" -- ${files[@]+"${files[@]}"} >"$2"
}

# --dry-run: the points of every test's sweep, after the nodes' commands.
sweep_dry_run() {
	local l
	[ "$SWEEPING" = 1 ] || return 0
	if [ "$SWEEP_KIND" = curve ]; then
		echo "Curve of each test (in place of its ITERATIONS runs): the maximum uncapped on every node at once, then each step ($SWEEP_STEPS) with --cap on each node at the step's share of its own maximum in that run"
		return 0
	fi
	echo "Sweep of each test (in place of its ITERATIONS runs), each point on every node at one instant, its options in place of the test's own:"
	for l in "${!SWEEP_POINTS[@]}"; do
		printf '  point %d: %s\n' "$((l + 1))" "${SWEEP_POINTS[l]}"
	done
}
