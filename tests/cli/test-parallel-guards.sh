#!/bin/bash
# scripts/atio-parallel.sh's guards (sshd-harness.sh). One node under two
# spellings is refused with exit 2 naming both, before anything runs on
# it: an address and root@address, an ssh-config alias and its address
# (ssh -G, no connection), and two addresses of one node's sshd (what the
# node says: one machine, one test directory; the harness's nodes share
# this machine, but not their test directories). An -o that exists and is
# not a regular file (a device node, a FIFO, a directory, a link to
# nowhere or to a FIFO) is refused before any connection and left as it
# was, and so is another user's link in a sticky directory anyone may
# write to; a link to a file gets the document, which keeps the file's
# mode and owner, and stays a link; an -o that
# cannot be written at the end is exit 1 and leaves no temporary file. A
# node's atio killed by a signal is told from a lost connection and the
# signal named, also when the driver's own stop had to kill it. A CRLF
# hosts file is read, and a control character in a host name is shown
# quoted. A thread count whose loading failed on every node runs no test.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

# What the guards check does not depend on the nodes' login shells: a
# ~/.bashrc that takes seconds on a busy machine only slows every run.
SSHD_NO_BASHRC=1
sshd_start 2
driver_setup
HOSTS=(node1 node2)
A1=${NODE_ADDR[1]}
QUICK=(TESTS=seqread ITERATIONS=1)

# no_login WHAT LOGINS: no node was logged into since all_logins said LOGINS.
no_login() {
	if [ "$(all_logins)" -eq "$2" ]; then
		ok "$1: no node was connected to"
	else
		not_ok "$1: no node was connected to" "$(($(all_logins) - $2)) logins"
	fi
}

# nothing_ran WHAT: no atio was copied to node1, no test file made there.
nothing_ran() {
	if [ ! -e "$(node_dir 1)/bin/atio" ] && [ -z "$(ls -A "$(node_dir 1)/data")" ]; then
		ok "$1: nothing was copied to node1 or run there"
	else
		not_ok "$1: nothing was copied to node1 or run there" \
			"$(find "$(node_dir 1)/bin" "$(node_dir 1)/data" -mindepth 1)"
	fi
}

# --- One node, two spellings that ssh -G resolves to one destination:
# refused before any connection.
logins=$(all_logins)
run_driver "${QUICK[@]}" "$A1" "root@$A1" node2
what="$A1 and root@$A1"
expect_code "$what: refused with exit 2" 2
expect_match "$what: the message names both" "$ERR" \
	"hosts '$A1' and 'root@$A1' are one node: ssh reaches both at $A1 port $SSH_PORT"
no_login "$what" "$logins"
# node1 is an ssh-config alias (Host node1, HostName $A1).
run_driver "${QUICK[@]}" node1 node2 "$A1"
what="the alias node1 and its address $A1"
expect_code "$what: refused with exit 2" 2
expect_match "$what: the message names both" "$ERR" "hosts 'node1' and '$A1' are one node"
no_login "$what" "$logins"
nothing_ran "$what"

# --- One node behind two addresses: a second sshd in node1's namespace on
# another loopback address, with node1's host key. ssh -G cannot tell; the
# node's answers can: the same machine and the same test directory.
A1B=127.0.0.12
d=$SSH_DIR/node1
up=0
node_second_address 1 "$A1B" && up=1
what="node1 and $A1B, a second address of node1"
if [ "$up" = 0 ]; then
	skip_check "$what" "a second sshd on $A1B:$SSH_PORT did not start: $(tail -n 2 "$d/sshd2.log" 2>/dev/null | tr '\n' ' ')"
else
	run_driver "${QUICK[@]}" node1 node2 "$A1B"
	expect_code "$what: refused with exit 2" 2
	expect_match "$what: the message names both, the machine and the test directory" "$ERR" \
		"hosts 'node1' and '$A1B' are one node: both are '[^']+' \\(boot id [0-9a-f-]+, machine id [0-9a-f-]+\\) with one test directory $REMOTE_DATA \\(device:inode [0-9]+:[0-9]+\\)"
	nothing_ran "$what"
fi

# --- -o that is not a regular file: refused before any connection, left
# as it was. A device node like /dev/null (made here, /dev/null itself is
# never put at risk), a FIFO, a directory, a link to nowhere, a link to a
# FIFO.
mknod "$WORK/null" c 1 3
mkfifo "$WORK/fifo"
mkdir "$WORK/outdir"
ln -s "$WORK/nothere.json" "$WORK/dangling.json"
ln -s "$WORK/fifo" "$WORK/tofifo.json"
logins=$(all_logins)
for o in null fifo outdir dangling.json tofifo.json; do
	run_driver "${QUICK[@]}" -o "$WORK/$o" node1
	expect_code "-o $o: refused with exit 2" 2
	expect_match "-o $o: the message names it" "$ERR" "-o $WORK/$o.*: (exists and is not a regular file|is a directory|a symbolic link to .*, which does not exist)"
done
no_login "-o that is not a regular file" "$logins"
check "-o null: still a character device" test -c "$WORK/null"
check "-o fifo: still a FIFO" test -p "$WORK/fifo"
if [ -d "$WORK/outdir" ] && [ -z "$(ls -A "$WORK/outdir")" ]; then
	ok "-o outdir: still an empty directory"
else
	not_ok "-o outdir: still an empty directory" "$(ls -lA "$WORK/outdir" 2>&1)"
fi
check "-o dangling.json: still a link to nowhere" test -L "$WORK/dangling.json" -a ! -e "$WORK/nothere.json"
check "-o tofifo.json: still a link to the FIFO" test -L "$WORK/tofifo.json" -a -p "$WORK/fifo"

# --- -o another user's link in a sticky directory anyone may write to
# (as /tmp): not followed, as the kernel's protected_symlinks rule would
# not, refused before any connection, naming the link and its owner; the
# file it leads to untouched.
mkdir -m 1777 "$WORK/sticky"
mkdir -m 0700 "$WORK/private"
echo 'an old document' >"$WORK/private/target.json"
chmod 0600 "$WORK/private/target.json"
chown 1234:1234 "$WORK/private/target.json"
ln -s "$WORK/private/target.json" "$WORK/sticky/theirs.json"
chown -h nobody "$WORK/sticky/theirs.json"
before=$(stat -c '%a %u:%g %s %Y' "$WORK/private/target.json")
logins=$(all_logins)
run_driver "${QUICK[@]}" -o "$WORK/sticky/theirs.json" node1
what="-o another user's link in a sticky directory"
expect_code "$what: refused with exit 2" 2
expect_match "$what: the message names the link and its owner" "$ERR" \
	"-o $WORK/sticky/theirs\.json: a symbolic link of user nobody \(uid [0-9]+\) in $WORK/sticky, a sticky directory that anyone may write to: not followed"
no_login "$what" "$logins"
check "$what: the file it leads to is untouched" \
	test "$(stat -c '%a %u:%g %s %Y' "$WORK/private/target.json")" = "$before"

# --- -o the caller's link to a file (in that sticky directory): the file
# gets the document, keeping its mode and owner; the link stays.
ln -s ../private/target.json "$WORK/sticky/link.json"
run_driver "${QUICK[@]}" -o "$WORK/sticky/link.json" "${HOSTS[@]}"
what="-o a link to a file"
expect_code "$what: exit 0" 0
if [ -L "$WORK/sticky/link.json" ] && [ "$(readlink "$WORK/sticky/link.json")" = ../private/target.json ]; then
	ok "$what: the link stays, to the same file"
else
	not_ok "$what: the link stays, to the same file" "$(ls -l "$WORK/sticky/link.json")"
fi
expect_match "$what: the file it leads to holds the document" "$WORK/private/target.json" '"exit_status":0}$'
expect_no_match "$what: the old document is gone" "$WORK/private/target.json" '^an old document$'
check "$what: the file keeps its mode 0600 and its owner" \
	test "$(stat -c '%a %u:%g' "$WORK/private/target.json")" = "600 1234:1234"

# --- -o on a full filesystem: the document cannot be written at the end.
mkdir "$WORK/full"
if mount -t tmpfs -o size=16k atio-test-full "$WORK/full" 2>/dev/null; then
	TEST_MOUNTS+=("$WORK/full")
	dd if=/dev/zero of="$WORK/full/fill" bs=4k 2>/dev/null || true
	run_driver "${QUICK[@]}" -o "$WORK/full/r.json" node1
	what="-o on a full filesystem"
	expect_code "$what: exit 1" 1
	expect_match "$what: said" "$ERR" "-o $WORK/full/r\\.json: could not write the results"
	if [ "$(ls -A "$WORK/full")" = fill ]; then
		ok "$what: no document and no temporary file left there"
	else
		not_ok "$what: no document and no temporary file left there" "$(find "$WORK/full" -mindepth 1)"
	fi
else
	skip_check "-o on a full filesystem" "cannot mount a tmpfs here"
fi

# --- node2's atio killed by SIGKILL (as the OOM killer does) while its
# session holds: a FAILURE naming the signal, not a lost connection.
what="node2's atio killed by SIGKILL"
start_driver TIME=10 "${QUICK[@]}" "${HOSTS[@]}"
wait_node_run '---=== Sequential read (1thr) ===---' 2
# Its atio has said it is ready: it lives until the end of the run.
wdir=$(driver_workdir "-F $SSH_CONFIG")
[ -z "$wdir" ] || wait_node_ready "$wdir" 2 || true
mapfile -t pids < <(node_procs 2 atio)
if [ ${#pids[@]} -eq 0 ]; then
	not_ok "$what: the run started on node2" "work directory: '$wdir'" "command: $LAST"
	show stdout "$OUT"
	kill -KILL -- "-$PID" 2>/dev/null || true
else
	kill -KILL "${pids[@]}"
	wait_exit 90
	expect_code "$what: exit 1" 1
	expect_match "$what: node2 is a FAILURE" "$OUT" '^\[2\] [0-9:]{8} \[FAILURE\] node2$'
	expect_match "$what: its reason names the signal" "$OUT" \
		'^    atio was killed by SIGKILL \(signal 9, exit 137\) on the node, whose connection held'
	expect_no_match "$what: not called a lost connection" "$OUT" 'connection to the node was lost'
	expect_match "$what: node1 succeeded" "$OUT" '^\[1\] [0-9:]{8} \[SUCCESS\] node1$'
fi
kill -KILL -- "-$PID" 2>/dev/null || true

# --- node2's atio stopped (SIGSTOP) so that it cannot obey the driver's
# SIGINT after Ctrl-C: STOP_GRACE (10 s) later the driver kills it, and
# says that it did.
what="Ctrl-C with node2's atio unable to stop"
start_driver TIME=30 "${QUICK[@]}" "${HOSTS[@]}"
wait_node_run '---=== Sequential read (1thr) ===---' 2
mapfile -t FROZEN < <(node_procs 2 atio)
if [ ${#FROZEN[@]} -eq 0 ]; then
	not_ok "$what: the run started on node2" "command: $LAST"
	show stdout "$OUT"
	kill -KILL -- "-$PID" 2>/dev/null || true
else
	kill -STOP "${FROZEN[@]}"
	sleep 0.5
	kill -s INT "$PID"
	wait_exit 60
	expect_code "$what: exit 130" 130
	expect_match "$what: node2 is a FAILURE" "$OUT" '^\[2\] [0-9:]{8} \[FAILURE\] node2$'
	if grep -q '^    no answer from the node after stopping its atio$' "$OUT"; then
		# The stop's own session took more than the 3 s the driver
		# gives it beyond STOP_GRACE: a machine too busy to tell.
		skip_check "$what: its reason: the driver killed it after its SIGINT" \
			"the driver gave up on node2 first (this machine is too busy: load $(cut -d ' ' -f 1 /proc/loadavg))"
	else
		expect_match "$what: its reason: the driver killed it after its SIGINT" "$OUT" \
			'^    atio was killed by SIGKILL \(signal 9, exit 137\) on the node, whose connection held; the script had stopped it: it did not exit within 10 s of SIGINT$'
	fi
	expect_no_match "$what: not called a lost connection" "$OUT" 'connection to the node was lost'
fi
kill -KILL -- "-$PID" 2>/dev/null || true
thaw

# --- A hosts file with CRLF line ends is read as one without.
printf '# nodes\r\nnode1\r\nnode2\r\n' >"$WORK/hosts"
run_driver --dry-run -h "$WORK/hosts"
what="a CRLF hosts file"
expect_code "$what: exit 0" 0
expect_match "$what: node1 read" "$OUT" '^\[1\] node1$'
expect_match "$what: node2 read" "$OUT" '^\[2\] node2$'
expect_count "$what: no CR in the output" "$OUT" $'\r' 0
# A CR inside a name is refused, and the message shows it quoted.
printf 'no\rde1\n' >"$WORK/hosts"
run_driver --dry-run -h "$WORK/hosts"
what="a host name with a CR inside"
expect_code "$what: refused with exit 2" 2
expect_count "$what: no raw CR in the message" "$ERR" $'\r' 0
expect_match "$what: the message shows it quoted" "$ERR" "host \\\$'no\\\\rde1': only letters"

# --- Input refused before any node is contacted, exit 2, with one line
# naming the value, every byte of it visible (no control character, no
# byte above 127 raw on stderr).
# refused WHAT ERE [NAME=VALUE...] ARG...: so.
refused() {
	local what=$1 ere=$2 logins

	shift 2
	logins=$(all_logins)
	run_driver "$@"
	expect_code "$what: refused with exit 2" 2
	expect_match "$what: the message says what is wrong" "$ERR" "$ere"
	expect_count "$what: one line on stderr" "$ERR" '' 1
	if LC_ALL=C grep -aq '[^[:print:]]' "$ERR"; then
		not_ok "$what: every byte of the message is visible" "$(cat -A "$ERR")"
	else
		ok "$what: every byte of the message is visible"
	fi
	no_login "$what" "$logins"
}
# A thread count or a test given twice: the second pass would replace the
# first one's records.
refused "THREADS '1 1'" "THREADS \(-p\) '1 1': the thread count 1 is given twice" \
	THREADS="1 1" "${QUICK[@]}" "${HOSTS[@]}"
refused "THREADS '1 01'" "THREADS \(-p\) '1 01': the thread count 1 is given twice" \
	THREADS="1 01" "${QUICK[@]}" "${HOSTS[@]}"
refused "-p '2 auto 4 auto'" "THREADS \(-p\) '2 auto 4 auto': the thread count auto is given twice" \
	"${QUICK[@]}" -p "2 auto 4 auto" "${HOSTS[@]}"
refused "TESTS 'seqread randwrite seqread'" \
	"TESTS \(--tests\) 'seqread randwrite seqread': the test seqread is given twice" \
	TESTS="seqread randwrite seqread" ITERATIONS=1 "${HOSTS[@]}"
# An option given twice, as atio refuses it (the environment's value is
# not a second one: the option overrides it).
refused "-t 5 -t 6" "-t given twice \('5' and '6'\): give it once" "${QUICK[@]}" -t 5 -t 6 "${HOSTS[@]}"
refused "--tests=seqread --tests randread" "--tests given twice \('seqread' and 'randread'\)" \
	ITERATIONS=1 --tests=seqread --tests randread "${HOSTS[@]}"
refused "-o twice" "-o given twice \('$WORK/a\.json' and '$WORK/b\.json'\)" \
	"${QUICK[@]}" -o "$WORK/a.json" -o "$WORK/b.json" "${HOSTS[@]}"
# Host names: a NUL byte in a line of a hosts file (the shell would cut the
# line there), a user without a host or a host without a user, a byte
# order mark, a directory for a hosts file.
printf 'node1\nnode2\0evil\n' >"$WORK/hosts.nul"
refused "a NUL byte in a hosts file" \
	"-h $WORK/hosts\.nul line 2: 'node2\\\\0evil': a NUL byte \(\\\\0\) in the line" \
	"${QUICK[@]}" -h "$WORK/hosts.nul"
refused "root@, a user and no host" "host 'root@': no host after the @" "${QUICK[@]}" node1 root@
printf 'node1\nroot@\n' >"$WORK/hosts.nohost"
refused "root@ in a hosts file" "-h $WORK/hosts\.nohost line 2: host 'root@': no host after the @" \
	"${QUICK[@]}" -h "$WORK/hosts.nohost"
refused "@node2, no user" "host '@node2': no user before the @" "${QUICK[@]}" node1 @node2
printf '\357\273\277node1\nnode2\n' >"$WORK/hosts.bom"
refused "a hosts file with a byte order mark" "-h $WORK/hosts\.bom: begins with a UTF-8 byte order mark" \
	"${QUICK[@]}" -h "$WORK/hosts.bom"
refused "a host with a byte order mark" \
	"host \\$'\\\\357\\\\273\\\\277node2': begins with a UTF-8 byte order mark" \
	"${QUICK[@]}" node1 $'\357\273\277node2'
refused "-h a directory" "-h $WORK/outdir: is a directory" "${QUICK[@]}" -h "$WORK/outdir"

# Empty values: an option given empty, or THREADS or TESTS set empty, is
# not the profile's whole default matrix (nor, for -o, no document).
refused "-p ''" "-p: an empty value" "${QUICK[@]}" -p '' "${HOSTS[@]}"
refused "--tests ''" "--tests: an empty value" ITERATIONS=1 --tests '' "${HOSTS[@]}"
refused "-o ''" "-o: an empty value" "${QUICK[@]}" -o '' "${HOSTS[@]}"
refused "THREADS set empty" "THREADS is set in the environment but empty" \
	THREADS= "${QUICK[@]}" "${HOSTS[@]}"
refused "TESTS set empty" "TESTS is set in the environment but empty" \
	TESTS= ITERATIONS=1 "${HOSTS[@]}"
# A newline in a list, which would keep only its first line.
refused "-p with a newline" "THREADS \(-p\) \\\$'1\\\\n4': a control character in the list" \
	"${QUICK[@]}" -p $'1\n4' "${HOSTS[@]}"
refused "--tests with a newline" "TESTS \(--tests\) \\\$'seqread\\\\nrandwrite': a control character in the list" \
	ITERATIONS=1 --tests $'seqread\nrandwrite' "${HOSTS[@]}"
refused "--atio-opts with a newline" "ATIO_OPTS \(--atio-opts\) \\\$'--seed 1\\\\n-f /etc': a control character" \
	"${QUICK[@]}" --atio-opts $'--seed 1\n-f /etc' "${HOSTS[@]}"
# Numbers too long for the shell's arithmetic, which would wrap.
refused "-i 18446744073709551617" "ITERATIONS \(-i\) '18446744073709551617': not a whole number from 1 to 999999999" \
	"${QUICK[@]}" -i 18446744073709551617 "${HOSTS[@]}"
refused "-p '18446744073709551617 1'" \
	"THREADS \(-p\) '18446744073709551617 1': '18446744073709551617' is neither a whole number from 1 to 999999999 nor auto" \
	"${QUICK[@]}" -p "18446744073709551617 1" "${HOSTS[@]}"
refused "-f 99999999999" "FANOUT \(-f\) '99999999999': not a whole number from 1 to 999999999" \
	"${QUICK[@]}" -f 99999999999 "${HOSTS[@]}"
refused "-t 18446744073709551617" "TIME \(-t\) '18446744073709551617': not a number of seconds above 0" \
	"${QUICK[@]}" -t 18446744073709551617 "${HOSTS[@]}"
# Host names ssh would not take as meant.
refused "host ." "host '\.': not a host name" "${QUICK[@]}" node1 .
refused "host .." "host '\.\.': not a host name" "${QUICK[@]}" node1 ..
refused "host node2:22" "host 'node2:22': a port in the name" "${QUICK[@]}" node1 node2:22
refused "host a@b@c" "host 'a@b@c': more than one @" "${QUICK[@]}" node1 a@b@c
# One hosts file given twice.
printf 'node1\n' >"$WORK/hosts.one"
refused "-h F -h F" "-h $WORK/hosts\.one given twice: give each hosts file once" \
	"${QUICK[@]}" -h "$WORK/hosts.one" -h "$WORK/hosts.one"

# --- Loading fails on every node (the test directory's parent does not
# exist): no warm-up and no test runs for that thread count.
run_driver THREADS="1 2" "${QUICK[@]}" REMOTE_PCS_MOUNT_PATH="$REMOTE_DATA/nope/sub" "${HOSTS[@]}"
what="loading failed on every node"
expect_code "$what: exit 1" 1
expect_count "$what: both thread counts loaded" "$OUT" '^Loading in [12] threads\.\.\.$' 2
expect_count "$what: each says its tests are skipped" "$OUT" \
	'^Loading failed on every node: the warm-up and the tests with [12] threads are skipped$' 2
expect_no_match "$what: no warm-up or test ran" "$OUT" '^---=== '

finish
