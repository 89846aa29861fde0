/*
 * ioctls: requests of the ioctl families (block, fs, hdio, counter, nbd,
 * nsfs, random, watchdog, ...) on a bad descriptor, so the kernel refuses
 * each one the same way, with NULL, unreadable and filled arguments; then
 * the file requests a regular file answers.  Used by the e2e comparison
 * against strace; output is the trace, not stdout.
 */
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/counter.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/nbd.h>
#include <linux/nsfs.h>
#include <linux/random.h>
#include <linux/watchdog.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "progs.h"

/* Requests and shapes of argument the kernel is never asked to follow (fd -1). */
static void bad_fd(void)
{
	static const unsigned long magic = 0xdeadbeefbadc0dedUL;
	int i = 42;
	uint64_t pair[2] = { 1 << 20, 4096 };
	unsigned flags = FS_APPEND_FL | FS_NOATIME_FL | 0x4000000;
	struct fstrim_range trim = { 0x1000, 1 << 30, 4096 };
	struct fsxattr fsx = { .fsx_xflags = FS_XFLAG_IMMUTABLE | FS_XFLAG_DAX, .fsx_projid = 7 };
	struct fiemap fm = { .fm_start = 0, .fm_length = ~0ULL, .fm_flags = FIEMAP_FLAG_SYNC,
			     .fm_extent_count = 2 };
	struct hd_drive_cmd_hdr cmd = { 0xec, 1, 2, 0 };
	int three[3] = { 1, 2, 3 };
	struct counter_watch watch = { { COUNTER_COMPONENT_COUNT, COUNTER_SCOPE_COUNT, 1, 2 },
				       COUNTER_EVENT_INDEX, 3 };
	struct blkpg_partition part = { .start = 512, .length = 1 << 20, .pno = 1 };
	struct blkpg_ioctl_arg blkpg = { BLKPG_ADD_PARTITION, 0, sizeof(part), &part };
	struct {
		struct rand_pool_info info;
		char buf[8];
	} pool = { { 8, 8 }, "entropy" };

	strcpy(part.devname, "sda1");
	ioctl(-1, BLKGETSIZE64, NULL);
	ioctl(-1, BLKBSZGET, &i);
	ioctl(-1, BLKROSET, &i);
	ioctl(-1, BLKRASET, magic);
	ioctl(-1, BLKDISCARD, pair);
	ioctl(-1, BLKFLSBUF, magic);
	ioctl(-1, BLKPG, &blkpg);
	ioctl(-1, FIFREEZE, magic);
	ioctl(-1, FITRIM, &trim);
	ioctl(-1, FS_IOC_SETFLAGS, &flags);
	ioctl(-1, FS_IOC_GETFLAGS, &flags);
	ioctl(-1, FS_IOC_FSSETXATTR, &fsx);
	ioctl(-1, FS_IOC_FIEMAP, &fm);
	ioctl(-1, FS_IOC_FIEMAP, (char *)&fm + 1);
	ioctl(-1, HDIO_GETGEO, NULL);
	ioctl(-1, HDIO_DRIVE_CMD, &cmd);
	ioctl(-1, HDIO_DRIVE_RESET, three);
	ioctl(-1, HDIO_SET_NICE, 5UL);
	ioctl(-1, HDIO_GET_QDMA, magic);
	ioctl(-1, COUNTER_ADD_WATCH_IOCTL, &watch);
	ioctl(-1, NBD_SET_FLAGS, 0x8003UL);
	ioctl(-1, NBD_SET_SIZE, magic);
	ioctl(-1, NS_GET_USERNS);
	ioctl(-1, RNDADDENTROPY, &pool);
	ioctl(-1, RNDGETENTCNT, &i);
	ioctl(-1, WDIOC_SETTIMEOUT, &i);
	ioctl(-1, WDIOC_KEEPALIVE);
	/* no name: strace's _IOC(dir, type, nr, size) */
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 0xde, 0x1, 0x10), magic);
	ioctl(-1, _IO(0x12, 0xfe), 0UL);
}

/* Requests a regular file answers (ENOTTY for the ones its file system lacks). */
static void regular_file(void)
{
	char dir[256], path[300];
	unsigned flags = 0;
	int bsz = 0;

	make_tmpdir(dir, sizeof(dir), "ioctls");
	snprintf(path, sizeof(path), "%s/f", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0, "open");
	check(write(fd, "data\n", 5) == 5, "write");
	ioctl(fd, FIGETBSZ, &bsz);
	ioctl(fd, FS_IOC_GETFLAGS, &flags);
	close(fd);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	bad_fd();
	regular_file();
	return 0;
}
