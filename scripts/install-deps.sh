#!/bin/sh
# Install what building and testing atio needs, on Debian/Ubuntu (apt-get)
# or RHEL/Rocky/Fedora (dnf). Runs as root, or through sudo when it is not.
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
		gzip shellcheck procps jq strace \
		openssh-server iproute2 \
		git rpm bash-completion xz-utils python3 chromium
elif command -v dnf >/dev/null 2>&1; then
	# meson, liburing-devel and libcmocka-devel live in CRB on RHEL/Rocky.
	if [ -r /etc/os-release ] && grep -qiE '^ID(_LIKE)?=.*(rhel|centos)' /etc/os-release; then
		as_root dnf install -y dnf-plugins-core epel-release || true
		as_root dnf config-manager --set-enabled crb || true
	fi
	as_root dnf install -y \
		gcc glibc-devel libasan libubsan meson ninja-build pkgconf-pkg-config \
		openssl-devel liburing-devel libaio-devel libcmocka-devel jansson-devel libblkid-devel \
		gzip procps-ng jq strace \
		openssh-server openssh-clients iproute \
		git rpm-build xz python3 chromium
	as_root dnf install -y ShellCheck || true
	# bash-completion.pc (atio.spec's BuildRequires) is in bash-completion-devel on Fedora.
	as_root dnf install -y bash-completion 'pkgconfig(bash-completion)' || as_root dnf install -y bash-completion || true
else
	die "neither apt-get nor dnf found: install meson, ninja, pkg-config, OpenSSL, liburing, libaio, jansson and cmocka development packages by hand"
fi
