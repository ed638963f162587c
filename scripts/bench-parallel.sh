#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench-parallel.sh: how scripts/atio-parallel.sh does as the cluster
# grows. For each N given (default 4 16 32) it starts N real sshd nodes on
# loopback addresses, each in a mount namespace of its own, as the tests
# do (tests/cli/sshd-harness.sh), and runs the driver with TIME=5, one
# thread, a warm-up and ITERATIONS (3) runs of TESTS (seqread), then prints
# one table row: the start skew over the runs (median and max), how late
# the last node started after the agreed instant (max), the wall time of
# a run beyond TIME (median and max), the driver's own CPU per run (its
# processes and their children on this machine, the nodes' atio not
# counted), and the NOT CONCURRENT runs among the measured ones, and
# whether the warm-up was one (it lasts 1 s, so 10 ms of skew is 1% of it;
# the driver marks it but does not fail for it). Needs root (sshd,
# namespaces).
#
# Usage: ATIO=build/atio scripts/bench-parallel.sh [N...]
# Environment: TIME (5), ITERATIONS (3), FILE_SIZE (32M), TESTS (seqread: one
# test of the driver's; its first I/O at the instant is a 16 MiB cached read,
# randread's a 4 KiB one, which tells how much of the skew is N nodes'
# first reads sharing this machine's 2 CPUs); SSHD_NO_BASHRC=1
# keeps the nodes' login shells from reading ~/.bashrc, whose cost N nodes
# on one machine pay on its CPUs at every launch (a cluster's nodes each on
# their own).
set -eu
export LC_ALL=C

SRC=$(cd "$(dirname "$0")/.." && pwd)
: "${ATIO:=$SRC/build/atio}"
export ATIO
BENCH_TIME=${TIME:-5}
BENCH_ITER=${ITERATIONS:-3}
BENCH_SIZE=${FILE_SIZE:-32M}
BENCH_TESTS=${TESTS:-seqread}
[ $# -gt 0 ] || set -- 4 16 32

# Print the median and the max of the numbers on stdin as "MEDIAN MAX".
median_max() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "- -"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.4f %.4f\n", m, v[NR] }'
}

# One N: a child shell with the harness, so that its nodes end with it.
bench_one() {
	local n=$1
	# shellcheck disable=SC2016 # expanded by the child shell
	bash -c '
		set -eu
		n=$1 time=$2 iter=$3 size=$4 tests=$6
		. "$5/tests/cli/lib.sh"
		. "$5/tests/cli/sshd-harness.sh"
		sshd_start "$n"
		driver_setup
		hosts=()
		for ((i = 1; i <= n; i++)); do hosts+=("node$i"); done
		# Each line of the output with the time it came.
		(cd "$WORK" && exec /usr/bin/time -f "%U %S" -o "$WORK/cpu" env "${DRIVER_ENV[@]}" \
			TIME="$time" ITERATIONS="$iter" FILE_SIZE="$size" TESTS="$tests" WARMUP_TIME=1 \
			READY_TIMEOUT=300 START_MARGIN=0.5 MAX_SKEW=1 "$DRIVER" "${hosts[@]}") </dev/null 2>"$WORK/err" |
			while IFS= read -r line; do printf "%s %s\n" "$EPOCHREALTIME" "$line"; done >"$WORK/out"
		runs=$(grep -c " Sum value on iteration " "$WORK/out" || true)
		printf "CPU %s %s\n" "$(tail -n 1 "$WORK/cpu")" "$runs"
		# A run: from the end of what came before it (the header of its
		# section, or the previous run latency line) to its sum line.
		awk -v t="$time" -v w=1 "
			/ Buffers: / { last = \$1; sec = 1; next }
			/ ---=== Warming/ { tt = w; wu = \"W\" }
			/ ---=== / && !/ ---=== (Warming|Average)/ { tt = t; wu = \"\" }
			/ Sum value on iteration / { printf \"WALL %.4f\\n\", \$1 - last - tt; if (/NOT CONCURRENT/) print \"NOTCONC\" wu }
			/ start skew: / { printf \"SKEW %s %s\\n\", \$4, \$11 }
			/ latency \\(usec\\)/ { last = \$1 }
		" "$WORK/out"
		grep -c "FAILURE" "$WORK/out" | sed "s/^/FAIL /" || true
		sed -n "s/^[0-9.]* atio-parallel.sh: warning: /WARN /p" "$WORK/err" | head -n 3
	' bench "$n" "$BENCH_TIME" "$BENCH_ITER" "$BENCH_SIZE" "$SRC" "$BENCH_TESTS"
}

printf 'TIME=%s, %s runs of %s after a warm-up; the nodes %s ~/.bashrc\n' \
	"$BENCH_TIME" "$BENCH_ITER" "$BENCH_TESTS" "$([ -n "${SSHD_NO_BASHRC:-}" ] && echo "skip" || echo "read")"
printf '%-6s %-22s %-16s %-22s %-16s %s\n' nodes "start skew med/max s" "last node late s" \
	"wall beyond TIME s" "driver CPU/run s" "NOT CONCURRENT"
for n in "$@"; do
	r=$(bench_one "$n" 2>&1) || true
	skew=$(sed -n 's/^SKEW \([0-9.]*\) .*/\1/p' <<<"$r" | median_max)
	late=$(sed -n 's/^SKEW [0-9.]* \(-\{0,1\}[0-9.]*\)$/\1/p' <<<"$r" | median_max)
	wall=$(sed -n 's/^WALL //p' <<<"$r" | median_max)
	cpu=$(awk '/^CPU / { if ($4 > 0) printf "%.2f", ($2 + $3) / $4; else print "-" }' <<<"$r")
	nc=$(grep -c '^NOTCONC$' <<<"$r" || true)
	ncw=$(grep -c '^NOTCONCW$' <<<"$r" || true)
	runs=$(awk '/^CPU / { print $4 - 1 }' <<<"$r")
	printf '%-6s %-22s %-16s %-22s %-16s %s of %s, warm-up %s\n' "$n" "${skew/ / / }" "${late#* }" \
		"${wall/ / / }" "${cpu:--}" "$nc" "${runs:-?}" "$([ "$ncw" = 0 ] && echo no || echo yes)"
	grep -E '^(FAIL [1-9]|WARN|.*(skipped|error))' <<<"$r" | sed 's/^/    /' || true
done
