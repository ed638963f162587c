/* SPDX-License-Identifier: MIT */
/*
 * What -f is and what it is on. See include/atio/data/target.h for the rules.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>

#include "atio/data/mountinfo.h"
#include "atio/data/target.h"
#include "atio/base/units.h"

/* Filesystems of the kernel's own, where no test file belongs. */
static const unsigned long pseudo_magic[] = {
	PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
	DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, 0x62656570 /* configfs */,
	DEVPTS_SUPER_MAGIC, PSTOREFS_MAGIC, BPF_FS_MAGIC, EFIVARFS_MAGIC,
	0x42494e4d /* binfmt_misc */, SELINUX_MAGIC, NSFS_MAGIC,
	0x65735543 /* fusectl */, 0x19800202 /* mqueue */,
};

/* Names for a few magics, for when /proc/self/mountinfo has no answer. */
static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{ EXT4_SUPER_MAGIC, "ext4" }, { XFS_SUPER_MAGIC, "xfs" },
	{ BTRFS_SUPER_MAGIC, "btrfs" }, { TMPFS_MAGIC, "tmpfs" },
	{ RAMFS_MAGIC, "ramfs" }, { NFS_SUPER_MAGIC, "nfs" },
	{ OVERLAYFS_SUPER_MAGIC, "overlay" }, { PROC_SUPER_MAGIC, "proc" },
	{ SYSFS_MAGIC, "sysfs" }, { 0x2fc12fc1, "zfs" }, { 0xf2f52010, "f2fs" },
	{ 0x65735546, "fuse" }, { 0xff534d42, "cifs" }, { 0xfe534d42, "smb2" },
	{ 0x00c36400, "ceph" }, { 0xca451a4e, "bcachefs" }, { MSDOS_SUPER_MAGIC, "vfat" },
};

/*
 * The type /proc/self/mountinfo gives the mount of device @dev ("devtmpfs"
 * where statfs says only tmpfs), into @buf; false when none matches (btrfs
 * subvolumes have device numbers of their own).
 */
static bool mount_type(dev_t dev, char *buf, size_t len)
{
	struct atio_mount *m = malloc(sizeof(*m));
	bool found = m && atio_mount_of_dev(major(dev), minor(dev), m);

	/* One that does not fit is not said cut short. */
	found = found && (size_t)snprintf(buf, len, "%s", m->type) < len;
	free(m);
	return found;
}

/* Fill t->fstype, t->memory and t->pseudo for the directory @dir. */
static void identify_fs(struct atio_target *t, const char *dir)
{
	struct statfs sf;
	struct stat st;
	unsigned long magic;

	if (statfs(dir, &sf) != 0 || stat(dir, &st) != 0)
		return;
	magic = (unsigned long)sf.f_type;
	if (!mount_type(st.st_dev, t->fstype, sizeof(t->fstype))) {
		snprintf(t->fstype, sizeof(t->fstype), "0x%lx", magic);
		for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++)
			if (fs_names[i].magic == magic)
				snprintf(t->fstype, sizeof(t->fstype), "%s", fs_names[i].name);
	}
	t->memory = magic == TMPFS_MAGIC || magic == RAMFS_MAGIC ||
		    strcmp(t->fstype, "devtmpfs") == 0 || strcmp(t->fstype, "ramfs") == 0 ||
		    strcmp(t->fstype, "tmpfs") == 0;
	for (size_t i = 0; i < sizeof(pseudo_magic) / sizeof(pseudo_magic[0]); i++)
		t->pseudo |= pseudo_magic[i] == magic;
	/* Whatever it is, a filesystem without blocks stores nothing. */
	t->pseudo |= !t->memory && sf.f_blocks == 0;
}

/*
 * Whether directory @dir is where the kernel's devices are: a devtmpfs, or
 * /dev itself (a tmpfs in a container).
 */
static bool in_dev(const struct atio_target *t, const char *dir)
{
	char *real;
	bool dev;

	if (strcmp(t->fstype, "devtmpfs") == 0)
		return true;
	real = realpath(dir, NULL);
	dev = real && strcmp(real, "/dev") == 0;
	free(real);
	return dev;
}

int atio_target_identify(struct atio_target *t, const char *path, struct atio_error *e)
{
	struct stat st;
	const char *slash;
	char *dir;

	memset(t, 0, sizeof(*t));
	if (!path)
		return 0;
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		t->kind = ATIO_TARGET_DEVICE;
		snprintf(t->fstype, sizeof(t->fstype), "none (block device)");
		if (atio_blockdev_geometry(path, &t->dev_size, &t->dev_lbs) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "-f %s: cannot read the "
					      "size of the block device: %s", path, strerror(errno));
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		t->kind = ATIO_TARGET_DIR;
		identify_fs(t, path);
		return 0;
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!dir)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		t->kind = ATIO_TARGET_PREFIX;
		snprintf(t->dir, sizeof(t->dir), "%s", dir);
		identify_fs(t, dir);
		/* A name in /dev that leads nowhere: a device that is not there. */
		t->no_device = in_dev(t, dir) && stat(path, &st) != 0 && errno == ENOENT;
	}
	free(dir);
	return 0;
}

/* The rules for a block device; see target.h. */
static int check_device(const struct atio_target *t, struct atio_opts *o,
			struct atio_error *e)
{
	uint64_t size = t->dev_size & ~(uint64_t)4095, k, min;

	if (o->nfiles_given && o->nfiles != 1)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-n %u: -f %s is a block "
				      "device, which atio uses as one file: leave out -n or "
				      "give -n 1", o->nfiles, o->path);
	if (o->remove)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--remove: -f %s is a block "
				      "device, which atio never removes", o->path);
	if (o->mode == ATIO_MODE_EXPAND)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--expand: -f %s is a block "
				      "device, which cannot grow or be truncated: --expand needs "
				      "a directory or a file-name prefix", o->path);
	if (o->total_given && o->total > size)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-u%s: %" PRIu64 " bytes "
				      "(%.2f MiB) is more than the block device %s holds "
				      "(%.2f MiB usable in 4K blocks)", o->total_auto ? " auto" : "",
				      o->total, atio_mib(o->total), o->path, atio_mib(size));
	atio_target_defaults(t, o);
	k = o->threads;
	min = (k * o->bs + 4095) & ~(uint64_t)4095;
	if (o->total < min)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-f %s: the device (-u %.2f "
				      "MiB) is too small for a block of -s %" PRIu64 " for each of "
				      "%u threads", o->path, atio_mib(o->total), o->bs, o->threads);
	if (o->direct && t->dev_lbs && o->bs % t->dev_lbs)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-s %" PRIu64 ": --uncached "
				      "on %s needs a multiple of its logical block size, %u bytes",
				      o->bs, o->path, t->dev_lbs);
	if (o->mode != ATIO_MODE_READ && !o->allow_device_write)
		return atio_error_set(e, ATIO_EXIT_USAGE, EPERM, "-f %s: a %s test on a block "
				      "device destroys its contents; atio writes to a device "
				      "only with --allow-device-write", o->path,
				      atio_mode_name(o->mode));
	if (o->mode != ATIO_MODE_READ)
		return atio_blockdev_check_blank(o->path, e);
	return 0;
}

void atio_target_defaults(const struct atio_target *t, struct atio_opts *o)
{
	if (t->kind != ATIO_TARGET_DEVICE)
		return;
	if (!o->nfiles_given)
		o->nfiles = 1;
	if (!o->total_given)
		o->total = t->dev_size & ~(uint64_t)4095;
}

int atio_target_check(const struct atio_target *t, struct atio_opts *o, struct atio_error *e)
{
	if (t->kind == ATIO_TARGET_DEVICE)
		return check_device(t, o, e);
	if (t->kind == ATIO_TARGET_NONE)
		return 0;
	if (t->no_device)
		return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT, "-f %s: no such device: "
				      "nothing has that name in %s, where the kernel's devices "
				      "are (is the device attached, and the name right?)",
				      o->path, t->fstype);
	if (t->pseudo)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-f %s: %s is a filesystem "
				      "of the kernel's, not storage: atio cannot create its "
				      "files there", o->path, t->fstype);
	if (t->memory && !o->allow_memory_fs)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-f %s: on %s, a filesystem "
				      "in memory: a test there measures RAM, not storage; give "
				      "--allow-memory-fs to run it anyway", o->path, t->fstype);
	return 0;
}
