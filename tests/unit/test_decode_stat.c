/* stat family, statx, statfs: abbreviated without -v, whole with -v. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static struct stat reg_file(void)
{
	struct stat st;
	memset(&st, 0, sizeof(st));
	st.st_dev = makedev(0xfe, 0);
	st.st_ino = 10952708;
	st.st_mode = S_IFREG | 0644;
	st.st_nlink = 1;
	st.st_blksize = 4096;
	st.st_blocks = 16;
	st.st_size = 8192;
	st.st_atim.tv_sec = 1796032846;
	st.st_atim.tv_nsec = 814174896;
	st.st_mtim.tv_sec = 1777320873;
	st.st_ctim.tv_sec = 1777320873;
	return st;
}

static void test_newfstatat_abbreviates_without_v(void)
{
	struct dh d;
	struct stat st = reg_file();
	dh_init(&d, SYS_newfstatat, (uint64_t)-100, 0x1000, 0x2000, AT_SYMLINK_NOFOLLOW, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem(&d, SC_AT_EXIT, 0x2000, &st, sizeof(st));
	CHECK_STR(dh_run(&d, 0), "newfstatat(AT_FDCWD, \"/tmp/hf/f1\", {st_mode=S_IFREG|0644, "
		  "st_size=8192, ...}, AT_SYMLINK_NOFOLLOW) = 0");
	dh_free(&d);
}

static void test_stat_verbose_prints_every_field_with_time_comments(void)
{
	struct dh d;
	struct stat st = reg_file();
	dh_init(&d, SYS_stat, 0x1000, 0x2000, 0, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem(&d, SC_AT_EXIT, 0x2000, &st, sizeof(st));
	CHECK_STR(dh_run(&d, 0), "stat(\"/tmp/hf/f1\", {st_dev=makedev(0xfe, 0), st_ino=10952708, "
		  "st_mode=S_IFREG|0644, st_nlink=1, st_uid=0, st_gid=0, st_blksize=4096, "
		  "st_blocks=16, st_size=8192, st_atime=1796032846 /* 2026-11-30T10:00:46.814174896+0000 */, "
		  "st_atime_nsec=814174896, st_mtime=1777320873 /* 2026-04-27T20:14:33+0000 */, "
		  "st_mtime_nsec=0, st_ctime=1777320873 /* 2026-04-27T20:14:33+0000 */, st_ctime_nsec=0}) = 0");
	dh_free(&d);
}

static void test_fstat_char_device_prints_rdev(void)
{
	struct dh d;
	struct stat st = reg_file();
	st.st_mode = S_IFCHR | 0666;
	st.st_rdev = makedev(1, 3);
	dh_init(&d, SYS_fstat, 0, 0x2000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x2000, &st, sizeof(st));
	CHECK_STR(dh_run(&d, 0),
		  "fstat(0, {st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}) = 0");
	dh_free(&d);
}

static void test_lstat_shares_stat_and_failure_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_lstat, 0x1000, 0x7ffe0000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexist");
	CHECK_STR(dh_run(&d, -2),
		  "lstat(\"/nonexist\", 0x7ffe0000) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_statx_flags_mask_and_abbreviated_struct(void)
{
	struct dh d;
	struct statx sx;
	memset(&sx, 0, sizeof(sx));
	sx.stx_mask = 0x17ff;
	sx.stx_mode = S_IFCHR | 0666;
	dh_init(&d, SYS_statx, (uint64_t)-100, 0x1000, 0, 0x7ff, 0x2000, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/dev/null");
	dh_mem(&d, SC_AT_EXIT, 0x2000, &sx, sizeof(sx));
	CHECK_STR(dh_run(&d, 0), "statx(AT_FDCWD, \"/dev/null\", AT_STATX_SYNC_AS_STAT, "
		  "STATX_BASIC_STATS, {stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0, "
		  "stx_mode=S_IFCHR|0666, stx_size=0, ...}) = 0");
	dh_free(&d);
}

static void test_statx_sync_type_with_at_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_statx, 3, 0x1000, AT_EMPTY_PATH | 0x4000, 1, 0x7ffe0000, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "");
	CHECK_STR(dh_run(&d, -9), "statx(3, \"\", AT_STATX_DONT_SYNC|AT_EMPTY_PATH, STATX_TYPE, "
		  "0x7ffe0000) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

static void test_statfs_prints_magic_fsid_and_flags(void)
{
	struct dh d;
	struct statfs b;
	memset(&b, 0, sizeof(b));
	b.f_type = 0xef53;
	b.f_bsize = 4096;
	b.f_blocks = 66053021;
	b.f_bfree = 61889579;
	b.f_bavail = 20920855;
	b.f_files = 16777216;
	b.f_ffree = 16366383;
	int fsid[2] = { (int)0xe0e9ea3d, 0x19340c09 };
	memcpy(&b.f_fsid, fsid, sizeof(fsid));
	b.f_namelen = 255;
	b.f_frsize = 4096;
	b.f_flags = 0x1020;
	dh_init(&d, SYS_statfs, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp");
	dh_mem(&d, SC_AT_EXIT, 0x2000, &b, sizeof(b));
	CHECK_STR(dh_run(&d, 0), "statfs(\"/tmp\", {f_type=EXT2_SUPER_MAGIC, f_bsize=4096, "
		  "f_blocks=66053021, f_bfree=61889579, f_bavail=20920855, f_files=16777216, "
		  "f_ffree=16366383, f_fsid={val=[0xe0e9ea3d, 0x19340c09]}, f_namelen=255, "
		  "f_frsize=4096, f_flags=ST_VALID|ST_RELATIME}) = 0");
	dh_free(&d);
}

static void test_ustat(void)
{
	struct dh d;
	struct { int tfree; unsigned long tinode; char fname[6], fpack[6]; } u = { 7, 9, "", "" };
	dh_init(&d, SYS_ustat, 0x801, 0x1000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "ustat(makedev(0x8, 0x1), 0x1000) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_ustat, 0, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &u, sizeof(u));
	CHECK_STR(dh_run(&d, 0), "ustat(makedev(0, 0), {f_tfree=7, f_tinode=9}) = 0");
	dh_free(&d);
}

int main(void)
{
	/* strace prints the time comments in local time: pin it. */
	setenv("TZ", "UTC", 1);
	tzset();
	static const struct tk_case cases[] = {
		TK_CASE(test_newfstatat_abbreviates_without_v),
		TK_CASE(test_stat_verbose_prints_every_field_with_time_comments),
		TK_CASE(test_fstat_char_device_prints_rdev),
		TK_CASE(test_lstat_shares_stat_and_failure_prints_address),
		TK_CASE(test_statx_flags_mask_and_abbreviated_struct),
		TK_CASE(test_statx_sync_type_with_at_flags),
		TK_CASE(test_statfs_prints_magic_fsid_and_flags),
		TK_CASE(test_ustat),
	};
	return tk_run(cases, sizeof(cases) / sizeof(cases[0]));
}
