#!/bin/bash
# Sizing by the node and --prepare.
#
# -p auto is the CPUs atio may run on (nproc, and 1 under taskset -c 0),
# -u auto twice MemTotal of /proc/meminfo; the header and the JSON say what
# was chosen and why, the command line keeps "auto"; bad values exit 2
# naming them. A -u auto run with --cached gives no page cache warning,
# and on a disk too small for it fails before writing anything.
#
# The free space a fill needs, on xfs: what atio's files lack beyond the
# blocks they hold, also past their ends (see below).
#
# --prepare makes and fills the files and prints the fill's MB/s on a line
# without the result line's word; a run with the same settings then
# reuses them without a write, a second --prepare writes nothing and says
# so, a partial dataset is resumed; options of the test run are refused.
#
# A real -u auto is twice this machine's RAM, more than a test may write:
# the runs that fill an auto-sized dataset do it in a mount namespace of
# their own where /proc/meminfo is a copy of the real one with a small
# MemTotal (16 MiB), so that atio reads the same file, just a smaller node.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
MNT=$WORK/mnt

# jget FILE KEY...: the value at KEY... of the JSON document FILE, as
# Python prints it (True, None, 123); "invalid" when it is no JSON.
jget() {
	python3 -c '
import json, sys
try:
    v = json.load(open(sys.argv[1]))
except ValueError:
    print("invalid")
    sys.exit(0)
for k in sys.argv[2:]:
    v = v[k]
print(v)' "$@"
}

# mib BYTES: BYTES in MiB as atio prints them, "%.2f".
mib() {
	awk -v b="$1" 'BEGIN {printf "%.2f", b / 1048576}'
}

# refused WHAT ERE ARG...: exit 2, nothing on stdout, stderr matches ERE.
refused() {
	local what=$1 ere=$2

	shift 2
	run_atio "$@"
	expect_code "$what: exit 2" 2
	expect_empty "$what: nothing on stdout" "$OUT"
	expect_match "$what: the message names it" "$ERR" "$ere"
}

CPUS=$(nproc)
MEM=$(awk '$1 == "MemTotal:" && $2 > 0 {print $2}' /proc/meminfo)
if [ -z "$MEM" ]; then
	die "no MemTotal in /proc/meminfo"
fi
MEM=$((MEM * 1024))
TOTAL=$((2 * MEM))

# -a: the chosen values and why, from the sources the test reads itself.
run_atio -a -p auto -u auto --rand -f "$D"
expect_code "-a -p auto -u auto: exit 0" 0
expect_match "-a -p auto: Processes is nproc ($CPUS), auto" "$OUT" \
	"^Processes: $CPUS \\(auto: the CPUs atio may run on\\)\$"
expect_match "-a -u auto: Testcase: $CPUS files of twice MemTotal, $(mib "$TOTAL") MB" "$OUT" \
	"^Testcase: create/open $CPUS file\\(s\\) of total size $(mib "$TOTAL") MB .* start $CPUS thread\\(s\\)"
expect_match "-a -u auto: the Size line says twice MemTotal ($(mib "$MEM") MB)" "$OUT" \
	"^Size: $(mib "$TOTAL") MB \\(auto: twice MemTotal, $(mib "$MEM") MB\\)\$"
expect_match "-a: Cmdline keeps -p auto and -u auto, and no -n" "$OUT" \
	'^Cmdline: -a --read --rand -s 4K --iops -p auto -t 60 --cached -u auto$'
cmd=$(sed -n 's/^Cmdline: //p' "$OUT")
# shellcheck disable=SC2086 # the command line is words
run_atio $cmd -f "$D"
expect_match "the printed Cmdline gives the same Cmdline" "$OUT" "^Cmdline: $cmd\$"

run_atio -a -p auto -n 3 -u 1G -f "$D"
expect_match "-a -p auto -n 3: Cmdline keeps -n 3" "$OUT" '^Cmdline: .* -p auto -n 3 -t '
expect_match "-a -p auto -n 3: three files" "$OUT" '^Testcase: create/open 3 file\(s\)'
run_atio -a -p 2 -u 1G -f "$D"
expect_match "-a -p 2: no auto on the Processes line" "$OUT" '^Processes: 2$'
expect_no_match "-a -u 1G: no Size line" "$OUT" '^Size:'

if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	LAST="taskset -c 0 atio -a -p auto"
	taskset -c 0 "$ATIO" -a -p auto -u 1G -f "$D" >"$OUT" 2>"$ERR" || true
	expect_match "taskset -c 0: -p auto is the one CPU atio may run on" "$OUT" '^Processes: 1 \(auto'
else
	skip_check "taskset -c 0: -p auto is 1" "no taskset"
fi

if command -v python3 >/dev/null 2>&1; then
	run_atio -a --json -p auto -u auto --rand -f "$D"
	check "--json: settings.threads = nproc" [ "$(jget "$OUT" settings threads)" = "$CPUS" ]
	check "--json: settings.threads_auto" [ "$(jget "$OUT" settings threads_auto)" = True ]
	check "--json: settings.node_cpus = nproc" [ "$(jget "$OUT" settings node_cpus)" = "$CPUS" ]
	check "--json: settings.total_size = 2 x MemTotal" [ "$(jget "$OUT" settings total_size)" = "$TOTAL" ]
	check "--json: settings.total_size_auto" [ "$(jget "$OUT" settings total_size_auto)" = True ]
	check "--json: settings.node_mem_total = MemTotal" [ "$(jget "$OUT" settings node_mem_total)" = "$MEM" ]
	run_atio -a --json -p 3 -u 1G -f "$D"
	check "--json -p 3 -u 1G: not auto, node figures null" \
		[ "$(jget "$OUT" settings threads_auto) $(jget "$OUT" settings total_size_auto) $(jget "$OUT" settings node_cpus) $(jget "$OUT" settings node_mem_total)" = "False False None None" ]
else
	skip_check "--json settings of -p auto -u auto" "no python3"
fi

refused "-u autox" '^atio: -u autox: not a size .* nor auto' -u autox -f "$D"
refused "-u AUTO" '^atio: -u AUTO: not a size' -u AUTO -f "$D"
refused "-p auto3" '^atio: -p auto3: number of threads must be a whole number or auto' -p auto3 -f "$D"
refused "-p Auto" '^atio: -p Auto: ' -p Auto -f "$D"
refused "-p auto -p 2" '^atio: -p given twice \(auto and 2\)' -p auto -p 2 -f "$D"
refused "-u auto -u 1G" '^atio: -u given twice \(auto and 1G\)' -u auto -u 1G -f "$D"
refused "-p ''" '^atio: -p: the value is empty' -p '' -f "$D"

# --prepare without -s fills files for a test of any block size: no 16M
# block is asked of 8M; one 4K block is the least.
P=$WORK/small
mkdir "$P"
run_atio --prepare -p 1 -u 8M -f "$P"
expect_code "--prepare -p 1 -u 8M (no -s): exit 0" 0
check "--prepare -p 1 -u 8M: one file of 8M" [ "$(file_size "$P/atio.0")" -eq 8388608 ]
run_atio --prepare -p 1 -u 1K -f "$P"
expect_code "--prepare -u 1K: exit 2" 2
expect_match "--prepare -u 1K: a 4K block is the least" "$ERR" '^atio: -u 1K: too small: .*one 4K block'
rm -rf "$P"

# --prepare: a new dataset, then reused by a run and by a second --prepare.
run_atio --prepare -p 2 -n 3 -s 4K -u 24M -f "$D"
expect_code "--prepare -p 2 -n 3 -u 24M: exit 0" 0
expect_match "--prepare: the fill's MB/s" "$OUT" \
	'^prepare: 24\.00 MiB written in [0-9]+\.[0-9]{3} sec; [0-9]+\.[0-9]{2} MB/s$'
expect_match "--prepare: the files line" "$OUT" \
	"^files: 3 of 8\\.00 MiB at $D: 3 new, 0 resumed, 0 reused, 0 truncated, 0 taken over\$"
expect_count "--prepare: no stdout line has the result line's word" "$OUT" rate 0
expect_count "--prepare: two lines on stdout" "$OUT" '.' 2
secs=$(sed -nE 's/^prepare: .* in ([0-9.]+) sec; ([0-9.]+) MB\/s$/\1/p' "$OUT")
mbs=$(sed -nE 's/^prepare: .* in ([0-9.]+) sec; ([0-9.]+) MB\/s$/\2/p' "$OUT")
check "--prepare: MB/s is 24 MiB over the time printed ($mbs MB/s, $secs sec)" \
	near "$mbs" "$(awk -v t="$secs" 'BEGIN {print 24 / t}')" 0.02
why=()
for i in 0 1 2; do
	f=$D/atio.$i
	[ -f "$f" ] || why+=("no $f")
	[ -f "$f" ] && [ "$(file_size "$f")" -eq $((8 << 20)) ] || why+=("$f is not 8 MiB")
	[ -f "$f" ] && not_sparse "$f" || why+=("$f is sparse")
	[ -f "$f" ] && incompressible "$f" || why+=("$f compresses")
done
verdict "--prepare: three complete files of incompressible data" "$OUT"
stamp() {
	stat -c '%n %i %s %Y.%y %Z' "$D"/atio.[0-9]*
}
before=$(stamp)
sleep 1.1

run_atio --read --rand -p 2 -n 3 -s 4K -u 24M -t 0.3 -v -f "$D"
expect_code "the run after --prepare: exit 0" 0
check_result "the run after --prepare: the result line" IOPS
expect_no_match "the run after --prepare: no fill" "$ERR" 'preparing'
expect_match "the run after --prepare: 0 new, 3 reused, nothing to write" "$ERR" \
	'^atio: dataset complete: 3 file\(s\) of 8\.00 MiB: 0 new, 3 reused; nothing to write$'
check "the run after --prepare: the files are untouched (inode, size, times)" [ "$before" = "$(stamp)" ]

run_atio --prepare -p 2 -n 3 -s 4K -u 24M -f "$D"
expect_code "--prepare of a complete dataset: exit 0" 0
expect_match "--prepare of a complete dataset: nothing written, said" "$OUT" \
	'^prepare: nothing written: the dataset was complete$'
expect_match "--prepare of a complete dataset: 3 reused" "$OUT" '^files: 3 of .*: 0 new, 0 resumed, 3 reused'
expect_empty "--prepare of a complete dataset: nothing on stderr" "$ERR"
check "--prepare of a complete dataset: the files are untouched" [ "$before" = "$(stamp)" ]

if command -v python3 >/dev/null 2>&1; then
	run_atio --prepare --json -p 2 -n 3 -s 4K -u 24M -f "$D"
	check "--prepare --json: one valid document saying nothing was written" \
		[ "$(jget "$OUT" prepare bytes_written) $(jget "$OUT" prepare complete_already) $(jget "$OUT" prepare reused) $(jget "$OUT" prepare mbs) $(jget "$OUT" settings prepare)" = "0 True 3 None True" ]
fi

# A partial dataset: the short file is resumed from its last whole fill
# chunk (4 MiB of its 5), the others kept.
truncate -s 5M "$D/atio.1"
other=$(stat -c '%i %Y' "$D/atio.0" "$D/atio.2")
if command -v python3 >/dev/null 2>&1; then
	run_atio --prepare --json -p 2 -n 3 -s 4K -u 24M -f "$D"
	expect_code "--prepare --json of a partial dataset: exit 0" 0
	check "--prepare --json of a partial dataset: 4 MiB written, 1 resumed, 2 reused" \
		[ "$(jget "$OUT" prepare bytes_written) $(jget "$OUT" prepare resumed) $(jget "$OUT" prepare reused) $(jget "$OUT" prepare complete_already)" = "$((4 << 20)) 1 2 False" ]
	check "--prepare --json: mbs is bytes over time_sec" \
		near "$(jget "$OUT" prepare mbs)" "$(awk -v t="$(jget "$OUT" prepare time_sec)" 'BEGIN {print 4 / t}')" 0.001
else
	run_atio --prepare -p 2 -n 3 -s 4K -u 24M -f "$D"
	expect_match "--prepare of a partial dataset: 4 MiB written" "$OUT" '^prepare: 4\.00 MiB written'
fi
expect_match "--prepare of a partial dataset: stderr says 1 to resume" "$ERR" \
	'^atio: preparing 3 file\(s\) of 8\.00 MiB: 0 new, 1 to resume, 2 reused'
check "--prepare of a partial dataset: atio.1 is whole again" \
	[ "$(file_size "$D/atio.1")" -eq $((8 << 20)) ]
check "--prepare of a partial dataset: the other files are untouched" \
	[ "$other" = "$(stat -c '%i %Y' "$D/atio.0" "$D/atio.2")" ]

# A smaller -u: the files are cut, nothing written.
run_atio --prepare -p 2 -n 3 -s 4K -u 12M -f "$D"
expect_code "--prepare with a smaller -u: exit 0" 0
expect_match "--prepare with a smaller -u: nothing written, 3 files cut" "$OUT" \
	'^prepare: nothing written: 3 file\(s\) cut to size$'
check "--prepare with a smaller -u: the files are 4 MiB" \
	[ "$(stat -c %s "$D"/atio.[0-9]* | sort -u)" = $((4 << 20)) ]

# Options of the test run are refused, before any file is made.
E=$WORK/empty
mkdir "$E"
refused "--prepare -a" '^atio: --prepare and -a: ' --prepare -a -f "$E"
refused "--prepare -t 5" '^atio: --prepare and -t 5: .*-t belongs to the test run' --prepare -t 5 -f "$E"
refused "--prepare -w 1" '^atio: --prepare and -w 1' --prepare -w 1 -f "$E"
refused "--prepare --remove" '^atio: --prepare and --remove' --prepare --remove -f "$E"
refused "--prepare --engine null" '^atio: --prepare and --engine null' --prepare --engine null
refused "--prepare --write --dsync" '^atio: --prepare and --dsync' --prepare --write --dsync -f "$E"
refused "--prepare -S" '^atio: --prepare and -S' --prepare -S -f "$E"
refused "--prepare --start-at -" '^atio: --prepare and --start-at -' --prepare --start-at - -f "$E"
refused "--prepare without -f" '^atio: -f is missing' --prepare
check "the refused --prepare runs made no file" [ -z "$(listing "$E")" ]

# An auto-sized dataset on a node with 16 MiB of RAM (see above): --prepare
# fills twice that, a --cached run reuses it without the page cache warning,
# while a -u 16M run on the same node still gets it.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private true 2>/dev/null; then
	sed 's/^MemTotal:.*/MemTotal:          16384 kB/' /proc/meminfo >"$WORK/meminfo"
	# small_node ARG...: atio ARG... where /proc/meminfo says 16 MiB.
	small_node() {
		LAST="atio (MemTotal 16 MiB) $*"
		# shellcheck disable=SC2016 # expanded by the inner sh
		if "${LIMIT[@]}" unshare -m --propagation private sh -c \
			'mount --bind "$0" /proc/meminfo && exec "$@"' "$WORK/meminfo" \
			"$ATIO" "$@" >"$OUT" 2>"$ERR"; then
			RC=0
		else
			RC=$?
		fi
	}
	A=$WORK/auto
	mkdir "$A"
	small_node --prepare -p auto -u auto -s 4K -f "$A"
	expect_code "small node: --prepare -p auto -u auto: exit 0" 0
	per=$(((32 << 20) / CPUS & ~4095))
	expect_match "small node: --prepare writes twice 16 MiB in nproc files" "$OUT" \
		"^prepare: $(mib $((per * CPUS))) MiB written in .*MB/s\$"
	expect_match "small node: $CPUS new files" "$OUT" "^files: $CPUS of $(mib "$per") MiB at .*: $CPUS new,"
	small_node --write --rand -p auto -u auto -t 0.3 --cached -f "$A"
	expect_code "small node: -u auto --cached run: exit 0" 0
	check_result "small node: -u auto --cached run: the result line" IOPS
	expect_no_match "small node: -u auto --cached: the dataset is reused" "$ERR" 'preparing'
	expect_no_match "small node: -u auto --cached: no page cache warning" "$ERR" 'page cache'
	small_node --write --rand -p 1 -u 16M -t 0.3 --cached -f "$A/x"
	expect_match "small node: -u 16M --cached still warns (twice 16 MiB is more)" "$ERR" \
		'warning: the dataset \(-u 16\.00 MiB\) is smaller than twice the RAM \(16\.00 MiB\)'
else
	skip_check "an auto-sized dataset on a small node" "needs root and unshare -m"
fi

# Free space on xfs. A file grown by appends after it was truncated keeps
# blocks past its end there (speculative preallocation), as atio's files
# do after an interrupted --expand or fill: those blocks are the files'
# own, and count toward what the dataset needs, not against it. A -u
# that fitted the empty filesystem fits again, a file that holds all it
# lacks needs no free space; a -u that does not fit is still refused.
X=$WORK/xfs
# held FILE...: the bytes of blocks the files hold (st_blocks), also past their ends.
held() {
	stat -c '%b %B' "$@" | awk '{n += $1 * $2} END {print n}'
}
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.xfs >/dev/null 2>&1 ||
	! command -v losetup >/dev/null 2>&1; then
	skip_check "free space on xfs after an interrupted --expand" "needs root, losetup and mkfs.xfs"
elif ! { truncate -s 512M "$WORK/xfs.img" && XLOOP=$(losetup --find --show "$WORK/xfs.img") &&
	TEST_LOOPS+=("$XLOOP") && mkfs.xfs -q -f "$XLOOP" >/dev/null 2>&1 && mkdir "$X" &&
	mount "$XLOOP" "$X" && TEST_MOUNTS+=("$X"); } 2>/dev/null; then
	skip_check "free space on xfs after an interrupted --expand" "no loop device with xfs here"
else
	# The largest -u of two files of whole fill chunks that the empty
	# filesystem takes with atio's spare (1% and 16 MiB), less 8 MiB.
	avail=$(df -P -B 1 "$X" | awk 'NR == 2 {print $4}')
	u=$(((avail - (16 << 20)) * 100 / 101 / (8 << 20) * (8 << 20) - (8 << 20)))
	half=$((u / 2))
	run_atio --prepare -p 2 -u $((u >> 10))K -f "$X"
	expect_code "xfs: --prepare -p 2 -u $((u >> 20))M on the empty filesystem: exit 0" 0
	start_atio --expand -s 1M -p 2 -t 60 -u $((u >> 10))K -f "$X"
	# Interrupted once atio.0 was emptied and has grown to a quarter.
	t0=$(now_ms)
	while [ "$(file_size "$X/atio.0")" -ge "$half" ] && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 60000 ]; do
		sleep 0.05
	done
	while [ "$(file_size "$X/atio.0")" -lt $((half / 2)) ] && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 60000 ]; do
		sleep 0.05
	done
	kill -INT "$PID" 2>/dev/null || true
	wait_exit 60
	check "xfs: the --expand run stopped at SIGINT" [ "$RC" != 999 ]
	size=$(stat -c %s "$X/atio.0" "$X/atio.1" | awk '{n += $1} END {print n}')
	beyond=$(($(held "$X/atio.0" "$X/atio.1") - size))
	echo "# xfs kept $((beyond >> 20)) MiB past the ends of the interrupted files"
	run_atio --prepare -p 2 -u $((u >> 10))K -f "$X"
	expect_code "xfs: --prepare -u $((u >> 20))M after the interrupted --expand: exit 0" 0
	expect_no_match "xfs: --prepare after the interrupted --expand: no free space refusal" "$ERR" \
		'not enough free space'
	check "xfs: --prepare after the interrupted --expand: the files are whole" \
		[ "$(stat -c %s "$X/atio.0" "$X/atio.1" | sort -u)" = "$half" ]

	# The same with blocks held past the end for certain: atio.0 cut to a
	# quarter and given back, beyond its end, the blocks it had (fallocate
	# --keep-size), and the filesystem then filled but for 4 MiB: nothing
	# more to allocate, so no refusal.
	if truncate -s $((half / 2)) "$X/atio.0" &&
		fallocate -n -o $((half / 2)) -l $((half / 2)) "$X/atio.0" 2>/dev/null &&
		free=$(df -P -B 1 "$X" | awk 'NR == 2 {print $4}') &&
		fallocate -l $((free - (4 << 20))) "$X/filler"; then
		run_atio --prepare -p 2 -u $((u >> 10))K -f "$X"
		expect_code "xfs: a short file holding its blocks past its end, 4 MiB free: --prepare exit 0" 0
		expect_match "xfs: a short file holding its blocks past its end: resumed" "$OUT" \
			'^files: 2 of .*: 0 new, 1 resumed, 1 reused'
		rm -f "$X/filler"
	else
		skip_check "a short file holding its blocks past its end" "no fallocate --keep-size here"
	fi

	# One file short, the other holding past its end more than it lacks
	# (xfs gives an interrupted --expand's speculative allocation to one
	# file or the other): the fill frees the excess before anything is
	# appended, so that what one file holds beyond its plan serves the
	# other, as xfs would do for an append only when it ran out of space.
	q=$((half / 4))
	if truncate -s $((half - q)) "$X/atio.0" && truncate -s $((half - q)) "$X/atio.1" &&
		fallocate -n -o $((half - q)) -l $((q + q)) "$X/atio.1" 2>/dev/null &&
		free=$(df -P -B 1 "$X" | awk 'NR == 2 {print $4}') &&
		fallocate -l $((free - (q / 2))) "$X/filler"; then
		run_atio --prepare -p 2 -u $((u >> 10))K -f "$X"
		expect_code "xfs: one file short, the other holding more past its end: --prepare exit 0" 0
		expect_match "xfs: one file short, the other holding more past its end: both resumed" \
			"$OUT" '^files: 2 of .*: 0 new, 2 resumed, 0 reused'
		check "xfs: one file short, the other holding more past its end: the files are whole" \
			[ "$(stat -c %s "$X/atio.0" "$X/atio.1" | sort -u)" = "$half" ]
		check "xfs: the blocks held past the plan are given back" \
			[ "$(held "$X/atio.1")" -lt $((half + q)) ]
		rm -f "$X/filler"
	else
		skip_check "a file holding past its end what another lacks" "no fallocate --keep-size here"
	fi

	# What does not fit is still refused, before anything is written.
	before=$(stat -c '%i %s %b' "$X/atio.0" "$X/atio.1")
	big=$((u + (64 << 20)))
	run_atio --prepare -p 2 -u $((big >> 10))K -f "$X"
	expect_code "xfs: --prepare -u $((big >> 20))M (64 MiB more than fits): exit 1" 1
	expect_match "xfs: -u $((big >> 20))M: not enough free space beyond what the files hold" "$ERR" \
		'^atio: .*not enough free space: the files need [0-9.]+ MiB more than they already hold'
	check "xfs: -u $((big >> 20))M: the files are untouched" \
		[ "$before" = "$(stat -c '%i %s %b' "$X/atio.0" "$X/atio.1")" ]
fi

# On a disk smaller than twice the RAM, -u auto fails before writing.
if ! ext4_loop 64M "$MNT"; then
	skip_check "-u auto on a small disk" "$WHY"
	finish
fi
used=$(df -P -B 1 "$MNT" | awk 'NR == 2 {print $3}')
for args in "--prepare -p auto -u auto" "--write -p auto -u auto"; do
	# shellcheck disable=SC2086 # the options are words
	run_atio $args -f "$MNT"
	expect_code "$args on a 64 MiB disk: exit 1" 1
	expect_match "$args on a 64 MiB disk: not enough free space, $(mib "$TOTAL") MiB needed" "$ERR" \
		"^atio: .*not enough free space: the files need $(mib "$TOTAL") MiB"
	check "$args on a 64 MiB disk: no atio.N file made" [ -z "$(find "$MNT" -name 'atio.[0-9]*')" ]
done
check "nothing was written on the small disk" \
	[ "$(df -P -B 1 "$MNT" | awk 'NR == 2 {print $3}')" -le $((used + 65536)) ]
refused "-u auto on a 64 MiB block device" \
	"^atio: -u auto: $TOTAL bytes .* more than the block device" --read -u auto -f "$LOOP"
refused "--prepare on a block device" '^atio: --prepare: -f .* is a block device' --prepare -s 4K -u 1M -f "$LOOP"

finish
