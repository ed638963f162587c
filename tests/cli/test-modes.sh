#!/bin/bash
# atio in every mode: read, write, fsync, fdatasync x seq, rand x cached,
# uncached (O_DIRECT, when the test directory's filesystem takes it), plus
# -q, the unit options, -S and files shared between threads. Each run must
# exit 0 and print the result line with the right unit, and its io line must
# add up: bytes = ops x block size, no syncs in read and write, in the sync
# modes one sync per -q writes (a thread's last, partial group has none),
# and the rate must be what the counts and the time give.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

T=0.3

# check_counts WHAT MODE BS Q THREADS: the io line of the last run fits the
# mode, and the rate on the result line fits the counts.
check_counts() {
	local what=$1 mode=$2 bs=$3 q=$4 p=$5 why=()

	if ! parse_io; then
		not_ok "$what" "no io: line on stdout" "command: $LAST"
		show stdout "$OUT"
		return 0
	fi
	io_problems "$mode" "$bs" "$q" "$p"
	if [ -n "$R_TIME" ]; then
		fcmp "$R_TIME" '>=' "$(awk -v t="$T" 'BEGIN {print t * 0.999}')" ||
			why+=("reported time $R_TIME is shorter than -t $T")
		fcmp "$R_TIME" '<' "$(awk -v t="$T" 'BEGIN {print t + 5}')" ||
			why+=("reported time $R_TIME is far longer than -t $T")
		value_problems
	fi
	verdict "$what" "$OUT"
}

# one_run UNIT MODE BS Q THREADS ARG...: run atio with ARG... and check the
# exit status, the result line (with UNIT) and the counts.
one_run() {
	local unit=$1 mode=$2 bs=$3 q=$4 p=$5 name

	shift 5
	name="${*//$WORK\//}"
	run_atio "$@"
	expect_code "$name: exit 0" 0
	check_result "$name: result line in $unit" "$unit"
	check_counts "$name: io counts add up" "$mode" "$bs" "$q" "$p"
}

DS=$WORK/ds
mkdir "$DS"
run_atio --read -t 0.1 -s 64K -p 2 -u 16M -f "$DS"
expect_code "prepare a dataset of two 8M files" 0

CACHES=cached
if direct_io_works "$WORK"; then
	CACHES="cached uncached"
else
	skip_check "every mode with --uncached" "O_DIRECT is refused in $WORK (set TMPDIR to another filesystem to test it)"
fi

for cache in $CACHES; do
	for order in seq rand; do
		for mode in read write fsync fdatasync; do
			if [ "$order" = seq ]; then
				bs=256K bytes=262144 unit=MB/s
			else
				bs=4K bytes=4096 unit=IOPS
				case $mode in fsync | fdatasync) unit=sync/s ;; esac
			fi
			one_run "$unit" "$mode" "$bytes" 1 2 \
				"--$mode" "--$order" "--$cache" -s "$bs" -p 2 -t "$T" -u 16M -f "$DS"
		done
	done
done

# A sync every -q writes: per thread, one sync per full group of q.
one_run sync/s fsync 4096 8 2 --fsync --rand -q 8 -p 2 -t "$T" -u 16M -f "$DS"
one_run sync/s fdatasync 65536 3 2 --fdatasync --seq --iops -s 64K -q 3 -p 2 -t "$T" -u 16M -f "$DS"

# --mbs and --iops override the unit the order implies.
one_run IOPS read 65536 1 2 --read --seq --iops -s 64K -p 2 -t "$T" -u 16M -f "$DS"
one_run MB/s read 4096 1 2 --read --rand --mbs -p 2 -t "$T" -u 16M -f "$DS"
one_run MB/s write 4096 1 2 --write --rand --mbs -p 2 -t "$T" -u 16M -f "$DS"
one_run MB/s fsync 4096 1 2 --fsync --rand --mbs -p 2 -t "$T" -u 16M -f "$DS"
one_run MB/s fdatasync 65536 4 2 --fdatasync --seq -s 64K -q 4 -p 2 -t "$T" -u 16M -f "$DS"
one_run IOPS write 4096 1 2 --write --rand --iops -p 2 -t "$T" -u 16M -f "$DS"

# Defaults: --read --seq -s 16M, one thread.
one_run MB/s read 16777216 1 1 -t "$T" -u 16M -f "$WORK/default"

# -S: no final sync, still a result. --engine sync named explicitly.
one_run MB/s write 65536 1 2 --write --seq -S -s 64K -p 2 -t "$T" -u 16M -f "$DS"
one_run IOPS read 4096 1 2 --rand --engine sync -p 2 -t "$T" -u 16M -f "$DS"

# Threads sharing one file, and more files than threads.
mkdir "$WORK/shared" "$WORK/many"
one_run IOPS write 4096 1 3 --write --rand -p 3 -n 1 -t "$T" -u 6M -f "$WORK/shared"
one_run MB/s read 65536 1 3 --read --seq -s 64K -p 3 -n 1 -t "$T" -u 6M -f "$WORK/shared"
one_run sync/s fsync 4096 2 2 --fsync --rand -q 2 -p 2 -n 5 -t "$T" -u 10M -f "$WORK/many"
one_run MB/s write 65536 1 2 --write --seq -s 64K -p 2 -n 5 -t "$T" -u 10M -f "$WORK/many"

# Buffers: a 16M read buffer and a 16M write pool live in huge pages where
# the kernel offers THP; with --no-thp they do not (checked only where THP
# is "madvise", since with "always" the kernel may use huge pages anyway).
# The kernel's own account of the running process is read, mid-run.
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
# huge_kib: HUGE_KIB, the running $PID's AnonHugePages, then wait for it
huge_kib() {
	HUGE_KIB=-1
	sleep 1.5
	if [ -r "/proc/$PID/smaps_rollup" ]; then
		HUGE_KIB=$(awk '/^AnonHugePages:/ {print $2}' "/proc/$PID/smaps_rollup")
	fi
	wait_exit 30
}
mkdir "$WORK/thp"
run_atio --write --seq -p 1 -t 0.2 -u 32M -f "$WORK/thp/f"
for mode in read write; do
	for opt in "" --no-thp; do
		why=()
		want="transparent huge pages where 2M or more"
		[ -z "$opt" ] || want="base pages"
		# shellcheck disable=SC2086 # $opt is one word or none
		start_atio "--$mode" --seq -s 16M -p 1 -t 3 -u 32M -S -v $opt -f "$WORK/thp/f"
		huge_kib
		[ "$RC" = 0 ] || why+=("exit $RC")
		grep -qx "Buffers: $want" "$OUT" || why+=("no \"Buffers: $want\" in the header")
		case $thp:$opt in
		always: | madvise:)
			[ "${HUGE_KIB:--1}" -ge 16384 ] || why+=("AnonHugePages $HUGE_KIB KiB, want >= 16384") ;;
		madvise:--no-thp)
			[ "${HUGE_KIB:--1}" = 0 ] || why+=("AnonHugePages $HUGE_KIB KiB with --no-thp, want 0") ;;
		esac
		case $thp in
		always | madvise) verdict "--$mode ${opt:-without --no-thp}: buffers as asked (THP $thp, $HUGE_KIB KiB huge)" "$OUT" "$ERR" ;;
		*) verdict "--$mode ${opt:-without --no-thp}: the header names the buffers (THP '${thp:-absent}': pages not checked)" "$OUT" "$ERR" ;;
		esac
	done
done

finish
