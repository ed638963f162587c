#!/bin/bash
# atio built with AddressSanitizer and UBSan ($ATIO is that build) through
# the paths a run takes at its end as well as in its middle: every engine
# at depth, each workload, several threads at the shortest --interval (the
# timeline and its merge of the threads' quiet spans, whose worst cases
# the unit test san-interval takes), --verify, --mix, --expand, --rate, a
# cached run, the null engine, atio merge of several runs, atio report and
# --check. Each run must end as a clean run does (exit 0, its result or
# document) with no sanitizer report on stderr: a heap overflow, a use
# after free, a leak or undefined behaviour fails the run that hit it.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads and edits the JSON documents)"

# Stop at the first error, with the reports on stderr; leaks count.
export ASAN_OPTIONS=abort_on_error=0:halt_on_error=1:detect_leaks=1:exitcode=86
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87

D=$WORK/d
mkdir -p "$D"
SAN_RE='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer'

# clean WHAT [CODE]: the last run exited CODE (0 by default) and stderr
# holds no sanitizer report.
clean() {
	local first

	if [ "$RC" = "${2:-0}" ] && ! grep -aEq -- "$SAN_RE" "$ERR"; then
		ok "$1"
		return
	fi
	first=$(grep -aE -m1 -- "$SAN_RE" "$ERR" || true)
	not_ok "$1" "exit $RC, want ${2:-0}${first:+; first report: $first}" "command: $LAST"
	show stderr "$ERR"
}

# san_run WHAT ARG...: run atio and require a clean end with a result line.
san_run() {
	local what=$1

	shift
	run_atio "$@"
	clean "$what"
	if [ "$RC" = 0 ] && ! grep -aEq "$RESULT_RE" "$OUT"; then
		not_ok "$what: the result line" "command: $LAST"
		show stdout "$OUT"
	fi
}

# san_json WHAT FILE ARG...: the same with --json, the document kept in FILE.
san_json() {
	local what=$1 file=$2

	shift 2
	run_atio "$@" --json
	clean "$what"
	cp "$OUT" "$file"
	if [ "$RC" = 0 ] && ! jq -e '.result.ops > 0' "$file" >/dev/null 2>&1; then
		not_ok "$what: a JSON document with its I/Os" "command: $LAST"
		show stdout "$OUT"
	fi
}

run_atio --version
grep -aq '^atio ' "$OUT" || die "$ATIO --version printed no version"

CACHE=--cached
if direct_io_works "$WORK"; then
	CACHE=--uncached
else
	skip_check "O_DIRECT runs" "O_DIRECT is refused in $WORK (set TMPDIR to another filesystem to test it)"
fi

# Every engine built in, at the depth it takes, reading and writing.
for engine in sync io_uring libaio null; do
	depth=16
	case $engine in sync | null) depth=1 ;; esac
	run_atio --engine "$engine" --iodepth "$depth" --rand -s 4K -t 0.1 -p 3 -u 24M -f "$D"
	if [ "$RC" -ne 0 ] && grep -aEq 'not built|not available' "$ERR"; then
		skip_check "--engine $engine" "$(grep -aEm 1 'not built|not available' "$ERR")"
		continue
	fi
	clean "--engine $engine --iodepth $depth starts and ends"
	for mode in read write fdatasync; do
		san_json "--engine $engine --$mode $CACHE --iodepth $depth -p 3" \
			"$WORK/$engine-$mode.json" --engine "$engine" --iodepth "$depth" "--$mode" \
			--rand "$CACHE" -s 4K -p 3 -t 0.3 -u 24M -f "$D"
	done
done

# Several threads of large writes at the shortest interval.
mkdir -p "$WORK/s" "$WORK/v" "$WORK/e"
san_json "16M writes, 4 threads, --interval 0.1" "$WORK/intervals.json" \
	--write --seq -s 16M -p 4 -t 0.6 -u 128M "$CACHE" --interval 0.1 -f "$WORK/s"

san_run "--mix 70 --verify at depth" --mix 70 --rand -s 4K --iodepth 8 -p 2 -t 0.3 \
	-u 16M "$CACHE" --verify -f "$WORK/v"
san_run "--fsync -q 4 --verify (journal)" --fsync -q 4 --rand -s 4K -p 2 -t 0.3 \
	-u 16M "$CACHE" --verify -f "$WORK/v"
run_atio --check -p 2 -u 16M -f "$WORK/v"
clean "--check of the dataset and its journal"
san_run "--rate at depth" --read --rand -s 4K --iodepth 4 -p 3 -t 0.3 -u 24M "$CACHE" \
	--rate 2000 -f "$D"
san_run "--cached --read --seq" --read --seq -s 64K -p 3 -t 0.3 -u 24M --cached -f "$D"
san_run "--expand" --expand -s 64K -p 2 -n 2 -t 0.3 -u 16M -f "$WORK/e"

# Metadata runs (their documents apart: atio report takes data runs):
# every phase at several threads with --verify and --rand, one shared
# directory read by the neighbour, atio merge of them; a SIGINT while a
# run waits for its start instant, and one in the middle of a read phase
# (held on a FIFO in place of a file), each with its partial results.
mkdir -p "$WORK/m" "$WORK/md" "$WORK/mf"
run_atio --meta create,stat,read,rename,delete -p 3 --files 200 --file-size 4K --dirs 4 \
	--verify --rand --keep-cache --json -f "$WORK/md"
clean "--meta, every phase, --verify --rand -p 3"
cp "$OUT" "$WORK/m/a.json"
run_atio --meta create,stat,read,delete --shared-dir --neighbour -p 3 --files 200 \
	--file-size 1K --keep-cache -v -f "$WORK/md"
clean "--meta --shared-dir --neighbour -v"
run_atio merge "$WORK/m/a.json" "$WORK/m/a.json"
clean "atio merge of metadata documents"
mkfifo "$WORK/m/start"
exec 4<>"$WORK/m/start"
start_atio_ready "$WORK/m/start" --meta create,delete -p 2 --files 50 --keep-cache --start-at - \
	-f "$WORK/md"
kill -INT "$PID"
wait_exit 60
exec 4>&-
clean "--meta: SIGINT before the start instant" 130
run_atio --meta create -p 1 --files 100 --file-size 512 --keep-cache -f "$WORK/mf"
clean "--meta create for the cut read"
rm "$WORK/mf/atio-meta/t0/d0/f50"
mkfifo "$WORK/mf/atio-meta/t0/d0/f50"
exec 3<>"$WORK/mf/atio-meta/t0/d0/f50"
start_atio --meta stat,read,delete -p 1 --files 100 --file-size 512 --keep-cache --json -f "$WORK/mf"
# Its read of the FIFO waits for data (60 s at most, while it runs).
for ((i = 0; i < 1200; i++)); do
	grep -qs pipe /proc/"$PID"/task/*/wchan && break
	kill -0 "$PID" 2>/dev/null || break
	sleep 0.05
done
kill -INT "$PID" 2>/dev/null || true
while ! grep -q 'SIGINT: stopping' "$ERR" && kill -0 "$PID" 2>/dev/null; do sleep 0.05; done
head -c 512 /dev/zero >&3 || true
exec 3>&-
wait_exit 60
clean "--meta: SIGINT in the middle of read" 130
expect_match "--meta: the cut read's document says where" "$OUT" '"interrupted_phase": *"read"'

# The documents of several runs: merged, and made into a page.
jsons=("$WORK"/*.json)
if [ "${#jsons[@]}" -ge 2 ] && [ -f "${jsons[0]}" ]; then
	sed 's/"seed_string":"[0-9]*"/"seed_string":"1"/' "$WORK/intervals.json" >"$WORK/intervals2.json"
	run_atio merge --json "$WORK/intervals.json" "$WORK/intervals2.json"
	clean "atio merge of two runs' timelines"
	run_atio report -o "$WORK/page.html" "${jsons[@]}"
	clean "atio report of ${#jsons[@]} runs"
	[ -s "$WORK/page.html" ] || not_ok "atio report wrote the page" "command: $LAST"
	# Refused after its intervals were read: what was read is freed too.
	jq '.result.ops += 1' "$WORK/intervals.json" >"$WORK/bad.doc"
	run_atio merge "$WORK/intervals.json" "$WORK/bad.doc"
	clean "atio merge refuses a run whose intervals do not add up" 2
	expect_match "atio merge names the document it refuses" "$ERR" 'bad\.doc: intervals'
	run_atio report -o "$WORK/bad.html" "$WORK/bad.doc"
	clean "atio report refuses it too" 2
else
	not_ok "the runs above wrote their JSON documents" "found: ${jsons[*]}"
fi

# Metadata runs: merged (--json first, then the files), and made into a page.
mkdir "$WORK/m1" "$WORK/m2"
for m in m1 m2; do
	run_atio --meta create,stat,delete -p 2 --files 50 --dirs 2 -f "$WORK/$m" --json
	clean "--meta into $m"
	cp "$OUT" "$WORK/$m.meta"
done
run_atio merge --json "$WORK/m1.meta" "$WORK/m2.meta"
clean "atio merge --json of two metadata runs"
cp "$OUT" "$WORK/merged.meta"
run_atio report -o "$WORK/meta.html" "$WORK/merged.meta" "$WORK/m1.meta"
clean "atio report of metadata runs and their merge"

finish
