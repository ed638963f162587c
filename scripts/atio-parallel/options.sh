# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the settings it sets and reads are shared with the other parts
#
# atio-parallel.sh, sourced part: the options. The help text, the checks
# of one value (numbers, hosts), the settings read from the environment and
# the command line (parse_args), the -o file (out_target) and every setting
# checked, with the local atio found, before any node is touched (validate).

# The help text.
usage() {
	cat <<EOF
Usage: $PROG [options] -d DIR HOST...
       $PROG [options] -d DIR -h HOSTS_FILE

Start atio on every HOST over SSH at one instant: every node's atio
prepares and says it is ready (--start-at -), then one start instant goes
to all of them over their open sessions. Each node is logged into once, in
preparation: one session per node, FANOUT of them being opened at a time,
carries every later command (runs, start instants, stops), so that a run
pays no login; how long each login took is measured, and later waits on a
node allow WAIT_FACTOR times it. For each thread count the
files are prepared ("Loading"), a short warm-up runs, then each test runs
ITERATIONS times with PAUSE seconds before each run. Each node's result
line, the sum of every run and the average of every test are printed as
at_io_iops' at_io_parallel.sh printed them: grep '===' gives the table.
HOST is a name, an address, user@host or an ssh-config alias, or a host
list that names many (see Host lists); no port (host:22 is refused: give
Port in an ssh configuration); ssh must log in without a password
(BatchMode). A node runs the atio on its login PATH
(as the RPM installs it) when that is this atio's version, else
REMOTE_BINARIES_PATH/atio, which is copied there when missing (the
directory is created). The sums, skew and cluster latency come from the
local atio's "atio merge" of the nodes' JSON results.

Options (each overrides the environment variable named beside it; an
empty value is refused, but --atio-opts '' and --ssh-opts '' mean none,
and so is a variable set empty, but ATIO_OPTS, SSH_OPTS, AT_IO_LOCAL_PATH
and REMOTE_PCS_MOUNT_PATH, which are then unset; numbers have at most 9
digits before any point):
  -d DIR              REMOTE_PCS_MOUNT_PATH: test directory on the nodes
                      (required, absolute); each node runs in a
                      subdirectory of its own of it, DIR/node-HOST, made
                      when missing (see Test directory)
  --node-dir MODE     NODE_DIR: subdir (the default: DIR/node-HOST) or
                      given (DIR itself, for a directory of each node's
                      own; refused where nodes share DIR)
  -t SEC              TIME: test time in seconds (60)
  -u SIZE             FILE_SIZE: total size of a node's files (16G), or
                      auto: twice each node's RAM
  -p "N ..."          THREADS: thread counts (1 4 16), each once; auto:
                      each node's online CPUs, resolved by each node
                      ("1 auto" runs a 1-CPU node's tests twice)
  -i N                ITERATIONS: runs of each test (3)
  -s SIZE             BLOCKSIZE: block size of the random tests (4K)
  --tests "NAME ..."  TESTS: some of $ALL_TESTS,
                      each once (the profile's)
  --profile NAME      PROFILE: at_io (at_io_parallel.sh's matrix) or vhi
                      (seed 000's fio node profiles); see Profiles (at_io)
  --pause SEC         PAUSE: seconds before each run (30)
  --remote-bin DIR    REMOTE_BINARIES_PATH: where atio is, or is copied to,
                      on nodes without this atio on their PATH (/root)
  -b FILE             AT_IO_LOCAL_PATH: the local atio, whose version the
                      nodes must have, copied to nodes that lack it
                      (default: the atio beside this script, or on PATH)
  --atio-opts "..."   ATIO_OPTS: more atio options for every run
  --ssh-opts "..."    SSH_OPTS: more ssh and scp options, e.g. "-F FILE"
  --warmup-time SEC   WARMUP_TIME: length of the warm-up run (1)
  --start-margin SEC  START_MARGIN: a run starts this long after the last
                      node is ready (0.5)
  --ready-timeout SEC READY_TIMEOUT: a node not ready this long after its
                      launch is a FAILURE, the run goes on without it (120;
                      or WAIT_FACTOR times the slowest login, when longer)
  -f N                FANOUT: SSH connections being made at once, the
                      rest queued (32)
  --login-timeout SEC LOGIN_TIMEOUT: a node whose session has not answered
                      this long after it was opened is a FAILURE (120)
  --wait-factor K     WAIT_FACTOR: a wait on a node (an answer, the ready
                      line, a stop) allows K times its measured login when
                      that is longer than the wait's own limit (4)
  --max-skew PCT      MAX_SKEW: an iteration whose start skew is above PCT
                      percent of its time is NOT CONCURRENT: out of the
                      average, exit status 1 (1)
  --overrun SEC       OVERRUN: a run still going OVERRUN seconds after its
                      time is stopped on every node (60)
  -h FILE             hosts file: one host or host list per line, # starts
                      a comment; may be given more than once
  -o FILE             also write every result as one JSON document (FILE
                      a regular file, which it replaces, or a new name; a
                      link to a regular file leads it there)
  --csv FILE          also write every result as CSV: a row per node,
                      iteration, test and direction, the sums' and the
                      averages' (a FAILURE row for a failed node), under
                      the columns of atio --csv; appended to a FILE that
                      has the same header; - or stdout: the CSV alone on
                      stdout, the driver's lines on stderr (not with
                      --sweep, --curve or metadata tests: -o only)
  --replace           copy this atio over another version in
                      REMOTE_BINARIES_PATH on the nodes
  --md-files N        MD_FILES: files each thread makes in the metadata
                      tests (1000)
  --md-file-size SIZE MD_FILE_SIZE: bytes each of those files holds (0)
  --md-dirs N         MD_DIRS: directories of each node's tree (1)
  --md-neighbour      MD_NEIGHBOUR=1: mdstat and mdread on node i go to
                      node i+1's files (the last node's to the first's):
                      no node's cache holds what it reads; the nodes must
                      share DIR
  --md-shared         MD_SHARED=1: every node's threads in one tree,
                      DIR/atio-meta (atio --shared-by I/N), the nodes'
                      files side by side in its directories (mdtest
                      without -u); the nodes must share DIR
  --dry-run           print what each node would run; connect to nothing
  -vv                 every node's atio runs with -vv, and once a second
                      a line on stderr: the cluster's value in the last
                      interval each node reported (their sum) and the
                      slowest node
  --sweep "AXIS=LIST ..."
                      SWEEP: each test as a sweep (see Sweeps and curves):
                      AXIS iodepth, s, mix (randrw) or rate (--cap on each
                      node); LIST 1,2,4 or a range of powers of two, 1-64
  --curve [LIST]      SWEEP_CURVE: each test as a curve: the maximum, then
                      a step per percentage of LIST (default
                      10,50,70,80,90,100; SWEEP_CURVE=default)
  --knee K            SWEEP_KNEE: the knee is the first point whose sum
                      reaches K percent of the peak (95)
  --target pN=TIME    SWEEP_TARGET: the point of the highest sum whose
                      merged pN latency stays within TIME (p99=2ms)
  --stop-latency pN=TIME
                      SWEEP_STOP_LATENCY: a curve ends at the first capped
                      step whose merged pN latency exceeds TIME
  --help              print this help

Profiles. at_io (the default): THREADS "1 4 16", FILE_SIZE 16G, TESTS
"seqread seqwrite randread randwrite randfsync", each test with
-p N -t TIME -u FILE_SIZE -S --cached -f DIR ATIO_OPTS; files made by a
1 s sequential read ("Loading"):
  seqread    --read --seq -s 16M --mbs
  seqwrite   --write --seq -s 16M --mbs
  randread   --read --rand -s BLOCKSIZE --iops
  randwrite  --fdatasync --rand -s BLOCKSIZE --iops
  randfsync  --fsync --rand -s BLOCKSIZE -q 32 --iops
  randrw     --mix 70 --rand -s BLOCKSIZE --iops
  expand     --expand -s 16M --mbs
  dsyncwrite --write --rand -s BLOCKSIZE --dsync --iops
vhi: THREADS auto, FILE_SIZE auto, TESTS "seqread randread seqwrite
randwrite randrw expand", each test with -p N -t TIME -u FILE_SIZE -S
--uncached -f DIR ATIO_OPTS; files made by atio --prepare ("Loading"):
  seqread    --read --seq -s 1M --mbs --iodepth 32
  seqwrite   --write --seq -s 1M --mbs --iodepth 32
  randread   --read --rand -s BLOCKSIZE --iops --iodepth 32
  randwrite  --write --rand -s BLOCKSIZE --iops --iodepth 32
  randfsync  --fsync --rand -s BLOCKSIZE -q 32 --iops
  randrw     --mix 70 --rand -s BLOCKSIZE --iops --iodepth 32
  expand     --expand -s 16M --mbs
  dsyncwrite --write --rand -s BLOCKSIZE --dsync --iops
Metadata tests, one phase of atio --meta each, every node in a tree of
its own (DIR/node-HOST/atio-meta; with MD_SHARED all in one, DIR/atio-meta,
each node a member: --shared-by I/N --seed S), all nodes starting the phase at one
instant; the driver waits for every node between two of them, the barrier
between two phases. No loading nor warm-up when TESTS has no other test;
no time limit (a phase takes what it takes). Each with --meta PHASE -p N
--files MD_FILES --file-size MD_FILE_SIZE --dirs MD_DIRS -f DIR ATIO_OPTS:
  mdcreate   create (a tree a run left is removed first, untimed)
  mdstat     stat (--neighbour-dir DIR/node-NEXT with MD_NEIGHBOUR; with
             MD_SHARED: --neighbour, the next node's files in the tree)
  mdread     read (likewise)
  mdrename   rename
  mddelete   delete, one iteration (it removes the files)
in that order. A node's line is its result line and its phase line; the
sum line adds the nodes' own figures; the "cluster" line below it is every
node's operations over the slowest node's time ("wall") beside that sum,
with the latency percentiles of every operation of every node (atio
merge); a start skew above MAX_SKEW percent of the phase's time is NOT
CONCURRENT. -o carries each iteration's merged phase, histograms and all.
check: atio --check of every node's files (no common start, no sum): each
node's summary line, or a FAILURE naming the bad file and offset.
A --cap N (or --rate N) in ATIO_OPTS caps each node, not the cluster: the summary
says so. With --steady in ATIO_OPTS every node runs all its --rounds rounds
(--all-rounds) and the steady state is judged on the nodes' rounds summed,
round k of the cluster the sum of every node's round k (doc/steady-state.md). With --verify in ATIO_OPTS each node says that its reads
verified, or that every block it wrote read back right after the run, and
a node whose data was bad is a FAILURE naming the file and offset.

Sweeps and curves. With --sweep or --curve each test is swept in place
of its ITERATIONS runs: after the warm-up, each point is one run on every
node started at one instant, its nodes' lines and "Sum value" line as any
run's, then a summary: each point's sum and merged p50/p99/p99.9, the
peak, the knee (--knee), Kneedle's knee, the target (--target) and a
"use:" line. A point's options replace the test's own (iodepth=1-8 with
the vhi profile's --iodepth 32). A curve runs the test uncapped on every
node at once, then each step caps every node at the step's share of its
own maximum in that run, so that the capped sum aims at that share of the
cluster's maximum; a step whose sum is below 99% of that aim is "not
held". A point with a failed node (INCOMPLETE) or a start skew above
MAX_SKEW (NOT CONCURRENT) is shown, never chosen, and makes the exit
status 1. -o keeps every point: its sum and every node's figures.

Host lists, as ClusterShell's nodeset and pdsh write them, in arguments
and -h lines: node[001-128] is node001 ... node128 (a bound with a leading
zero sets the width), 10.0.0.[1-64] 64 addresses, n[1-3,7,10-12/2] numbers,
ranges and ranges with a step, r[1-2]n[1-4] every combination (r1n1 r1n2
... r2n4), node[1-2],login1 several lists (a comma in brackets belongs to
the range), root@node[1-4] with a user. A name without brackets or commas
(an IPv6 address such as fe80::1, an ssh-config alias) is taken as
written; an IPv6 address is written without brackets. A bad range (from
high to low, unclosed, empty, not digits) or more than 100000 hosts is
refused, naming it, and so is a host that two lists name. Quote a list
in an argument ('node[001-128]'): the shell expands [...] to file names.

Test directory. DIR is, as at_io_iops' guide has it, often a cluster
filesystem's mount that every node sees: each node's files go to a
subdirectory of its own, node-HOST (HOST as given, without user@, in lower
case, characters other than letters, digits and ._- made _: node-node1,
node-fe80__1), the same in every run so that its dataset is used again.
The driver makes it when missing, and nothing else there. Before the
first run each node makes a file of a random name in DIR and looks for
the others': nodes that find one another's share DIR, which the output
says; with NODE_DIR=given such nodes would run on one dataset, and are
refused (exit 2).

Each node once: hosts that ssh -G takes to one place (X and root@X, an
alias and its address), or whose nodes say they are one machine with one
test directory, are refused.

Exit status: 0 every run complete; 1 preparation failed, or a run failed,
was incomplete or NOT CONCURRENT, or -o could not be written; 2 bad usage
(also an empty value, a control character such as a newline in THREADS,
TESTS, ATIO_OPTS or SSH_OPTS, an option with a value given twice: -h may
repeat, each hosts file once, and the flags --dry-run, --replace and -vv
may repeat; a bad host list, a node given twice, an -o that is not a
regular file); 130
interrupted (atio stopped on every node).
EOF
}

# True when $1 is a number of seconds (digits, an optional decimal part).
is_number() {
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]
}

# True when $1 is a number for a setting: digits, an optional decimal
# part, below 10^9 (at most 9 digits before the point, leading zeros
# aside), so that no arithmetic on it wraps.
is_setting() {
	[[ $1 =~ ^0*[0-9]{1,9}(\.[0-9]+)?$ ]]
}

# True when $1 is a number of seconds, maybe negative (a clock offset).
is_signed() {
	is_number "${1#-}"
}

# True when $1 is a number for a setting above zero.
is_positive() {
	is_setting "$1" && awk -v t="$1" 'BEGIN { exit !(t > 0) }'
}

# True when $1 is a whole number from 1 to 999999999 (at most 9 digits,
# leading zeros aside: bash's arithmetic would wrap a longer one).
is_count() {
	[[ $1 =~ ^0*[0-9]{1,9}$ ]] && [ "$((10#$1))" -gt 0 ]
}

# Set HOST_WHY to what is wrong with host $1, empty when the script accepts
# it: a name, an address, user@host or an ssh-config alias, never anything
# a shell or ssh would interpret, nor a user without a host.
host_check() {
	HOST_WHY=""
	if [ -z "$1" ]; then
		HOST_WHY="an empty host name"
	elif [[ $1 == $'\xef\xbb\xbf'* ]]; then
		HOST_WHY="begins with a UTF-8 byte order mark (bytes EF BB BF, invisible in most editors): remove it"
	elif ! [[ $1 =~ ^[A-Za-z0-9._:@%-]+$ ]]; then
		HOST_WHY="only letters, digits and ._:@%- are allowed, and not a leading -"
	elif [[ $1 == -* ]]; then
		HOST_WHY="a leading -, which ssh would take for an option: only letters, digits and ._:@%- are allowed, and not a leading -"
	elif [[ $1 == *@ ]]; then
		HOST_WHY="no host after the @: give HOST or USER@HOST"
	elif [[ $1 == @* ]]; then
		HOST_WHY="no user before the @: give HOST or USER@HOST"
	elif [[ $1 == *@*@* ]]; then
		HOST_WHY="more than one @: give HOST or USER@HOST"
	elif [[ ${1#*@} =~ ^\.+$ ]]; then
		HOST_WHY="not a host name (dots only)"
	elif [[ ${1#*@} == *:* && ${1#*@} != *:*:* ]]; then
		# An IPv6 address has two colons at least.
		HOST_WHY="a port in the name, which ssh does not take there: give it as Port in an ssh configuration (--ssh-opts \"-F FILE\")"
	fi
	[ -z "$HOST_WHY" ]
}

# Print $1 quoted for a message: '...', or $'...' with every byte that is
# not printable ASCII escaped: a control character (a CR from a CRLF file,
# an escape), which a terminal would act on instead of showing, or a byte
# of an invisible character (a byte order mark).
shown() {
	if [[ $1 == *[![:print:]]* ]]; then printf '%q' "$1"; else printf "'%s'" "$1"; fi
}

# The option of each setting that may not be set empty in the environment.
declare -A OPTION_OF=([TIME]=-t [FILE_SIZE]=-u [THREADS]=-p [ITERATIONS]=-i [BLOCKSIZE]=-s
	[PAUSE]=--pause [TESTS]=--tests [PROFILE]=--profile [REMOTE_BINARIES_PATH]=--remote-bin
	[WARMUP_TIME]=--warmup-time [START_MARGIN]=--start-margin [OVERRUN]=--overrun
	[READY_TIMEOUT]=--ready-timeout [MAX_SKEW]=--max-skew [FANOUT]=-f
	[LOGIN_TIMEOUT]=--login-timeout [WAIT_FACTOR]=--wait-factor [NODE_DIR]=--node-dir
	[MD_FILES]=--md-files [MD_FILE_SIZE]=--md-file-size [MD_DIRS]=--md-dirs
	[SWEEP]=--sweep [SWEEP_CURVE]=--curve [SWEEP_KNEE]=--knee [SWEEP_TARGET]=--target
	[SWEEP_STOP_LATENCY]=--stop-latency)

# Read the settings from the environment, then from the options; exit 2 on
# bad usage.
parse_args() {
	# A setting set empty in the environment is refused below, unless its
	# option gives it: an empty THREADS or TESTS is not the whole default
	# matrix. Empty ATIO_OPTS, SSH_OPTS and AT_IO_LOCAL_PATH are their
	# defaults (none, and the atio found); an empty REMOTE_PCS_MOUNT_PATH
	# is a missing one.
	local var
	local -a empty_env=()
	for var in "${!OPTION_OF[@]}"; do
		[ -n "${!var-unset}" ] || empty_env+=("$var")
	done
	# Empty until the options are read: the profile fills what is left.
	FILE_SIZE=${FILE_SIZE:-} THREADS=${THREADS:-} TESTS=${TESTS:-} PROFILE=${PROFILE:-}
	TIME=${TIME:-60} ITERATIONS=${ITERATIONS:-3} BLOCKSIZE=${BLOCKSIZE:-4K} PAUSE=${PAUSE:-30}
	REMOTE_BINARIES_PATH=${REMOTE_BINARIES_PATH:-/root}
	REMOTE_PCS_MOUNT_PATH=${REMOTE_PCS_MOUNT_PATH:-} AT_IO_LOCAL_PATH=${AT_IO_LOCAL_PATH:-}
	ATIO_OPTS=${ATIO_OPTS:-} SSH_OPTS=${SSH_OPTS:-}
	WARMUP_TIME=${WARMUP_TIME:-1} START_MARGIN=${START_MARGIN:-0.5} OVERRUN=${OVERRUN:-60}
	READY_TIMEOUT=${READY_TIMEOUT:-120} MAX_SKEW=${MAX_SKEW:-1}
	FANOUT=${FANOUT:-32} LOGIN_TIMEOUT=${LOGIN_TIMEOUT:-120} WAIT_FACTOR=${WAIT_FACTOR:-4}
	NODE_DIR=${NODE_DIR:-subdir}
	MD_FILES=${MD_FILES:-1000} MD_FILE_SIZE=${MD_FILE_SIZE:-0} MD_DIRS=${MD_DIRS:-1}
	MD_NEIGHBOUR=${MD_NEIGHBOUR:-0} MD_SHARED=${MD_SHARED:-0}
	SWEEP=${SWEEP:-} SWEEP_CURVE=${SWEEP_CURVE:-} SWEEP_KNEE=${SWEEP_KNEE:-}
	SWEEP_TARGET=${SWEEP_TARGET:-} SWEEP_STOP_LATENCY=${SWEEP_STOP_LATENCY:-}
	DRY_RUN=0 REPLACE=0 OUT_JSON="" OUT_CSV="" HOSTS=() VERBOSE=0
	HOST_LISTS=() HOST_WHERES=() HOST_LIST_OF=()
	declare -gA HOST_INDEX=()
	local opt val h list
	local -a lines
	# The value each option was given, to refuse a second one (-h adds
	# hosts, as HOST arguments do: it may come more than once).
	local -A given=() hosts_files=()
	while [ $# -gt 0 ]; do
		opt=$1
		case $opt in
		--help) usage; exit 0 ;;
		--dry-run) DRY_RUN=1; shift; continue ;;
		--replace) REPLACE=1; shift; continue ;;
		-vv) VERBOSE=2; shift; continue ;;
		--md-neighbour) MD_NEIGHBOUR=1; shift; continue ;;
		--md-shared) MD_SHARED=1; shift; continue ;;
		--) shift
			for h in "$@"; do add_hosts "$h"; done
			break ;;
		--*=*) val=${opt#*=}; opt=${opt%%=*}; shift ;;
		# Its list is optional: the next word when it is one (numbers by
		# commas, each with one decimal point at most: 10.0.0.1 is a host).
		--curve) val=default; shift
			if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]]; then
				val=$1; shift
			# A word that starts as a list (a digit, then a comma or %) but is
			# not one, nor a list of IPv4 addresses, is a bad list, not hosts.
			elif [ $# -gt 0 ] && [[ $1 =~ ^[0-9][^[:space:]]*[,%] ]] &&
				! [[ $1 =~ ^([0-9]+\.){3}[0-9]+(,([0-9]+\.){3}[0-9]+)*$ ]]; then
				die "--curve $(shown "$1"): not a list of percentages (such as 10,50,90)"
			fi ;;
		-t | -u | -p | -i | -s | -d | -b | -h | -o | --csv | --pause | --tests | --remote-bin | \
			--atio-opts | --ssh-opts | --warmup-time | --start-margin | --overrun | \
			--ready-timeout | --max-skew | --profile | -f | --login-timeout | --wait-factor | \
			--node-dir | --md-files | --md-file-size | --md-dirs | --sweep | --knee | --target | --stop-latency)
			[ $# -ge 2 ] || die "$opt: needs a value"
			val=$2; shift 2 ;;
		-*) die "$opt: unknown option (see --help)" ;;
		*) add_hosts "$opt"; shift; continue ;;
		esac
		# An empty value is no value: refused rather than taken for the
		# default. Only the extra options may be given empty (none).
		[ -n "$val" ] || [ "$opt" = --atio-opts ] || [ "$opt" = --ssh-opts ] ||
			die "$opt: an empty value: give a value, or leave the option out for the default"
		case $opt in
		-t) TIME=$val ;; -u) FILE_SIZE=$val ;; -p) THREADS=$val ;; -i) ITERATIONS=$val ;;
		-s) BLOCKSIZE=$val ;; -d) REMOTE_PCS_MOUNT_PATH=$val ;; -b) AT_IO_LOCAL_PATH=$val ;;
		-o) OUT_JSON=$val ;; --csv) OUT_CSV=$val ;; --pause) PAUSE=$val ;; --tests) TESTS=$val ;;
		--remote-bin) REMOTE_BINARIES_PATH=$val ;; --atio-opts) ATIO_OPTS=$val ;;
		--ssh-opts) SSH_OPTS=$val ;; --warmup-time) WARMUP_TIME=$val ;;
		--start-margin) START_MARGIN=$val ;; --overrun) OVERRUN=$val ;;
		--ready-timeout) READY_TIMEOUT=$val ;; --max-skew) MAX_SKEW=$val ;;
		--profile) PROFILE=$val ;; --node-dir) NODE_DIR=$val ;;
		--md-files) MD_FILES=$val ;; --md-file-size) MD_FILE_SIZE=$val ;; --md-dirs) MD_DIRS=$val ;;
		--sweep) SWEEP=$val ;; --curve) SWEEP_CURVE=$val ;; --knee) SWEEP_KNEE=$val ;;
		--target) SWEEP_TARGET=$val ;; --stop-latency) SWEEP_STOP_LATENCY=$val ;;
		-f) FANOUT=$val ;; --login-timeout) LOGIN_TIMEOUT=$val ;; --wait-factor) WAIT_FACTOR=$val ;;
		-h) [ -z "${hosts_files[$val]+set}" ] || die "-h $val given twice: give each hosts file once"
			hosts_files[$val]=1
			list=$(read_hosts_file "$val") || exit 2
			mapfile -t lines <<<"$list"
			for h in "${lines[@]}"; do
				[ -z "$h" ] || add_hosts "${h#* }" "-h $val line ${h%% *}"
			done ;;
		*) die "$opt: unknown option (see --help)" ;;
		esac
		if [ "$opt" != -h ] && [ -n "${given[$opt]+set}" ]; then
			die "$opt given twice ($(shown "${given[$opt]}") and $(shown "$val")): give it once"
		fi
		given[$opt]=$val
	done
	for var in "${empty_env[@]}"; do
		[ -n "${given[${OPTION_OF[$var]}]+set}" ] ||
			die "$var is set in the environment but empty: give it a value, or unset it for the default"
	done
	PROFILE=${PROFILE:-at_io}
	case $PROFILE in
	at_io) THREADS=${THREADS:-1 4 16} FILE_SIZE=${FILE_SIZE:-16G}
		TESTS=${TESTS:-seqread seqwrite randread randwrite randfsync} ;;
	vhi) THREADS=${THREADS:-auto} FILE_SIZE=${FILE_SIZE:-auto}
		TESTS=${TESTS:-seqread randread seqwrite randwrite randrw expand} ;;
	*) die "PROFILE (--profile) '$PROFILE': not one of $PROFILES" ;;
	esac
}

# Check -o FILE before anything runs, with the local atio (merge
# --output-file, which writes it at the end as atio report -o does): exit 2
# for a FILE that ends in /, that exists and is not a regular file (a
# directory, a device such as /dev/null, a FIFO), for a symbolic link that
# leads nowhere or to such a file, or that is another user's in a sticky
# directory anyone may write to (fs.protected_symlinks' rule), or for a
# directory that does not exist or is not writable.
out_target() {
	local msg
	msg=$("$AT_IO_LOCAL_PATH" merge --output-file "$OUT_JSON" 2>&1) ||
		die "-o ${msg#atio: merge --output-file: }"
}

# Check --csv FILE before anything runs (merge --matrix-csv FILE): exit 2
# for a FILE that holds other columns, is not a regular file or cannot be
# written. With - or stdout, the driver's own lines go to stderr from here
# on, and the CSV alone to stdout (fd 3) at the end.
csv_target() {
	local msg t
	msg=$("$AT_IO_LOCAL_PATH" merge --matrix-csv "$OUT_CSV" 2>&1) ||
		die "--csv ${msg#atio: merge --matrix-csv }"
	# One file for both would hold the JSON document or the rows, not both.
	if [ -n "$OUT_JSON" ] && [ -e "$OUT_CSV" ] && [ "$OUT_JSON" -ef "$OUT_CSV" ] ||
		[ "$OUT_JSON" = "$OUT_CSV" ]; then
		die "--csv $OUT_CSV: the file of -o $OUT_JSON too: give each its own"
	fi
	# The rows of sweeps and of metadata tests are in -o only.
	[ -z "$SWEEP$SWEEP_CURVE" ] ||
		die "--csv $OUT_CSV with --sweep or --curve: the points' rows are not written as CSV; use -o"
	for t in "${TEST_LIST[@]}"; do
		! md_test "$t" ||
			die "--csv $OUT_CSV with the metadata test $t: the phases' rows are not written as CSV; use -o"
	done
	if [ "$DRY_RUN" != 1 ] && { [ "$OUT_CSV" = - ] || [ "$OUT_CSV" = stdout ]; }; then
		exec 3>&1 1>&2
	fi
}

# Check every setting and find the local atio; exit 2 naming the first bad
# one. atio -a checks the options of every run before any node is touched.
validate() {
	local h n t var name
	is_positive "$TIME" || die "TIME (-t) '$TIME': not a number of seconds above 0 (at most 9 digits before any point)"
	is_positive "$WARMUP_TIME" || die "WARMUP_TIME (--warmup-time) '$WARMUP_TIME': not a number of seconds above 0 (at most 9 digits before any point)"
	is_setting "$PAUSE" || die "PAUSE (--pause) '$PAUSE': not a number of seconds (at most 9 digits before any point)"
	is_setting "$START_MARGIN" || die "START_MARGIN (--start-margin) '$START_MARGIN': not a number of seconds (at most 9 digits before any point)"
	is_setting "$OVERRUN" || die "OVERRUN (--overrun) '$OVERRUN': not a number of seconds (at most 9 digits before any point)"
	is_positive "$READY_TIMEOUT" || die "READY_TIMEOUT (--ready-timeout) '$READY_TIMEOUT': not a number of seconds above 0 (at most 9 digits before any point)"
	is_count "$FANOUT" || die "FANOUT (-f) '$FANOUT': not a whole number from 1 to 999999999"
	FANOUT=$((10#$FANOUT))
	is_positive "$LOGIN_TIMEOUT" || die "LOGIN_TIMEOUT (--login-timeout) '$LOGIN_TIMEOUT': not a number of seconds above 0 (at most 9 digits before any point)"
	is_positive "$WAIT_FACTOR" || die "WAIT_FACTOR (--wait-factor) '$WAIT_FACTOR': not a number above 0 (at most 9 digits before any point)"
	is_setting "$MAX_SKEW" || die "MAX_SKEW (--max-skew) '$MAX_SKEW': not a percentage of TIME (a number such as 1 or 0.5)"
	is_count "$ITERATIONS" || die "ITERATIONS (-i) '$ITERATIONS': not a whole number from 1 to 999999999"
	ITERATIONS=$((10#$ITERATIONS)) # 08 is eight, not an octal error
	[[ $FILE_SIZE =~ ^[0-9][0-9.]*[A-Za-z]*$ ]] || [ "$FILE_SIZE" = auto ] ||
		die "FILE_SIZE (-u) '$FILE_SIZE': not a size such as 16G, nor auto"
	[[ $BLOCKSIZE =~ ^[0-9][0-9.]*[A-Za-z]*$ ]] || die "BLOCKSIZE (-s) '$BLOCKSIZE': not a size such as 4K"
	# read -a reads one line: a list of more would lose the rest.
	for var in THREADS:-p TESTS:--tests ATIO_OPTS:--atio-opts SSH_OPTS:--ssh-opts; do
		name=${var%%:*}
		[[ ${!name} != *[[:cntrl:]]* ]] ||
			die "$name (${var#*:}) $(shown "${!name}"): a control character in the list (a newline?): separate its words with spaces"
	done
	read -ra THREAD_LIST <<<"$THREADS" || true
	[ "${#THREAD_LIST[@]}" -gt 0 ] || die "THREADS (-p) is empty"
	for n in "${!THREAD_LIST[@]}"; do
		h=${THREAD_LIST[n]}
		if [ "$h" != auto ]; then
			is_count "$h" || die "THREADS (-p) '$THREADS': '$h' is neither a whole number from 1 to 999999999 nor auto"
			THREAD_LIST[n]=$((10#$h))
		fi
		# A count's passes share their records: a second would replace
		# the first.
		[[ " ${THREAD_LIST[*]:0:n} " != *" ${THREAD_LIST[n]} "* ]] ||
			die "THREADS (-p) '$THREADS': the thread count ${THREAD_LIST[n]} is given twice: give each once"
	done
	read -ra TEST_LIST <<<"$TESTS" || true
	[ "${#TEST_LIST[@]}" -gt 0 ] || die "TESTS (--tests) is empty"
	for n in "${!TEST_LIST[@]}"; do
		t=${TEST_LIST[n]}
		[[ " $ALL_TESTS " == *" $t "* ]] || die "TESTS (--tests) $(shown "$t"): not one of $ALL_TESTS"
		[[ " ${TEST_LIST[*]:0:n} " != *" $t "* ]] || die "TESTS (--tests) '$TESTS': the test $t is given twice: give each once"
	done
	[ -n "$REMOTE_PCS_MOUNT_PATH" ] || die "REMOTE_PCS_MOUNT_PATH (-d) is required: the test directory on the nodes"
	[[ $REMOTE_PCS_MOUNT_PATH == /* ]] || die "REMOTE_PCS_MOUNT_PATH (-d) '$REMOTE_PCS_MOUNT_PATH': not an absolute path"
	# Under LC_ALL=C, [[:cntrl:]] is bytes 1-31 and 127: UTF-8 names pass.
	[[ $REMOTE_PCS_MOUNT_PATH != *[[:cntrl:]]* ]] || die "REMOTE_PCS_MOUNT_PATH (-d): control characters in the path"
	[ "$NODE_DIR" = subdir ] || [ "$NODE_DIR" = given ] ||
		die "NODE_DIR (--node-dir) $(shown "$NODE_DIR"): not subdir (each node in a subdirectory of its own) nor given (the test directory as given)"
	# scp may hand this path to a remote shell or to SFTP: keep it plain.
	[[ $REMOTE_BINARIES_PATH =~ ^/[A-Za-z0-9._/+-]*$ ]] ||
		die "REMOTE_BINARIES_PATH (--remote-bin) '$REMOTE_BINARIES_PATH': not an absolute path of letters, digits and ._/+-"
	read -ra ATIO_EXTRA <<<"$ATIO_OPTS" || true
	NODE_CAP="" NODE_STEADY=""
	for n in "${!ATIO_EXTRA[@]}"; do
		case ${ATIO_EXTRA[n]} in
		--steady | --steady=*) NODE_STEADY=1 ;;
		--cap | --rate) NODE_CAP=${ATIO_EXTRA[n + 1]:-} ;;
		--cap=* | --rate=*) NODE_CAP=${ATIO_EXTRA[n]#--*=} ;;
		--and | --then | --jobs | --jobs=*)
			die "ATIO_OPTS (--atio-opts) $(shown "$ATIO_OPTS"): ${ATIO_EXTRA[n]%%=*} makes a plan of jobs or phases, and plans are not yet run by the driver: run atio --json with it on each node and sum the documents with atio merge" ;;
		esac
	done
	read -ra SSH_EXTRA <<<"$SSH_OPTS" || true
	[ "${#HOSTS[@]}" -gt 0 ] || die "no host given (HOST arguments or -h FILE)"
	# A host given twice (two atio on one data set, summed twice) was
	# refused as it was read (add_hosts).
	for n in "${!HOSTS[@]}"; do
		host_check "${HOSTS[n]}" ||
			die "${HOST_WHERES[HOST_LIST_OF[n]]:+${HOST_WHERES[HOST_LIST_OF[n]]}: }host $(shown "${HOSTS[n]}"): $HOST_WHY"
	done
	same_destinations
	node_test_dirs
	md_validate
	if [ -z "$AT_IO_LOCAL_PATH" ]; then
		for h in "$SCRIPT_DIR/atio" "${SCRIPT_DIR%/*}/build/atio" "$(command -v atio || true)"; do
			[ -z "$h" ] || [ ! -f "$h" ] || [ ! -x "$h" ] || { AT_IO_LOCAL_PATH=$h; break; }
		done
		[ -n "$AT_IO_LOCAL_PATH" ] || die "AT_IO_LOCAL_PATH (-b): no atio beside the script, in ../build or on PATH"
	fi
	{ [ -f "$AT_IO_LOCAL_PATH" ] && [ -x "$AT_IO_LOCAL_PATH" ]; } ||
		die "AT_IO_LOCAL_PATH (-b) '$AT_IO_LOCAL_PATH': not an executable file"
	LOCAL_VERSION=$("$AT_IO_LOCAL_PATH" --version 2>&1 | head -n 1) ||
		die "AT_IO_LOCAL_PATH (-b) $AT_IO_LOCAL_PATH: --version failed: $LOCAL_VERSION"
	[ -z "$OUT_JSON" ] || out_target
	[ -z "$OUT_CSV" ] || csv_target
	for n in "${THREAD_LIST[@]}"; do
		for t in load warmup "${TEST_LIST[@]}"; do
			# Metadata tests alone load no files and warm nothing up.
			if [ "$t" = load ] || [ "$t" = warmup ]; then
				has_data_tests || continue
			fi
			atio_args "$t" "$n" "$TIME"
			case ${ARGS[0]} in
			# Nothing to show settings of (-a): check the rest.
			--prepare | --check) ARGS=("${ARGS[@]:1}") ;;
			# With the options the driver adds at launch (see launch_run).
			*) ARGS+=(--json)
				[ "$t" = load ] || ARGS+=(--start-at -) ;;
			esac
			h=$("$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" 2>&1 >/dev/null) ||
				die "atio refuses the options of $t with $n threads: $(head -n 1 <<<"$h")"
		done
	done
	sweep_validate
}
