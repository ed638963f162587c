# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034 # the node facts it sets are read by the other parts
#
# atio-parallel.sh, sourced part: preparing the nodes. Two hosts that are
# one node refused (as ssh -G resolves them, then as the nodes say what
# they are), every node's session opened and its clock read, and the atio
# each node runs found or copied.

# Print where ssh takes host $1 with SSH_EXTRA, as `ssh -G` resolves it
# without connecting: "HOSTNAME port PORT", and the proxy it goes through
# if any (the user is left out: root@X and X are one node).
ssh_destination() {
	local out k v name="" port="" proxy=""
	out=$(ssh -G ${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -- "$1" 2>&1 </dev/null) ||
		die "host '$1': ssh -G cannot resolve it: $(head -n 1 <<<"$out")"
	while read -r k v; do
		case $k in
		hostname) name=$v ;;
		port) port=$v ;;
		proxyjump | proxycommand) [ "$v" = none ] || proxy+=" via $k $v" ;;
		esac
	done <<<"$out"
	printf '%s port %s%s' "$name" "$port" "$proxy"
}

# Refuse (exit 2) two hosts that ssh takes to one destination: an alias and
# its address, X and root@X. Needs no connection; with no ssh here (a dry
# run) there is nothing to ask.
same_destinations() {
	local n d
	local -A seen=()
	command -v ssh >/dev/null || return 0
	for n in "${!HOSTS[@]}"; do
		d=$(ssh_destination "${HOSTS[n]}") || exit 2
		[ -z "${seen[$d]:-}" ] ||
			die "hosts '${seen[$d]}' and '${HOSTS[n]}' are one node: ssh reaches both at $d (ssh -G): give each node once"
		seen[$d]=${HOSTS[n]}
	done
}

# The remote command printing what node it runs on and what its test
# directory is, one "KEY VALUE" a line: boot_id (the running kernel's),
# machine_id, hostname, and target, the device:inode of REMOTE_PCS_MOUNT_PATH
# (or, where it is no directory, of its parent directory followed by /NAME,
# as atio then makes the files NAME.0 ... there; "-" when neither exists).
remote_identity_cmd() {
	local d=$REMOTE_PCS_MOUNT_PATH p n
	d=${d%/}
	p=${d%/*} n=${d##*/}
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf 'b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null); m=$(cat /etc/machine-id 2>/dev/null || cat /var/lib/dbus/machine-id 2>/dev/null); h=$(uname -n 2>/dev/null); if [ -d %s ]; then t=$(stat -L -c %%d:%%i %s 2>/dev/null); else t=$(stat -L -c %%d:%%i %s 2>/dev/null) && t=$t/%s; fi; printf "boot_id %%s\\nmachine_id %%s\\nhostname %%s\\ntarget %%s\\n" "${b:--}" "${m:--}" "${h:--}" "${t:--}"' \
		"$(quote_words "${d:-/}")" "$(quote_words "${d:-/}")" "$(quote_words "${p:-/}")" "$(quote_words "$n")"
}

# Refuse (exit 2) two hosts whose nodes, as they said over their sessions
# (files INDEX.id in directory $1, from remote_identity_cmd), are one
# machine (one boot id; or, where there is none, one machine id and host
# name) with one test directory (device and inode): two spellings that ssh
# -G could not tell apart, such as a name and its address. Nodes on one
# machine with test directories of their own (containers) are not one.
same_nodes() {
	local dir=$1 i j k v
	local -a boot=() mach=() name=() target=()
	for i in "${!HOSTS[@]}"; do
		boot[i]=- mach[i]=- name[i]=- target[i]=-
		[ -e "$dir/$i.id" ] || continue
		while read -r k v; do
			case $k in
			boot_id) boot[i]=${v:--} ;;
			machine_id) mach[i]=${v:--} ;;
			hostname) name[i]=${v:--} ;;
			target) target[i]=${v:--} ;;
			esac
		done <"$dir/$i.id"
	done
	for i in "${!HOSTS[@]}"; do
		[ "${target[i]}" != - ] || continue
		for ((j = 0; j < i; j++)); do
			[ "${target[j]}" = "${target[i]}" ] || continue
			if [ "${boot[i]}" != - ]; then
				[ "${boot[j]}" = "${boot[i]}" ] || continue
			elif ! { [ "${boot[j]}" = - ] && [ "${mach[i]}" != - ] && [ "${mach[j]}" = "${mach[i]}" ] &&
				[ "${name[j]}" = "${name[i]}" ]; }; then
				continue
			fi
			die "hosts '${HOSTS[j]}' and '${HOSTS[i]}' are one node: both are $(shown "${name[i]}") (boot id ${boot[i]}, machine id ${mach[i]}) with one test directory $REMOTE_PCS_MOUNT_PATH (device:inode ${target[i]}): give each node once"
		done
	done
}

# The remote command printing the atio that the node's login PATH finds
# (the package's: /usr/bin/atio) as "PATH<TAB>first line of its --version",
# or "none" when it finds none.
remote_installed_probe_cmd() {
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf '%s' 'p=$(command -v atio 2>/dev/null) || p=; case $p in /*) printf "%s\t" "$p"; "$p" --version 2>&1 | head -n 1 ;; *) echo none ;; esac'
}

# The remote command printing the first line of `$1 --version`, or
# "missing" when there is no file $1.
remote_probe_cmd() {
	local q
	printf -v q '%q' "$1"
	printf 'if [ -e %s ]; then %s --version 2>&1 | head -n 1; else echo missing; fi' "$q" "$q"
}

# Node job, first preparation round: wait for the first answer of the
# node's session (opened by prepare_nodes), which tells how long its login
# took (INDEX.login: later waits on the node allow WAIT_FACTOR times it);
# ask what the node is (INDEX.id, for same_nodes) and make its marker in
# the test directory (a "marker PATH" line there, see dirs.sh); then read
# its clock.
# The offset is the node's `date +%s.%N` minus the midpoint of the local
# times before and after it, best of 3 (smallest round trip); INDEX.clock
# holds "OFFSET ROUND_TRIP LOGIN".
prep_connect() {
	local i=$1 dir=$2 rc=0 t0 t1 k best="" login limit
	trap '' INT # the script's to handle, as in run_job
	session_call "$i" : /dev/null "$LOGIN_TIMEOUT" || rc=$?
	if [ "$rc" = 0 ]; then
		now_us
		login=$(us_to_sec $((NOW_US - SESS_T0[i])))
		echo "$login" >"$dir/$i.login"
		limit=$(wait_limit "$login" 10)
		session_call "$i" "$(remote_identity_cmd); $(remote_mark_cmd "$i")" "$dir/$i.id" "$limit" || rc=$?
	elif [ "$rc" = 254 ]; then
		# No answer at all: logged in (the connection master is up) or not.
		if ssh "${SSH_BASE[@]}" -O check -- "${HOSTS[$i]}" </dev/null >/dev/null 2>&1; then
			SESS_WHY="connected (ssh logged in), but its login shell did not answer within LOGIN_TIMEOUT ($LOGIN_TIMEOUT s): see what the node runs at login (~/.bashrc, PAM, motd)"
		else
			SESS_WHY="could not connect: no ssh connection within LOGIN_TIMEOUT ($LOGIN_TIMEOUT s)"
		fi
		session_kill "$i"
	fi
	for k in 0 1 2 3; do
		[ "$rc" = 0 ] || break
		now_us
		t0=$NOW_US
		session_clock "$i" "$limit" || { rc=$?; break; }
		now_us
		t1=$NOW_US
		is_number "$SESS_EXTRA" || { rc=1; SESS_WHY="its clock (date +%s.%N) answered '$SESS_EXTRA', not a time"; break; }
		# The first round trip wakes the node's shell up: not counted.
		[ "$k" != 0 ] || continue
		best=$(awk -v a="$(us_to_sec "$t0")" -v r="$SESS_EXTRA" -v b="$(us_to_sec "$t1")" -v best="$best" 'BEGIN {
			if (best != "") { split(best, f, " "); if (f[2] <= b - a) { print best; exit } }
			printf "%.6f %.6f\n", r - (a + b) / 2, b - a }')
	done
	[ -z "$best" ] || echo "$best $login" >"$dir/$i.clock"
	if [ "$rc" = 0 ]; then
		: >"$dir/$i.ok"
	else
		echo "${SESS_WHY:-the first commands on the node failed (exit $rc)}" >"$dir/$i.why"
	fi
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "$rc" >"$dir/$i.rc"
}

# Run shell command $2 on node $1 over its session and print what it
# printed (stdout and stderr), waiting as long as the node's limit allows
# (30 s, or WAIT_FACTOR times its login). Returns as session_answer; when
# the session ended or did not answer, why goes to stderr.
node_cmd() {
	local rc=0 f="$WORK/call.$1.$BASHPID"
	session_call "$1" "$2" "$f" "$(wait_limit "${NODE_LOGIN[$1]:-0}" 30)" || rc=$?
	cat "$f" 2>/dev/null || true
	rm -f "$f"
	[ "$rc" -lt 254 ] || echo "$SESS_WHY" >&2
	return "$rc"
}

# Node job, second preparation round: the node's test directory (prep_dir),
# then the atio node $1 runs. The
# one its login PATH finds (installed from the package) when it is of the
# local version; else REMOTE_BINARIES_PATH/atio, copied there when missing
# (or, with --replace, of another version). The choice goes to INDEX.atio,
# a note on it to INDEX.note.
prep_install() {
	local i=$1 dir=$2 rc=0 path="$REMOTE_BINARIES_PATH/atio" v chosen="" pre="" found
	local tmp="$REMOTE_BINARIES_PATH/.atio-parallel.$RUN_ID.tmp"
	trap '' INT # the script's to handle, as in run_job
	prep_dir "$i" "$dir" || rc=$?
	if [ "$rc" = 0 ]; then
		v=$(node_cmd "$i" "$(remote_installed_probe_cmd)" 2>>"$dir/$i.err") || rc=$?
	else
		[ "$rc" != 2 ] || : >"$dir/$i.nodir"
		rc=1
	fi
	if [ "$rc" = 0 ] && [[ $v == /*$'\t'* ]]; then
		found=${v%%$'\t'*}
		v=${v#*$'\t'}
		if [ "$v" = "$LOCAL_VERSION" ]; then
			chosen=$found
			echo "using $found ($v), installed on the node" >"$dir/$i.note"
		else
			pre="its $found is '${v:-no output}', not '$LOCAL_VERSION'"
		fi
	fi
	if [ "$rc" = 0 ] && [ -z "$chosen" ]; then
		v=$(node_cmd "$i" "$(remote_probe_cmd "$path")" 2>>"$dir/$i.err") || rc=$?
	fi
	if [ "$rc" = 0 ] && [ -z "$chosen" ] && [ "$v" != "$LOCAL_VERSION" ]; then
		if [ "$v" = missing ] || [ "$REPLACE" = 1 ]; then
			node_cmd "$i" "mkdir -p -- $(quote_words "$REMOTE_BINARIES_PATH")" >>"$dir/$i.err" 2>&1 || {
				rc=$?
				echo "cannot create REMOTE_BINARIES_PATH $REMOTE_BINARIES_PATH there (mkdir -p exit $rc): nowhere to copy atio to" >>"$dir/$i.err"
			}
			if [ "$rc" = 0 ]; then
				tracked "$i" scp -q "${SSH_BASE[@]}" -- "$AT_IO_LOCAL_PATH" "$(scp_target "${HOSTS[$i]}" "$tmp")" \
					</dev/null >/dev/null 2>>"$dir/$i.err" &&
					node_cmd "$i" "chmod 755 $(quote_words "$tmp") && mv -f $(quote_words "$tmp" "$path")" \
						>>"$dir/$i.err" 2>&1 &&
					v=$(node_cmd "$i" "$(remote_probe_cmd "$path")" 2>>"$dir/$i.err") || rc=$?
			fi
			if [ "$rc" = 0 ] && [ "$v" != "$LOCAL_VERSION" ]; then
				echo "the atio copied to $path does not run there: ${v:-no output}" >>"$dir/$i.err"
				rc=1
			fi
			[ "$rc" != 0 ] || echo "${pre:+$pre: }copied $AT_IO_LOCAL_PATH ($LOCAL_VERSION) to $path" >"$dir/$i.note"
		else
			echo "$path is '${v:-no output}', this atio is '$LOCAL_VERSION': refusing to run two versions (--replace copies this one over it)${pre:+; $pre}" >>"$dir/$i.err"
			rc=1
		fi
	elif [ "$rc" = 0 ] && [ -z "$chosen" ] && [ -n "$pre" ]; then
		echo "$pre: using $path" >"$dir/$i.note"
	fi
	[ -n "$chosen" ] || chosen=$path
	[ "$rc" != 0 ] || { echo "$chosen" >"$dir/$i.atio" && : >"$dir/$i.ok"; }
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "$rc" >"$dir/$i.rc"
}

# Open every node's session, at most FANOUT at once, and start its first
# preparation job (prep_connect) in directory $1; set JOB_PIDS and JOB_DIR.
# A session is being opened until its SSH connection is up (its
# connection master's socket is there: ssh -G names it), it answered, or
# its job ended: a login shell that takes long on the node (a profile
# waiting on a lock, LDAP) costs this machine and the node's sshd nothing
# more, and does not hold the others back.
open_sessions() {
	local dir=$1 i next=0 opening n=${#HOSTS[@]} k v
	local -a ctl=()
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	while :; do
		opening=0
		for ((i = 0; i < next; i++)); do
			if job_running "$i" && [ ! -e "$dir/$i.login" ] && [ ! -S "${ctl[i]}" ]; then
				opening=$((opening + 1))
			fi
		done
		while [ "$next" -lt "$n" ] && [ "$opening" -lt "$FANOUT" ]; do
			ctl[next]=-
			while read -r k v; do
				[ "$k" != controlpath ] || ctl[next]=$v
			done < <(ssh -G "${SSH_BASE[@]}" -- "${HOSTS[$next]}" 2>/dev/null </dev/null || true)
			session_open "$next"
			prep_connect "$next" "$dir" &
			JOB_PIDS[next]=$!
			next=$((next + 1)) opening=$((opening + 1))
		done
		[ "$next" -lt "$n" ] || return 0
		nap 0.05
	done
}

# Prepare every node in two rounds, as at_io_parallel.sh did: connect,
# make its marker in the test directory and read its clock; then its test
# directory (which nodes share it, see dirs.sh) and atio, checked or
# installed. Any failure ends the script.
prepare_nodes() {
	local dir="$WORK/prep1" i n off rtt slow
	echo "Preparation..."
	open_sessions "$dir"
	wait_jobs 0
	print_nodes "$dir" 0
	# The markers made, to be removed whatever happens next.
	read_markers "$dir"
	MAX_LOGIN=0 slow=""
	for i in "${!HOSTS[@]}"; do
		NODE_LOGIN[i]=0
		[ ! -e "$dir/$i.login" ] || read -r "NODE_LOGIN[$i]" <"$dir/$i.login"
		if awk -v a="${NODE_LOGIN[i]}" -v b="$MAX_LOGIN" 'BEGIN { exit !(a > b) }'; then
			MAX_LOGIN=${NODE_LOGIN[i]} slow=${HOSTS[$i]}
		fi
	done
	! awk -v a="$MAX_LOGIN" 'BEGIN { exit !(a > 5) }' ||
		warn "logging in took up to $MAX_LOGIN s ($slow): later waits on a node allow WAIT_FACTOR ($WAIT_FACTOR) times its own login"
	for i in "${!HOSTS[@]}"; do
		off=unknown rtt=unknown
		[ ! -e "$dir/$i.clock" ] || read -r off rtt _ <"$dir/$i.clock"
		NODE_OFFSET[i]=$off
		# Known to within half the round trip: a smaller offset is no offset.
		NODE_SKEW_OFFSET[i]=
		if is_signed "$off" && is_number "$rtt" &&
			awk -v o="$off" -v r="$rtt" 'BEGIN { exit !(o > r / 2 || -o > r / 2) }'; then
			NODE_SKEW_OFFSET[i]=$off
		fi
		if [ ! -e "$dir/$i.ok" ]; then
			continue
		elif [ "$off" = unknown ]; then
			warn "${HOSTS[$i]}: cannot read its clock (date +%s.%N)"
		elif awk -v o="$off" -v r="$rtt" -v m="$START_MARGIN" 'BEGIN { if (o < 0) o = -o; exit !(o - r / 2 > m) }'; then
			# Known to within half the round trip: only beyond that is it off.
			warn "${HOSTS[$i]}: its clock is $off s off this machine's (give or take $(awk -v r="$rtt" 'BEGIN { printf "%.3f", r / 2 }') s), more than the start margin ($START_MARGIN s): runs will not start together; synchronize the clocks (NTP)"
		fi
	done
	[ "$NFAIL" = 0 ] || die "preparation failed: cannot connect to $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS)" 1
	same_nodes "$dir"
	dir="$WORK/prep2"
	for_all_nodes prep_install "$dir"
	wait_jobs 0
	print_nodes "$dir" 0
	shared_dirs "$dir"
	if [ "$NFAIL" != 0 ]; then
		n=0
		for i in "${!HOSTS[@]}"; do [ ! -e "$dir/$i.nodir" ] || n=$((n + 1)); done
		[ "$n" = 0 ] || [ "$n" != "$NFAIL" ] ||
			die "preparation failed: no test directory to run in on $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS)" 1
		[ "$n" = 0 ] ||
			die "preparation failed on $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS): no test directory to run in, or no usable atio (above)" 1
		die "preparation failed: no usable atio on $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS)" 1
	fi
	say_test_dirs
	md_check_shared
	for i in "${!HOSTS[@]}"; do NODE_ATIO[i]=$(cat "$dir/$i.atio"); done
}
