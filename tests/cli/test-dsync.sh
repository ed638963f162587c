#!/bin/bash
# --dsync and --osync: the run's files are opened O_DSYNC or O_SYNC, as
# /proc/PID/fdinfo shows them in the running atio (sync and io_uring
# engines), while the fill opens its files without; every write then
# reaches the device before it returns, as the device's own write count
# says (on an ext4 on a loop device); refused with --read and together;
# the header, the JSON settings and the command line say it.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
MNT=$WORK/mnt

# refused WHAT ERE ARG...: exit 2, nothing on stdout, stderr matches ERE.
refused() {
	local what=$1 ere=$2

	shift 2
	run_atio "$@"
	expect_code "$what: exit 2" 2
	expect_empty "$what: nothing on stdout" "$OUT"
	expect_match "$what: the message names it" "$ERR" "$ere"
}

refused "--read --dsync" '^atio: --dsync: .*--read test writes nothing' --read --dsync -u 8M -f "$D"
refused "--osync with the default --read" '^atio: --osync: .*--read' --osync -u 8M -f "$D"
refused "--dsync --osync" '^atio: --dsync and --osync are contradictory' \
	--write --dsync --osync -u 8M -f "$D"
refused "--osync --dsync" '^atio: --osync and --dsync are contradictory' \
	--fsync --osync --dsync -u 8M -f "$D"
refused "--dsync=1" '^atio: --dsync: takes no value' --write --dsync=1 -u 8M -f "$D"

# The settings say it, and the printed command line reruns the same test.
for flag in dsync osync; do
	case $flag in
	dsync) want=O_DSYNC ;;
	*) want=O_SYNC ;;
	esac
	run_atio -a --write --rand --$flag -u 8M -f "$D"
	expect_code "-a --write --$flag: exit 0" 0
	expect_match "-a --$flag: the header says $want" "$OUT" "^Open: $want: each write is durable"
	expect_match "-a --$flag: Cmdline has --$flag" "$OUT" "^Cmdline: .* --$flag( |$)"
	cmd=$(sed -n 's/^Cmdline: //p' "$OUT")
	# shellcheck disable=SC2086 # the command line is words
	run_atio $cmd -f "$D"
	expect_match "-a --$flag: the printed Cmdline gives the same Cmdline" "$OUT" "^Cmdline: $cmd\$"
	run_atio -a --json --fdatasync --rand --$flag -u 8M -f "$D"
	expect_code "-a --json --fdatasync --$flag: exit 0" 0
	check "-a --json --$flag: settings.open_sync is \"$flag\"" \
		grep -q "\"open_sync\":\"$flag\"" "$OUT"
done
# --mix (its writes) and --expand (its appends) take them too, as --help says.
run_atio -a --mix 50 --rand --dsync -u 8M -f "$D"
expect_match "-a --mix 50 --dsync: the header says O_DSYNC" "$OUT" '^Open: O_DSYNC: '
run_atio -a --expand --osync -s 1M -u 8M -f "$D"
expect_match "-a --expand --osync: the header says O_SYNC" "$OUT" '^Open: O_SYNC: '
run_atio --help
expect_match "--help: --dsync and --osync name --mix and --expand" "$OUT" \
	"--mix's writes, --expand's"
run_atio -a --json --write --rand -u 8M -f "$D"
check "-a --json without either: settings.open_sync is null" grep -q '"open_sync":null' "$OUT"
run_atio -a --write -u 8M -f "$D"
expect_no_match "-a without either: no Open: line" "$OUT" '^Open:'

# The files exist before the runs below, so that the only open of atio.0
# for reading and writing is the run's.
run_atio --prepare -s 4K -u 8M -f "$D"
expect_code "--prepare -s 4K -u 8M: exit 0" 0

# rw_flags PID FILE: the open flags (octal, as fdinfo has them) of process
# PID's descriptor of FILE opened for reading and writing (the survey's is
# read-only); nothing when none shows within 10 s.
rw_flags() {
	local i fd flags

	for ((i = 0; i < 200; i++)); do
		for fd in /proc/"$1"/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "$2" ] || continue
			flags=$(awk '$1 == "flags:" {print $2}' /proc/"$1"/fdinfo/"${fd##*/}" 2>/dev/null)
			if [ -n "$flags" ] && [ $((8#$flags & 3)) -eq 2 ]; then
				printf '%s\n' "$flags"
				return 0
			fi
		done
		sleep 0.05
	done
}

O_DSYNC=$((8#10000))
O_SYNC=$((8#4010000))
for engine in sync io_uring; do
	if ! "$ATIO" -a --engine "$engine" >/dev/null 2>&1; then
		skip_check "$engine: open flags in fdinfo" "the $engine engine is not built in"
		continue
	fi
	for flag in plain dsync osync; do
		args=(--engine "$engine")
		[ "$flag" = plain ] || args+=("--$flag")
		start_atio --write --rand -t 3 -u 8M -f "$D" "${args[@]}"
		flags=$(rw_flags "$PID" "$D/atio.0")
		wait_exit 30
		why=()
		[ "$RC" -eq 0 ] || why+=("exit $RC")
		if [ -z "$flags" ]; then
			why+=("no read-write descriptor of $D/atio.0 in /proc/PID/fd")
		else
			case $flag in
			plain)
				[ $((8#$flags & O_DSYNC)) -eq 0 ] || why+=("flags $flags have O_DSYNC")
				;;
			dsync)
				[ $((8#$flags & O_SYNC)) -eq "$O_DSYNC" ] ||
					why+=("flags $flags: not O_DSYNC alone (want bit 010000, not 04000000)")
				;;
			osync)
				[ $((8#$flags & O_SYNC)) -eq "$O_SYNC" ] ||
					why+=("flags $flags: not O_SYNC (04010000)")
				;;
			esac
		fi
		verdict "$engine ${args[*]}: fdinfo flags ${flags:-none} of the run's atio.0" "$ERR"
	done
done

# The fill opens without O_DSYNC; the run with it (strace shows both opens).
if command -v strace >/dev/null 2>&1; then
	rm -rf "$D" && mkdir "$D"
	strace -f -qq -e trace=openat,open -o "$WORK/trace" \
		"$ATIO" --write --rand --dsync -t 0.3 -u 8M -f "$D" >"$OUT" 2>"$ERR" || true
	why=()
	grep -q "atio\.0\".*O_CREAT" "$WORK/trace" || why+=("no open creating atio.0")
	if grep "atio\.0\".*O_CREAT" "$WORK/trace" | grep -q O_DSYNC; then
		why+=("the fill's open has O_DSYNC")
	fi
	grep -q "atio\.0\".*O_RDWR.*O_DSYNC" "$WORK/trace" || why+=("no O_RDWR|O_DSYNC open for the run")
	verdict "--dsync: the fill opens atio.0 without O_DSYNC, the run with it" "$WORK/trace"
else
	skip_check "--dsync: the fill opens without O_DSYNC" "no strace"
fi

# --dsync goes with every mode that writes.
for mode in write fsync fdatasync; do
	run_atio "--$mode" --dsync --rand -t 0.3 -u 8M -f "$D"
	expect_code "--$mode --dsync: exit 0" 0
	check_result "--$mode --dsync: the result line"
done

# The device sees every write before it returns: on an ext4 of a loop
# device, the writes the device completed (and merged) during a --dsync or
# --osync run are at least the writes atio made; a cached run without
# either leaves nearly all its writes in the page cache (-S, and a run far
# shorter than the kernel's 30 s before writeback).
if ! ext4_loop 128M "$MNT"; then
	skip_check "the device counts every --dsync write" "$WHY"
	finish
fi
STAT=/sys/block/$(basename "$LOOP")/stat

# dev_writes: writes completed plus writes merged, from the device's stat.
dev_writes() {
	awk '{print $5 + $6}' "$STAT"
}

run_atio --prepare -s 4K -u 16M -f "$MNT"
expect_code "--prepare on the loop ext4: exit 0" 0
declare -A iops
for engine in sync io_uring; do
	"$ATIO" -a --engine "$engine" >/dev/null 2>&1 || continue
	for flag in plain dsync osync; do
		args=(--write --rand -S -t 1 -u 16M -f "$MNT" --engine "$engine")
		[ "$flag" = plain ] || args+=("--$flag")
		before=$(dev_writes)
		run_atio "${args[@]}"
		after=$(dev_writes)
		why=()
		[ "$RC" -eq 0 ] || why+=("exit $RC")
		parse_result || why+=("no result line")
		parse_io || why+=("no io line")
		dev=$((after - before))
		if [ ${#why[@]} -eq 0 ]; then
			iops[$engine.$flag]=$R_VALUE
			if [ "$flag" = plain ]; then
				[ $((dev * 10)) -lt "$IO_OPS" ] ||
					why+=("$dev device writes for $IO_OPS cached writes: not in the page cache")
			else
				[ "$dev" -ge "$IO_OPS" ] ||
					why+=("$dev device writes for $IO_OPS writes: some returned before reaching it")
			fi
		fi
		verdict "$engine $flag: $IO_OPS writes, $dev device writes" "$OUT" "$ERR"
	done
	# Slower per write, as a ratio with a wide margin, never a duration.
	if [ -n "${iops[$engine.plain]:-}" ] && [ -n "${iops[$engine.dsync]:-}" ]; then
		check "$engine: cached writes at least 3x as many a second as --dsync ones (${iops[$engine.plain]} vs ${iops[$engine.dsync]} IOPS)" \
			fcmp "${iops[$engine.plain]}" '>=' "$(awk -v d="${iops[$engine.dsync]}" 'BEGIN {print 3 * d}')"
	fi
done

finish
