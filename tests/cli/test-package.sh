#!/bin/bash
# The RPM package, built as a packager would: a `meson dist` tarball of the
# work tree as it would be committed (a snapshot in a git repository of its
# own, so that uncommitted work is in it and the project's repository is
# left alone), then `rpmbuild -ta` on it, which finds atio.spec inside,
# builds, installs into its build root and runs the unit tests (%check).
# Then: the spec in the tarball has meson's project version; the package
# has that version, exactly the expected files (programs, man pages, bash
# completions, README as doc, COPYING as licence), the driver's
# requirements and, when rpm's dependency generator ran, the libraries atio
# links; the SRPM has the BuildRequires; the packaged atio runs, and the
# packaged completions complete. Also `meson install` of the build under
# test puts the completions under its own prefix. Where rpmbuild cannot
# work (not installed), the test is skipped (exit 77) with the reason.
# Systems whose rpm database does not describe them (Debian) build with
# --nodeps.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(dirname "$ATIO")

for tool in rpmbuild rpm meson git tar xz; do
	command -v "$tool" >/dev/null 2>&1 ||
		skip "$tool is not installed (rpmbuild: package rpm on Debian, rpm-build on Fedora and RHEL)"
done
git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "$SRC is not a git work tree: meson dist needs one"

# meson's project version, from meson.build: the one place it is written.
VERSION=$(meson introspect --projectinfo "$SRC/meson.build" 2>/dev/null |
	sed -n 's/.*"version": *"\([^"]*\)".*/\1/p')
[ -n "$VERSION" ] || die "meson introspect --projectinfo $SRC/meson.build gave no version"
echo "# meson's project version: $VERSION"

# Timed steps, each limited so that a hang cannot hold the test.
step() {
	local what=$1 limit=$2 t0

	shift 2
	t0=$(now_ms)
	if timeout -k 10 "$limit" "$@" >"$WORK/step.log" 2>&1; then
		echo "# $what: $(($(now_ms) - t0)) ms"
		return 0
	fi
	not_ok "$what" "failed after $(($(now_ms) - t0)) ms: $*"
	tail -n 30 "$WORK/step.log" | cut -c 1-200 | sed 's/^/#   | /'
	return 1
}

# --- The snapshot: every file git would commit (tracked and new, not the
# ignored ones, nor a build directory that .gitignore misses), committed in
# a repository of its own.
SNAP=$WORK/src
mkdir "$SNAP"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		[ -e "$f" ] || continue
		case $f in */*) [ ! -d "${f%%/*}/meson-private" ] || continue ;; esac
		printf '%s\0' "$f"
	done |
	tar --null -T - -cf -) | tar -C "$SNAP" -xf - || die "cannot copy the work tree"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
(cd "$SNAP" && git init -q && git add -A &&
	git -c user.name=atio-test -c user.email=atio-test@example.invalid \
		-c commit.gpgsign=false commit -q -m snapshot) >"$WORK/git.log" 2>&1 ||
	die "cannot commit the snapshot: $(tail -n 3 "$WORK/git.log")"

# --- The tarball.
step "meson setup of the snapshot" 300 meson setup "$WORK/build" "$SNAP" || finish
step "meson dist" 300 meson dist -C "$WORK/build" --no-tests --formats xztar || finish
TARBALL=$WORK/build/meson-dist/atio-$VERSION.tar.xz
if [ -f "$TARBALL" ]; then
	ok "meson dist made atio-$VERSION.tar.xz"
else
	not_ok "meson dist made atio-$VERSION.tar.xz" "$(ls "$WORK/build/meson-dist" 2>&1)"
	finish
fi
tar -tJf "$TARBALL" >"$WORK/tarball.list"
if grep -qx "atio-$VERSION/atio.spec" "$WORK/tarball.list" &&
	[ "$(grep -c '\.spec$' "$WORK/tarball.list")" -eq 1 ]; then
	ok "the tarball has one spec, atio-$VERSION/atio.spec"
else
	not_ok "the tarball has one spec, atio-$VERSION/atio.spec" \
		"spec files: $(grep '\.spec$' "$WORK/tarball.list" | tr '\n' ' ')"
fi
tar -xJOf "$TARBALL" "atio-$VERSION/atio.spec" >"$WORK/atio.spec" 2>/dev/null || true
spec_version=$(sed -n 's/^Version:[[:space:]]*//p' "$WORK/atio.spec")
if [ "$spec_version" = "$VERSION" ]; then
	ok "its atio.spec says Version: $VERSION"
else
	not_ok "its atio.spec says Version: $VERSION" "Version: ${spec_version:-(none)}"
fi
if grep -qE '^Version:[[:space:]]*@VERSION@$' "$SRC/atio.spec.in"; then
	ok "atio.spec.in takes the version from meson (Version: @VERSION@)"
else
	not_ok "atio.spec.in takes the version from meson (Version: @VERSION@)" \
		"$(grep '^Version:' "$SRC/atio.spec.in" || echo 'no Version: line')"
fi

# --- The RPM.
NODEPS=()
if ! rpm -q glibc >/dev/null 2>&1; then
	NODEPS=(--nodeps)
	echo "# rpm's database does not describe this system: rpmbuild --nodeps"
fi
TOP=$WORK/rpmbuild
mkdir -p "$WORK/tmp"
if ! step "rpmbuild -ta ${NODEPS[*]}" 600 rpmbuild -ta "${NODEPS[@]}" \
	--define "_topdir $TOP" --define "_tmppath $WORK/tmp" "$TARBALL"; then
	finish
fi
cp "$WORK/step.log" "$WORK/rpmbuild.log"
RPM=$(find "$TOP/RPMS" -name "atio-$VERSION-*.rpm" ! -name '*debug*' | head -n 1)
SRPM=$(find "$TOP/SRPMS" -name "atio-$VERSION-*.src.rpm" | head -n 1)
if [ -n "$RPM" ] && [ -n "$SRPM" ]; then
	ok "rpmbuild made $(basename "$RPM") and $(basename "$SRPM")"
else
	not_ok "rpmbuild made the package and the source package" \
		"$(cd "$TOP" && find RPMS SRPMS -type f | tr '\n' ' ')"
	finish
fi

# %check ran the unit tests, and only them.
if grep -qE '^ *[0-9]+/[0-9]+ atio:unit / ' "$WORK/rpmbuild.log" &&
	! grep -qE '^ *[0-9]+/[0-9]+ atio:(cli|lint) / ' "$WORK/rpmbuild.log"; then
	ok "%check ran the unit tests ($(grep -cE '^ *[0-9]+/[0-9]+ atio:unit / ' "$WORK/rpmbuild.log")), no other suite"
else
	not_ok "%check ran the unit tests, no other suite" \
		"$(grep -E '^ *[0-9]+/[0-9]+ atio:' "$WORK/rpmbuild.log" | head -n 4)"
fi

read -r name version <<<"$(rpm -qp --qf '%{NAME} %{VERSION}\n' "$RPM" 2>/dev/null)"
if [ "$name" = atio ] && [ "$version" = "$VERSION" ]; then
	ok "the package is atio $VERSION, meson's project version"
else
	not_ok "the package is atio $VERSION, meson's project version" "it is: $name $version"
fi

# The files: each expected one, with its mode, and nothing else (the
# directories of the doc and the licence, and rpm's build-id links aside).
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$RPM" >"$WORK/files" 2>/dev/null
# expect_file WHAT ERE: one line of the file list matches ERE.
expect_file() {
	if [ "$(count_lines "$WORK/files" "$2")" -eq 1 ]; then
		ok "the package has $1"
	else
		not_ok "the package has $1" "no single line matches $2"
		sed 's/^/#   | /' "$WORK/files"
	fi
}
expect_file "/usr/bin/atio, executable" '^-rwxr-xr-x /usr/bin/atio$'
expect_file "/usr/bin/atio-parallel.sh, executable" '^-rwxr-xr-x /usr/bin/atio-parallel.sh$'
expect_file "the man page atio.1" '^-rw-r--r-- /usr/share/man/man1/atio\.1(\.[a-z0-9]+)?$'
expect_file "the man page atio-parallel.sh.1" '^-rw-r--r-- /usr/share/man/man1/atio-parallel\.sh\.1(\.[a-z0-9]+)?$'
expect_file "the bash completion of atio" '^-rw-r--r-- /usr/share/bash-completion/completions/atio$'
expect_file "the bash completion of atio-parallel.sh" \
	'^-rw-r--r-- /usr/share/bash-completion/completions/atio-parallel\.sh$'
# The driver's parts, sourced by it: every file of scripts/atio-parallel/,
# not executable, and no other.
for part in "$SRC"/scripts/atio-parallel/*.sh; do
	part=${part##*/}
	expect_file "the driver's part /usr/share/atio/parallel/$part" \
		"^-rw-r--r-- /usr/share/atio/parallel/${part//./\\.}\$"
done
expect_file "README.md in /usr/share/doc/atio" '^-rw-r--r-- /usr/share/doc/atio/README\.md$'
for guide in "$SRC"/doc/*.md; do
	guide=${guide##*/}
	expect_file "the guide $guide in /usr/share/doc/atio/doc" \
		"^-rw-r--r-- /usr/share/doc/atio/doc/${guide//./\\.}\$"
done
expect_file "COPYING in the licence directory" '^-rw-r--r-- /usr/share/licenses/atio[^/]*/COPYING$'
others=$(grep -vE ' /usr/(bin/atio|bin/atio-parallel\.sh|share/man/man1/atio(-parallel\.sh)?\.1(\.[a-z0-9]+)?|share/bash-completion/completions/atio(-parallel\.sh)?|share/atio|share/atio/parallel|share/atio/parallel/[a-z]+\.sh|share/doc/atio|share/doc/atio/README\.md|share/doc/atio/doc|share/doc/atio/doc/[a-z-]+\.(md|png)|share/licenses/atio[^/]*|share/licenses/atio[^/]*/COPYING|lib/\.build-id(/.*)?)$' \
	"$WORK/files" || true)
if [ -z "$others" ]; then
	ok "the package has no other file"
else
	not_ok "the package has no other file" "$others"
fi
if rpm -qpd "$RPM" 2>/dev/null | grep -qx /usr/share/doc/atio/README.md &&
	rpm -qpd "$RPM" 2>/dev/null | grep -qx /usr/share/doc/atio/doc/cluster.md &&
	rpm -qpL "$RPM" 2>/dev/null | grep -qE '^/usr/share/licenses/atio[^/]*/COPYING$'; then
	ok "README.md and the guides are marked %doc, COPYING %license"
else
	not_ok "README.md and the guides are marked %doc, COPYING %license" \
		"doc: $(rpm -qpd "$RPM" 2>&1 | tr '\n' ' ')" "license: $(rpm -qpL "$RPM" 2>&1 | tr '\n' ' ')"
fi

# The requirements: the driver's, always; the libraries atio links (the
# NEEDED entries of the packaged binary), as rpm's ELF dependency generator
# names them, when it ran.
rpm -qp --requires "$RPM" 2>/dev/null | sed 's/ .*//' >"$WORK/requires"
# The driver reads the nodes' results with atio merge: no jq.
if grep -qx -- jq "$WORK/requires"; then
	not_ok "the package does not require jq" "requires: $(tr '\n' ' ' <"$WORK/requires")"
else
	ok "the package does not require jq"
fi
for req in openssh-clients util-linux bash gawk; do
	if grep -qx -- "$req" "$WORK/requires"; then
		ok "the package requires $req"
	else
		not_ok "the package requires $req" "requires: $(tr '\n' ' ' <"$WORK/requires")"
	fi
done
mkdir "$WORK/root"
extracted=0
if command -v rpm2cpio >/dev/null && command -v cpio >/dev/null; then
	(cd "$WORK/root" && rpm2cpio "$RPM" | cpio -idm --quiet) 2>/dev/null && extracted=1
elif command -v rpm2archive >/dev/null; then
	# rpm2archive writes FILE.tgz beside FILE.
	cp "$RPM" "$WORK/pkg.rpm"
	rpm2archive "$WORK/pkg.rpm" >/dev/null 2>&1 &&
		tar -C "$WORK/root" -xzf "$WORK/pkg.rpm.tgz" && extracted=1
fi
if [ "$extracted" = 1 ] && command -v readelf >/dev/null; then
	readelf -d "$WORK/root/usr/bin/atio" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$WORK/needed"
	if grep -q '\.so\.[0-9]*()' "$WORK/requires"; then
		for lib in libcrypto liburing libaio libblkid; do
			so=$(grep "^$lib\.so\." "$WORK/needed" | head -n 1)
			if [ -z "$so" ]; then
				not_ok "the packaged atio links $lib" "NEEDED: $(tr '\n' ' ' <"$WORK/needed")"
			elif grep -q "^$so()" "$WORK/requires"; then
				ok "the package requires $so, which atio links"
			else
				not_ok "the package requires $so, which atio links" \
					"requires: $(tr '\n' ' ' <"$WORK/requires")"
			fi
		done
	else
		skip_check "the package requires the libraries atio links" \
			"rpm's ELF dependency generator did not run here"
	fi
else
	skip_check "the package requires the libraries atio links" \
		"cannot unpack the package here (rpm2cpio and cpio, or rpm2archive, and readelf)"
fi

# The SRPM's BuildRequires name what RHEL, Rocky and Fedora call them.
rpm -qp --requires "$SRPM" 2>/dev/null | sed 's/ .*//' >"$WORK/buildrequires"
for req in gcc meson ninja-build 'pkgconfig(libcrypto)' 'pkgconfig(liburing)' libaio-devel 'pkgconfig(blkid)' \
	'pkgconfig(cmocka)' 'pkgconfig(bash-completion)'; do
	if grep -qxF -- "$req" "$WORK/buildrequires"; then
		ok "the source package build-requires $req"
	else
		not_ok "the source package build-requires $req" \
			"build-requires: $(tr '\n' ' ' <"$WORK/buildrequires")"
	fi
done

# driver_parts WHOSE DRIVER PARTS: the installed driver DRIVER sources its
# parts from directory PARTS of its own install tree, not from the source
# tree: PARTS has every part of scripts/atio-parallel/; the driver, called
# by its path, prints its usage and sources every part from PARTS (bash -x);
# and without one of them it stops, naming the missing file.
driver_parts() {
	local whose=$1 driver=$2 parts=$3 part missing=() sourced

	for part in "$SRC"/scripts/atio-parallel/*.sh; do
		cmp -s "$part" "$parts/${part##*/}" || missing+=("${part##*/}")
	done
	if [ "${#missing[@]}" -eq 0 ]; then
		ok "$whose driver parts are in $parts"
	else
		not_ok "$whose driver parts are in $parts" "missing or not the source's: ${missing[*]}"
	fi
	sourced=$(PS4='+ ' bash -x "$driver" --help 2>&1 >/dev/null | sed -n 's/^+ \. //p')
	if [ "$(printf '%s\n' "$sourced" | grep -c .)" -eq "$(find "$SRC/scripts/atio-parallel" -name '*.sh' | wc -l)" ] &&
		! printf '%s\n' "$sourced" | grep -v -e "^$(dirname "$driver")/" -e "^$parts/" >/dev/null &&
		! printf '%s\n' "$sourced" | grep -qF "$SRC/"; then
		ok "$whose atio-parallel.sh sources its parts from its own install tree"
	else
		not_ok "$whose atio-parallel.sh sources its parts from its own install tree" "sourced: $(printf '%s\n' "$sourced" | tr '\n' ' ')"
	fi
	mv "$parts/run.sh" "$parts/run.sh.away"
	if "$driver" --help >"$WORK/noparts.out" 2>&1; then
		not_ok "$whose atio-parallel.sh without its part run.sh fails" "it ran: $(head -n 2 "$WORK/noparts.out")"
	elif grep -q "cannot read .*/run\.sh, a part of this script" "$WORK/noparts.out"; then
		ok "$whose atio-parallel.sh without its part run.sh fails, naming it"
	else
		not_ok "$whose atio-parallel.sh without its part run.sh fails, naming it" "$(head -n 2 "$WORK/noparts.out")"
	fi
	mv "$parts/run.sh.away" "$parts/run.sh"
}

# --- What the package holds works: atio runs and says its version, the
# driver its help, and the completions complete.
if [ "$extracted" = 1 ]; then
	v=$("$WORK/root/usr/bin/atio" --version 2>&1 | head -n 1) || true
	if [ "$v" = "atio $VERSION" ]; then
		ok "the packaged atio runs: --version says atio $VERSION"
	else
		not_ok "the packaged atio runs: --version says atio $VERSION" "it says: $v"
	fi
	if "$WORK/root/usr/bin/atio-parallel.sh" --help 2>&1 | grep -q '^Usage: atio-parallel.sh'; then
		ok "the packaged atio-parallel.sh --help prints its usage"
	else
		not_ok "the packaged atio-parallel.sh --help prints its usage"
	fi
	driver_parts "packaged" "$WORK/root/usr/bin/atio-parallel.sh" "$WORK/root/usr/share/atio/parallel"
else
	skip_check "the packaged atio and atio-parallel.sh run" "cannot unpack the package here"
fi

BASH_COMPLETION=/usr/share/bash-completion/bash_completion
COMPL=$WORK/root/usr/share/bash-completion/completions
if [ "$extracted" = 1 ] && [ -r "$BASH_COMPLETION" ]; then
	mkdir -p "$WORK/home/.ssh"
	printf '%s\n' \
		'node1.example,10.0.0.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAA' \
		'[node2.example]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAA' \
		'|1|aGFzaGVk|aGFzaGVk ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAA' \
		>"$WORK/home/.ssh/known_hosts"
	# complete FILE WORD...: what bash completes for the last WORD of the
	# command line WORD... (an empty last WORD: a new word), one a line.
	complete_line() {
		local file=$1

		shift
		HOME=$WORK/home PATH="$WORK/root/usr/bin:$PATH" bash -c '
			. "$1" >/dev/null 2>&1 || exit 3
			. "$2" || exit 4
			shift 2
			COMP_WORDS=("$@")
			COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"
			COMP_POINT=${#COMP_LINE}
			fn=$(complete -p "$1" 2>/dev/null | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
			[ -n "$fn" ] || exit 5
			"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
			printf "%s\n" "${COMPREPLY[@]}"
		' bash "$BASH_COMPLETION" "$file" "$@" 2>&1 | LC_ALL=C sort
	}
	# expect_completion WHAT EXPECTED FILE WORD...: the completions, sorted
	# and joined by ", ", are EXPECTED.
	expect_completion() {
		local what=$1 want=$2 got

		shift 2
		got=$(complete_line "$@" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/, /g')
		if [ "$got" = "$want" ]; then
			ok "completion: $what"
		else
			not_ok "completion: $what" "expected: $want" "got: $got"
		fi
	}
	engines=$("$WORK/root/usr/bin/atio" --help | sed -n 's/.*(this atio has \([a-z_|]*\)).*/\1/p' |
		tr '|' '\n' | LC_ALL=C sort | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/, /g')
	expect_completion "atio --eng: --engine" "--engine" "$COMPL/atio" atio --eng
	expect_completion "atio --engine: the engines this atio has" "$engines" \
		"$COMPL/atio" atio --engine ''
	expect_completion "atio --un: --uncached" "--uncached" "$COMPL/atio" atio --un
	expect_completion "atio-parallel.sh --tests r: the random tests" "randfsync, randread, randrw, randwrite" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh --tests r
	expect_completion "atio-parallel.sh --tests 'seqread s': the last word, a test not named yet" "seqread seqwrite" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh --tests 'seqread s'
	expect_completion "atio-parallel.sh --wa: --wait-factor, --warmup-time" "--wait-factor, --warmup-time" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh --wa
	expect_completion "atio-parallel.sh --re: --ready-timeout, --remote-bin, --replace" "--ready-timeout, --remote-bin, --replace" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh --re
	expect_completion "atio-parallel.sh HOST: the hosts of known_hosts, not the hashed one" \
		"10.0.0.1, node1.example, node2.example" "$COMPL/atio-parallel.sh" atio-parallel.sh -d /mnt ''
	expect_completion "atio-parallel.sh root@n: user@host" "root@node1.example, root@node2.example" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh root@n
	# Every option the driver's --help names is completed.
	opts=$("$WORK/root/usr/bin/atio-parallel.sh" --help | grep -oE '^  (-[a-z]+|--[a-z-]+)' |
		tr -d ' ' | LC_ALL=C sort | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n/, /g')
	expect_completion "atio-parallel.sh -: every option of its --help" "$opts" \
		"$COMPL/atio-parallel.sh" atio-parallel.sh -
else
	skip_check "the packaged completions complete" "no $BASH_COMPLETION (package bash-completion)"
fi

# --- meson install of the build under test: the completions go under its
# own prefix (bash-completion's directory is moved there), and the docs to
# its doc directory.
prefix=$(meson introspect --buildoptions "$BUILD" 2>/dev/null |
	sed -n 's/.*"name": *"prefix", *"value": *"\([^"]*\)".*/\1/p')
if [ -z "$prefix" ] && command -v jq >/dev/null; then
	prefix=$(meson introspect --buildoptions "$BUILD" | jq -r '.[] | select(.name == "prefix") | .value')
fi
if [ -n "$prefix" ] && step "meson install --destdir of the build under test" 300 \
	meson install -C "$BUILD" --no-rebuild --destdir "$WORK/dest"; then
	for f in bin/atio bin/atio-parallel.sh share/bash-completion/completions/atio \
		share/bash-completion/completions/atio-parallel.sh share/doc/atio/README.md \
		share/doc/atio/doc/cluster.md \
		share/doc/atio/COPYING; do
		if [ -f "$WORK/dest$prefix/$f" ]; then
			ok "meson install: $prefix/$f"
		else
			not_ok "meson install: $prefix/$f" "installed: $(cd "$WORK/dest" && find . -type f | tr '\n' ' ')"
		fi
	done
	bindir=$(meson introspect --buildoptions "$BUILD" 2>/dev/null |
		sed -n 's/.*"name": *"bindir", *"value": *"\([^"]*\)".*/\1/p')
	datadir=$(meson introspect --buildoptions "$BUILD" 2>/dev/null |
		sed -n 's/.*"name": *"datadir", *"value": *"\([^"]*\)".*/\1/p')
	case $bindir in /*) ;; *) bindir=$prefix/${bindir:-bin} ;; esac
	case $datadir in /*) ;; *) datadir=$prefix/${datadir:-share} ;; esac
	driver_parts "meson install's" "$WORK/dest$bindir/atio-parallel.sh" "$WORK/dest$datadir/atio/parallel"
elif [ -z "$prefix" ]; then
	not_ok "meson install of the build under test" "no prefix from meson introspect --buildoptions $BUILD"
fi

finish
