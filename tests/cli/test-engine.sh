#!/bin/bash
# One I/O engine through the whole of atio: ATIO=build/atio test-engine.sh ENGINE
# (sync, io_uring, libaio or null). Skipped (exit 77) when the engine is not
# built in or the kernel refuses it here.
#
#  - Every workload: read, write, fsync, fdatasync x seq, rand x cached,
#    uncached (when the test directory takes O_DIRECT), at --iodepth 1 and,
#    for the asynchronous engines, 16. Each run exits 0, says it used the
#    engine and depth asked for, prints the result line with the unit the
#    mode implies, and an io line that adds up (bytes = ops x block size,
#    syncs only in the sync modes, the rate what the counts give).
#  - sync and null refuse --iodepth above 1 with a usage error.
#  - The sync ordering proof: with -vvv atio traces every request handed
#    to the engine and every completion. Per thread, a sync is submitted
#    only when no write is in flight and exactly -q writes have completed
#    since the previous one, and every sync returns 0. The trace must also
#    agree with the io line. The checker is first shown to catch broken
#    hand-made traces.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ENGINE=${1:-}
[ -n "$ENGINE" ] || die "usage: ATIO=path/to/atio $0 ENGINE"
NAME="$NAME-$ENGINE"

T=0.3
P=2
DS=$WORK/ds
mkdir "$DS"

# --- Can the engine run here? ---------------------------------------------
# -s 64K: the default 16M block would not fit the 8M file of each thread.
run_atio --engine "$ENGINE" -t 0.1 -s 64K -p "$P" -u 16M -f "$DS"
if [ "$RC" -ne 0 ]; then
	if grep -aEq 'not built|not available' "$ERR"; then
		skip "$(grep -aEm 1 'not built|not available' "$ERR")"
	fi
	not_ok "--engine $ENGINE runs on a small dataset" "exit $RC from: $LAST"
	show stderr "$ERR"
	finish
fi
ok "--engine $ENGINE runs on a small dataset"

case $ENGINE in
io_uring | libaio)
	DEPTHS="1 16"
	SYNC_DEPTH=16
	;;
*)
	DEPTHS=1
	SYNC_DEPTH=1
	# One request at a time: a deeper queue is a usage error.
	run_atio --engine "$ENGINE" --iodepth 16 -t 0.1 -s 64K -p "$P" -u 16M -f "$DS"
	expect_code "$ENGINE refuses --iodepth 16: exit 2" 2
	expect_match "$ENGINE refuses --iodepth 16: the message names --iodepth" "$ERR" \
		'^atio: .*--iodepth'
	expect_no_match "$ENGINE refuses --iodepth 16: no result" "$OUT" rate
	;;
esac

CACHES=cached
if direct_io_works "$WORK"; then
	CACHES="cached uncached"
else
	skip_check "$ENGINE with --uncached" "O_DIRECT is refused in $WORK (set TMPDIR to another filesystem to test it)"
fi

# engine_line DEPTH CACHE ORDER: the Engine line of the settings at DEPTH,
# with the default --iodepth-batch (with --uncached --rand the engine's
# batch, 8 for io_uring and 16 for libaio, at most the depth; else the
# whole depth) when DEPTH is above 1.
engine_line() {
	local depth=$1 cache=$2 order=$3 batch=$1 own=8

	if [ "$depth" -eq 1 ]; then
		printf 'Engine: %s, iodepth 1\n' "$ENGINE"
		return
	fi
	[ "$ENGINE" != libaio ] || own=16
	[ "$cache" = cached ] || [ "$order" = seq ] || [ "$depth" -le "$own" ] || batch=$own
	printf 'Engine: %s, iodepth %s, batch %s (auto)\n' "$ENGINE" "$depth" "$batch"
}

# check_run WHAT MODE BS DEPTH CACHE ORDER: the last run used the engine
# at DEPTH and its io line fits MODE (-q 1) and the result line.
check_run() {
	local what=$1 mode=$2 bs=$3 depth=$4 cache=$5 order=$6 why=() line

	line=$(engine_line "$depth" "$cache" "$order")
	grep -aqxF "$line" "$OUT" || why+=("no \"$line\" line in the settings")
	if ! parse_io; then
		why+=("no io: line on stdout")
	else
		# -q 1: a sync after each write, none more, none fewer.
		io_problems "$mode" "$bs" 1 "$P"
		[ -z "$R_VALUE" ] || value_problems
	fi
	verdict "$what" "$OUT" "$ERR"
}

# --- Every workload --------------------------------------------------------
for cache in $CACHES; do
	for order in seq rand; do
		for mode in read write fsync fdatasync; do
			for depth in $DEPTHS; do
				if [ "$order" = seq ]; then
					bs=65536 unit=MB/s
				else
					bs=4096 unit=IOPS
					case $mode in fsync | fdatasync) unit=sync/s ;; esac
				fi
				name="$ENGINE --$mode --$order --$cache --iodepth $depth"
				run_atio -v --engine "$ENGINE" --iodepth "$depth" "--$mode" "--$order" \
					"--$cache" -s "$bs" -p "$P" -t "$T" -u 16M -f "$DS"
				expect_code "$name: exit 0" 0
				check_result "$name: result line in $unit" "$unit"
				check_run "$name: engine, depth and io counts" "$mode" "$bs" "$depth" "$cache" "$order"
			done
		done
	done
done

# --- The sync ordering proof -------------------------------------------------
# check_order TRACE Q SYNCOP THREADS: read the -vvv trace TRACE of a
# --fsync/--fdatasync run (SYNCOP: fsync or fdatasync) with -q Q and THREADS
# threads, without -S. Per thread:
#  - a sync is submitted only when every write the thread submitted has
#    completed, and never while another sync of the thread is in flight;
#  - exactly Q writes completed between two syncs (or before the first);
#  - every write completes with its length, every sync with 0;
#  - the last sync is the final flush, always an fsync, after the writes of
#    an unfinished last group (fewer than Q: a full group gets its own
#    sync); all the others are SYNCOP, and there is at least one;
#  - every trace line of the form "atio: [T] ..." parses.
# Prints "error: ..." lines (the first 20) and, when all is well, a last
# line "total WRITES SYNCS" (SYNCS without the final flushes, as the io line
# counts them); fails when any error was found.
check_order() {
	awk -v q="$2" -v syncop="$3" -v threads="$4" '
	function err(msg) {
		nerr++
		if (nerr > 20)
			return
		if (at_end)
			printf "error: %s\n", msg
		else
			printf "error: line %d: %s\n", NR, msg
	}
	# The number inside "[T]".
	function tid(s) {
		gsub(/[][]/, "", s)
		return s + 0
	}
	function seen(t) {
		if (!(t in known)) {
			known[t] = 1
			nthreads++
		}
	}
	/^atio: \[/ {
		if ($0 ~ /^atio: \[[0-9]+\] submit (read|write|fsync|fdatasync)\(fd -?[0-9]+, [0-9]+ bytes, offset [0-9]+\)$/) {
			t = tid($2); seen(t)
			op = $4; sub(/\(.*/, "", op)
			key = t SUBSEP $5 SUBSEP $9
			if (op == "write") {
				out[t]++
				pend[key]++
			} else if (op == "fsync" || op == "fdatasync") {
				if (out[t] != 0)
					err(sprintf("thread %d: %s submitted with %d writes in flight", t, op, out[t]))
				if (syncing[t])
					err(sprintf("thread %d: %s submitted while a sync is in flight", t, op))
				syncing[t] = 1
				k = ++nsync[t]
				before[t, k] = since[t]
				syncname[t, k] = op
				since[t] = 0
			} else {
				err(sprintf("thread %d: a read in a write workload", t))
			}
			next
		}
		if ($0 ~ /^atio: \[[0-9]+\] (read|write|fsync|fdatasync)\(fd -?[0-9]+, [0-9]+ bytes, offset [0-9]+\) = -?[0-9]+ in [0-9.]+ usec$/) {
			t = tid($2); seen(t)
			op = $3; sub(/\(.*/, "", op)
			key = t SUBSEP $4 SUBSEP $8
			if (op == "write") {
				if (pend[key] + 0 <= 0) {
					err(sprintf("thread %d: a write completed that was not in flight", t))
				} else {
					pend[key]--
					out[t]--
				}
				if ($10 != $5)
					err(sprintf("thread %d: write of %d bytes returned %s", t, $5, $10))
				since[t]++
				writes[t]++
			} else if (op == "fsync" || op == "fdatasync") {
				if (!syncing[t])
					err(sprintf("thread %d: %s completed that was not in flight", t, op))
				syncing[t] = 0
				if ($10 != "0")
					err(sprintf("thread %d: %s returned %s", t, op, $10))
			} else {
				err(sprintf("thread %d: a read in a write workload", t))
			}
			next
		}
		err("unparsed trace line: " $0)
	}
	END {
		at_end = 1
		if (nthreads != threads)
			err(sprintf("%d threads in the trace, expected %d", nthreads, threads))
		for (t in known) {
			n = nsync[t] + 0
			if (out[t] != 0)
				err(sprintf("thread %d: %d writes never completed", t, out[t]))
			if (syncing[t])
				err(sprintf("thread %d: its last sync never completed", t))
			if (since[t] != 0)
				err(sprintf("thread %d: %d writes after the final flush", t, since[t]))
			if (n < 2) {
				err(sprintf("thread %d: %d syncs: no timed sync before the final flush", t, n))
				continue
			}
			for (k = 1; k < n; k++) {
				if (before[t, k] != q)
					err(sprintf("thread %d: sync %d of %d came after %d writes, not %d",
						    t, k, n, before[t, k], q))
				if (syncname[t, k] != syncop)
					err(sprintf("thread %d: sync %d is %s, not %s", t, k,
						    syncname[t, k], syncop))
			}
			if (syncname[t, n] != "fsync")
				err(sprintf("thread %d: the final flush is %s, not fsync", t, syncname[t, n]))
			if (before[t, n] >= q)
				err(sprintf("thread %d: %d writes before the final flush: a full group of %d without its own %s",
					    t, before[t, n], q, syncop))
			total_w += writes[t]
			total_s += n - 1
		}
		if (nerr) {
			if (nerr > 20)
				printf "error: ... %d errors in all\n", nerr
			exit 1
		}
		printf "total %d %d\n", total_w, total_s
	}' "$1"
}

# show_checker FILE: the first errors of the checker and its last line, on
# "#" lines (lib.sh's show gives the last lines, where the first error is
# usually not).
show_checker() {
	printf '#   --- checker output ---\n'
	{
		head -n 6 "$1"
		[ "$(wc -l <"$1")" -le 6 ] || tail -n 1 "$1"
	} | cut -c 1-200 | sed 's/^/#   | /'
}

# expect_checker WHAT TRACE STATUS [ERE]: check_order of the hand-made
# TRACE (-q 2, fdatasync, 2 threads) exits with STATUS, and says ERE.
expect_checker() {
	local what=$1 trace=$2 want=$3 ere=${4:-} rc=0

	check_order "$trace" 2 fdatasync 2 >"$WORK/checker.out" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && { [ -z "$ere" ] || grep -aEq -- "$ere" "$WORK/checker.out"; }; then
		ok "$what"
	else
		not_ok "$what" "the checker exited $rc, expected $want${ere:+, saying $ere}"
		show_checker "$WORK/checker.out"
	fi
}

# A correct trace: thread 0 syncs after two writes while thread 1 still has
# a write in flight (threads are independent), then a partial group and
# the final flush. Completions come out of order.
GOOD=$WORK/trace.good
cat >"$GOOD" <<'EOF'
atio: warning: not a trace line, ignored
atio: [0] submit write(fd 5, 4096 bytes, offset 8192)
atio: [1] submit write(fd 6, 4096 bytes, offset 0)
atio: [0] submit write(fd 5, 4096 bytes, offset 4096)
atio: [0] write(fd 5, 4096 bytes, offset 4096) = 4096 in 10.000 usec
atio: [0] write(fd 5, 4096 bytes, offset 8192) = 4096 in 12.500 usec
atio: [0] submit fdatasync(fd 5, 0 bytes, offset 0)
atio: [1] submit write(fd 6, 4096 bytes, offset 4096)
atio: [0] fdatasync(fd 5, 0 bytes, offset 0) = 0 in 300.000 usec
atio: [0] submit write(fd 5, 4096 bytes, offset 0)
atio: [1] write(fd 6, 4096 bytes, offset 4096) = 4096 in 9.000 usec
atio: [1] write(fd 6, 4096 bytes, offset 0) = 4096 in 20.000 usec
atio: [1] submit fdatasync(fd 6, 0 bytes, offset 0)
atio: [1] fdatasync(fd 6, 0 bytes, offset 0) = 0 in 250.000 usec
atio: [0] write(fd 5, 4096 bytes, offset 0) = 4096 in 8.000 usec
atio: [0] submit fsync(fd 5, 0 bytes, offset 0)
atio: [1] submit fsync(fd 6, 0 bytes, offset 0)
atio: [0] fsync(fd 5, 0 bytes, offset 0) = 0 in 100.000 usec
atio: [1] fsync(fd 6, 0 bytes, offset 0) = 0 in 100.000 usec
EOF
expect_checker "the ordering checker accepts a correct trace" "$GOOD" 0 '^total 5 2$'

# Broken variants of it, each of which the checker must report.
BAD=$WORK/trace.bad
# Thread 0's write at 8192 completes only after its fdatasync was submitted.
awk '/^atio: \[0\] write\(fd 5, 4096 bytes, offset 8192\)/ { held = $0; next }
	{ print }
	/^atio: \[0\] submit fdatasync/ { print held }' "$GOOD" >"$BAD"
expect_checker "the ordering checker reports a sync submitted while a write is in flight" \
	"$BAD" 1 'thread 0: fdatasync submitted with 1 writes in flight'
# Thread 1 syncs after one write instead of -q 2.
grep -Ev '^atio: \[1\] (submit )?write\(fd 6, 4096 bytes, offset 4096\)' "$GOOD" >"$BAD"
expect_checker "the ordering checker reports a sync after too few writes" \
	"$BAD" 1 'thread 1: sync 1 of 2 came after 1 writes, not 2'
# A sync that failed.
sed 's/^\(atio: \[1\] fdatasync(fd 6, 0 bytes, offset 0)\) = 0 /\1 = -5 /' "$GOOD" >"$BAD"
expect_checker "the ordering checker reports a failed sync" \
	"$BAD" 1 'thread 1: fdatasync returned -5'
# A thread that never synced before the final flush.
grep -v '^atio: \[1\] .*fdatasync' "$GOOD" >"$BAD"
expect_checker "the ordering checker reports a thread without a timed sync" \
	"$BAD" 1 'thread 1: .*no timed sync'
# A trace line atio no longer writes the way the checker reads it.
sed 's/^\(atio: \[0\] write(fd 5, 4096 bytes, offset 0)\) = 4096 in 8.000 usec/\1 = 4096/' \
	"$GOOD" >"$BAD"
expect_checker "the ordering checker reports a line it cannot parse" \
	"$BAD" 1 'unparsed trace line'

# The real thing, for each sync mode and cache, with -q 8 and the deepest
# queue the engine takes; at depth also with --iodepth-batch 3 (refills
# after every three completions or fewer, a number that divides neither
# -q nor the depth).
Q=8
BATCHES=default
[ "$SYNC_DEPTH" -eq 1 ] || BATCHES="default 3"
for cache in $CACHES; do
	for mode in fsync fdatasync; do
	for batch in $BATCHES; do
		bopt=()
		[ "$batch" = default ] || bopt=(--iodepth-batch "$batch")
		name="$ENGINE --$mode --$cache -q $Q --iodepth $SYNC_DEPTH ${bopt[*]} -vvv"
		name=${name/  / }
		run_atio -vvv --engine "$ENGINE" --iodepth "$SYNC_DEPTH" ${bopt[@]+"${bopt[@]}"} \
			"--$mode" --rand "--$cache" -q "$Q" -p "$P" -t "$T" -u 16M -f "$DS"
		expect_code "$name: exit 0" 0
		check_result "$name: result line in sync/s" sync/s
		rc=0
		check_order "$ERR" "$Q" "$mode" "$P" >"$WORK/order.out" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ]; then
			ok "$name: every sync after exactly $Q writes, none in flight, each = 0"
			grep -a '^note:' "$WORK/order.out" | sed 's/^/# /' || true
		else
			not_ok "$name: every sync after exactly $Q writes, none in flight, each = 0" \
				"command: $LAST"
			show_checker "$WORK/order.out"
			continue
		fi
		read -r _ tw ts <<<"$(grep -a '^total ' "$WORK/order.out")"
		if parse_io && [ "$IO_OPS" -eq "$tw" ] && [ "$IO_SYNCS" -eq "$ts" ] &&
			[ "$IO_BYTES" -eq $((IO_OPS * 4096)) ]; then
			ok "$name: the io line counts the writes and syncs of the trace"
		else
			not_ok "$name: the io line counts the writes and syncs of the trace" \
				"trace: $tw writes, $ts syncs (final flushes left out)" \
				"io line: ${IO_OPS:-?} writes, ${IO_BYTES:-?} bytes, ${IO_SYNCS:-?} syncs" \
				"command: $LAST"
			show stdout "$OUT"
		fi
	done
	done
done

# --- Descriptor tables ------------------------------------------------------
# Each load thread takes a private copy of the descriptor table before it
# opens anything (the kernel then skips a reference count on the file in
# every system call; doc/performance.md). Seen from outside
# while atio waits for --start-at - (every thread is set up by then): no
# load thread shares its table with the main thread or with another load
# thread (kcmp(2) KCMP_FILES), and an io_uring ring is in the table of the
# thread that made it only. The run then goes on and ends well.
# fd_tables PID: one line per load thread (the io_uring kernel workers,
# iou-wrk-*, share their thread's table and are left out): "TID SHARES RINGS",
# SHARES the number of other threads (the main one counted) whose table is
# this one's, or "unknown" where kcmp cannot tell; RINGS its io_uring
# descriptors. The first line is the main thread's.
fd_tables() {
	python3 - "$1" <<'EOF'
import ctypes, os, platform, sys

pid = int(sys.argv[1])
nr = {"x86_64": 312, "aarch64": 272, "ppc64le": 354, "s390x": 343}.get(platform.machine())
libc = ctypes.CDLL(None, use_errno=True)


def rings(tid):
    n = 0
    d = f"/proc/{pid}/task/{tid}/fd"
    for fd in os.listdir(d):
        try:
            n += os.readlink(f"{d}/{fd}") == "anon_inode:[io_uring]"
        except OSError:
            pass
    return n


def same(a, b):
    if nr is None:
        return None
    r = libc.syscall(nr, a, b, 2, 0, 0)  # KCMP_FILES
    return None if r < 0 else r == 0


tids = [pid] + sorted(int(t) for t in os.listdir(f"/proc/{pid}/task")
                      if int(t) != pid and not open(f"/proc/{pid}/task/{t}/comm").read().startswith("iou-wrk"))
for t in tids:
    s = [same(t, o) for o in tids if o != t]
    print(t, "unknown" if None in s else sum(s), rings(t))
EOF
}

what="$ENGINE: the load threads' descriptor tables"
FIFO=$WORK/start
mkfifo "$FIFO"
exec 7<>"$FIFO"
start_atio_ready "$FIFO" --engine "$ENGINE" --read --rand -s 4K -p "$P" -t "$T" -u 16M -f "$DS" --start-at -
if command -v python3 >/dev/null 2>&1; then
	tables=$(fd_tables "$PID" 2>&1) || tables="fd_tables failed: $tables"
else
	tables=''
fi
loads=$(printf '%s\n' "$tables" | tail -n +2)
if [ -z "$tables" ]; then
	skip_check "$what: no two threads share one" "python3 is not installed (it compares the tables)"
elif [ "$(printf '%s\n' "$loads" | grep -c .)" -ne "$P" ]; then
	not_ok "$what: $P load threads beside the main one" "$tables" "command: $LAST"
elif printf '%s\n' "$tables" | grep -q unknown; then
	skip_check "$what: no two threads share one" "kcmp(2) cannot compare them here"
elif printf '%s\n' "$tables" | awk '$2 != 0 { bad = 1 } END { exit !bad }'; then
	not_ok "$what: no two threads share one" "TID SHARES RINGS:" "$tables" "command: $LAST"
else
	ok "$what: no two threads share one"
fi
if [ "$ENGINE" = io_uring ] && [ -n "$tables" ]; then
	if printf '%s\n' "$tables" | awk 'NR == 1 && $3 != 0 { bad = 1 } NR > 1 && $3 != 1 { bad = 1 }
		END { exit bad }'; then
		ok "$what: each ring is in its own thread's table only"
	else
		not_ok "$what: each ring is in its own thread's table only" "TID SHARES RINGS:" "$tables"
	fi
fi
epoch=$(date +%s.%N | cut -c 1-17)
echo "$epoch" >&7
exec 7>&-
wait_exit 60
expect_code "$what: the run goes on and exits 0" 0
check_result "$what: then a result line in IOPS" IOPS

# strace_atio PREFIX SYSCALLS ARG...: run atio under strace, a trace file per
# thread (PREFIX.TID, so that no call is cut by another's; strings left out),
# stdout to $OUT, stderr to $ERR, status to $RC
strace_atio() {
	local prefix=$1 calls=$2
	shift 2
	if strace -ff -qq -s 0 -e "trace=$calls" -o "$prefix" "$ATIO" "$@" >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}

# --- io_uring: which buffers are registered -----------------------------------
# Registered, a buffer of base pages is one segment per page for the block
# layer, and a request of more pages than the device takes is split in two.
# So io_uring registers base-page buffers only for blocks up to 128 KiB;
# huge-page buffers (THP on, no --no-thp) always. strace shows the
# registration (IORING_REGISTER_BUFFERS) or its absence; the files are
# registered in every case.
if [ "$ENGINE" = io_uring ]; then
	if ! command -v strace >/dev/null 2>&1; then
		skip_check "io_uring: which buffers are registered" "no strace (scripts/install-deps.sh installs it)"
	else
		thp=no
		grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && thp=yes
		for c in "128K --no-thp yes" "256K --no-thp no" "1M --no-thp no" "4K --no-thp yes" "1M --thp $thp"; do
			read -r bs pages want <<<"$c"
			[ "$pages" = --thp ] && pages=()
			what="io_uring: --read -s $bs ${pages[*]:-(huge-page buffers)} -p $P --iodepth 4"
			LAST="strace -ff -e trace=io_uring_register atio --engine io_uring --read -s $bs ${pages[*]} -p $P --iodepth 4 -t 0.1 -u 16M -f $DS"
			rm -f "$WORK"/reg.*
			strace_atio "$WORK/reg" io_uring_register --engine io_uring --read \
				-s "$bs" "${pages[@]}" -p "$P" --iodepth 4 -t 0.1 -u 16M -f "$DS"
			expect_code "$what: exit 0" 0
			nbuf=$(cat "$WORK"/reg.* | grep -c 'IORING_REGISTER_BUFFERS, .* = 0$' || true)
			nfile=$(cat "$WORK"/reg.* | grep -c 'IORING_REGISTER_FILES, .* = 0$' || true)
			if [ "$want" = yes ]; then expect=$P; else expect=0; fi
			if [ "$nbuf" -eq "$expect" ] && [ "$nfile" -eq "$P" ]; then
				ok "$what: buffers registered by $expect of $P threads, files by all"
			else
				not_ok "$what: buffers registered by $expect of $P threads, files by all" \
					"buffers registered $nbuf times, files $nfile times" "command: $LAST" \
					"$(cat "$WORK"/reg.* | head -n 8)"
			fi
		done
	fi
fi

# --- The O_DIRECT probe reads little -----------------------------------------
# Before the run the main thread reads each file once at offset 0 to see that
# O_DIRECT takes the block size. For a block above 128 KiB it reads 64 to
# 128 KiB (the same length modulo 64 KiB): the memory of a whole 16M read,
# freed just before the threads make their buffers, went to them in reverse
# page order.
if [ "$ENGINE" = sync ] && [ "$CACHES" != cached ]; then
	if ! command -v strace >/dev/null 2>&1; then
		skip_check "--uncached -s 16M: the probe reads 64 KiB" "no strace (scripts/install-deps.sh installs it)"
	else
		what="--uncached -s 16M: the main thread's O_DIRECT probe reads 64 KiB, nothing larger"
		mkdir "$WORK/probe-ds"
		LAST="strace -ff -e trace=pread64 atio --engine sync --read --uncached -s 16M -p 1 -t 0.1 -u 16M -f $WORK/probe-ds"
		strace_atio "$WORK/probe" pread64 --engine sync --read --uncached -s 16M -p 1 \
			-t 0.1 -u 16M -f "$WORK/probe-ds"
		expect_code "$what: exit 0" 0
		# the main thread's trace: the one of the lowest thread id
		main=$(for f in "$WORK"/probe.*; do echo "${f##*.} $f"; done | sort -n | head -n 1)
		main=${main#* }
		sizes=$(sed -nE 's/^pread64\([0-9]+, .*, ([0-9]+), ([0-9]+)\) += .*/\1@\2/p' "$main" | sort -u | tr '\n' ' ')
		if [[ " $sizes" == *" 65536@0 "* ]] &&
			! awk -v RS=' ' -F @ '$1 > 131072 { bad = 1 } END { exit !bad }' <<<"$sizes"; then
			ok "$what"
		else
			not_ok "$what" "main thread's pread64 sizes@offsets: ${sizes:-none}" "command: $LAST"
		fi
	fi
fi

# --- --iodepth-batch ----------------------------------------------------------
# count_trace TRACE OP: "SUBMITTED COMPLETED" requests of kind OP in a -vvv
# trace, and the completions that did not return their full length.
count_trace() {
	awk -v op="$2" '
		$3 == "submit" && index($4, op "(") == 1 { s++ }
		$3 != "submit" && index($3, op "(") == 1 { c++; if ($(NF - 3) != $5 + 0) bad++ }
		END { printf "%d %d %d\n", s, c, bad }' "$1"
}

if [ "$SYNC_DEPTH" -gt 1 ]; then
	for cache in $CACHES; do
		for batch in 1 3 16; do
			name="$ENGINE --read --rand --$cache --iodepth 16 --iodepth-batch $batch -vvv"
			run_atio -vvv --engine "$ENGINE" --iodepth 16 --iodepth-batch "$batch" --read \
				--rand "--$cache" -p "$P" -t "$T" -u 16M -f "$DS"
			expect_code "$name: exit 0" 0
			expect_match "$name: the settings give the batch" "$OUT" \
				"^Engine: $ENGINE, iodepth 16, batch $batch\$"
			read -r nsub ndone nbad <<<"$(count_trace "$ERR" read)"
			if parse_io && [ "$nsub" -gt 0 ] && [ "$nsub" -eq "$ndone" ] &&
				[ "$IO_OPS" -eq "$ndone" ] && [ "$nbad" -eq 0 ]; then
				ok "$name: every request submitted completes once and is counted once"
			else
				not_ok "$name: every request submitted completes once and is counted once" \
					"trace: $nsub submitted, $ndone completed, $nbad short" \
					"io line: ${IO_OPS:-?} reads" "command: $LAST"
			fi
		done
	done
	if [ "$CACHES" != cached ]; then
		# deeper than the engine's batch: the batch is the engine's
		line=$(engine_line 32 uncached rand)
		run_atio -v --engine "$ENGINE" --iodepth 32 --read --rand --uncached -t 0.1 -p "$P" \
			-u 16M -f "$DS"
		expect_code "$ENGINE --rand --uncached --iodepth 32: exit 0" 0
		if grep -aqxF "$line" "$OUT"; then
			ok "$ENGINE --rand --uncached --iodepth 32: the engine's batch"
		else
			not_ok "$ENGINE --rand --uncached --iodepth 32: the engine's batch" \
				"no \"$line\" line in the settings" "command: $LAST"
		fi
	fi
	run_atio --engine "$ENGINE" --iodepth 16 --iodepth-batch 17 --read -t 0.1 -p "$P" -u 16M -f "$DS"
	expect_code "--iodepth 16 --iodepth-batch 17: exit 2" 2
	expect_match "--iodepth 16 --iodepth-batch 17: the message names the value and the depth" \
		"$ERR" '^atio: --iodepth-batch 17: .*--iodepth 16'
fi
run_atio --engine "$ENGINE" --iodepth-batch 0 --read -t 0.1 -p "$P" -u 16M -f "$DS"
expect_code "--iodepth-batch 0: exit 2" 2
expect_match "--iodepth-batch 0: the message names the value" "$ERR" '^atio: --iodepth-batch 0: '

finish
