/*
 * devioctls: requests of the ioctl families (block, fs, hdio, counter, dm,
 * lirc, loop, mtd, nbd, nsfs, perf, random, scsi, ubi, watchdog, console, tee,
 * btrfs) on a bad
 * descriptor, so the kernel refuses each one the same way, with NULL,
 * unreadable and filled arguments; then the file requests a regular file
 * answers.  Used by the e2e comparison against strace; output is the
 * trace, not stdout.
 */
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/counter.h>
#include <linux/dm-ioctl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/kd.h>
#include <linux/keyboard.h>
#include <linux/lirc.h>
#include <linux/loop.h>
#include <linux/nbd.h>
#include <linux/nsfs.h>
#include <linux/perf_event.h>
#include <linux/random.h>
#include <linux/tee.h>
#include <linux/watchdog.h>
#include <mtd/mtd-abi.h>
#include <mtd/ubi-user.h>
#include <scsi/sg.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "progs.h"

/* The structs of the device mapper, loop, MTD, UBI, SCSI generic and LIRC requests. */
static void more_families(void)
{
	static const unsigned long magic = 0xdeadbeefbadc0dedUL;
	struct {
		struct dm_ioctl h;
		struct dm_target_spec spec;
		char params[16];
	} dm = { { .version = { DM_VERSION_MAJOR, 1, 2 }, .data_size = sizeof(dm),
		   .data_start = sizeof(struct dm_ioctl), .target_count = 1,
		   .name = "vol", .flags = DM_READONLY_FLAG },
		 { .sector_start = 16, .length = 32, .next = 0, .target_type = "linear" },
		 "8:1 0" };
	struct loop_info64 li = { .lo_offset = 4096, .lo_number = 2, .lo_flags = LO_FLAGS_READ_ONLY };
	struct loop_config lc = { .fd = 0, .block_size = 512 };
	struct erase_info_user erase = { 0x1000, 0x2000 };
	struct mtd_write_req wr = { .start = 1, .len = 2, .mode = MTD_OPS_RAW };
	struct ubi_mkvol_req mkvol = { .vol_id = 3, .alignment = 1, .bytes = 1 << 20,
				       .vol_type = UBI_DYNAMIC_VOLUME, .name_len = 4, .name = "data" };
	struct ubi_rsvol_req rsvol = { .bytes = 1 << 21, .vol_id = 3 };
	int i = 7;
	unsigned mode = LIRC_MODE_PULSE;
	/* buffers NULL: --kernel does not follow SG_IO's pointers */
	struct sg_io_hdr sgio = { .interface_id = 'S', .dxfer_direction = SG_DXFER_TO_DEV,
				  .cmd_len = 6, .timeout = 1000, .flags = SG_FLAG_DIRECT_IO };

	strcpy((char *)li.lo_file_name, "/tmp/img");
	ioctl(-1, DM_TABLE_LOAD, &dm);
	ioctl(-1, DM_DEV_SUSPEND, &dm);
	ioctl(-1, DM_VERSION, NULL);
	ioctl(-1, LOOP_SET_STATUS64, &li);
	ioctl(-1, LOOP_GET_STATUS64, &li);
	ioctl(-1, LOOP_CONFIGURE, &lc);
	ioctl(-1, LOOP_SET_FD, 3UL);
	ioctl(-1, LOOP_CTL_GET_FREE);
	ioctl(-1, MEMERASE, &erase);
	ioctl(-1, MEMWRITE, &wr);
	ioctl(-1, MEMGETINFO, NULL);
	ioctl(-1, OTPSELECT, &i);
	ioctl(-1, MTDFILEMODE, (unsigned long)MTD_FILE_MODE_RAW);
	ioctl(-1, UBI_IOCMKVOL, &mkvol);
	ioctl(-1, UBI_IOCRSVOL, &rsvol);
	ioctl(-1, UBI_IOCDET, &i);
	ioctl(-1, UBI_IOCVOLCRBLK, magic);
	ioctl(-1, SG_SET_TIMEOUT, &i);
	ioctl(-1, SG_GET_VERSION_NUM, &i);
	ioctl(-1, SG_SET_TRANSFORM, 5UL);
	ioctl(-1, SG_IO, &sgio);
	sgio.interface_id = 'X';
	ioctl(-1, SG_IO, &sgio);
	ioctl(-1, LIRC_SET_SEND_MODE, &mode);
	ioctl(-1, LIRC_GET_FEATURES, &mode);
	ioctl(-1, LIRC_SET_REC_CARRIER_RANGE, &i);
}

/* Console and keyboard requests: values, key tables, unicode maps, fonts. */
static void console(void)
{
	struct kbentry kbe = { K_SHIFTTAB, 30, K(KT_LATIN, 'A') };
	struct kbsentry kbse = { .kb_func = KVAL(K_F5), .kb_string = "\033[15~" };
	struct kbdiacrs dia = { 2, { { '`', 'a', 0xe0 }, { '\'', 'e', 0xe9 } } };
	struct kbkeycode kc = { 0x61, 0x70 };
	struct kbd_repeat rep = { 250, 33 };
	struct unipair pairs[2] = { { 0x41, 0x41 }, { 0xf000, 0x80 } };
	struct unimapdesc umd = { 2, pairs };
	struct unimapinit umi = { 256, 7, 3 };
	unsigned char font[64], cmap[48];
	struct console_font_op op = { KD_FONT_OP_SET, KD_FONT_FLAG_DONT_RECALC, 8, 16, 2, font };
	unsigned char led = 0;

	memset(font, 0x18, sizeof(font));
	memset(cmap, 0xaa, sizeof(cmap));
	ioctl(-1, KIOCSOUND, 440UL);
	ioctl(-1, KDMKTONE, 0x1007fUL);
	ioctl(-1, KDSETLED, (unsigned long)(LED_NUM | LED_CAP));
	ioctl(-1, KDGETLED, &led);
	ioctl(-1, KDSETMODE, (unsigned long)KD_GRAPHICS);
	ioctl(-1, KDSKBMODE, (unsigned long)K_UNICODE);
	ioctl(-1, KDADDIO, 0x3c0UL);
	ioctl(-1, KDSKBENT, &kbe);
	ioctl(-1, KDGKBENT, &kbe);
	ioctl(-1, KDSKBSENT, &kbse);
	ioctl(-1, KDSKBDIACR, &dia);
	ioctl(-1, KDGETKEYCODE, &kc);
	ioctl(-1, KDKBDREP, &rep);
	ioctl(-1, KDSIGACCEPT, (unsigned long)SIGUSR1);
	ioctl(-1, PIO_UNIMAP, &umd);
	ioctl(-1, GIO_UNIMAP, &umd);
	ioctl(-1, PIO_UNIMAPCLR, &umi);
	ioctl(-1, PIO_CMAP, cmap);
	ioctl(-1, KDFONTOP, &op);
	ioctl(-1, KDDISABIO);
}

/* TEE requests: plain structs, and the invoke struct behind buf_ptr with its parameters. */
static void tee_requests(void)
{
	struct tee_ioctl_cancel_arg cancel = { 7, 0x1234 };
	struct tee_ioctl_shm_alloc_data alloc = { .size = 4096, .flags = 0 };
	struct {
		struct tee_ioctl_invoke_arg arg;
		struct tee_ioctl_param params[2];
	} inv = { { .func = 3, .session = 0x42, .num_params = 2 },
		  { { TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INPUT, 1, 2, 3 },
		    { TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT, 0, 512, 9 } } };
	struct tee_ioctl_buf_data buf = { (uintptr_t)&inv, sizeof(inv) };

	ioctl(-1, TEE_IOC_CANCEL, &cancel);
	ioctl(-1, TEE_IOC_SHM_ALLOC, &alloc);
	ioctl(-1, TEE_IOC_INVOKE, &buf);
	buf.buf_len = 3;
	ioctl(-1, TEE_IOC_INVOKE, &buf);
	ioctl(-1, TEE_IOC_VERSION, NULL);
}

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
	ioctl(-1, PERF_EVENT_IOC_ENABLE, (unsigned long)PERF_IOC_FLAG_GROUP);
	ioctl(-1, PERF_EVENT_IOC_REFRESH, 2UL);
	ioctl(-1, PERF_EVENT_IOC_PERIOD, pair);
	ioctl(-1, PERF_EVENT_IOC_SET_FILTER, "common_pid == 1");
	ioctl(-1, PERF_EVENT_IOC_ID, pair);
	more_families();
	/* no name: strace's _IOC(dir, type, nr, size) */
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 0xde, 0x1, 0x10), magic);
	ioctl(-1, _IO(0x12, 0xfe), 0UL);
}

/* Btrfs requests: vol_args, balance, tree search, send, dedupe (no pointer --kernel would follow). */
static void btrfs_requests(void)
{
	static struct btrfs_ioctl_vol_args vol = { .fd = 2, .name = "subvol" };
	static struct btrfs_ioctl_vol_args_v2 vol2 = { .fd = 0, .flags = BTRFS_SUBVOL_RDONLY,
						       .name = "snap" };
	static struct btrfs_ioctl_balance_args bal = {
		.flags = BTRFS_BALANCE_DATA | BTRFS_BALANCE_FORCE,
		.data = { .profiles = BTRFS_BLOCK_GROUP_RAID1, .devid = 1, .pend = UINT64_MAX,
			  .flags = BTRFS_BALANCE_ARGS_PROFILES | BTRFS_BALANCE_ARGS_DEVID },
	};
	struct btrfs_ioctl_search_args_v2 search = {
		.key = { .tree_id = BTRFS_FS_TREE_OBJECTID, .min_objectid = BTRFS_FIRST_FREE_OBJECTID,
			 .max_objectid = BTRFS_LAST_FREE_OBJECTID, .max_offset = UINT64_MAX,
			 .max_transid = UINT64_MAX, .min_type = BTRFS_INODE_ITEM_KEY,
			 .max_type = UINT32_MAX, .nr_items = 4 },
		.buf_size = 4096,
	};
	struct btrfs_ioctl_defrag_range_args defrag = { .len = UINT64_MAX,
		.flags = BTRFS_DEFRAG_RANGE_COMPRESS, .extent_thresh = 1 << 17, .compress_type = 3 };
	struct btrfs_ioctl_send_args send = { .send_fd = 1, .parent_root = 257,
					      .flags = BTRFS_SEND_FLAG_NO_FILE_DATA };
	struct btrfs_ioctl_feature_flags features[2] = {
		{ .compat_ro_flags = BTRFS_FEATURE_COMPAT_RO_FREE_SPACE_TREE,
		  .incompat_flags = BTRFS_FEATURE_INCOMPAT_NO_HOLES | (1ULL << 40) },
	};
	struct btrfs_ioctl_quota_ctl_args quota = { .cmd = BTRFS_QUOTA_CTL_ENABLE };
	struct btrfs_ioctl_scrub_args scrub = { .devid = 1, .end = UINT64_MAX,
						.flags = BTRFS_SCRUB_READONLY };
	struct file_clone_range clone = { .src_fd = 0, .src_offset = 4096, .src_length = 8192 };
	struct {
		struct file_dedupe_range r;
		struct file_dedupe_range_info info[3];
	} dedupe = { { .src_length = 4096, .dest_count = 3 },
		     { { .dest_fd = 1 }, { .dest_fd = 2, .dest_offset = 4096 }, { .dest_fd = 0 } } };
	uint64_t flags = BTRFS_SUBVOL_RDONLY;

	ioctl(-1, BTRFS_IOC_SNAP_CREATE, &vol);
	ioctl(-1, BTRFS_IOC_SCAN_DEV, NULL);
	ioctl(-1, BTRFS_IOC_SNAP_CREATE_V2, &vol2);
	ioctl(-1, BTRFS_IOC_SUBVOL_SETFLAGS, &flags);
	ioctl(-1, BTRFS_IOC_SUBVOL_GETFLAGS, &flags);
	ioctl(-1, BTRFS_IOC_SYNC);
	ioctl(-1, BTRFS_IOC_BALANCE_CTL, BTRFS_BALANCE_CTL_PAUSE);
	ioctl(-1, BTRFS_IOC_BALANCE_V2, &bal);
	ioctl(-1, BTRFS_IOC_TREE_SEARCH_V2, &search);
	ioctl(-1, BTRFS_IOC_DEFRAG_RANGE, &defrag);
	ioctl(-1, BTRFS_IOC_SEND, &send);
	ioctl(-1, BTRFS_IOC_SET_FEATURES, features);
	ioctl(-1, BTRFS_IOC_QUOTA_CTL, &quota);
	ioctl(-1, BTRFS_IOC_SCRUB, &scrub);
	ioctl(-1, BTRFS_IOC_START_SYNC, NULL);
	ioctl(-1, FICLONERANGE, &clone);
	ioctl(-1, FIDEDUPERANGE, &dedupe);
	ioctl(-1, FS_IOC_SETFSLABEL, "label");
}

/* Requests a regular file answers (ENOTTY for the ones its file system lacks). */
static void regular_file(void)
{
	char dir[256], path[300];
	unsigned flags = 0;
	int bsz = 0;

	make_tmpdir(dir, sizeof(dir), "devioctls");
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
	console();
	tee_requests();
	btrfs_requests();
	regular_file();
	return 0;
}
