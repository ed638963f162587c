# shellcheck shell=bash disable=SC2034 # words, cword: set by _init_completion
# bash completion for atio-parallel.sh                        -*- shell-script -*-
# Installed into bash-completion's completions directory (meson install);
# bash-completion loads it the first time atio-parallel.sh is completed.

# Host names from the user's and the system's known_hosts (hashed entries
# cannot be read back; [host]:port gives host) and the Host lines of the
# user's ssh config (patterns left out), one a line.
_atio_parallel_hosts()
{
	local f
	for f in ~/.ssh/known_hosts /etc/ssh/ssh_known_hosts; do
		[[ -r $f ]] || continue
		awk '$1 !~ /^[|#@]/ { n = split($1, h, ","); for (i = 1; i <= n; i++) {
			x = h[i]; sub(/^\[/, "", x); sub(/\]:[0-9]+$/, "", x); print x } }' "$f"
	done
	[[ -r ~/.ssh/config ]] &&
		awk 'tolower($1) == "host" { for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) print $i }' ~/.ssh/config
}

_atio_parallel()
{
	local cur prev words cword split tests="seqread seqwrite randread randwrite randfsync randrw expand dsyncwrite check mdcreate mdstat mdread mdrename mddelete"
	local user="" host head="" last t left=""
	_init_completion -s || return
	host=$cur last=$cur

	case $prev in
	--tests)
		# Several tests go in one argument, separated by spaces: complete
		# its last word with the tests not named yet.
		if [[ $cur == *' '* ]]; then
			head=${cur% *}' ' last=${cur##* }
		fi
		for t in $tests; do
			[[ " ${head#[\"\']} " == *" $t "* ]] || left+=" $t"
		done
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$left" -- "$last")
		return
		;;
	-h | -o | -b)
		_filedir
		return
		;;
	-d | --remote-bin)
		_filedir -d
		return
		;;
	-s)
		mapfile -t COMPREPLY < <(compgen -W '4K 8K 16K 64K 1M' -- "$cur")
		return
		;;
	-u)
		mapfile -t COMPREPLY < <(compgen -W 'auto 1G 4G 16G 64G' -- "$cur")
		return
		;;
	-p)
		mapfile -t COMPREPLY < <(compgen -W 'auto 1 4 16' -- "$cur")
		return
		;;
	--profile)
		mapfile -t COMPREPLY < <(compgen -W 'at_io vhi' -- "$cur")
		return
		;;
	--node-dir)
		mapfile -t COMPREPLY < <(compgen -W 'subdir given' -- "$cur")
		return
		;;
	--sweep)
		mapfile -t COMPREPLY < <(compgen -W 'iodepth=1-64 s=4K,16K,64K rate= mix=' -- "$cur")
		return
		;;
	--knee | --target | --stop-latency)
		return
		;;
	-t | -i | --pause | --atio-opts | --ssh-opts | --warmup-time | --start-margin | --overrun | \
		--ready-timeout | --max-skew | -f | --login-timeout | --wait-factor | \
		--md-files | --md-file-size | --md-dirs)
		return
		;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W '-d -t -u -p -i -s --tests --pause
			--remote-bin -b --atio-opts --ssh-opts --warmup-time --start-margin
			--overrun --ready-timeout --max-skew -f --login-timeout --wait-factor
			--profile --node-dir -h -o --csv --replace --dry-run -vv --help
			--md-files --md-file-size --md-dirs --md-neighbour --md-shared
			--sweep --curve --knee --target --stop-latency' -- "$cur")
		return
	fi
	# A host, or user@host.
	if [[ $cur == *@* ]]; then
		user=${cur%%@*}@ host=${cur#*@}
	fi
	mapfile -t COMPREPLY < <(compgen -P "$user" -W "$(_atio_parallel_hosts 2>/dev/null | sort -u)" -- "$host")
} &&
	complete -F _atio_parallel atio-parallel.sh

# ex: filetype=sh
