#!/bin/bash
# SPDX-License-Identifier: MIT
#
# atio-parallel.sh: start atio on many nodes over SSH at one instant, test
# after test and thread count after thread count, and print each node's
# result line, the sum of every run and the average of every test as
# at_io_iops' at_io_parallel.sh did, so that `grep '===' results.txt` gives
# the table. See --help and man/atio-parallel.sh.1.
#
# Sourced with ATIO_PARALLEL_LIB=1 it only defines its functions (and sets
# -eu, pipefail and LC_ALL=C), for tests to call them.
#
# The functions live in sourced parts, one concern each (atio-parallel/ in
# the source tree; see PARTS_DIR below): options, hosts, nodes, dirs,
# session, jobs, launch, run and output. This file holds the constants, die and
# warn, the exit paths (on_signal, cleanup) and main.
# shellcheck source-path=SCRIPTDIR

set -eu
set -o pipefail
export LC_ALL=C

PROG='atio-parallel.sh'
ALL_TESTS="seqread seqwrite randread randwrite randfsync randrw expand dsyncwrite check mdcreate mdstat mdread mdrename mddelete"
PROFILES="at_io vhi"
LOAD_TIME=1            # -t of the run that creates and fills the files
STOP_GRACE=10          # seconds atio gets to exit after SIGINT
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Print "atio-parallel.sh: MESSAGE" on stderr and exit with $2 (default 2).
die() {
	printf '%s: %s\n' "$PROG" "$1" >&2
	exit "${2:-2}"
}

# Print "atio-parallel.sh: warning: MESSAGE" on stderr.
warn() {
	printf '%s: warning: %s\n' "$PROG" "$1" >&2
}

# The script's parts, one concern each, sourced below: the directory
# atio-parallel/ beside this script in the source tree. The installed
# script has the parts' directory written in by meson.build, relative to
# the directory of the script's own file (bindir to datadir/atio/parallel),
# or absolute.
PARTS_DIR='@ATIO_PARALLEL_PARTS@'
case $PARTS_DIR in
'@'*) PARTS_DIR=$SCRIPT_DIR/atio-parallel ;;
/*) ;;
*) PARTS_DIR=$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")/$PARTS_DIR ;;
esac
for PART in options hosts nodes dirs session jobs launch run output meta sweep; do
	if [ ! -f "$PARTS_DIR/$PART.sh" ] || [ ! -r "$PARTS_DIR/$PART.sh" ]; then
		die "cannot read $PARTS_DIR/$PART.sh, a part of this script (an incomplete installation or copy)"
	fi
done
unset PART
# shellcheck source=atio-parallel/options.sh
. "$PARTS_DIR/options.sh"
# shellcheck source=atio-parallel/hosts.sh
. "$PARTS_DIR/hosts.sh"
# shellcheck source=atio-parallel/nodes.sh
. "$PARTS_DIR/nodes.sh"
# shellcheck source=atio-parallel/dirs.sh
. "$PARTS_DIR/dirs.sh"
# shellcheck source=atio-parallel/session.sh
. "$PARTS_DIR/session.sh"
# shellcheck source=atio-parallel/jobs.sh
. "$PARTS_DIR/jobs.sh"
# shellcheck source=atio-parallel/launch.sh
. "$PARTS_DIR/launch.sh"
# shellcheck source=atio-parallel/run.sh
. "$PARTS_DIR/run.sh"
# shellcheck source=atio-parallel/output.sh
. "$PARTS_DIR/output.sh"
# shellcheck source=atio-parallel/meta.sh
. "$PARTS_DIR/meta.sh"
# shellcheck source=atio-parallel/sweep.sh
. "$PARTS_DIR/sweep.sh"

# On SIGINT, SIGTERM or SIGHUP: stop atio on every node, show what the
# nodes of the interrupted run said, exit 130.
on_signal() {
	trap '' INT TERM HUP
	INTERRUPTED=1
	warn "interrupted: stopping atio on the nodes"
	[ -z "${SLEEP_PID:-}" ] || kill "$SLEEP_PID" 2>/dev/null || true
	if [ "${RUN_ACTIVE:-0}" = 1 ]; then
		stop_nodes
		wait_jobs 0
		print_nodes "$JOB_DIR" 1
	fi
	exit 130
}

# At exit ($? the status): end the jobs still running and their ssh, write
# -o, remove the PID files on the nodes (a node gets 3 s to answer), close
# the shared connections, remove the work files.
cleanup() {
	local status=$? i pids=()
	trap '' INT TERM HUP
	# The ssh of the jobs, the jobs, then any ssh a job started meanwhile.
	[ -z "${SSH_PIDS:-}" ] || end_ssh ""
	for i in "${!HOSTS[@]}"; do
		job_running "$i" || continue
		kill "${JOB_PIDS[$i]}" 2>/dev/null || true
		wait "${JOB_PIDS[$i]}" 2>/dev/null || true
	done
	[ -z "${SSH_PIDS:-}" ] || end_ssh ""
	# Results that could not be written are a failure (exit 1).
	[ -z "$OUT_JSON$OUT_CSV" ] || write_matrix "$status" || [ "$status" != 0 ] || status=1
	# Markers left by a preparation that ended early go before the sessions.
	remove_markers
	session_close_all
	for i in "${!HOSTS[@]}"; do
		ssh "${SSH_BASE[@]}" -O exit -- "${HOSTS[$i]}" </dev/null >/dev/null 2>&1 &
		pids+=($!)
	done
	# A node that did not answer: its rm ends, its connection is closed.
	wait_gone 30 ${pids[@]+"${pids[@]}"} || end_ssh ""
	[ "${#pids[@]}" -eq 0 ] || wait "${pids[@]}" 2>/dev/null || true
	rm -rf "$WORK"
	exit "$status"
}

# Run the matrix: preparation, then per thread count the loading, the
# warm-up and every test (none when the loading failed on every node).
main() {
	local n t status=0
	parse_args "$@"
	validate
	if [ "$DRY_RUN" = 1 ]; then
		dry_run
		sweep_dry_run
		exit 0
	fi
	FAILED=0 INTERRUPTED=0 OVERRAN=0 RUN_SEQ=0 RUN_ACTIVE=0 SLEEP_PID="" SSH_PIDS="" MAX_LOGIN=0
	POINT_OPTS="" POINT_CAP=() POINT_KEY=""
	JOB_PIDS=() JOB_DIR="" NODE_OFFSET=() NODE_SKEW_OFFSET=() NODE_ATIO=() SETSID=() READY=()
	SESS_IN=() SESS_OUT=() SESS_PID=() SESS_T0=() NODE_LOGIN=() SESS_WHY="" SESS_EXTRA="" SESS_TOKEN=""
	MARK_PATH=() MARK_TOKEN=$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n') ||
		die "cannot read /dev/urandom for the name of the test directory's marker" 1
	! command -v setsid >/dev/null || SETSID=(setsid)
	WORK=$(mktemp -d /tmp/atio-parallel.XXXXXX)
	SSH_PIDS=$WORK/ssh-pids
	SESS_DIR=$WORK/sessions
	mkdir "$SSH_PIDS" "$SESS_DIR"
	: >"$WORK/sweeps"
	mkfifo "$SESS_DIR/nap"
	RUN_ID="$(date +%s).$$.$RANDOM"
	# One socket per node in a private directory: one handshake per node.
	SSH_BASE=(${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -o BatchMode=yes -o ConnectTimeout=5
		-o ControlMaster=auto -o "ControlPath=$WORK/%C" -o ControlPersist=600
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3)
	trap cleanup EXIT
	trap on_signal INT TERM HUP
	prepare_nodes
	for n in "${THREAD_LIST[@]}"; do
		# Metadata tests alone need no files loaded, nor a warm-up.
		if has_data_tests; then
			load_files "$n"
			# No node has files to test: every run would fail the same way.
			if [ "$NFAIL" = "${#HOSTS[@]}" ]; then
				printf 'Loading failed on every node: the warm-up and the tests with %s threads are skipped\n' "$n"
				continue
			fi
			run_test warmup "$n"
		fi
		for t in "${TEST_LIST[@]}"; do
			if [ "$t" = check ]; then
				check_data "$n"
				continue
			fi
			if md_test "$t"; then
				md_run_test "$t" "$n"
				continue
			fi
			if [ "$SWEEPING" = 1 ]; then sweep_test "$t" "$n"; else run_test "$t" "$n"; fi
		done
	done
	[ "$FAILED" = 0 ] && [ "$OVERRAN" = 0 ] || status=1
	exit "$status"
}

if [ "${ATIO_PARALLEL_LIB:-}" != 1 ]; then
	main "$@"
fi
