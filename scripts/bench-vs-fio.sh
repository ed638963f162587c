#!/bin/bash
# bench-vs-fio.sh: run atio and fio side by side on the same files for the
# same time, alternately, and print atio/fio ratios of ops/s and CPU/op.
set -eu

PROG=bench-vs-fio.sh
usage() {
	cat <<'EOF'
Usage: scripts/bench-vs-fio.sh [--quick] [-v] [NAME=VALUE ...]

Runs atio and fio alternately (atio, fio, atio, fio, ...) on the same files
for the same time, PAIRS times per workload, and prints the medians of
ops/s and of CPU seconds per million operations, the atio/fio ratios, and a
final table. Results go to stdout, progress to stderr.

Workloads (files of 1 GiB):
  a  cached 4K random read, 1 thread, sync (psync); and a bare pread() loop
  b  the same at iodepth 32 with io_uring
  c  null engine, 4K random, 1 thread
  d  O_DIRECT 4K random read, 2 threads, iodepth 32: io_uring, then libaio
  e  O_DIRECT 16M sequential read, then write, 2 threads, sync (psync);
     each also with atio --no-thp (base-page buffers, as fio's)
  f  4K random writes, fdatasync every 32 writes, 4 threads, sync
  g  seed 000's randread.fio as its guide writes it: O_DIRECT 4K random
     read, iodepth 32, one job per CPU (nproc), libaio, then io_uring
  h  seed 000's seqread.fio: O_DIRECT 1M sequential read, iodepth 32, one
     job per CPU, libaio, then io_uring; each also with atio --no-thp
  i  a depth sweep: O_DIRECT 4K random read, 1 thread, io_uring, depths
     1, 2, 4 ... 64: the peak of atio sweep iodepth=1-64 against fio's
     best of one run at each depth; TIME is each depth's
  m  metadata, one thread per CPU, each MFILES files in a directory of its
     own: create (empty files), stat and delete (files of 4K), atio --meta
     against fio's filecreate, filestat and filedelete engines; a run's
     ops/s is its phase's files over its time (TIME is not used)

Every run also reads the target device's counters (/sys/dev/block/M:N/stat)
before and after, and -v prints its average queue depth (time in queue over
busy time) and average request size: a tool that lets the queue run short
shows it there. The summary gives the median queue depth of each tool.

Settings, from the environment or as NAME=VALUE arguments:
  ATIO       atio binary (default build/atio in this repository)
  FIO        fio binary (default fio on PATH)
  DIR        test directory (default a new mktemp -d under /var/tmp,
             removed at exit unless KEEP=1)
  TIME       seconds per run (default 10; --quick: 3, a smoke test)
  PAIRS      atio/fio pairs per workload, at least 3 (default 5; the
             tool that runs first alternates from pair to pair)
  WORKLOADS  space-separated subset of "a b c d e f g h i m" (default all)
  MFILES     files a thread in m (default 20000)
  LEVEL      1 (default): before each run, a helper takes more memory on
             every CPU than the kernel's per-CPU lists of free pages hold
             and keeps it until the run ends, so that both tools' buffers
             come from the page allocator's fresh blocks, not from the
             pages the previous run freed; 0: no helper
  -v prints every run's numbers too; -h, --help prints this help.
EOF
}
die() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 1; }
note() { printf '%s: %s\n' "$PROG" "$*" >&2; }

VERBOSE=0
for arg; do
	case $arg in
	-h | --help) usage; exit 0 ;;
	--quick) TIME=3 ;;
	-v | --verbose) VERBOSE=1 ;;
	ATIO=* | FIO=* | DIR=* | KEEP=* | TIME=* | PAIRS=* | WORKLOADS=* | LEVEL=* | MFILES=*)
		printf -v "${arg%%=*}" '%s' "${arg#*=}" ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done
TOP=$(cd "$(dirname "$0")/.." && pwd)
: "${ATIO:=$TOP/build/atio}" "${FIO:=fio}" "${DIR:=}" "${KEEP:=0}" "${TIME:=10}"
: "${PAIRS:=5}" "${WORKLOADS:=a b c d e f g h i m}" "${LEVEL:=1}" "${MFILES:=20000}"
has() { case " $WORKLOADS " in *" $1 "*) return 0 ;; esac; return 1; }

case $TIME in '' | *[!0-9]* | 0*) die "TIME='$TIME': need whole seconds, at least 1" ;; esac
case $PAIRS in '' | *[!0-9]* | 0*) die "PAIRS='$PAIRS': need a whole number" ;; esac
[ "$PAIRS" -ge 3 ] || die "PAIRS=$PAIRS: need at least 3 pairs for a median"
for w in $WORKLOADS; do
	case $w in [a-i] | m) ;; *) die "WORKLOADS: unknown workload '$w' (use a b c d e f g h i m)" ;; esac
done
[ -n "${WORKLOADS// /}" ] || die "WORKLOADS is empty"
case $LEVEL in 0 | 1) ;; *) die "LEVEL='$LEVEL': need 0 or 1" ;; esac
case $MFILES in '' | *[!0-9]* | 0*) die "MFILES='$MFILES': need a whole number" ;; esac
[ -x "$ATIO" ] || die "no atio binary at $ATIO: build it with scripts/build.sh, or set ATIO"
command -v "$FIO" >/dev/null 2>&1 ||
	die "fio not found ($FIO): install it (apt-get install fio, or dnf install fio), or set FIO"
command -v python3 >/dev/null 2>&1 ||
	die "python3 not found: it reads the JSON results (apt-get install python3, or dnf install python3)"
if has a && ! command -v cc >/dev/null 2>&1; then
	die "cc not found: workload a compiles scripts/bench/pread-loop.c (apt-get install gcc)"
fi

if [ -z "$DIR" ]; then
	DIR=$(mktemp -d /var/tmp/bench-vs-fio.XXXXXX) || die "mktemp -d under /var/tmp failed"
	OWN_DIR=1
else
	mkdir -p "$DIR" || die "cannot create $DIR"
	OWN_DIR=0
fi
DIR=$(cd "$DIR" && pwd)
WORK=$DIR/.bench

# The counters of the block device that holds DIR (/sys/dev/block/M:N/stat),
# or nothing when its filesystem has no device of its own (tmpfs, overlay).
dev_stat_path() {
	local dev maj min
	dev=$(stat -c %d "$1") || return 0
	maj=$(((dev >> 8) & 0xfff | ((dev >> 32) & ~0xfff)))
	min=$(((dev & 0xff) | ((dev >> 12) & ~0xff)))
	if [ -r "/sys/dev/block/$maj:$min/stat" ]; then
		printf '%s\n' "/sys/dev/block/$maj:$min/stat"
	fi
}
DEV_STAT=$(dev_stat_path "$DIR")

# dev_counters: the device's counters now, or "-" without a device
dev_counters() {
	if [ -n "$DEV_STAT" ]; then
		cat "$DEV_STAT"
	else
		echo -
	fi
}

# dev_load BEFORE AFTER: "QD REQ_KIB" between two dev_counters readings:
# the average number of requests in the device's queue while it was busy
# (time in queue over busy time) and the average request size; "- -"
# without a device or without I/O.
dev_load() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (split(a, x) < 11 || split(b, y) < 11) { print "- -"; exit }
		ios = y[1] - x[1] + y[5] - x[5]; busy = y[10] - x[10]
		if (ios <= 0 || busy <= 0) { print "- -"; exit }
		printf "%.1f %.0f\n", (y[11] - x[11]) / busy, (y[3] - x[3] + y[7] - x[7]) / 2 / ios
	}'
}
# a directory of ours goes at exit (unless KEEP=1); one given in DIR stays
cleanup() {
	if [ "$KEEP" != 1 ] && [ "$OWN_DIR" = 1 ]; then rm -rf -- "$DIR"; else note "files left in $DIR"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$WORK"

# Parse one run's output; print "ops/s CPU-s/Mop ops sec user-CPU sys-CPU".
# atio: result.* of --json (CPU of the load threads). fio: with --thread,
# usr_cpu/sys_cpu are per-thread getrusage in % of job_runtime (ms), which
# --group_reporting sums over the jobs; ops = read+write I/Os (not syncs)
# over the longest direction's runtime.
PY_PARSE='
import json, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path).read()
def doc():
    i = text.find("{")
    if i < 0:
        sys.exit("no JSON in " + path)
    return json.loads(text[i:])
if kind == "atio":
    d = doc()
    if d.get("interrupted"):
        sys.exit("atio run was interrupted")
    r = d["result"]
    if d["settings"].get("workload") == "meta":
        # a metadata run: the phase of its result line
        r = [p for p in d["phases"] if p["phase"] == r["phase"]][0]
        r["time_sec"] = r["elapsed_ns"] / 1e9
    ops, sec, usr, sy = r["ops"], r["time_sec"], r["cpu_user_sec"], r["cpu_sys_sec"]
elif kind == "fio":
    ops, sec, usr, sy = 0, 0.0, 0.0, 0.0
    for j in doc()["jobs"]:
        if j["error"]:
            sys.exit("fio job %s failed: error %d" % (j["jobname"], j["error"]))
        for k in ("read", "write", "trim"):
            ops += j[k]["total_ios"]
            sec = max(sec, j[k]["runtime"] / 1000.0)
        usr += j["usr_cpu"] / 100.0 * j["job_runtime"] / 1000.0
        sy += j["sys_cpu"] / 100.0 * j["job_runtime"] / 1000.0
else:
    kv = dict(f.split("=", 1) for f in text.split())
    ops, sec, usr, sy = int(kv["ops"]), float(kv["sec"]), float(kv["user"]), float(kv["sys"])
if ops <= 0 or sec <= 0:
    sys.exit("%s: no operations in %s" % (kind, path))
print("%.1f %.4f %d %.3f %.3f %.3f" % (ops / sec, (usr + sy) / ops * 1e6, ops, sec, usr, sy))
'
# Medians of tool A and B in a results file, ratios A/B and the verdict;
# argv: file A B min-ops-ratio max-cpu-ratio ("-": no target).
PY_SUMMARY='
import statistics, sys
path, a, b, omin, cmax = sys.argv[1:6]
runs = [l.split() for l in open(path)]
med = lambda t, i: statistics.median(float(r[i]) for r in runs if r[0] == t)
def qd(t):
    v = [float(r[7]) for r in runs if r[0] == t and len(r) > 7 and r[7] != "-"]
    return "%.1f" % statistics.median(v) if v else "-"
ao, bo, ac, bc = med(a, 1), med(b, 1), med(a, 2), med(b, 2)
ro, rc = ao / bo, ac / bc
miss = []
if omin != "-" and ro < float(omin): miss.append("ops")
if cmax != "-" and rc > float(cmax): miss.append("cpu")
tgt = " ".join(([] if omin == "-" else ["ops>=%sx" % omin]) +
               ([] if cmax == "-" else ["cpu<=%sx" % cmax]))
tgt = tgt + ": " + ("MISS " + "+".join(miss) if miss else "met") if tgt else "-"
print("%.0f\t%.0f\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s" % (ao, bo, ro, ac, bc, rc, qd(a), qd(b), tgt))
'

# A buffer of base pages is made of the pages the kernel hands out as it is
# first written, and the page allocator hands out first what was freed
# last, kept on a list per CPU: pages the previous run freed, often in
# reverse physical order. Two pages next to each other in a buffer are then
# seldom next to each other in memory, each becomes a segment of its own,
# and a large O_DIRECT request reaches the device in more pieces (a virtio
# disk takes 254 segments a request): the --no-thp rows of e and h followed
# this from run to run, for both tools, 0.5 to 4 MiB a device request.
# The helper takes, on every CPU, 16 MiB more than that CPU's lists hold
# (the "count" lines of /proc/zoneinfo), a quarter of MemAvailable at
# most, writes them, says "ready" and keeps them until its input closes.
PY_LEVEL='
import os, re, sys
held, cpu, page = {}, None, os.sysconf("SC_PAGE_SIZE")
for line in open("/proc/zoneinfo"):
    m = re.match(r"\s+(cpu|count):\s+(\d+)$", line)
    if m and m.group(1) == "cpu":
        cpu = int(m.group(2))
    elif m and cpu is not None:
        held[cpu] = held.get(cpu, 0) + int(m.group(2))
avail = 0
for line in open("/proc/meminfo"):
    if line.startswith("MemAvailable:"):
        avail = int(line.split()[1]) * 1024
keep, total = [], 0
for cpu in sorted(held.keys() & os.sched_getaffinity(0)):
    size = (held[cpu] + 4096) * page
    if total + size > avail // 4:
        break
    os.sched_setaffinity(0, {cpu})
    b = bytearray(size)
    b[::page] = b"\1" * len(range(0, size, page))
    keep.append(b)
    total += size
print("ready", total >> 20, flush=True)
sys.stdin.read()
'
# level_start: with LEVEL=1, start the helper and wait for its "ready"
level_start() {
	local word
	LEVEL_MIB=-
	[ "$LEVEL" = 1 ] || return 0
	coproc LEVELLER { exec python3 -c "$PY_LEVEL"; }
	if ! read -r -u "${LEVELLER[0]}" word LEVEL_MIB || [ "$word" != ready ]; then
		die "the helper of LEVEL=1 did not start (python3 -c PY_LEVEL)"
	fi
}
# level_stop: close the helper's input, so it frees what it holds and ends
level_stop() {
	local pid fd
	[ "$LEVEL" = 1 ] || return 0
	pid=$LEVELLER_PID fd=${LEVELLER[1]}
	exec {fd}>&-
	wait "$pid" || die "the helper of LEVEL=1 failed"
}

# run OUT CMD...: stdout to OUT, stderr to OUT.err; a failure aborts
run() {
	local out=$1 rc=0
	shift
	"$@" >"$out" 2>"$out.err" || rc=$?
	if [ "$rc" != 0 ]; then
		{
			printf '%s: this run failed (exit %s):\n  %s\nits stderr:\n' "$PROG" "$rc" "$*"
			cat "$out.err"
		} >&2
		exit 1
	fi
}

# What every run shares. atio drops its files from the page cache before a
# run and fio invalidates them (invalidate=1): both left on, except in a and
# b, where both keep the cache (--keep-cache, --invalidate=0). fio runs its
# jobs as threads like atio (--thread), one job per file so that every
# thread has its own file, with its latency recording left on (clat, and
# slat for io_uring/libaio). --norandommap: atio draws offsets with
# repetition, as fio does with it; it also is fio's cheaper path.
ATIO_COMMON=(--json -t "$TIME")
FIO_COMMON=(--thread --time_based "--runtime=$TIME" --group_reporting
	--output-format=json)
FIO_FILES=(--allow_file_create=0 --size=1g)
# fio batching (submit/complete) tried on a 2-core VM: 1/1, 8/1, 8/8,
# 16/1..32, 16/16, 32/1..32, 32/32; 16/1..32 was among the best (noisy).
URING_BEST=(--fixedbufs --registerfiles --iodepth_batch_submit=16
	--iodepth_batch_complete_min=1 --iodepth_batch_complete_max=32)
AIO_BEST=(--iodepth_batch_submit=16 --iodepth_batch_complete_min=1
	--iodepth_batch_complete_max=32)

# fio_jobs PREFIX N: one job per atio file PREFIX.0 .. PREFIX.N-1
fio_jobs() {
	local i
	for ((i = 0; i < $2; i++)); do
		printf '%s\n' "--name=j$i" "--filename=$1.$i"
	done
}

# prepare PREFIX THREADS SIZE: let atio create and fill its files (a short
# unmeasured read run), and check they are there
prepare() {
	local i
	note "preparing $2 file(s) $1.* ($3 in all)"
	run "$WORK/prep.out" "$ATIO" --read --seq -p "$2" -u "$3" -t 1 --json -f "$1"
	for ((i = 0; i < $2; i++)); do
		[ -f "$1.$i" ] || die "atio did not create $1.$i"
	done
}

TABLE=$WORK/table
: >"$TABLE"
CHECK=0
# bench NAME LABEL OPSMIN CPUMAX: PAIRS times run A_CMD then F_CMD (then
# L_CMD if set), print the medians and ratios, and add rows to the table.
# With CHECK=1, only have atio (-a) and fio (--parse-only) check the options.
bench() {
	local name=$1 label=$2 omin=$3 cmax=$4 res=$WORK/${1//\//-}.runs i tool line
	local ops_s cpu_m ops sec usr sy qd req c0 c1 tools=(atio fio) order
	local -a cmd
	if [ "$CHECK" = 1 ]; then
		run "$WORK/check" "${A_CMD[@]}" -a
		run "$WORK/check" "${F_CMD[@]}" --parse-only
		return
	fi
	[ ${#L_CMD[@]} -eq 0 ] || tools+=(loop)
	printf '\n== %s: %s\n' "$name" "$label"
	printf 'atio: %s\nfio:  %s\n' "${A_CMD[*]}" "${F_CMD[*]}"
	[ ${#L_CMD[@]} -eq 0 ] || printf 'loop: %s\n' "${L_CMD[*]}"
	: >"$res"
	for ((i = 1; i <= PAIRS; i++)); do
		# Whichever tool runs second reads data the first one just pulled
		# through the host's caches (a virtual disk has them too): swap the
		# order every other pair so neither tool always gets that help.
		order=("${tools[@]}")
		[ $((i % 2)) = 1 ] || order=(fio atio "${tools[@]:2}")
		for tool in "${order[@]}"; do
			case $tool in
			atio) cmd=("${A_CMD[@]}") ;;
			fio) cmd=("${F_CMD[@]}") ;;
			loop) cmd=("${L_CMD[@]}") ;;
			esac
			note "$name: run $i/$PAIRS: $tool"
			level_start
			c0=$(dev_counters)
			run "$WORK/out" "${cmd[@]}"
			c1=$(dev_counters)
			level_stop
			line=$(python3 -c "$PY_PARSE" "$tool" "$WORK/out") ||
				die "$name: cannot read the $tool result of: ${cmd[*]}"
			line="$line $(dev_load "$c0" "$c1")"
			echo "$tool $line" >>"$res"
			[ "$VERBOSE" = 1 ] || continue
			read -r ops_s cpu_m ops sec usr sy qd req <<<"$line"
			printf '  run %d %-4s %12.0f ops/s %8.3f CPU s/Mop  (%s ops in %s s; CPU s: %s user, %s sys; device: queue %s, %s KiB a request; helper %s MiB)\n' \
				"$i" "$tool" "$ops_s" "$cpu_m" "$ops" "$sec" "$usr" "$sy" "$qd" "$req" "$LEVEL_MIB"
		done
	done
	summarise "$name" "$res" fio "$omin" "$cmax"
	[ ${#L_CMD[@]} -eq 0 ] || summarise "$name/loop" "$res" loop "$LOOP_MIN" -
}

# The peak of an atio sweep's --json document: "VALUE DEPTH".
PY_SWEEP_PEAK='
import json, sys
d = json.load(open(sys.argv[1]))
if not d["complete"] or d["peak"] is None:
    sys.exit("the sweep did not complete")
p = d["points"][d["peak"]["point"] - 1]
print("%.1f %s" % (p["value"], p["axes"]["iodepth"]))
'
# The pairs of a sweep row: medians, the median of the pairs' ratios atio/fio
# and their spread (lowest and highest), the verdict against OPSMIN; argv:
# file OPSMIN. Prints the row of the table and, last, the spread.
PY_SWEEP_SUMMARY='
import statistics, sys
path, omin = sys.argv[1:3]
runs = [l.split() for l in open(path)]
a = [float(r[1]) for r in runs if r[0] == "atio"]
f = [float(r[1]) for r in runs if r[0] == "fio"]
ratios = [x / y for x, y in zip(a, f)]
ro = statistics.median(ratios)
tgt = "ops>=%sx: %s" % (omin, "met" if ro >= float(omin) else "MISS ops")
print("%.0f\t%.0f\t%.3f\t-\t-\t-\t-\t-\t%s\t%.3f\t%.3f" % (statistics.median(a),
      statistics.median(f), ro, tgt, min(ratios), max(ratios)))
'
# bench_sweep NAME LABEL OPSMIN: PAIRS times the sweep A_CMD (its peak) and
# fio's F_CMD at each depth of DEPTHS (its best), alternately; the median
# of the pairs' ratios, their spread, and a table row (no CPU columns: a
# sweep's CPU is of many runs).
bench_sweep() {
	local name=$1 label=$2 omin=$3 res=$WORK/$1.runs i tool depth best v at line
	local ao bo ro ac bc rc aq bq tgt lo hi order
	if [ "$CHECK" = 1 ]; then
		run "$WORK/check" "${A_CHECK[@]}" -a
		run "$WORK/check" "${F_CMD[@]}" --iodepth=64 --parse-only
		return
	fi
	printf '\n== %s: %s\n' "$name" "$label"
	printf 'atio: %s\nfio:  %s --iodepth=D, D in %s\n' "${A_CMD[*]}" "${F_CMD[*]}" "${DEPTHS[*]}"
	: >"$res"
	for ((i = 1; i <= PAIRS; i++)); do
		order=(atio fio)
		[ $((i % 2)) = 1 ] || order=(fio atio)
		for tool in "${order[@]}"; do
			note "$name: run $i/$PAIRS: $tool"
			if [ "$tool" = atio ]; then
				run "$WORK/out" "${A_CMD[@]}"
				line=$(python3 -c "$PY_SWEEP_PEAK" "$WORK/out") ||
					die "$name: cannot read the sweep of: ${A_CMD[*]}"
			else
				best=0 at=-
				for depth in "${DEPTHS[@]}"; do
					run "$WORK/out" "${F_CMD[@]}" "--iodepth=$depth"
					v=$(python3 -c "$PY_PARSE" fio "$WORK/out" | cut -d ' ' -f 1) ||
						die "$name: cannot read the fio result at depth $depth"
					if python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$v" "$best"; then
						best=$v at=$depth
					fi
				done
				line="$best $at"
			fi
			echo "$tool $line" >>"$res"
			[ "$VERBOSE" = 1 ] || continue
			printf '  run %d %-4s %12.0f ops/s at depth %s\n' "$i" "$tool" "${line% *}" "${line#* }"
		done
	done
	line=$(python3 -c "$PY_SWEEP_SUMMARY" "$res" "$omin") || die "$name: cannot summarise $res"
	IFS=$'\t' read -r ao bo ro ac bc rc aq bq tgt lo hi <<<"$line"
	printf '%s median of %d: peak ops/s atio %s, fio best %s; ratio median %s, spread %s to %s; %s\n' \
		"$name" "$PAIRS" "$ao" "$bo" "$ro" "$lo" "$hi" "$tgt"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ao" "$bo" "$ro" "$ac" "$bc" \
		"$rc" "$aq" "$bq" "$tgt (ratios $lo-$hi)" >>"$TABLE"
}

# summarise ROW RESULTS OTHER OPSMIN CPUMAX: medians, ratios, a table row
summarise() {
	local row ao bo ro ac bc rc aq bq tgt
	row=$(python3 -c "$PY_SUMMARY" "$2" atio "$3" "$4" "$5") ||
		die "$1: cannot summarise $2"
	IFS=$'\t' read -r ao bo ro ac bc rc aq bq tgt <<<"$row"
	printf '%s median of %d: ops/s atio %s, %s %s, ratio %s; CPU s/Mop atio %s, %s %s, ratio %s; device queue atio %s, %s %s; %s\n' \
		"$1" "$PAIRS" "$ao" "$3" "$bo" "$ro" "$ac" "$3" "$bc" "$rc" "$aq" "$3" "$bq" "$tgt"
	printf '%s\t%s\n' "$1" "$row" >>"$TABLE"
}

# fio_meta_jobs DIR: one job a CPU, each with a directory of its own under DIR
fio_meta_jobs() {
	local i
	for ((i = 0; i < NCPU; i++)); do
		printf '%s\n' "--name=j$i" "--directory=$1/c$i"
	done
}
# fresh_dirs DIR CMD...: DIR emptied, its job directories made, then CMD
# (fio's filecreate makes files where none are; fio measures itself)
# shellcheck disable=SC2016 # expanded by the bash -c that runs it
FRESH='rm -rf -- "$0" && mkdir -p "$0" && for i in $(seq 0 $(($(nproc) - 1))); do mkdir "$0/c$i"; done && exec "$@"'

R1=$DIR/r1 # 1 x 1 GiB: a, b
R2=$DIR/r2 # 2 x 1 GiB: d, e
W4=$DIR/w4 # 4 x 1 GiB: f
NCPU=$(nproc)
RN=$DIR/r$NCPU # NCPU x 1 GiB: g, h (the same files as R2 on 2 CPUs)
LOOP_MIN=0.95
mapfile -t J1 < <(fio_jobs "$R1" 1)
mapfile -t J2 < <(fio_jobs "$R2" 2)
mapfile -t J4 < <(fio_jobs "$W4" 4)
mapfile -t JN < <(fio_jobs "$RN" "$NCPU")
L_CMD=()

# The workloads; with CHECK=1 bench() only checks the command lines.
workloads() {
	local eng rw best
	if has a; then
		A_CMD=("$ATIO" --read --rand -s 4K -p 1 --engine sync --keep-cache
			-u 1G "${ATIO_COMMON[@]}" -f "$R1")
		F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --ioengine=psync
			--rw=randread --bs=4k --norandommap --invalidate=0 "${J1[@]}")
		L_CMD=("$WORK/pread-loop" "$R1.0" "$TIME")
		[ "$CHECK" = 1 ] || cat "$R1.0" >/dev/null # into the page cache
		bench a "cached 4K random read, 1 thread, sync" - -
		L_CMD=()
	fi
	if has b; then
		A_CMD=("$ATIO" --read --rand -s 4K -p 1 --engine io_uring --iodepth 32
			--keep-cache -u 1G "${ATIO_COMMON[@]}" -f "$R1")
		F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --ioengine=io_uring
			--iodepth=32 "${URING_BEST[@]}" --rw=randread --bs=4k
			--norandommap --invalidate=0 "${J1[@]}")
		[ "$CHECK" = 1 ] || cat "$R1.0" >/dev/null
		bench b "cached 4K random read, 1 thread, io_uring depth 32" 1.2 -
	fi
	if has c; then
		# neither null engine touches a file
		A_CMD=("$ATIO" --engine null --rand -s 4K -p 1 -u 1G "${ATIO_COMMON[@]}")
		F_CMD=("$FIO" "${FIO_COMMON[@]}" --ioengine=null --rw=randread --bs=4k
			--norandommap --size=1g "--directory=$WORK" --name=j0)
		bench c "null engine, 4K random, 1 thread" 2 -
	fi
	if has d; then
		for eng in io_uring libaio; do
			A_CMD=("$ATIO" --read --uncached --rand -s 4K -p 2 --engine "$eng"
				--iodepth 32 -u 2G "${ATIO_COMMON[@]}" -f "$R2")
			best=("${URING_BEST[@]}")
			[ "$eng" = io_uring ] || best=("${AIO_BEST[@]}")
			F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --direct=1
				"--ioengine=$eng" --iodepth=32 "${best[@]}" --rw=randread
				--bs=4k --norandommap "${J2[@]}")
			bench "d-${eng#lib}" "O_DIRECT 4K random read, 2 threads, $eng depth 32" 1.0 1.0
		done
	fi
	if has e; then
		# atio includes the final sync of a write test; fio does with
		# end_fsync=1. atio runs twice: as it is (its 16M buffers in huge
		# pages), and with --no-thp, in base pages as fio's buffers are,
		# so that the table tells the buffers' share from the rest.
		for rw in read write; do
			for pages in huge base; do
				A_CMD=("$ATIO" "--$rw" --uncached --seq -s 16M -p 2 --engine sync
					-u 2G "${ATIO_COMMON[@]}" -f "$R2")
				[ "$pages" = huge ] || A_CMD+=(--no-thp)
				F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --direct=1
					--ioengine=psync "--rw=$rw" --bs=16m "${J2[@]}")
				[ "$rw" = read ] || F_CMD+=(--end_fsync=1)
				if [ "$pages" = huge ]; then
					bench "e-$rw" "O_DIRECT 16M sequential $rw, 2 threads, sync" 1.0 1.0
				else
					bench "e-$rw/base" "the same, atio --no-thp" 1.0 1.0
				fi
			done
		done
	fi
	if has f; then
		# ops are writes (not syncs) a second in both; both end with a flush
		A_CMD=("$ATIO" --fdatasync --rand -s 4K -q 32 -p 4 --engine sync -u 4G
			"${ATIO_COMMON[@]}" -f "$W4")
		F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --ioengine=sync
			--rw=randwrite --bs=4k --norandommap --fdatasync=32 --end_fsync=1
			"${J4[@]}")
		bench f "4K random write, fdatasync every 32, 4 threads, sync" 1.0 1.0
	fi
	# Seed 000's node profiles, fio's options as its guide gives them (no
	# batching, fio's random map on), one job per CPU, 1 GiB files
	# instead of the guide's twice the RAM.
	if has g; then
		for eng in libaio io_uring; do
			A_CMD=("$ATIO" --read --uncached --rand -s 4K -p "$NCPU" --engine "$eng"
				--iodepth 32 -u "${NCPU}G" "${ATIO_COMMON[@]}" -f "$RN")
			F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --direct=1
				"--ioengine=$eng" --iodepth=32 --rw=randread --bs=4k "${JN[@]}")
			bench "g-${eng#lib}" "seed 000 randread.fio: O_DIRECT 4K random read, $NCPU jobs, $eng depth 32" 1.0 1.0
		done
	fi
	if has h; then
		# as in e, atio also with --no-thp: base-page buffers, as fio's
		for eng in libaio io_uring; do
			for pages in huge base; do
				A_CMD=("$ATIO" --read --uncached --seq -s 1M -p "$NCPU" --engine "$eng"
					--iodepth 32 -u "${NCPU}G" "${ATIO_COMMON[@]}" -f "$RN")
				[ "$pages" = huge ] || A_CMD+=(--no-thp)
				F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --direct=1
					"--ioengine=$eng" --iodepth=32 --rw=read --bs=1m "${JN[@]}")
				if [ "$pages" = huge ]; then
					bench "h-${eng#lib}" "seed 000 seqread.fio: O_DIRECT 1M sequential read, $NCPU jobs, $eng depth 32" 1.0 1.0
				else
					bench "h-${eng#lib}/base" "the same, atio --no-thp" 1.0 1.0
				fi
			done
		done
	fi
	if has i; then
		# The same depths both ways: atio's range 1-64 is 1, 2, 4 ... 64.
		DEPTHS=(1 2 4 8 16 32 64)
		A_CMD=("$ATIO" sweep iodepth=1-64 --read --uncached --rand -s 4K -p 1
			--engine io_uring -u 1G "${ATIO_COMMON[@]}" -f "$R1")
		A_CHECK=("$ATIO" --read --uncached --rand -s 4K -p 1 --engine io_uring
			--iodepth 64 -u 1G "${ATIO_COMMON[@]}" -f "$R1")
		F_CMD=("$FIO" "${FIO_COMMON[@]}" "${FIO_FILES[@]}" --direct=1
			--ioengine=io_uring "${URING_BEST[@]}" --rw=randread --bs=4k
			--norandommap "${J1[@]}")
		bench_sweep i "depth sweep 1-64: O_DIRECT 4K random read, 1 thread, io_uring" 1.00
	fi
	# Metadata: the same files and threads, both keeping the caches
	# (atio --keep-cache, fio --invalidate=0). fio's filecreate makes empty files;
	# filestat and filedelete lay out 4K files first, outside their time.
	# atio's create and delete runs also make and remove their tree
	# outside the phase on the result line; stat reuses the tree made once.
	if has m; then
		A_META=("$ATIO" -p "$NCPU" --files "$MFILES" --dirs 1 --keep-cache --json)
		F_META=("$FIO" --thread --group_reporting --output-format=json --openfiles=1
			--filesize=4k --bs=4k "--nrfiles=$MFILES" --invalidate=0)
		mapfile -t JM < <(fio_meta_jobs "$DIR/fm")
		A_CMD=("${A_META[@]}" --meta "create,delete" --figure create -f "$DIR/am")
		F_CMD=(bash -c "$FRESH" "$DIR/fm" "${F_META[@]}" --ioengine=filecreate
			--create_on_open=1 --fallocate=none "${JM[@]}")
		bench m-create "metadata: create $MFILES empty files a thread, $NCPU threads" 1.0 -
		A_CMD=("${A_META[@]}" --meta stat --file-size 4K -f "$DIR/as")
		F_CMD=("${F_META[@]}" --ioengine=filestat "${JM[@]}")
		[ "$CHECK" = 1 ] || run "$WORK/prep.out" "${A_META[@]}" --meta create --file-size 4K -f "$DIR/as"
		[ "$CHECK" = 1 ] || run "$WORK/prep.out" bash -c "$FRESH" "$DIR/fm" "${F_META[@]}" \
			--ioengine=filestat "${JM[@]}"
		bench m-stat "metadata: stat $MFILES files a thread, $NCPU threads" 1.0 -
		A_CMD=("${A_META[@]}" --meta "create,delete" --figure delete --file-size 4K -f "$DIR/ad")
		F_CMD=("${F_META[@]}" --ioengine=filedelete "${JM[@]}")
		bench m-delete "metadata: delete $MFILES files of 4K a thread, $NCPU threads" 1.0 -
	fi
}

printf '# bench-vs-fio.sh, %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')"
printf '# atio: %s (%s)\n' "$("$ATIO" --version 2>&1 | head -n 1)" "$ATIO"
printf '# fio: %s (%s)\n' "$("$FIO" --version 2>&1 | head -n 1)" "$(command -v "$FIO")"
printf '# kernel: %s, nproc: %s, CPU: %s\n' "$(uname -r)" "$(nproc)" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
printf '# dir: %s (%s)\n' "$DIR" "$(df -PT "$DIR" | awk 'NR == 2 { print $1 ", " $2 }')"
# other load on the machine skews ops/s (CPU per op much less): show it
load() { cut -d ' ' -f 1-3 /proc/loadavg; }
printf '# load average at start: %s\n' "$(load)"
printf '# TIME=%s s per run, PAIRS=%s, WORKLOADS="%s", LEVEL=%s; ratio = atio/fio\n' \
	"$TIME" "$PAIRS" "$WORKLOADS" "$LEVEL"

if has a || has b || has i; then prepare "$R1" 1 1G; fi
if has d || has e; then prepare "$R2" 2 2G; fi
if has f; then prepare "$W4" 4 4G; fi
if has g || has h; then prepare "$RN" "$NCPU" "${NCPU}G"; fi
if has m; then mkdir -p "$DIR/am" "$DIR/as" "$DIR/ad" "$DIR/fm"; fi
note "checking the command lines"
CHECK=1
workloads
CHECK=0
if has a; then
	cc -O2 -Wall -o "$WORK/pread-loop" "$TOP/scripts/bench/pread-loop.c" ||
		die "cannot compile scripts/bench/pread-loop.c"
fi
workloads

printf '\n== summary: medians of %d pairs of %s s; ratio = atio/fio (a/loop: atio/pread loop)\n' \
	"$PAIRS" "$TIME"
printf '# load average at end: %s\n' "$(load)"
fmt='%-12s | %10s | %10s | %6s | %14s | %13s | %6s | %7s | %6s | %s\n'
# shellcheck disable=SC2059 # the format is ours
{
	printf "$fmt" workload 'atio ops/s' 'fio ops/s' ratio 'atio CPU s/Mop' \
		'fio CPU s/Mop' ratio 'atio qd' 'fio qd' target
	while IFS=$'\t' read -r row ao bo ro ac bc rc aq bq tgt; do
		printf "$fmt" "$row" "$ao" "$bo" "$ro" "$ac" "$bc" "$rc" "$aq" "$bq" "$tgt"
	done <"$TABLE"
}
