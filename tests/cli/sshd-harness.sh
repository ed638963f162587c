# shellcheck shell=bash disable=SC2034
# Real ssh nodes for the tests of scripts/atio-parallel.sh, sourced after
# lib.sh. sshd_start N starts N real sshd daemons (/usr/sbin/sshd) on
# 127.0.0.2, 127.0.0.3, ... and one free TCP port, each in a mount namespace
# of its own, where private directories of $WORK are bind-mounted at the
# remote test path ($REMOTE_DATA) and the remote binaries path ($REMOTE_BIN):
# every node has its own test files and its own atio. Keys, known_hosts and
# an ssh_config are made for the test; ~root/.ssh and /etc/ssh are not used.
# Where sshd cannot be started here, the test is skipped (exit 77) with the
# reason.
#
# What it sets, for the tests to read:
#   SSH_CONFIG     give ssh "-F $SSH_CONFIG": hosts node1..nodeN (and their
#                  addresses), and node9, an address where no sshd listens
#   SSH_PORT       the port every node listens on
#   REMOTE_ROOT    a directory made for the run under /srv, removed at exit
#   REMOTE_DATA    $REMOTE_ROOT/data: the test path on every node
#   REMOTE_BIN     $REMOTE_ROOT/bin: the binaries path on every node
#   REMOTE_SHARED  $REMOTE_ROOT/shared: with SSHD_SHARED=1, the directory
#                  that every node sees ($WORK/shared here)
#   NODE_COUNT     N
#   NODE_PID[i]    the pid of node i's sshd
#   NODE_ADDR[i]   its address
#
# With SSHD_NO_BASHRC=1 the nodes' sessions do not read ~/.bashrc (an empty
# file is mounted over it in their namespaces): on one machine, N nodes'
# login shells share its CPUs, where a cluster gives each node its own
# (scripts/bench-parallel.sh).
#
# Login profiles, set before sshd_start (either makes the nodes' sessions
# read a profile of the harness's in place of ~/.bashrc, mounted over it in
# their namespaces; bash run by sshd for a command reads ~/.bashrc):
#   SSHD_LOGIN_SLEEP=SEC  every login shell sleeps SEC seconds before its
#                         command (LDAP, PAM, a motd script on a real
#                         cluster); 0: none, with node_login_sleep to
#                         change one node later
#   SSHD_LOGIN_LOCK=SEC   every login takes a lock shared by all the nodes
#                         (flock on one file) and holds it SEC seconds: the
#                         logins of all the nodes queue one behind another
# node_login_sleep I SEC changes node I's sleep for the logins that start
# from then on (0: none).
#
# With SSHD_SHARED=1 set before sshd_start the nodes are machines of a
# cluster with one cluster filesystem: one directory of $WORK, shared/, is
# bind-mounted at $REMOTE_SHARED in every node's namespace (outside its
# private $REMOTE_DATA), and each node has a boot id and a host name of its
# own (a file holding a new id bind-mounted over
# /proc/sys/kernel/random/boot_id, a UTS namespace named nodeI), as the
# driver tells machines apart.
#
# Helpers: node_dir I (the host directory behind node I's mounts: data/ and
# bin/ under it), node_exec I CMD... (run CMD in node I's mount namespace),
# node_pids (the sshd pids), node_procs I [NAME] (pids of the processes in
# node I's namespace, only those named NAME when given), node_sessions I
# (the same but its listening sshd: its connections and what they run),
# node_log I (its sshd log), node_logins I (how many logins its sshd accepted so far),
# node_session_count I (how many sessions it started: commands, scp),
# node_path_setup I and node_path_clear I (a directory of node I's own on
# its login PATH, $(node_dir I)/path here, for a packaged atio or a fake
# command), node_which I NAME (what node I's login shell runs for NAME).
#
# And for running the driver against the nodes (at the end of this file):
# driver_setup, run_driver, start_driver, parse_driver_output (what the
# output says, checked: sums, averages, INCOMPLETE counts), ssh_leftovers,
# node_atio_count, wait_node_run (a section started, atio up on a node),
# wait_node_ready (a node's atio said it is ready),
# expect_given_up (the driver gave up on a frozen node), driver_workdir and
# expect_no_driver_procs (no process of a driver run left, its connection
# masters included).

SSHD=${SSHD:-/usr/sbin/sshd}
SSH_DIR=$WORK/ssh
SSH_CONFIG=$WORK/ssh_config
SSH_PORT=
REMOTE_ROOT=
REMOTE_DATA=
REMOTE_BIN=
REMOTE_SHARED=
NODE_COUNT=0
NODE_PID=()
NODE_ADDR=()
NODE_NS=()
DEAD_ADDR=127.0.0.9

# FROZEN: the pids a test stopped with SIGSTOP (a node that hangs); thaw
# resumes them, and so does the cleanup at exit.
FROZEN=()
thaw() {
	[ ${#FROZEN[@]} -eq 0 ] || kill -CONT "${FROZEN[@]}" 2>/dev/null || true
	FROZEN=()
}

# Everything the harness started ends at exit, before lib.sh removes $WORK:
# the ssh clients of the drivers the test ran, then every process in the
# nodes' namespaces (sshd, sessions, atio), frozen ones thawed first.
# /run/sshd, when the harness made it, stays: another sshd started
# meanwhile may need it, as it would need the one its service makes.
harness_cleanup() {
	local i pids=()

	thaw

	mapfile -t pids < <(ssh_leftovers)
	[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
	for ((i = 1; i <= NODE_COUNT; i++)); do
		mapfile -t pids < <(node_procs "$i")
		[ ${#pids[@]} -eq 0 ] || kill -TERM "${pids[@]}" 2>/dev/null || true
	done
	sleep 0.2
	for ((i = 1; i <= NODE_COUNT; i++)); do
		mapfile -t pids < <(node_procs "$i")
		[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
	done
	stop_nodes
	if [ -n "$REMOTE_ROOT" ] && [ -d "$REMOTE_ROOT" ]; then
		[ -z "$REMOTE_SHARED" ] || rmdir "$REMOTE_SHARED" 2>/dev/null || true
		rmdir "$REMOTE_DATA" "$REMOTE_BIN" "$REMOTE_ROOT" 2>/dev/null || true
	fi
}
trap 'harness_cleanup; cleanup' EXIT

node_dir() {
	printf '%s\n' "$WORK/node$1"
}

node_log() {
	printf '%s\n' "$SSH_DIR/node$1/sshd.log"
}

# node_exec I CMD...: CMD in node I's mount namespace (it sees the node's
# $REMOTE_DATA and $REMOTE_BIN).
# node_second_address I ADDR: a second sshd in node I's namespace on ADDR
# (same port, node I's host key, in known_hosts): one machine behind two
# addresses, which ssh -G cannot tell apart. Returns 0 once ssh reaches it,
# 1 when it did not come up within 100 tries (its log: sshd2.log in the
# node's ssh directory).
node_second_address() {
	local d=$SSH_DIR/node$1 addr=$2
	sed -e "s/^ListenAddress .*/ListenAddress $addr:$SSH_PORT/" -e "s|^PidFile .*|PidFile $d/sshd2.pid|" \
		"$d/sshd_config" >"$d/sshd2_config"
	printf '[%s]:%s %s\n' "$addr" "$SSH_PORT" "$(cut -d ' ' -f 1,2 "$d/host_ed25519.pub")" >>"$SSH_DIR/known_hosts"
	node_exec "$1" "$SSHD" -D -E "$d/sshd2.log" -f "$d/sshd2_config" </dev/null >/dev/null 2>&1 &
	BG_PIDS+=($!)
	for _ in $(seq 100); do
		ssh -F "$SSH_CONFIG" -o ConnectTimeout=2 "$addr" true </dev/null >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

node_exec() {
	local i=$1

	shift
	nsenter -t "${NODE_PID[i]}" -m -- "$@"
}

node_pids() {
	local i

	for ((i = 1; i <= NODE_COUNT; i++)); do
		printf '%s\n' "${NODE_PID[i]}"
	done
}

# node_login_sleep I SEC: node I's login shells sleep SEC seconds from now
# on (0: none). Needs the nodes started with a login profile
# (SSHD_LOGIN_SLEEP or SSHD_LOGIN_LOCK set).
node_login_sleep() {
	[ -n "${SSHD_LOGIN_SLEEP:-}${SSHD_LOGIN_LOCK:-}" ] ||
		die "node_login_sleep: the nodes were started without a login profile (set SSHD_LOGIN_SLEEP=0 before sshd_start)"
	[[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "node_login_sleep: '$2' is not a number of seconds"
	printf '%s\n' "$2" >"$SSH_DIR/node$1/login_sleep.new"
	mv -f "$SSH_DIR/node$1/login_sleep.new" "$SSH_DIR/node$1/login_sleep"
}

# write_login_profile I: node I's login profile, mounted over ~/.bashrc in
# its namespace: the lock of all the nodes held for the seconds in
# $SSH_DIR/login_lock, then a sleep of the seconds in node I's own
# login_sleep (which node_login_sleep writes). Both files say 0 until
# sshd_start has seen every node up. Quiet: a session's output is its
# command's.
write_login_profile() {
	local d=$SSH_DIR/node$1

	echo 0 >"$d/login_sleep"
	echo 0 >"$SSH_DIR/login_lock"
	cat >"$d/bashrc" <<EOF
# node$1's login profile (tests/cli/sshd-harness.sh)
__node_login=0
[ ! -r $SSH_DIR/login_lock ] || read -r __node_login <$SSH_DIR/login_lock
[ "\$__node_login" = 0 ] ||
	flock $SSH_DIR/login.lock sleep "\$__node_login" </dev/null >/dev/null 2>&1
__node_login=0
[ ! -r $d/login_sleep ] || read -r __node_login <$d/login_sleep
[ "\$__node_login" = 0 ] || sleep "\$__node_login" </dev/null >/dev/null 2>&1
unset __node_login
EOF
}

# node_procs I [NAME]: the pids in node I's mount namespace (sshd, its
# sessions and what they run), one a line; with NAME only the processes
# whose command name is NAME.
node_procs() {
	local ns=${NODE_NS[$1]:-}

	[ -n "$ns" ] || return 0
	find /proc -mindepth 3 -maxdepth 3 -path '/proc/[0-9]*/ns/mnt' -printf '%p %l\n' 2>/dev/null |
		awk -v ns="$ns" -v name="${2:-}" '$2 == ns {
			split($1, f, "/"); pid = f[3]; comm = ""
			if (name != "") {
				if ((getline comm < ("/proc/" pid "/comm")) <= 0) comm = ""
				close("/proc/" pid "/comm")
				if (comm != name) next
			}
			print pid
		}'
}

# node_sessions I: the pids of node I's sessions: every process in its
# mount namespace but its listening sshd (the sshd of each connection, the
# shells and what they run), one a line. Killing them is a connection
# lost; stopping them (SIGSTOP), a node that answers nothing on it.
node_sessions() {
	node_procs "$1" | grep -vx -- "${NODE_PID[$1]}" || true
}

# node_path_setup I: give node I a directory of its own on its login PATH
# (the PATH its remote commands get): a private directory, $(node_dir
# I)/path here, bind-mounted in node I's mount namespace only over the
# first directory of that PATH that exists and is empty here (so that
# nothing is hidden; /usr/local/sbin, usually). Sets NODE_PATH_DIR[I], the
# directory as node I sees it; what is put in $(node_dir I)/path is found
# there, before /usr/bin. Fails, with the reason on stderr, when the
# node's PATH has no such directory or the mount fails.
NODE_PATH_DIR=()
node_path_setup() {
	local i=$1 p d dirs=()

	[ -z "${NODE_PATH_DIR[i]:-}" ] || return 0
	p=$(ssh -F "$SSH_CONFIG" "node$i" 'printf "%s\n" "$PATH"' </dev/null) || {
		echo "cannot read node$i's login PATH" >&2
		return 1
	}
	IFS=: read -ra dirs <<<"$p"
	for d in "${dirs[@]}"; do
		if [[ $d != /* ]] || [ ! -d "$d" ] || [ -n "$(ls -A "$d" 2>/dev/null)" ]; then
			continue
		fi
		mkdir -p "$(node_dir "$i")/path"
		node_exec "$i" mount --bind "$(node_dir "$i")/path" "$d" || {
			echo "cannot mount a directory over $d in node$i's namespace" >&2
			return 1
		}
		NODE_PATH_DIR[i]=$d
		return 0
	done
	echo "no directory of node$i's login PATH ($p) is empty here" >&2
	return 1
}

# node_path_clear I: undo node_path_setup I (node I's PATH as it was) and
# empty $(node_dir I)/path.
node_path_clear() {
	local i=$1

	[ -n "${NODE_PATH_DIR[i]:-}" ] || return 0
	node_exec "$i" umount "${NODE_PATH_DIR[i]}" || die "cannot unmount ${NODE_PATH_DIR[i]} in node$i's namespace"
	NODE_PATH_DIR[i]=
	rm -rf "$(node_dir "$i")/path"
}

# node_which I NAME: what node I's login shell runs for NAME (command -v),
# or nothing.
node_which() {
	local q

	printf -v q '%q' "$2"
	ssh -F "$SSH_CONFIG" "node$1" "command -v $q || true" </dev/null
}

# node_logins I: logins accepted so far by node I's sshd.
node_logins() {
	count_lines "$(node_log "$1")" 'Accepted publickey for root'
}

# node_session_count I: sessions (commands, scp) node I's sshd started so
# far; over a connection master, one login carries many.
node_session_count() {
	count_lines "$(node_log "$1")" 'Starting session: '
}

# all_logins: logins accepted so far by all the nodes together.
all_logins() {
	local i n=0

	for ((i = 1; i <= NODE_COUNT; i++)); do
		n=$((n + $(node_logins "$i")))
	done
	printf '%s\n' "$n"
}

# port_free PORT: nothing listens on or uses PORT, on any address.
port_free() {
	[ -z "$(ss -Htan "( sport = :$1 )" 2>/dev/null)" ]
}

pick_port() {
	local p try

	for ((try = 0; try < 100; try++)); do
		p=$((20000 + RANDOM % 30000))
		if port_free "$p"; then
			printf '%s\n' "$p"
			return 0
		fi
	done
	return 1
}

# What stops sshd from running here, or nothing when it can run.
sshd_unusable() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "not root: sshd, mount namespaces and bind mounts need root"
	elif [ ! -x "$SSHD" ]; then
		echo "$SSHD is not installed (package openssh-server)"
	elif ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
		echo "the ssh client or ssh-keygen is not installed (package openssh-client)"
	elif ! command -v unshare >/dev/null || ! command -v nsenter >/dev/null; then
		echo "unshare or nsenter is not installed (package util-linux)"
	elif ! command -v ss >/dev/null; then
		echo "ss is not installed (package iproute2)"
	elif ! unshare -m --propagation private true 2>/dev/null; then
		echo "unshare -m fails here: no mount namespaces"
	elif ! getent passwd sshd >/dev/null && ! getent passwd sshd-session >/dev/null; then
		echo "no sshd privilege separation user"
	fi
}

# Write node I's sshd_config for port PORT.
write_sshd_config() {
	local i=$1 port=$2 d=$SSH_DIR/node$1

	cat >"$d/sshd_config" <<EOF
ListenAddress ${NODE_ADDR[i]}:$port
HostKey $d/host_ed25519
PidFile $d/sshd.pid
AuthorizedKeysFile $SSH_DIR/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
MaxStartups 200:30:400
MaxSessions 100
LogLevel VERBOSE
Subsystem sftp internal-sftp
EOF
}

write_ssh_config() {
	local i

	: >"$SSH_CONFIG"
	for ((i = 1; i <= NODE_COUNT; i++)); do
		printf 'Host node%d %s\n\tHostName %s\n\n' "$i" "${NODE_ADDR[i]}" "${NODE_ADDR[i]}" >>"$SSH_CONFIG"
	done
	printf 'Host node9 %s\n\tHostName %s\n\n' "$DEAD_ADDR" "$DEAD_ADDR" >>"$SSH_CONFIG"
	cat >>"$SSH_CONFIG" <<EOF
Host *
	Port $SSH_PORT
	User root
	IdentityFile $SSH_DIR/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $SSH_DIR/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	CheckHostIP no
	UpdateHostKeys no
	BatchMode yes
	ConnectTimeout 5
	LogLevel ERROR
EOF
	: >"$SSH_DIR/known_hosts"
	for ((i = 1; i <= NODE_COUNT; i++)); do
		printf '[%s]:%s %s\n' "${NODE_ADDR[i]}" "$SSH_PORT" \
			"$(cut -d ' ' -f 1,2 "$SSH_DIR/node$i/host_ed25519.pub")" >>"$SSH_DIR/known_hosts"
	done
}

# Start node I's sshd in a new mount namespace (with SSHD_SHARED, a UTS
# namespace too, the shared directory and a boot id of its own); sets
# NODE_PID[I].
start_node() {
	local i=$1 d=$SSH_DIR/node$1 n rc_target="" rc_source=/dev/null uts=()
	local shared_src="" boot=""

	n=$(node_dir "$i")
	rm -f "$d/sshd.log" "$d/sshd.pid"
	# What goes over ~/.bashrc: the login profile, or with SSHD_NO_BASHRC
	# an empty file, or nothing.
	if [ -n "${SSHD_LOGIN_SLEEP:-}${SSHD_LOGIN_LOCK:-}" ]; then
		write_login_profile "$i"
		rc_target=$HOME/.bashrc rc_source=$d/bashrc
	elif [ -n "${SSHD_NO_BASHRC:-}" ]; then
		rc_target=$HOME/.bashrc
	fi
	if [ -n "${SSHD_SHARED:-}" ]; then
		uts=(-u) shared_src=$WORK/shared boot=$d/boot_id
		[ -s "$boot" ] || cat /proc/sys/kernel/random/uuid >"$boot"
	fi
	# shellcheck disable=SC2016 # the inner shell expands its own arguments
	unshare -m "${uts[@]}" --propagation private sh -c '
		mount --bind "$1" "$2" && mount --bind "$3" "$4" &&
			{ [ -z "$8" ] || [ ! -f "$8" ] || mount --bind "$9" "$8"; } &&
			{ [ -z "${10}" ] || { mount --bind "${10}" "${11}" &&
				mount --bind "${12}" /proc/sys/kernel/random/boot_id && hostname "${13}"; }; } &&
			exec "$5" -D -E "$6" -f "$7"' sh \
		"$n/data" "$REMOTE_DATA" "$n/bin" "$REMOTE_BIN" "$SSHD" "$d/sshd.log" "$d/sshd_config" \
		"$rc_target" "$rc_source" "$shared_src" "$REMOTE_SHARED" "$boot" "node$i" \
		</dev/null >"$d/sshd.out" 2>&1 &
	NODE_PID[i]=$!
}

# wait_node I SECONDS: node I's sshd lets the client key log in; sets
# NODE_NS[I]. Fails when sshd died or the time ran out.
wait_node() {
	local i=$1 limit=$(($2 * 1000)) t0

	t0=$(now_ms)
	while [ $(($(now_ms) - t0)) -lt "$limit" ]; do
		kill -0 "${NODE_PID[i]}" 2>/dev/null || return 1
		if ssh -F "$SSH_CONFIG" -o ConnectTimeout=2 "node$i" true </dev/null >/dev/null 2>&1; then
			NODE_NS[i]=$(readlink "/proc/${NODE_PID[i]}/ns/mnt") || return 1
			# The namespace is the node's own, not the host's.
			[ "${NODE_NS[i]}" != "$(readlink /proc/$$/ns/mnt)" ] || return 1
			return 0
		fi
		sleep 0.1
	done
	return 1
}

stop_nodes() {
	local i

	for ((i = 1; i <= NODE_COUNT; i++)); do
		[ -z "${NODE_PID[i]:-}" ] || kill -KILL "${NODE_PID[i]}" 2>/dev/null || true
		[ -z "${NODE_PID[i]:-}" ] || wait "${NODE_PID[i]}" 2>/dev/null || true
		NODE_PID[i]=
	done
}

# sshd_start N: start N nodes, or skip the test saying why they cannot run.
sshd_start() {
	local n=$1 why i attempt ok_all d reason=

	if [ "$n" -lt 1 ] || [ "$n" -gt 200 ]; then
		die "sshd_start: 1 to 200 nodes, not $n"
	fi
	why=$(sshd_unusable)
	[ -z "$why" ] || skip "cannot start sshd nodes: $why"
	if [ -n "${SSHD_LOGIN_SLEEP:-}${SSHD_LOGIN_LOCK:-}" ]; then
		for why in "${SSHD_LOGIN_SLEEP:-0}" "${SSHD_LOGIN_LOCK:-0}"; do
			[[ $why =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
				die "SSHD_LOGIN_SLEEP or SSHD_LOGIN_LOCK: '$why' is not a number of seconds"
		done
		# The profile is mounted over root's ~/.bashrc: a file must be there.
		[ -f "$HOME/.bashrc" ] || skip "no $HOME/.bashrc to mount the nodes' login profile over"
		[ "${SSHD_LOGIN_LOCK:-0}" = 0 ] || command -v flock >/dev/null ||
			skip "flock is not installed (package util-linux): no shared login lock"
	fi

	NODE_COUNT=$n
	mkdir -p "$SSH_DIR"
	ssh-keygen -q -t ed25519 -N '' -C atio-test-client -f "$SSH_DIR/id_ed25519" ||
		die "ssh-keygen failed"
	cp "$SSH_DIR/id_ed25519.pub" "$SSH_DIR/authorized_keys"
	REMOTE_ROOT=$(mktemp -d /srv/atio-parallel-test.XXXXXX 2>/dev/null) ||
		skip "cannot create the remote mount points under /srv"
	REMOTE_DATA=$REMOTE_ROOT/data
	REMOTE_BIN=$REMOTE_ROOT/bin
	mkdir "$REMOTE_DATA" "$REMOTE_BIN"
	if [ -n "${SSHD_SHARED:-}" ]; then
		[ -r /proc/sys/kernel/random/uuid ] || skip "no /proc/sys/kernel/random/uuid for the nodes' boot ids"
		command -v hostname >/dev/null || skip "hostname is not installed: no host name of each node's own"
		REMOTE_SHARED=$REMOTE_ROOT/shared
		mkdir "$REMOTE_SHARED" "$WORK/shared"
	fi
	if [ ! -d /run/sshd ]; then
		mkdir -m 0755 /run/sshd || skip "cannot create /run/sshd, sshd's privilege separation directory"
	fi
	for ((i = 1; i <= n; i++)); do
		# 127.0.0.2 to 127.0.0.8, then 127.0.1.8 and up: 127.0.0.9 is node9,
		# where no sshd listens.
		NODE_ADDR[i]=127.0.0.$((i + 1))
		[ "$i" -le 7 ] || NODE_ADDR[i]=127.0.1.$i
		d=$SSH_DIR/node$i
		mkdir -p "$d" "$(node_dir "$i")/data" "$(node_dir "$i")/bin"
		ssh-keygen -q -t ed25519 -N '' -C "atio-test-node$i" -f "$d/host_ed25519" ||
			die "ssh-keygen failed"
	done

	# A port found free can be taken before sshd binds it: try again then.
	for ((attempt = 1; attempt <= 3; attempt++)); do
		SSH_PORT=$(pick_port) || skip "no free TCP port found"
		write_ssh_config
		for ((i = 1; i <= n; i++)); do
			write_sshd_config "$i" "$SSH_PORT"
		done
		if ! why=$("$SSHD" -t -f "$SSH_DIR/node1/sshd_config" 2>&1); then
			skip "sshd rejects the test configuration: $(printf '%s' "$why" | head -n 3 | tr '\n' ' ')"
		fi
		for ((i = 1; i <= n; i++)); do
			start_node "$i"
		done
		ok_all=1
		for ((i = 1; i <= n; i++)); do
			if ! wait_node "$i" 15; then
				ok_all=0
				reason="node$i (sshd on ${NODE_ADDR[i]}:$SSH_PORT) does not accept the test key: $(
					cat "$SSH_DIR/node$i/sshd.out" "$SSH_DIR/node$i/sshd.log" 2>/dev/null |
						tail -n 4 | tr '\n' ' ')"
				break
			fi
		done
		if [ "$ok_all" = 1 ]; then
			# Every node is up: now the logins are slow.
			if [ -n "${SSHD_LOGIN_SLEEP:-}${SSHD_LOGIN_LOCK:-}" ]; then
				for ((i = 1; i <= n; i++)); do
					node_login_sleep "$i" "${SSHD_LOGIN_SLEEP:-0}"
				done
				echo "${SSHD_LOGIN_LOCK:-0}" >"$SSH_DIR/login_lock"
			fi
			return 0
		fi
		stop_nodes
	done
	skip "cannot start sshd nodes: $reason"
}

# Running scripts/atio-parallel.sh against the nodes.
#   DRIVER       the script under test ($ATIO_PARALLEL, or the one in scripts/)
#   DRIVER_ENV   NAME=VALUE settings every run gets (set by driver_setup)
#   LOCAL_ATIO   the local atio the driver copies (a copy of $ATIO)
#   OUT ERR RC LAST WALL_MS   as run_atio sets them

DRIVER=${ATIO_PARALLEL:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/atio-parallel.sh}
DRIVER_ENV=()

# driver_setup: check that the driver is there, copy $ATIO to LOCAL_ATIO
# (the atio the driver copies to the nodes: a rebuild of $ATIO during the
# test changes nothing), and set DRIVER_ENV for the nodes sshd_start made:
# small, short runs, no pause, a start skew of up to half the run, each
# node's files in its own $REMOTE_DATA as given (NODE_DIR=given).
driver_setup() {
	[ -f "$DRIVER" ] || die "$DRIVER does not exist"
	[ -x "$DRIVER" ] || die "$DRIVER is not executable"
	LOCAL_ATIO=$WORK/local/atio
	mkdir -p "$WORK/local"
	cp "$ATIO" "$LOCAL_ATIO" || die "cannot copy $ATIO"
	DRIVER_ENV=(
		"SSH_OPTS=-F $SSH_CONFIG"
		"AT_IO_LOCAL_PATH=$LOCAL_ATIO"
		"REMOTE_BINARIES_PATH=$REMOTE_BIN"
		"REMOTE_PCS_MOUNT_PATH=$REMOTE_DATA"
		# Each node's $REMOTE_DATA is a directory of its own: the files go
		# there as given (the default, a subdirectory for each node, is
		# for a directory that the nodes share: SSHD_SHARED).
		NODE_DIR=given
		TIME=1 FILE_SIZE=32M THREADS=1 ITERATIONS=2 BLOCKSIZE=4K PAUSE=0
		"TESTS=seqread randwrite" ATIO_OPTS= START_MARGIN=1
		# Runs of 1 s on one shared machine: 1% (10 ms) is a skew a busy
		# machine exceeds; 50% (0.5 s) is not. The test of NOT
		# CONCURRENT holds a node back several times that.
		MAX_SKEW=50
	)
}

# run_driver [NAME=VALUE | -u NAME...] ARG...: run the driver in $WORK with
# DRIVER_ENV and the NAME=VALUE settings given, without the NAMEs given
# to -u (unset: the driver refuses a setting set empty), stdout to $OUT,
# stderr to $ERR, status to $RC; at most DRIVER_TIMEOUT seconds (150), then
# killed (RC 124, or 137 when SIGTERM did not end it).
DRIVER_TIMEOUT=${DRIVER_TIMEOUT:-150}
run_driver() {
	local envs=() unsets=() t0

	while [ $# -gt 0 ]; do
		if [[ $1 =~ ^[A-Z_]+= ]]; then
			envs+=("$1")
			shift
		elif [ "$1" = -u ] && [[ ${2:-} =~ ^[A-Z_]+$ ]]; then
			unsets+=(-u "$2")
			shift 2
		else
			break
		fi
	done
	LAST="${envs[*]} ${unsets[*]} atio-parallel.sh $*"
	t0=$(now_ms)
	if (cd "$WORK" && timeout -k 10 "$DRIVER_TIMEOUT" env "${DRIVER_ENV[@]}" "${envs[@]}" \
		env "${unsets[@]}" "$DRIVER" "$@") \
		</dev/null >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
	WALL_MS=$(($(now_ms) - t0))
}

# start_driver [NAME=VALUE...] ARG...: start the driver in the background as
# a terminal would, SIGINT and SIGTERM at their defaults, in a process group
# of its own; its pid (and process group) in $PID.
start_driver() {
	local envs=()

	while [ $# -gt 0 ] && [[ $1 =~ ^[A-Z_]+= ]]; do
		envs+=("$1")
		shift
	done
	LAST="${envs[*]} atio-parallel.sh $*"
	(cd "$WORK" && exec setsid env --default-signal=INT --default-signal=TERM \
		"${DRIVER_ENV[@]}" "${envs[@]}" "$DRIVER" "$@") </dev/null >"$OUT" 2>"$ERR" &
	PID=$!
	BG_PIDS+=("$PID")
}

# ssh_leftovers: the pids of ssh processes still running with our ssh_config
# (a driver's connections, master connections included).
ssh_leftovers() {
	pgrep -f -- "-F $SSH_CONFIG" || true
}

# expect_no_ssh_leftovers WHAT: within 3 s no ssh process of the driver is
# left.
expect_no_ssh_leftovers() {
	local t0 left

	t0=$(now_ms)
	while left=$(ssh_leftovers) && [ -n "$left" ] && [ $(($(now_ms) - t0)) -lt 3000 ]; do
		sleep 0.1
	done
	if [ -z "$left" ]; then
		ok "$1"
	else
		not_ok "$1" "still running after 3 s:" \
			"$(for p in $left; do ps -o pid=,args= -p "$p" | cut -c 1-200; done)"
	fi
}

# wait_node_ready WDIR NODE: wait (60 s at most) until the atio of node
# NODE in a measured run of the driver whose work directory is WDIR has
# said it is ready (its "atio: ready:" line in WDIR/run.*/INDEX.err, INDEX
# from 0): it has its files and threads and gets its start instant now. A
# node that hangs before that is one the driver waits READY_TIMEOUT for,
# not one it stops; false when the line did not come.
wait_node_ready() {
	local t0 f

	t0=$(now_ms)
	while [ $(($(now_ms) - t0)) -lt 60000 ]; do
		for f in "$1"/run.*/"$(($2 - 1))".err; do
			[ -f "$f" ] && grep -q '^atio: ready:' "$f" && return 0
		done
		sleep 0.1
	done
	return 1
}

# driver_workdir PATTERN: the work directory of the driver whose ssh
# clients' command lines match PATTERN, from their ControlPath; empty when
# none runs.
driver_workdir() {
	local ctl
	ctl=$(pgrep -af -- "$1" | grep -o 'ControlPath=/[^ ]*/' | head -n 1) || true
	printf '%s\n' "${ctl#ControlPath=}"
}

# expect_no_driver_procs WHAT WDIR: within 3 s no process names the
# driver's work directory WDIR (its ssh clients by their ControlPath, its
# connection masters by their socket there); those left are killed.
expect_no_driver_procs() {
	local t0 left

	t0=$(now_ms)
	while left=$(pgrep -f -- "$2" || true) && [ -n "$left" ] && [ $(($(now_ms) - t0)) -lt 3000 ]; do
		sleep 0.1
	done
	if [ -z "$left" ]; then
		ok "$1"
	else
		not_ok "$1" "still running 3 s after the driver ended:" \
			"$(for p in $left; do ps -o pid=,args= -p "$p" | cut -c 1-160; done)"
		for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
	fi
}

# wait_node_run HEADER NODE: wait until the driver's output has the
# section header line HEADER (2 min at most, while the driver runs), then
# until atio runs on node NODE (30 s at most).
wait_node_run() {
	local t0

	t0=$(now_ms)
	while ! grep -qxF -- "$1" "$OUT" && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 120000 ]; do
		sleep 0.2
	done
	t0=$(now_ms)
	while [ -z "$(node_procs "$2" atio)" ] && [ $(($(now_ms) - t0)) -lt 30000 ]; do
		sleep 0.1
	done
}

# expect_given_up WHAT NODE STATUS EVENT T0: the driver ($PID), with
# nodeNODE (the NODE-th host of the run) frozen, gives up on it: it exits
# with STATUS within 90 s of EVENT (what the test did, at now_ms T0; killed
# after that), nodeNODE is a FAILURE for want of an answer, and stderr warns
# that the driver gave up on it.
expect_given_up() {
	wait_exit 90
	if [ "$RC" = "$3" ]; then
		ok "$1: the driver exited $3, $(($(now_ms) - $5)) ms after $4"
	else
		not_ok "$1: the driver exited $3 within 90 s of $4" \
			"exit $RC (999: still running after 90 s, killed)" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
	expect_match "$1: node$2 is a FAILURE" "$OUT" "^\\[$2\\] [0-9:]{8} \\[FAILURE\\] node$2\$"
	expect_match "$1: its reason: no answer" "$OUT" '^    no answer from the node after stopping its atio$'
	expect_match "$1: the driver says it gave up on node$2" "$ERR" \
		"warning: node$2: no answer after stopping atio; giving up on it"
}

# node_atio_count: how many atio processes run on all the nodes together.
node_atio_count() {
	local i n=0

	for ((i = 1; i <= NODE_COUNT; i++)); do
		n=$((n + $(node_procs "$i" atio | wc -l)))
	done
	printf '%s\n' "$n"
}

# parse_driver_output FILE "HOST..." > PARSED: read the driver's text output
# as the guide shows it, with HOST... the nodes of the run, and print what
# it found, one fact a line:
#   SECTION title|threads
#   NODE title|threads|iteration|host|value|unit     a node's result line
#   SUM title|threads|iteration|value|unit|complete  (complete: 1 or 0; 0 also
#       when NOT CONCURRENT: it does not count in the average)
#   NOTCONC title|threads|iteration|skew   a sum marked NOT CONCURRENT
#   AVG title|threads|value|unit   (value "none" when no sum was complete)
#   FAIL host|stderr lines below it|those lines, joined by " / "
#   ERR what is wrong: a sum that is not the sum of the nodes' values above
#       it (within 0.5e-5 per node), a sum called complete without every node, an INCOMPLETE count
#       that is not the nodes that answered, iterations out of order, an
#       average that is not the mean of its section's complete sums or
#       that does not say INCOMPLETE when a sum was, a unit that changes, a
#       result line under no [SUCCESS] line, a malformed line.
parse_driver_output() {
	awk -v hosts="$2" '
	function abs(x) { return x < 0 ? -x : x }
	function near(a, b) { return abs(a - b) <= 1e-4 * (abs(a) > abs(b) ? abs(a) : abs(b)) + 1e-5 }
	function err(m) { print "ERR line " NR ": " m ": " $0 }
	function endfail() {
		if (failhost != "") print "FAIL " failhost "|" faillines "|" firstline
		failhost = ""
	}
	function reset() { split("", val); split("", unit); nv = 0; cur = ""; status = "" }
	BEGIN {
		nh = split(hosts, want, " ")
		sec = ""; reset()
	}
	failhost != "" && /^[ \t]+[^ \t]/ {
		l = $0; sub(/^[ \t]+/, "", l)
		firstline = faillines == 0 ? l : firstline " / " l
		faillines++
		next
	}
	{ endfail() }
	/^\[[0-9]+\] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] \[(SUCCESS|FAILURE)\] [^ ]+$/ {
		cur = $4; status = $3
		if (status == "[FAILURE]") { failhost = cur; faillines = 0; firstline = "" }
		next
	}
	/\[(SUCCESS|FAILURE)\]/ { err("malformed node line"); next }
	/^time: [0-9]+\.[0-9]+ sec; rate: \{ [0-9]+\.[0-9]+ \} (MB\/s|IOPS|sync\/s);$/ {
		if (cur == "" || status != "[SUCCESS]") { err("result line under no [SUCCESS] line"); next }
		if (cur in val) { err("two result lines for " cur); next }
		u = $8; sub(/;$/, "", u)
		val[cur] = $6; unit[cur] = u; nv++
		if (sec != "") print "NODE " sec "|" thr "|" (iter + 1) "|" cur "|" $6 "|" u
		next
	}
	/rate:/ { err("malformed result line"); next }
	/^---=== .* \(([0-9]+|auto)thr\) ===---$/ {
		t = $0; sub(/^---=== /, "", t); sub(/ ===---$/, "", t)
		thr = t; sub(/^.*\(/, "", thr); sub(/thr\)$/, "", thr)
		sub(/ \(([0-9]+|auto)thr\)$/, "", t)
		sec = t; iter = 0; nsum = 0; ncomplete = 0; completetotal = 0; allcomplete = 1; secunit = ""
		print "SECTION " sec "|" thr
		reset()
		next
	}
	/^Sum value on iteration [0-9]+ = \{ [0-9]+\.[0-9]+ \} [^ ;]+;( \(INCOMPLETE: [0-9]+ of [0-9]+ nodes\))?( \(NOT CONCURRENT: skew [0-9]+\.[0-9]+ s\))?$/ {
		if (sec == "") err("a sum outside a section")
		iter++
		if ($5 + 0 != iter) err("iteration " $5 ", expected " iter)
		v = $8; u = $10; sub(/;$/, "", u)
		s = 0
		for (h in val) {
			s += val[h]
			if (unit[h] != u) err("node " h " reported " unit[h] ", the sum is in " u)
		}
		# The driver adds the exact values of the nodes, prints each and
		# the sum with 5 decimals: at most half a unit of the last
		# decimal per node, and one more for the sum, apart.
		if (abs(s - v) > 0.5e-5 * (nv + 1) + 1e-9 * abs(v))
			err(sprintf("the %d node values above sum to %.5f, %.5f apart", nv, s, abs(s - v)))
		complete = index($0, "INCOMPLETE") == 0
		if (index($0, "NOT CONCURRENT")) {
			k = $0; sub(/^.*NOT CONCURRENT: skew /, "", k); sub(/ s\)$/, "", k)
			print "NOTCONC " sec "|" thr "|" iter "|" k
		}
		if (complete) {
			for (i = 1; i <= nh; i++)
				if (!(want[i] in val)) err("complete without a result from " want[i])
			if (nv != nh) err(nv " results for " nh " nodes")
		} else {
			k = $0; sub(/^.*INCOMPLETE: /, "", k); m = k; sub(/ of .*$/, "", k)
			sub(/^[0-9]+ of /, "", m); sub(/ nodes\)$/, "", m)
			if (k + 0 != nv) err("INCOMPLETE counts " k " nodes, " nv " results are above it")
			if (m + 0 != nh) err("INCOMPLETE of " m " nodes, the run has " nh)
			if (nv >= nh) err("INCOMPLETE with every node answering")
			allcomplete = 0
		}
		if (secunit != "" && u != secunit) err("unit changes within the section")
		secunit = u
		nsum++
		# A NOT CONCURRENT sum is kept out of the average as an
		# incomplete one is.
		if (index($0, "NOT CONCURRENT")) { complete = 0; allcomplete = 0 }
		if (complete) { ncomplete++; completetotal += v }
		print "SUM " sec "|" thr "|" iter "|" v "|" u "|" complete
		reset()
		next
	}
	/^Sum value/ { err("malformed sum line"); next }
	/^---=== Average value = \{ [0-9]+\.[0-9]+ \} [^ ;]+; ===---( \(INCOMPLETE: [0-9]+ of [0-9]+ iterations complete\))?$/ {
		v = $6; u = $8; sub(/;$/, "", u)
		if (allcomplete && index($0, "INCOMPLETE")) err("INCOMPLETE average of complete sums")
		if (!allcomplete && !index($0, "INCOMPLETE")) err("an average of incomplete sums presented as complete")
		if (ncomplete == 0) err("an average of no complete sum")
		else if (!near(completetotal / ncomplete, v))
			err(sprintf("the mean of the %d complete sums above is %.5f", ncomplete, completetotal / ncomplete))
		if (u != secunit) err("the average is in " u ", the sums in " secunit)
		print "AVG " sec "|" thr "|" v "|" u
		reset()
		next
	}
	/^---=== Average value: none, no complete iteration \(0 of [0-9]+\) ===---$/ {
		if (ncomplete != 0) err("no average with " ncomplete " complete sums")
		print "AVG " sec "|" thr "|none|"
		reset()
		next
	}
	/Average value/ { err("malformed average line"); next }
	END { endfail() }
	' "$1"
}
