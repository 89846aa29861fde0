/*
 * ioctl families (src/syscalls/ioctl/): what the kernel writes back on
 * success, which the e2e comparison with strace (bad descriptors) never
 * reaches.  The expected lines follow strace 6.1's formats for these
 * requests (its ioctl_* tests print the same fields).
 */
#include <errno.h>
#include <linux/blktrace_api.h>
#include <linux/dm-ioctl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/kd.h>
#include <linux/keyboard.h>
#include <mtd/ubi-user.h>
#include <scsi/sg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_fiemap_extents_with_v(void)
{
	struct {
		struct fiemap m;
		struct fiemap_extent e[1];
	} in = { { .fm_length = 4096, .fm_flags = FIEMAP_FLAG_SYNC, .fm_extent_count = 1 } }, o;
	o = in;
	o.m.fm_mapped_extents = 1;
	o.e[0] = (struct fiemap_extent){ .fe_logical = 0, .fe_physical = 8192, .fe_length = 4096,
					 .fe_flags = FIEMAP_EXTENT_LAST | 0x40000 };
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, FS_IOC_FIEMAP, 0x1000, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, FS_IOC_FIEMAP, {fm_start=0, fm_length=4096, "
		  "fm_flags=FIEMAP_FLAG_SYNC, fm_extent_count=1} => {fm_flags=FIEMAP_FLAG_SYNC, "
		  "fm_mapped_extents=1, fm_extents=[{fe_logical=0, fe_physical=8192, fe_length=4096, "
		  "fe_flags=FIEMAP_EXTENT_LAST|0x40000}]}) = 0");
	dh_free(&d);
}

static void test_hdio_getgeo(void)
{
	struct hd_geometry g = { .heads = 16, .sectors = 63, .cylinders = 1024, .start = 2048 };
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, HDIO_GETGEO, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &g, sizeof(g));
	CHECK_STR(dh_run(&d, 0),
		  "ioctl(3, HDIO_GETGEO, {heads=16, sectors=63, cylinders=1024, start=2048}) = 0");
	dh_free(&d);
}

static void test_ubi_mkvol_writes_the_volume_id(void)
{
	struct ubi_mkvol_req m = { .vol_id = UBI_VOL_NUM_AUTO, .alignment = 1, .bytes = 4096,
				   .vol_type = UBI_STATIC_VOLUME, .name_len = 3, .name = "vol" }, o;
	o = m;
	o.vol_id = 5;
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, UBI_IOCMKVOL, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(m));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, UBI_IOCMKVOL, {vol_id=-1, alignment=1, bytes=4096, "
		  "vol_type=UBI_STATIC_VOLUME, flags=0, name_len=3, name=\"vol\"} => [5]) = 0");
	dh_free(&d);
}

static void test_dm_dev_status_counts_on_success(void)
{
	struct dm_ioctl in = { .version = { 4, 0, 0 }, .data_size = sizeof(in), .name = "vol" }, o;
	o = in;
	o.version[1] = 48;
	o.target_count = 1;
	o.open_count = 2;
	o.event_nr = 3;
	o.flags = DM_ACTIVE_PRESENT_FLAG;
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, DM_DEV_STATUS, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, DM_DEV_STATUS, [{version=[4, 0, 0], data_size=312, "
		  "name=\"vol\", flags=0}] => [{version=[4, 48, 0], data_size=312, name=\"vol\", "
		  "target_count=1, open_count=2, event_nr=3, flags=DM_ACTIVE_PRESENT_FLAG}]) = 0");
	dh_free(&d);
}

static void test_blktracesetup_names_the_trace(void)
{
	struct blk_user_trace_setup in = { .act_mask = 3, .buf_size = 4096, .buf_nr = 4, .pid = 1 }, o;
	o = in;
	strcpy(o.name, "sda");
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, BLKTRACESETUP, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, BLKTRACESETUP, {act_mask=3, buf_size=4096, buf_nr=4, "
		  "start_lba=0, end_lba=0, pid=1, name=\"sda\"}) = 0");
	dh_free(&d);
}

/* A number two families name: the computed mixer name first; -X verbose as a comment. */
static void test_shared_number_names(void)
{
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, _IOR('M', 13, int), 0, 0, 0, 0);
	xlat_style = XLAT_STYLE_VERBOSE;
	CHECK_STR(dh_run(&d, -EBADF), "ioctl(3, 0x80044d0d /* MIXER_READ(13) or OTPSELECT */, "
		  "NULL) = -1 EBADF (Bad file descriptor)");
	xlat_style = XLAT_STYLE_ABBREV;
	dh_free(&d);
}

/* KDGKBENT's value is what the kernel wrote: a key symbol with its meaning as a comment. */
static void test_kdgkbent_value_on_success(void)
{
	struct kbentry in = { K_NORMTAB, 30, 0 }, o = { K_NORMTAB, 30, K(KT_LATIN, 'a') };
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, KDGKBENT, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, KDGKBENT, {kb_table=K_NORMTAB, kb_index=30, "
		  "kb_value=0x61 /* K(KT_LATIN, 'a') */}) = 0");
	dh_free(&d);
}

/* GIO_UNIMAP: the count at entry and exit, then the pairs the kernel wrote. */
static void test_gio_unimap_pairs_on_success(void)
{
	struct unipair pairs[2] = { { 0x41, 0x41 }, { 0xf000, 0x80 } };
	struct unimapdesc u = { 2, (struct unipair *)0x2000 };
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, GIO_UNIMAP, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &u, sizeof(u));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &u, sizeof(u));
	dh_mem(&d, SC_AT_EXIT, 0x2000, pairs, sizeof(pairs));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, GIO_UNIMAP, {entry_ct=2 => 2, entries=[{unicode=0x41, "
		  "fontpos=0x41}, {unicode=0xf000, fontpos=0x80}]}) = 0");
	dh_free(&d);
}

/* SG_IO v3 reading from the device: the command at entry, the data received at exit. */
static void test_sg_io_v3_data_in_on_success(void)
{
	unsigned char cdb[6] = { 0x12, 0, 0, 0, 4, 0 }, data[4] = { 1, 2, 3, 4 };
	struct sg_io_hdr h = { .interface_id = 'S', .dxfer_direction = SG_DXFER_FROM_DEV,
			       .cmd_len = 6, .dxfer_len = 4, .dxferp = (void *)0x3000,
			       .cmdp = (void *)0x2000, .timeout = 1000 }, o = h;
	o.duration = 3;
	o.resid = 1;
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, SG_IO, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &h, sizeof(h));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, cdb, sizeof(cdb));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	dh_mem(&d, SC_AT_EXIT, 0x3000, data, sizeof(data));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, SG_IO, {interface_id='S', dxfer_direction=SG_DXFER_FROM_DEV, "
		  "cmd_len=6, cmdp=\"\\x12\\x00\\x00\\x00\\x04\\x00\", mx_sb_len=0, iovec_count=0, "
		  "dxfer_len=4, timeout=1000, flags=0, dxferp=\"\\x01\\x02\\x03\", status=0, "
		  "masked_status=0, msg_status=0, sb_len_wr=0, sbp=NULL, host_status=0, "
		  "driver_status=0, resid=1, duration=3, info=0}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_fiemap_extents_with_v), TK_CASE(test_hdio_getgeo),
	TK_CASE(test_ubi_mkvol_writes_the_volume_id), TK_CASE(test_dm_dev_status_counts_on_success),
	TK_CASE(test_shared_number_names), TK_CASE(test_blktracesetup_names_the_trace),
	TK_CASE(test_kdgkbent_value_on_success), TK_CASE(test_gio_unimap_pairs_on_success),
	TK_CASE(test_sg_io_v3_data_in_on_success))
