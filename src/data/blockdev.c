/* SPDX-License-Identifier: MIT */
/*
 * Block devices as targets: their geometry, and whether a write test may
 * run on one (not read-only; nothing stacked on it, blockdev_use.c; no
 * signature libblkid knows, at its start or where a partition may begin).
 * See include/atio/data/target.h.
 */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "atio/data/target.h"

int atio_blockdev_geometry(const char *path, uint64_t *size, unsigned *lbs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ssz = 0, ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size) != 0 || ioctl(fd, BLKSSZGET, &ssz) != 0)
		ret = -errno;
	*lbs = ssz > 0 ? (unsigned)ssz : 512;
	close(fd);
	if (ret)
		errno = -ret;
	return ret;
}

/* Where to look past offset 0, and how much of the device one look sees. */
#define SCAN_STEP (1ull << 20)
#define SCAN_END (64ull << 20)
#define SCAN_WINDOW (8ull << 20)

/* What the last probe of @pr found, into @buf. */
static void describe(blkid_probe pr, char *buf, size_t len)
{
	const char *type = NULL, *usage = NULL, *pt = NULL;

	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
	if (type)
		snprintf(buf, len, "a signature of %s (%s)", type,
			 !usage ? "unknown use"
			 : strcmp(usage, "filesystem") == 0 ? "a filesystem"
			 : strcmp(usage, "raid") == 0 ? "RAID or LVM member"
			 : strcmp(usage, "crypto") == 0 ? "encrypted volume"
			 : strcmp(usage, "other") == 0 && strcmp(type, "swap") == 0
			 ? "swap space" : usage);
	else if (pt)
		snprintf(buf, len, "a partition table of type %s", pt);
	else
		snprintf(buf, len, "a signature");
}

/*
 * Probe @len bytes of @fd from @off (superblocks; @parts: partition tables
 * too): 0 nothing, 1 something described in @buf, or -errno.
 */
static int probe_at(blkid_probe pr, int fd, uint64_t off, uint64_t len, bool parts,
		    char *buf, size_t blen)
{
	int r;

	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)len) != 0)
		return -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, parts);
	if (parts)
		blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	r = blkid_do_safeprobe(pr);
	if (r == 0)
		describe(pr, buf, blen);
	else if (r == -2)
		snprintf(buf, blen, "more than one signature (libblkid finds them ambiguous)");
	return r == 0 || r == -2 ? 1 : r == 1 ? 0 : -EIO;
}

/* Where an ext2/3/4 superblock lies in what it begins, and its fields read here. */
#define EXT_SB 1024u
#define EXT_MAGIC 0x38u         /* __le16, 0xef53 */
#define EXT_GROUP 0x5au         /* __le16 s_block_group_nr: 0 in the first superblock */

/* The most backup superblocks one look finds: one per MiB, and sector 63. */
#define MAX_BACKUPS (SCAN_END / SCAN_STEP + 1)

/* What signature() found. */
struct found {
	uint64_t at;                 /* where the first signature begins (0: at the start) */
	char what[3000];             /* what it is */
	/*
	 * With nothing at the start: the ext2/3/4 backup superblocks found
	 * inside (their byte offsets), which outlive an erased filesystem.
	 */
	unsigned nbackups;
	uint64_t backup[MAX_BACKUPS];
	char type[32];               /* the backups' filesystem, as libblkid names it */
};

/*
 * Whether what begins at @off of @fd is an ext2/3/4 block group whose
 * superblock is a backup: mke2fs writes the group's number into each
 * backup, and 0 into the first superblock wherever a filesystem begins.
 */
static bool ext_backup(int fd, uint64_t off)
{
	unsigned char sb[EXT_GROUP + 2];

	if (pread(fd, sb, sizeof(sb), (off_t)(off + EXT_SB)) != (ssize_t)sizeof(sb))
		return false;
	return sb[EXT_MAGIC] == 0x53 && sb[EXT_MAGIC + 1] == 0xef &&
	       (sb[EXT_GROUP] | sb[EXT_GROUP + 1]) != 0;
}

/*
 * What libblkid finds on @path: 0 nothing, 1 a signature described in
 * @f, or -errno. The whole device is probed at offset 0 (superblocks,
 * partition tables); then, for a filesystem or other signature that
 * begins inside it with no table to say so (a partition whose table is
 * gone, what losetup -o or kpartx map), every MiB of its first SCAN_END
 * and the old first sector of a partition, 63. The first thing found
 * inside is described; when it is an ext2/3/4 backup superblock, the
 * look goes on and lists every backup there.
 */
static int signature(const char *path, uint64_t size, struct found *f)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r;
	char what[sizeof(f->what)];
	blkid_probe pr;

	f->at = 0;
	f->nbackups = 0;
	if (fd < 0)
		return -errno;
	if (!(pr = blkid_new_probe())) {
		close(fd);
		return -ENOMEM;
	}
	r = probe_at(pr, fd, 0, size, true, f->what, sizeof(f->what));
	for (uint64_t off = 63 * 512; r == 0 && off < SCAN_END && off + 65536 <= size;
	     off = off < SCAN_STEP ? SCAN_STEP : off + SCAN_STEP) {
		uint64_t win = size - off < SCAN_WINDOW ? size - off : SCAN_WINDOW;
		int hit = probe_at(pr, fd, off, win, false, what, sizeof(what));

		if (hit < 0) {
			r = hit;
			break;
		}
		if (hit && !f->at) {
			f->at = off;
			memcpy(f->what, what, sizeof(what));
		}
		if (hit && ext_backup(fd, off) && f->nbackups < MAX_BACKUPS) {
			const char *type = NULL;

			if (!f->nbackups)
				snprintf(f->type, sizeof(f->type), "%s",
					 blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 &&
					 type ? type : "ext2/3/4");
			f->backup[f->nbackups++] = off + EXT_SB;
		}
		/* Past the first find, the look goes on only for backups. */
		if (hit && !f->nbackups)
			r = 1;
	}
	blkid_free_probe(pr);
	close(fd);
	return r < 0 ? r : r > 0 || f->at;
}

/*
 * Refuse a device on which only backup superblocks of an ext2/3/4
 * filesystem are found: wipefs -a erased its first superblock and left
 * them. All of them are named at once, with what erases them.
 */
static int backups_refused(const char *path, const struct found *f, struct atio_error *e)
{
	char list[MAX_BACKUPS * 24], cmd[MAX_BACKUPS * 24];
	size_t nl = 0, nc = 0;

	for (unsigned i = 0; i < f->nbackups; i++) {
		const char *sep = i == 0 ? "" : i + 1 == f->nbackups ? " and " : ", ";

		nl += (size_t)snprintf(list + nl, sizeof(list) - nl, "%s%" PRIu64, sep,
				       f->backup[i]);
		nc += (size_t)snprintf(cmd + nc, sizeof(cmd) - nc, " %" PRIu64, f->backup[i]);
	}
	return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: nothing at "
			      "the start of the device, but %u backup superblock(s) of an %s "
			      "filesystem whose first superblock was erased remain (wipefs -a "
			      "erases only that one), at byte(s) %s (in its first %llu MiB, "
			      "where atio looks); atio writes only to a blank device: if the "
			      "data is not wanted, zero the 1 KiB of each: for b in%s; do dd "
			      "if=/dev/zero of=%s bs=1024 count=1 seek=$b oflag=seek_bytes "
			      "conv=notrunc; done", path, f->nbackups, f->type, list,
			      (unsigned long long)(SCAN_END >> 20), cmd, path);
}

/*
 * Whether block device @path is read-only (losetup -r, a write-protected
 * disk, blockdev --setro): 1, 0, or -errno when it cannot be told.
 */
static int read_only(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ro = 0, ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, BLKROGET, &ro) == 0 ? ro != 0 : -errno;
	close(fd);
	return ret;
}

int atio_blockdev_check_blank(const char *path, struct atio_error *e)
{
	struct stat st;
	struct found f;
	uint64_t size;
	unsigned lbs;
	int r;

	if (stat(path, &st) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", path, strerror(errno));
	if (read_only(path) == 1)
		return atio_error_set(e, ATIO_EXIT_USAGE, EROFS, "-f %s: writes refused: the "
				      "device is read-only (losetup -r, blockdev --setro, or a "
				      "write-protected disk)", path);
	if (atio_blockdev_user(st.st_rdev, f.what, sizeof(f.what)))
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: the "
				      "device %s", path, f.what);
	r = atio_blockdev_geometry(path, &size, &lbs);
	if (!r)
		r = signature(path, size, &f);
	if (r < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, -r, "-f %s: libblkid cannot probe the "
				      "device: %s", path, strerror(-r));
	if (r > 0 && f.nbackups)
		return backups_refused(path, &f, e);
	if (r > 0 && f.at)
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: "
				      "libblkid finds %s at byte %" PRIu64 " of the device, with no "
				      "partition table to say so (a partition whose table is gone, "
				      "or what losetup -o maps); atio writes only to a blank device "
				      "(if the data is not wanted, erase the signature with wipefs "
				      "on a loop device set up with losetup -o %" PRIu64 ")",
				      path, f.what, f.at, f.at);
	if (r > 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: "
				      "libblkid finds %s on the device; atio writes only to a "
				      "blank device (erase the signature with wipefs if the data "
				      "is not wanted)", path, f.what);
	return 0;
}
