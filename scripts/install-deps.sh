#!/bin/sh
# Install what building and testing atio needs, on Debian/Ubuntu (apt-get)
# or RHEL/Rocky/Fedora (dnf). Runs as root, or through sudo when it is not.
#
# Besides the compiler and the libraries, every program the tests call
# (tests/cli/*.sh, tests/meson.build), so that the README's test command
# passes on a fresh system:
#   cksum md5sum sha256sum od timeout stat  coreutils
#   cmp diff                                diffutils
#   gzip xz zstd                            test-dataset, test-sectors, test-package
#   ps pgrep free                           procps
#   jq python3                              read the JSON documents
#   strace                                  test-engine, test-dsync
#   getfattr                                attr: test-safety (atio's mark)
#   mkfs.ext4 filefrag                      e2fsprogs: ext4 on loop devices, extents
#   losetup mount umount unshare nsenter    util-linux, mount: loop devices,
#   wipefs blockdev mkswap fsfreeze         namespaces, a swap signature,
#   taskset fallocate findmnt setsid        a frozen filesystem, one CPU
#   dmsetup                                 test-blockdev (a device-mapper device)
#   mkfs.xfs                                test-blockdev (XFS unwritten extents)
#   sshd ssh scp ssh-keygen ss              the atio-parallel.sh tests' nodes
#   rpmbuild rpm2cpio cpio readelf git tar  test-package
#   chromium                                test-report (the pages in a browser)
#   (and shellcheck, for the lint suite)
# A test whose tool is missing still skips what needs it, saying why.
set -eu

die() {
	printf 'install-deps.sh: %s\n' "$*" >&2
	exit 1
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "run as root or install sudo: need to run $*"
	fi
}

if command -v apt-get >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get update -q
	as_root apt-get install -y -q --no-install-recommends \
		gcc libc6-dev meson ninja-build pkg-config \
		libssl-dev liburing-dev libaio-dev libcmocka-dev libjansson-dev libblkid-dev \
		coreutils diffutils findutils gzip xz-utils zstd procps jq python3 strace shellcheck \
		attr e2fsprogs util-linux mount dmsetup xfsprogs \
		openssh-server openssh-client iproute2 \
		git tar rpm rpm2cpio cpio binutils bash-completion chromium
elif command -v dnf >/dev/null 2>&1; then
	# meson, liburing-devel and libcmocka-devel live in CRB on RHEL/Rocky.
	if [ -r /etc/os-release ] && grep -qiE '^ID(_LIKE)?=.*(rhel|centos)' /etc/os-release; then
		as_root dnf install -y dnf-plugins-core epel-release || true
		as_root dnf config-manager --set-enabled crb || true
	fi
	as_root dnf install -y \
		gcc glibc-devel libasan libubsan meson ninja-build pkgconf-pkg-config \
		openssl-devel liburing-devel libaio-devel libcmocka-devel jansson-devel libblkid-devel \
		coreutils diffutils findutils gawk gzip xz zstd procps-ng jq python3 strace \
		attr e2fsprogs util-linux device-mapper xfsprogs \
		openssh-server openssh-clients iproute \
		git tar rpm-build rpm cpio binutils chromium
	as_root dnf install -y ShellCheck || true
	# bash-completion.pc (atio.spec's BuildRequires) is in bash-completion-devel on Fedora.
	as_root dnf install -y bash-completion 'pkgconfig(bash-completion)' || as_root dnf install -y bash-completion || true
else
	die "neither apt-get nor dnf found: install meson, ninja, pkg-config, OpenSSL, liburing, libaio, jansson and cmocka development packages by hand"
fi
