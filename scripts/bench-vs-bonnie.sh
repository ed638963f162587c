#!/bin/bash
# bench-vs-bonnie.sh: atio --meta and bonnie++ -n on the same tree shape,
# alternately, and the atio/bonnie++ ratios of files a second per phase.
set -eu

PROG=bench-vs-bonnie.sh
usage() {
	cat <<'EOF'
Usage: scripts/bench-vs-bonnie.sh [NAME=VALUE ...]

Runs bonnie++'s file tests (-n) and atio's metadata phases alternately on
the same directory, PAIRS times, and prints per phase the median files a
second of each tool, the median of the pairs' ratios atio/bonnie++ and
their lowest and highest. The tree is bonnie++'s: NFILES x 1024 empty
files in one directory, one process, the caches kept (bonnie++ drops
none). Phases compared:
  create  bonnie++'s sequential create    atio --meta create
  stat    bonnie++'s sequential stat      atio --meta stat
  delete  bonnie++'s sequential delete    atio --meta delete
  rstat   bonnie++'s random stat          atio --meta stat --rand
bonnie++ prints +++++ for a phase done in under half a second, atio says
"too fast to measure" under 0.3 s: a pair where either tool could not time
the phase is left out of its ratios and counted. Raise NFILES until no
pair is left out. Results go to stdout, progress to stderr.

Settings, from the environment or as NAME=VALUE arguments:
  ATIO     atio binary (default build/atio in this repository)
  BONNIE   bonnie++ binary (default bonnie++ on PATH; Debian and Fedora
           package it as bonnie++)
  DIR      test directory (default a new mktemp -d under /var/tmp, removed
           at exit unless KEEP=1)
  NFILES   files in units of 1024, bonnie++'s -n (default 64)
  PAIRS    pairs, at least 3 (default 5; the tool that runs first
           alternates from pair to pair)
EOF
}
die() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 1; }
note() { printf '%s: %s\n' "$PROG" "$*" >&2; }

for arg; do
	case $arg in
	-h | --help) usage; exit 0 ;;
	ATIO=* | BONNIE=* | DIR=* | KEEP=* | NFILES=* | PAIRS=*) export "${arg?}" ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done
TOP=$(cd "$(dirname "$0")/.." && pwd)
: "${ATIO:=$TOP/build/atio}" "${BONNIE:=bonnie++}" "${NFILES:=64}" "${PAIRS:=5}" "${KEEP:=0}"
case $NFILES in '' | *[!0-9]* | 0*) die "NFILES='$NFILES': need a whole number, at least 1" ;; esac
case $PAIRS in '' | *[!0-9]* | 0*) die "PAIRS='$PAIRS': need a whole number" ;; esac
[ "$PAIRS" -ge 3 ] || die "PAIRS=$PAIRS: need at least 3 pairs for a median"
[ -x "$ATIO" ] || die "ATIO=$ATIO: not an executable (build it: scripts/build.sh atio)"
command -v "$BONNIE" >/dev/null || die "BONNIE=$BONNIE: not found (install the bonnie++ package)"

if [ -z "${DIR:-}" ]; then
	DIR=$(mktemp -d /var/tmp/bench-vs-bonnie.XXXXXX) || die "mktemp -d under /var/tmp failed"
	OWN_DIR=1
else
	[ -d "$DIR" ] || die "DIR=$DIR: not a directory"
	OWN_DIR=0
fi
WORK=$(mktemp -d) || die "mktemp -d failed"
cleanup() {
	rm -rf "$WORK"
	if [ "$OWN_DIR" = 1 ] && [ "$KEEP" != 1 ]; then rm -rf "$DIR"; fi
}
trap cleanup EXIT

# bonnie++ drops its privileges to -u's user when run by root.
B_CMD=("$BONNIE" -d "$DIR" -s 0 -n "$NFILES:0:0:1" -q -x 1)
[ "$(id -u)" != 0 ] || B_CMD+=(-u root)
PHASES=create,stat,delete
A_COMMON=("$ATIO" --meta "$PHASES" -p 1 --files "$((NFILES * 1024))" --dirs 1
	--file-size 0 --keep-cache --json -f "$DIR")

# run OUT CMD...: CMD's stdout to OUT; its failure ends the benchmark, with
# its command line and stderr.
run() {
	local out=$1 rc=0
	shift
	"$@" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] && return 0
	printf '%s: this run failed (exit %s):\n  %s\nits stderr:\n' "$PROG" "$rc" "$*" >&2
	cat "$out.err" >&2
	exit 1
}

# The phases' files a second of one tool's run(s), "create stat delete
# rstat", "-" for a phase it could not time. argv: tool file [file].
PY_PARSE='
import csv, json, sys
tool, paths = sys.argv[1], sys.argv[2:]
if tool == "bonnie":
    rows = [r for r in csv.reader(open(paths[0])) if len(r) > 37]
    if not rows:
        sys.exit("no bonnie++ CSV line with the file tests")
    r = rows[-1]
    # after the data tests: files, max, min, dirs, chunk, then rate and
    # CPU of sequential create, stat, delete, random create, stat, delete
    seq_c, seq_s, seq_d, ran_s = r[26], r[28], r[30], r[34]
    def rate(x):
        return "-" if "+" in x or not x else x
    print(" ".join(rate(x) for x in (seq_c, seq_s, seq_d, ran_s)))
else:
    def phases(p):
        d = json.load(open(p))
        return {ph["phase"]: ("-" if ph["too_fast"] else "%.1f" % ph["ops_per_sec"])
                for ph in d["phases"]}
    seq, ran = phases(paths[0]), phases(paths[1])
    print(seq["create"], seq["stat"], seq["delete"], ran["stat"])
'

# The medians, the ratios' median and spread per phase; argv: the runs file.
PY_SUMMARY='
import statistics, sys
names = ["create", "stat", "delete", "rstat"]
runs = [l.split() for l in open(sys.argv[1])]
a = [r[1:] for r in runs if r[0] == "atio"]
b = [r[1:] for r in runs if r[0] == "bonnie"]
print("%-7s | %12s | %12s | %6s | %13s | %s" % ("phase", "atio files/s", "bonnie files/s",
      "ratio", "ratio spread", "pairs left out"))
for k, name in enumerate(names):
    pairs = [(float(x[k]), float(y[k])) for x, y in zip(a, b) if x[k] != "-" and y[k] != "-"]
    out = len(a) - len(pairs)
    if not pairs:
        print("%-7s | %12s | %14s | %6s | %13s | %d (too fast for one tool or both)"
              % (name, "-", "-", "-", "-", out))
        continue
    ratios = [x / y for x, y in pairs]
    print("%-7s | %12.0f | %14.0f | %6.3f | %6.3f-%-6.3f | %d" % (name,
          statistics.median(x for x, _ in pairs), statistics.median(y for _, y in pairs),
          statistics.median(ratios), min(ratios), max(ratios), out))
'

printf '# bench-vs-bonnie.sh, %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')"
printf '# atio: %s (%s)\n' "$("$ATIO" --version 2>&1 | head -n 1)" "$ATIO"
printf '# bonnie++: %s\n' "$(command -v "$BONNIE")"
printf '# dir: %s (%s)\n' "$DIR" "$(df -PT "$DIR" | awk 'NR == 2 { print $1 ", " $2 }')"
printf '# load average at start: %s\n' "$(cut -d ' ' -f 1-3 /proc/loadavg)"
printf '# NFILES=%s (%s files), PAIRS=%s; ratio = atio/bonnie++\n' "$NFILES" \
	"$((NFILES * 1024))" "$PAIRS"
printf 'bonnie++: %s\natio:     %s\natio:     %s --rand\n' "${B_CMD[*]}" "${A_COMMON[*]}" \
	"${A_COMMON[*]}"

RES=$WORK/runs
: >"$RES"
for ((i = 1; i <= PAIRS; i++)); do
	order=(atio bonnie)
	[ $((i % 2)) = 1 ] || order=(bonnie atio)
	for tool in "${order[@]}"; do
		note "run $i/$PAIRS: $tool"
		if [ "$tool" = atio ]; then
			run "$WORK/seq" "${A_COMMON[@]}"
			run "$WORK/ran" "${A_COMMON[@]}" --rand
			line=$(python3 -c "$PY_PARSE" atio "$WORK/seq" "$WORK/ran") ||
				die "cannot read atio's documents"
		else
			run "$WORK/bonnie" "${B_CMD[@]}"
			line=$(python3 -c "$PY_PARSE" bonnie "$WORK/bonnie") ||
				die "cannot read bonnie++'s CSV line: $(cat "$WORK/bonnie")"
		fi
		echo "$tool $line" >>"$RES"
		printf '  run %d %-6s create stat delete rstat: %s\n' "$i" "$tool" "$line"
	done
done
printf '\n== medians of %s pairs\n' "$PAIRS"
python3 -c "$PY_SUMMARY" "$RES"
printf '# load average at end: %s\n' "$(cut -d ' ' -f 1-3 /proc/loadavg)"
