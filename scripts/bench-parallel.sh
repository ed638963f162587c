#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench-parallel.sh: what scripts/atio-parallel.sh costs the controller as
# the cluster grows. For each N given (default 32 64 128) it starts N real
# sshd nodes on loopback addresses, each in a mount namespace of its own,
# as the tests do (tests/cli/sshd-harness.sh), and runs the driver on them
# with paced reads: TESTS=randread, ATIO_OPTS "--rate RATE" (200 IOPS per
# node, so that 2 cores carry 128 nodes), THREADS=1, TIME=5, ITERATIONS=2,
# FILE_SIZE=16M, PAUSE=0, a 1 s warm-up, -o FILE. Then it prints one row
# per N in three tables:
#
# Cost: preparation (from the driver's start to its first section, the
#   "Loading" line), the driver's time beyond TIME per run (median / max:
#   from the line before the run's output to its sum line, minus TIME),
#   the controller's CPU per node per run (median / max; the driver and
#   everything it runs on this machine: ssh clients, their ControlMaster
#   processes, atio merge; the nodes' sshd and atio not counted), the
#   start skew (median / max over the runs), the sum's share of the caps
#   (sum / (N x RATE), min / max), the [FAILURE] lines and the driver's
#   exit status, and the NOT CONCURRENT runs (and whether the warm-up was).
# Start: where the skew goes, from the nodes' own start times in the -o
#   document: how late after the agreed instant the first node, the median
#   node and the last node began, the skew per node, and the median
#   lateness of the first and the second half of the hosts in the order
#   the driver sends the instant (equal halves: the order of sending does
#   not matter; the nodes wake late because they share this machine's
#   CPUs at the instant); beside it, the same for N atio started on this
#   machine alone as the driver starts them (ready, then one instant
#   START_MARGIN ahead; the nodes' randread on a FILE_SIZE file, paced;
#   no ssh, no driver), and
#   how much later the driver's last node began than the last of those:
#   the driver's share of the skew, the rest being the machine's.
# Limits: the seconds sshd_start took for N nodes, the peaks sampled once
#   a second during the run: the controller's processes and open file
#   descriptors (total and per node), those of the driver's largest
#   shell process and of its ssh processes; the logins (connections) and
#   sessions each node's sshd accepted; the limits in force (ulimit -n,
#   ulimit -u) and the nodes' sshd MaxStartups and MaxSessions.
#
# The controller's CPU is that of a cpuacct cgroup (v1,
# /sys/fs/cgroup/cpuacct, or v2) the driver is started in: every process
# it starts stays in it, the ssh ControlMaster processes too, which
# detach (ControlPersist) and which /usr/bin/time, counting only the
# children waited for, misses; its figure is printed beside ("waited").
# Without a writable cgroup only /usr/bin/time's figure is printed (the
# masters not counted) and the process counts are those of the ssh clients.
#
# Usage: ATIO=build/atio scripts/bench-parallel.sh [--login PROFILE] [--forks] [N...]
#   --login quick      (default) the nodes' login shells skip ~/.bashrc
#                      (SSHD_NO_BASHRC=1): a cluster whose nodes each start
#                      their shell on their own CPUs
#   --login bashrc     the nodes' login shells read this machine's
#                      ~/.bashrc, N of them at once on its CPUs: a login
#                      that contends
#   --login lock:SEC   every login waits SEC s on a lock all nodes share
#                      (SSHD_LOGIN_LOCK, where the harness has it)
#   --login sleep:SEC  every login takes SEC s more (SSHD_LOGIN_SLEEP,
#                      where the harness has it)
#   --forks            also count the processes the driver starts and the
#                      programs they run, per node and run (strace -f,
#                      which slows the driver: its times are not the
#                      cost's then): what a controller's fork and exec
#                      cost multiplies
# Environment: TIME (5), ITERATIONS (2), FILE_SIZE (16M), TESTS (randread),
# RATE (200), THREADS (1), MAX_SKEW (1), START_MARGIN (0.5), READY_TIMEOUT
# (120): as the driver's; KEEP=DIR keeps each N's driver output, stderr,
# -o document and samples in DIR. Needs root (sshd, namespaces, cgroups).
# Raises the soft limit of open files (ulimit -n) to the hard one. Heavy:
# 128 nodes load a 2-core machine for several minutes.
set -eu
export LC_ALL=C

SRC=$(cd "$(dirname "$0")/.." && pwd)
: "${ATIO:=$SRC/build/atio}"
export ATIO

# One N, in a child (BENCH_ONE=N): start the nodes, run the driver,
# print what was measured as "KEY VALUE..." lines.
if [ -n "${BENCH_ONE:-}" ]; then
	# shellcheck disable=SC1091 # the tests' helpers, checked on their own
	. "$SRC/tests/cli/lib.sh"
	# shellcheck disable=SC1091
	. "$SRC/tests/cli/sshd-harness.sh"
	n=$BENCH_ONE cg=${BENCH_CG:-}

	t0=$EPOCHREALTIME
	sshd_start "$n"
	printf 'NODES_UP %s\n' "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
	driver_setup
	hosts=()
	for ((i = 1; i <= n; i++)); do hosts+=("node$i"); done
	base_logins=()
	for ((i = 1; i <= n; i++)); do
		base_logins[i]=$(node_logins "$i")
		base_sessions[i]=$(count_lines "$(node_log "$i")" 'Starting session:')
	done

	# Once a second until the driver ends: the processes of the cgroup
	# (or, without one, the ssh clients of the run) and their open files.
	sample() {
		local p c n tot procs bashn bashmax sshn sshf pids fds rss r pg
		shopt -s nullglob
		pg=$(getconf PAGESIZE)
		while [ ! -e "$WORK/driver-done" ]; do
			tot=0 procs=0 bashn=0 bashmax=0 sshn=0 sshf=0 rss=0
			if [ -n "$cg" ]; then
				mapfile -t pids <"$cg/cgroup.procs"
			else
				mapfile -t pids < <(ssh_leftovers)
			fi
			for p in ${pids[@]+"${pids[@]}"}; do
				c=
				read -r c 2>/dev/null <"/proc/$p/comm" || continue
				fds=(/proc/"$p"/fd/*)
				n=${#fds[@]}
				tot=$((tot + n)) procs=$((procs + 1))
				r=0
				read -r _ r _ 2>/dev/null <"/proc/$p/statm" || r=0
				rss=$((rss + r))
				case $c in
				ssh) sshn=$((sshn + 1)) sshf=$((sshf + n)) ;;
				atio-parallel*) bashn=$((bashn + 1))
					[ "$n" -le "$bashmax" ] || bashmax=$n ;;
				esac
			done
			printf "%s %s %s %s %s %s %s\n" "$tot" "$procs" "$bashn" "$bashmax" "$sshn" "$sshf" "$((rss * pg / 1048576))"
			sleep 1
		done >"$WORK/samples"
	}
	sample &
	sampler=$!
	BG_PIDS+=("$sampler")

	# BENCH_FORKS=1: every process the driver and its children start, and
	# every program they run, with its time (strace).
	tracer=()
	: >"$WORK/strace"
	[ "${BENCH_FORKS:-0}" != 1 ] || tracer=(strace -f -qq --seccomp-bpf -ttt -e "trace=clone,clone3,fork,vfork,execve"
		-e signal=none -o "$WORK/strace")
	# Each line of the driver's output with the time it came and the
	# cgroup's CPU then (nanoseconds; - without a cgroup).
	t0=$EPOCHREALTIME
	(cd "$WORK" && { [ -z "$cg" ] || echo "$BASHPID" >"$cg/cgroup.procs"; } &&
		exec /usr/bin/time -f "%e %U %S" -o "$WORK/time" ${tracer[@]+"${tracer[@]}"} env "${DRIVER_ENV[@]}" \
			TIME="$BENCH_TIME" ITERATIONS="$BENCH_ITER" FILE_SIZE="$BENCH_SIZE" TESTS="$BENCH_TESTS" \
			THREADS="$BENCH_THREADS" PAUSE=0 WARMUP_TIME=1 "ATIO_OPTS=--rate $BENCH_RATE" \
			MAX_SKEW="$BENCH_MAX_SKEW" START_MARGIN="$BENCH_MARGIN" READY_TIMEOUT="$BENCH_READY" \
			"$DRIVER" -o "$WORK/doc.json" "${hosts[@]}") </dev/null 2>"$WORK/err" |
		while IFS= read -r line; do
			u=-
			[ -z "$cg" ] || read -r u <"$cg/cpuacct.usage"
			printf '%s %s %s\n' "$EPOCHREALTIME" "$u" "$line"
		done >"$WORK/out" || true
	rc=$(awk '/^Command exited with non-zero status/ { print $NF; f = 1 } END { if (!f) print 0 }' "$WORK/time")
	: >"$WORK/driver-done"
	wait "$sampler" || true
	cpu=-
	[ -z "$cg" ] || read -r cpu <"$cg/cpuacct.usage"
	printf 'RC %s\n' "$rc"
	printf 'TOTAL %s %s %s\n' "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')" \
		"$cpu" "$(tail -n 1 "$WORK/time" | awk '{ print ($2 + $3) * 1e9 }')"

	# The runs: section by section; a run's output (its node lines, sum,
	# skew and latency lines) comes at its end, so it began at the line
	# before its first node line.
	awk -v t="$BENCH_TIME" -v t0="$t0" '
		function count(v, k, a, b, i, c) { c = 0; for (i = 1; i <= k; i++) if (v[i] > a && v[i] <= b) c++; return c }
		FILENAME == ARGV[1] {
			if ($0 ~ /(clone3?\(|fork\(|clone3? resumed>).* = [0-9]+$/) fk[++nf] = $2
			else if ($0 ~ /execve\(.* = 0$/) ex[++ne] = $2
			next
		}
		function node_line() { return $3 ~ /^\[[0-9]+\]$/ && ($5 == "[SUCCESS]" || $5 == "[FAILURE]") }
		NR == 1 { tfirst = $1; cfirst = $2 }
		$3 == "Preparation..." { printf "VALIDATE %.3f\n", $1 - t0 }
		$3 == "Loading" && !loaded { loaded = 1; printf "PREP %.3f %s %d %d\n", $1 - t0, $2, count(fk, nf, 0, $1), count(ex, ne, 0, $1) }
		/ ---=== .* ===---$/ && !/Average value/ { warm = ($4 == "Warming") }
		node_line() { if (!innodes) { rb = pt; rc = pc }; innodes = 1; pt = $1; pc = $2; next }
		$3 == "time:" || /^[0-9.]+ [-0-9]+ ( |\t)/ { pt = $1; pc = $2; next }
		$3 == "Sum" && $4 == "value" {
			nc = index($0, "NOT CONCURRENT") > 0
			printf "%s %.4f %s %s %s %d %d\n", warm ? "WARM" : "RUN", $1 - rb - (warm ? 1 : t),
				($2 == "-" ? "-" : $2 - rc), nc, $10, count(fk, nf, rb, $1), count(ex, ne, rb, $1)
		}
		$3 == "start" && $4 == "skew:" && !warm { printf "SKEW %s %s\n", $5, $12 }
		{ innodes = 0; pt = $1; pc = $2 }
	' "$WORK/strace" "$WORK/out"
	printf 'FAIL %s\n' "$(grep -c '\[FAILURE\]' "$WORK/out" || true)"
	# What the driver said on stderr, its most frequent lines first.
	sed -e 's/node[0-9]*/nodeN/g' -e 's/[0-9][0-9]* of [0-9]*/K of N/g' "$WORK/err" |
		sort | uniq -c | sort -rn | head -n 4 | sed 's/^ */STDERR /'

	# Where the skew goes: each node's own start time against the agreed
	# instant, in the order of the hosts (the order the instant is sent in).
	if [ -s "$WORK/doc.json" ]; then
		jq -r '.results[].tests[] | select(.test != "warmup") | .iterations[] | select(.start_at != null) |
			. as $it | [.nodes[] | if .ok then ((.start_epoch - $it.start_at) * 1000) else "-" end] |
			map(tostring) | join(" ")' "$WORK/doc.json" |
			awk '{
				n = 0; h = int(NF / 2); split("", a); split("", b); split("", c); na = nb = 0
				for (i = 1; i <= NF; i++) {
					if ($i == "-") continue
					c[++n] = $i + 0
					if (i <= h) a[++na] = $i + 0; else b[++nb] = $i + 0
				}
				if (n < 2) next
				isort(c, n); isort(a, na); isort(b, nb)
				printf "LATE %.3f %.3f %.3f %.4f %.3f %.3f\n", c[1], med(c, n), c[n],
					(c[n] - c[1]) / (n - 1), med(a, na), med(b, nb)
			}
			function med(v, k) { return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
			function isort(v, k, i, j, x) {
				for (i = 2; i <= k; i++) {
					x = v[i]
					for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
					v[j + 1] = x
				}
			}'
	fi

	# This machine alone: N atio (the nodes' randread of FILE_SIZE, paced,
	# no ssh, no driver) started as the driver starts them: each prepares
	# and says it is ready (--start-at -), then all are told one instant
	# START_MARGIN ahead, once per run; how late the first, the median
	# and the last began. The floor under the skew above: what this
	# machine's CPUs make of N processes waking at one instant.
	for ((k = 1; k <= BENCH_ITER; k++)); do
		fdir="$WORK/floor.$k"
		mkdir -p "$fdir"
		fpids=() ffds=()
		for ((i = 1; i <= n; i++)); do
			mkdir -p "$fdir/$i"
			mkfifo "$fdir/$i.in"
			"$ATIO" --read --rand -s 4K --cached -u "$BENCH_SIZE" --rate "$BENCH_RATE" -p "$BENCH_THREADS" -t 1 \
				--start-at - --json \
				-f "$fdir/$i" <"$fdir/$i.in" >"$fdir/$i.json" 2>"$fdir/$i.err" &
			fpids+=("$!")
			exec {fd}>"$fdir/$i.in"
			ffds+=("$fd")
		done
		for ((w = 0; w < 600; w++)); do
			[ "$(cat "$fdir"/*.err | grep -c 'ready')" -lt "$n" ] || break
			sleep 0.1
		done
		at=$(awk -v t="$EPOCHREALTIME" -v m="$BENCH_MARGIN" 'BEGIN { printf "%.6f", t + m }')
		for fd in "${ffds[@]}"; do
			printf '%s\n' "$at" >&"$fd" || true
			exec {fd}>&-
		done
		frc=0
		for p in "${fpids[@]}"; do wait "$p" || frc=1; done
		if [ "$frc" != 0 ] || grep -q 'passed' "$fdir"/*.err; then
			printf 'FLOOR_FAIL %s\n' "$(grep -v ready "$fdir"/*.err | cut -d : -f 2- | sort | uniq -c | sort -rn | head -n 1)"
			continue
		fi
		for ((i = 1; i <= n; i++)); do
			jq -r --arg at "$at" '(.start_epoch - ($at | tonumber)) * 1000' "$fdir/$i.json"
		done | sort -g | awk '{ v[NR] = $1 } END {
			if (NR < 2) exit
			printf "FLOOR %.3f %.3f %.3f\n", v[1], NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[NR] }'
	done

	# Peaks of the samples; the connections and sessions each node took.
	awk '{ for (i = 1; i <= NF; i++) if ($i > m[i]) m[i] = $i }
		END { printf "PEAK %d %d %d %d %d %d %d\n", m[1], m[2], m[3], m[4], m[5], m[6], m[7] }' "$WORK/samples"
	lmax=0 lmin=999999 smax=0 smin=999999
	for ((i = 1; i <= n; i++)); do
		l=$(($(node_logins "$i") - base_logins[i]))
		s=$(($(count_lines "$(node_log "$i")" 'Starting session:') - base_sessions[i]))
		[ "$l" -le "$lmax" ] || lmax=$l
		[ "$l" -ge "$lmin" ] || lmin=$l
		[ "$s" -le "$smax" ] || smax=$s
		[ "$s" -ge "$smin" ] || smin=$s
	done
	printf 'LOGINS %s %s %s %s\n' "$lmin" "$lmax" "$smin" "$smax"
	printf 'SSHD %s\n' "$(awk '/^(MaxStartups|MaxSessions)/ { printf "%s %s ", $1, $2 }' "$SSH_DIR/node1/sshd_config")"
	if [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP"
		for f in out err doc.json samples time strace; do
			[ ! -e "$WORK/$f" ] || cp "$WORK/$f" "$KEEP/$n.$f"
		done
	fi
	exit 0
fi

LOGIN=${LOGIN:-quick}
while [ $# -gt 0 ]; do
	case $1 in
	--login) [ $# -ge 2 ] || { echo "bench-parallel.sh: --login needs a profile" >&2; exit 2; }
		LOGIN=$2; shift 2 ;;
	--login=*) LOGIN=${1#--login=}; shift ;;
	--forks) export BENCH_FORKS=1; shift ;;
	--help) sed -n '3,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench-parallel.sh: $1: unknown option (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- 32 64 128
for n in "$@"; do
	if ! [[ $n =~ ^[1-9][0-9]*$ ]] || [ "$n" -gt 200 ]; then
		echo "bench-parallel.sh: '$n': not a number of nodes from 1 to 200" >&2
		exit 2
	fi
done
# The nodes' login: what the harness does for each profile.
harness_has() {
	grep -q "$1" "$SRC/tests/cli/sshd-harness.sh"
}
unset SSHD_NO_BASHRC SSHD_LOGIN_LOCK SSHD_LOGIN_SLEEP
case $LOGIN in
quick) export SSHD_NO_BASHRC=1 ;;
bashrc) ;;
lock:* | sleep:*)
	v=${LOGIN#*:} var=SSHD_LOGIN_LOCK
	[ "${LOGIN%%:*}" = lock ] || var=SSHD_LOGIN_SLEEP
	[[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
		{ echo "bench-parallel.sh: --login $LOGIN: $v is not a number of seconds" >&2; exit 2; }
	harness_has "$var" ||
		{ echo "bench-parallel.sh: --login $LOGIN: tests/cli/sshd-harness.sh has no $var" >&2; exit 2; }
	export SSHD_NO_BASHRC=1 "$var=$v" ;;
*) echo "bench-parallel.sh: --login '$LOGIN': not quick, bashrc, lock:SEC or sleep:SEC" >&2; exit 2 ;;
esac

export BENCH_TIME=${TIME:-5} BENCH_ITER=${ITERATIONS:-2} BENCH_SIZE=${FILE_SIZE:-16M}
export BENCH_TESTS=${TESTS:-randread} BENCH_RATE=${RATE:-200} BENCH_THREADS=${THREADS:-1}
export BENCH_MAX_SKEW=${MAX_SKEW:-1} BENCH_MARGIN=${START_MARGIN:-0.5} BENCH_READY=${READY_TIMEOUT:-120}
unset TIME ITERATIONS FILE_SIZE TESTS THREADS MAX_SKEW START_MARGIN READY_TIMEOUT

# N nodes and their sessions take several descriptors each on this
# machine: the soft limit up to the hard one.
nofile_was=$(ulimit -Sn)
ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true

# A cpuacct cgroup for the driver (v1, else v2), or none.
cg_parent=
for d in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpu,cpuacct; do
	[ -w "$d" ] && [ -e "$d/cpuacct.usage" ] && { cg_parent=$d; break; }
done
cg_make() {
	local d="$cg_parent/atio-bench.$$.$1"
	[ -n "$cg_parent" ] && mkdir "$d" 2>/dev/null && printf '%s\n' "$d"
}
# Leftover processes of the driver (none, normally) go back to the root
# of the hierarchy, then the cgroup goes.
cg_remove() {
	local p
	[ -n "$1" ] && [ -d "$1" ] || return 0
	while read -r p; do echo "$p" >"$cg_parent/cgroup.procs" 2>/dev/null || true; done <"$1/cgroup.procs"
	rmdir "$1" 2>/dev/null || true
}

# Print the median and the max of the numbers on stdin as "MEDIAN/MAX",
# with format $1.
median_max() {
	sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf f " / " f "\n", m, v[NR] }'
}

# Print the median of the numbers on stdin, with format $1.
median() {
	sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		printf f "\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%s runs of %s (THREADS=%s, TIME=%s, FILE_SIZE=%s, --rate %s per node, PAUSE=0) after a 1 s warm-up; login: %s; controller CPU: %s; ulimit -n %s (was %s), ulimit -u %s; %s CPUs, load %s\n' \
	"$BENCH_ITER" "$BENCH_TESTS" "$BENCH_THREADS" "$BENCH_TIME" "$BENCH_SIZE" "$BENCH_RATE" "$LOGIN" \
	"$([ -n "$cg_parent" ] && echo "cgroup (${cg_parent##*/})" || echo "/usr/bin/time (waited-for children only)")" \
	"$(ulimit -Sn)" "$nofile_was" "$(ulimit -Su)" "$(nproc)" "$(cut -d ' ' -f 1-3 /proc/loadavg)"

cost="| nodes | preparation (s) | beyond TIME per run, median / max (s) | controller CPU per node per run, median / max (ms) | start skew, median / max (ms) | sum / caps, min / max | FAILURE (exit) | NOT CONCURRENT |
|---|---|---|---|---|---|---|---|"
start="| nodes | first node late (ms) | median node late (ms) | last node late (ms) | skew per node (ms) | first half / second half of the hosts, median late (ms) | this machine alone: N atio to one instant, first / median / last late (ms) | last node late beyond the machine's last (ms) |
|---|---|---|---|---|---|---|---|"
limits="| nodes | sshd_start (s) | processes, peak (per node) | open files, peak (per node) | driver shell, max files | ssh processes / their files, peak | resident, sum of RSS, peak (MB per node) | logins / sessions per node | CPU: preparation per node; wall, whole run (waited) (s) |
|---|---|---|---|---|---|---|---|---|"
notes=""
for n in "$@"; do
	cg=$(cg_make "$n") || cg=
	r=$(BENCH_ONE=$n BENCH_CG=$cg bash "$0" 2>&1) || true
	cg_remove "$cg"
	if ! grep -q '^RC ' <<<"$r"; then
		notes+="$n nodes: no run: $(tail -n 3 <<<"$r" | tr '\n' ' ')"$'\n'
		continue
	fi
	runs=$(grep -c '^RUN ' <<<"$r" || true)
	prep=$(awk '/^PREP / { printf "%.1f", $2 }' <<<"$r")
	beyond=$(awk '/^RUN / { print $2 }' <<<"$r" | median_max %.2f)
	cpu=$(awk -v n="$n" '/^RUN / && $3 != "-" { print $3 / 1e6 / n }' <<<"$r" | median_max %.1f)
	skew=$(awk '/^SKEW / { print $2 * 1000 }' <<<"$r" | median_max %.1f)
	share=$(awk -v n="$n" -v rate="$BENCH_RATE" '/^RUN / {
		s = $5 / (n * rate) * 100; if (min == "" || s < min) min = s; if (s > max) max = s }
		END { if (min == "") print "-"; else printf "%.2f%% / %.2f%%\n", min, max }' <<<"$r")
	fail=$(awk '/^FAIL / { print $2 }' <<<"$r")
	rc=$(awk '/^RC / { print $2 }' <<<"$r")
	nc=$(awk '/^RUN / { s += $4 } END { print s + 0 }' <<<"$r")
	ncw=$(awk '/^WARM / { s += $4 } END { print s ? "yes" : "no" }' <<<"$r")
	cost+=$'\n'"| $n | ${prep:--} | $beyond | $cpu | $skew | $share | ${fail:--} ($rc) | $nc of $runs, warm-up $ncw |"
	late=""
	for k in 2 3 4 5; do
		late+=" $(awk -v k="$k" '/^LATE / { print $k }' <<<"$r" | median %.1f) |"
	done
	late+=" $(awk '/^LATE / { print $6 }' <<<"$r" | median %.1f) / $(awk '/^LATE / { print $7 }' <<<"$r" | median %.1f) |"
	floor="$(awk '/^FLOOR / { print $2 }' <<<"$r" | median %.1f) / $(awk '/^FLOOR / { print $3 }' <<<"$r" | median %.1f) / $(awk '/^FLOOR / { print $4 }' <<<"$r" | median %.1f)"
	# The driver's own share of the lateness: its last node against the
	# last of the same number of processes started here without it.
	beyond_floor=$(awk '/^LATE / { print $4 }' <<<"$r" | median %.3f)
	fl=$(awk '/^FLOOR / { print $4 }' <<<"$r" | median %.3f)
	if [ "$beyond_floor" != - ] && [ "$fl" != - ]; then
		beyond_floor=$(awk -v a="$beyond_floor" -v b="$fl" 'BEGIN { printf "%.1f", a - b }')
	else
		beyond_floor=-
	fi
	start+=$'\n'"| $n |$late $floor | $beyond_floor |"
	while IFS= read -r l; do
		notes+="$n nodes: the machine-alone start failed: $l"$'\n'
	done < <(sed -n 's/^FLOOR_FAIL //p' <<<"$r")
	read -r _ ptot pprocs _ bmax sshn sshf prss <<<"$(grep "^PEAK " <<<"$r" || echo "PEAK - - - - - - -")"
	read -r _ lmin lmax smin smax <<<"$(grep '^LOGINS ' <<<"$r" || echo "LOGINS - - - -")"
	pcpu=$(awk -v n="$n" '/^PREP / && $3 != "-" { printf "%.0f ms", $3 / 1e6 / n }' <<<"$r")
	tot=$(awk '/^TOTAL / { printf "%s s, %s (%s)", $2, ($3 == "-" ? "-" : sprintf("%.1f", $3 / 1e9)), sprintf("%.1f", $4 / 1e9) }' <<<"$r")
	limits+=$'\n'"| $n | $(awk '/^NODES_UP / { print $2 }' <<<"$r") | $pprocs ($(awk -v a="$pprocs" -v n="$n" 'BEGIN { printf "%.1f", a / n }')) | $ptot ($(awk -v a="$ptot" -v n="$n" 'BEGIN { printf "%.1f", a / n }')) | $bmax | $sshn / $sshf | $prss ($(awk -v a="$prss" -v n="$n" 'BEGIN { printf "%.1f", a / n }')) | $lmin-$lmax / $smin-$smax | ${pcpu:--}; $tot |"
	notes+="$n nodes: $(grep '^SSHD ' <<<"$r" | cut -d ' ' -f 2-)"$'\n'
	if [ "${BENCH_FORKS:-0}" = 1 ]; then
		notes+="$n nodes: per node, processes started / programs run: preparation $(awk -v n="$n" '/^PREP / { printf "%.1f / %.1f", $4 / n, $5 / n }' <<<"$r"), a run $(awk -v n="$n" '/^RUN / { print $6 / n }' <<<"$r" | median_max %.1f) / $(awk -v n="$n" '/^RUN / { print $7 / n }' <<<"$r" | median_max %.1f) (median / max), under strace"$'\n'
	fi
	while IFS= read -r l; do
		notes+="$n nodes: stderr: $l"$'\n'
	done < <(sed -n 's/^STDERR //p' <<<"$r")
done
printf '\nCost\n%s\n\nWhere the start skew goes (the nodes'"'"' own start times, -o)\n%s\n\nLimits\n%s\n\n%s' \
	"$cost" "$start" "$limits" "$notes"
