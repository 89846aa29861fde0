/* Namespace calls: access, directories, links, owners, times, nodes, listings, xattrs, mounts. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_access_modes_and_unknown_bits(void)
{
	struct dh d;
	dh_init(&d, SYS_access, 0x1000, 6, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	CHECK_STR(dh_run(&d, 0), "access(\"/tmp/hf/f1\", R_OK|W_OK) = 0");
	dh_free(&d);
	dh_init(&d, SYS_access, 0x1000, 0x10, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp");
	CHECK_STR(dh_run(&d, -22), "access(\"/tmp\", 0x10 /* ?_OK */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_faccessat2_eaccess_flag(void)
{
	struct dh d;
	dh_init(&d, SYS_faccessat2, (uint64_t)-100, 0x1000, R_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f1");
	CHECK_STR(dh_run(&d, 0), "faccessat2(AT_FDCWD, \"f1\", R_OK, AT_SYMLINK_NOFOLLOW|AT_EACCESS) = 0");
	dh_free(&d);
}

static void test_chmod_and_fchmodat_share_mode_decoders(void)
{
	struct dh d;
	dh_init(&d, SYS_chmod, 0x1000, 04755, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f5");
	CHECK_STR(dh_run(&d, 0), "chmod(\"/tmp/hf/f5\", 04755) = 0");
	dh_free(&d);
	dh_init(&d, SYS_fchmodat, (uint64_t)-100, 0x1000, 0644, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f1");
	CHECK_STR(dh_run(&d, 0), "fchmodat(AT_FDCWD, \"f1\", 0644) = 0");
	dh_free(&d);
}

static void test_unlinkat_and_renameat2_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_unlinkat, (uint64_t)-100, 0x1000, AT_REMOVEDIR, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/d1");
	CHECK_STR(dh_run(&d, 0), "unlinkat(AT_FDCWD, \"/tmp/hf/d1\", AT_REMOVEDIR) = 0");
	dh_free(&d);
	dh_init(&d, SYS_renameat2, (uint64_t)-100, 0x1000, (uint64_t)-100, 0x2000, 2 | 4 | 0x80, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "a");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "b");
	CHECK_STR(dh_run(&d, -22), "renameat2(AT_FDCWD, \"a\", AT_FDCWD, \"b\", "
		  "RENAME_EXCHANGE|RENAME_WHITEOUT|0x80) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_symlinkat_and_link(void)
{
	struct dh d;
	dh_init(&d, SYS_symlinkat, 0x1000, (uint64_t)-100, 0x2000, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f1");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/tmp/hf/s2");
	CHECK_STR(dh_run(&d, 0), "symlinkat(\"f1\", AT_FDCWD, \"/tmp/hf/s2\") = 0");
	dh_free(&d);
	dh_init(&d, SYS_link, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f4");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/tmp/hf/f5");
	CHECK_STR(dh_run(&d, 0), "link(\"/tmp/hf/f4\", \"/tmp/hf/f5\") = 0");
	dh_free(&d);
}

static void test_readlink_returned_bytes_and_failure(void)
{
	struct dh d;
	dh_init(&d, SYS_readlinkat, (uint64_t)-100, 0x1000, 0x2000, 1, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/s2");
	dh_mem(&d, SC_AT_EXIT, 0x2000, "f", 1);
	CHECK_STR(dh_run(&d, 1), "readlinkat(AT_FDCWD, \"/tmp/hf/s2\", \"f\", 1) = 1");
	dh_free(&d);
	dh_init(&d, SYS_readlink, 0x1000, 0x7ffe0390, 64, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexist");
	CHECK_STR(dh_run(&d, -2),
		  "readlink(\"/nonexist\", 0x7ffe0390, 64) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_chown_minus_one_and_fchownat(void)
{
	struct dh d;
	dh_init(&d, SYS_lchown, 0x1000, 0, 0xffffffff, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f5");
	CHECK_STR(dh_run(&d, 0), "lchown(\"/tmp/hf/f5\", 0, -1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_fchownat, (uint64_t)-100, 0x1000, 1, 2, AT_SYMLINK_NOFOLLOW, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f5");
	CHECK_STR(dh_run(&d, 0), "fchownat(AT_FDCWD, \"f5\", 1, 2, AT_SYMLINK_NOFOLLOW) = 0");
	dh_free(&d);
}

static void test_getcwd_and_umask(void)
{
	struct dh d;
	dh_init(&d, SYS_getcwd, 0x1000, 256, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_EXIT, 0x1000, "/tmp/hf");
	CHECK_STR(dh_run(&d, 8), "getcwd(\"/tmp/hf\", 256) = 8");
	dh_free(&d);
	dh_init(&d, SYS_getcwd, 0x1000, 1, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -34), "getcwd(0x1000, 1) = -1 ERANGE (Numerical result out of range)");
	dh_free(&d);
	dh_init(&d, SYS_umask, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 022), "umask(000) = 022");
	dh_free(&d);
}

static void test_utimensat_omit_now_and_comments(void)
{
	struct dh d;
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 1700000000, 5 } };
	dh_init(&d, SYS_utimensat, (uint64_t)-100, 0x1000, 0x2000, AT_SYMLINK_NOFOLLOW, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f1");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "utimensat(AT_FDCWD, \"f1\", [UTIME_NOW, {tv_sec=1700000000, "
		  "tv_nsec=5} /* 2023-11-14T22:13:20.000000005+0000 */], AT_SYMLINK_NOFOLLOW) = 0");
	dh_free(&d);
	dh_init(&d, SYS_utimensat, 3, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "utimensat(3, NULL, NULL, 0) = 0");
	dh_free(&d);
}

static void test_utimes_prints_microseconds(void)
{
	struct dh d;
	struct timeval tv[2] = { { 1, 2 }, { 3, 4 } };
	dh_init(&d, SYS_utimes, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, tv, sizeof(tv));
	CHECK_STR(dh_run(&d, 0), "utimes(\"/tmp/hf/f1\", [{tv_sec=1, tv_usec=2} "
		  "/* 1970-01-01T00:00:01.000002+0000 */, {tv_sec=3, tv_usec=4} "
		  "/* 1970-01-01T00:00:03.000004+0000 */]) = 0");
	dh_free(&d);
}

static void test_mknod_dev_only_for_devices(void)
{
	struct dh d;
	dh_init(&d, SYS_mknod, 0x1000, S_IFBLK | 0600, makedev(8, 1), 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/blk");
	CHECK_STR(dh_run(&d, -17), "mknod(\"/tmp/hf/blk\", S_IFBLK|0600, makedev(0x8, 0x1)) = -1 EEXIST (File exists)");
	dh_free(&d);
	dh_init(&d, SYS_mknodat, (uint64_t)-100, 0x1000, S_IFIFO | 0644, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/fifo");
	CHECK_STR(dh_run(&d, 0), "mknodat(AT_FDCWD, \"/tmp/hf/fifo\", S_IFIFO|0644) = 0");
	dh_free(&d);
}

/* Three linux_dirent64 entries as the kernel lays them out: ".", "..", "a". */
static size_t dirents64(unsigned char *buf)
{
	static const struct { uint64_t ino; int64_t off; unsigned char type; const char *name; } e[] = {
		{ 10952787, 6357504699377170974, 4, "." },
		{ 10952866, 7709387121495409031, 4, ".." },
		{ 10952803, 9223372036854775807, 8, "a" },
	};
	memset(buf, 0, 72);
	for (int i = 0; i < 3; i++) {
		unsigned char *p = buf + 24 * i;
		uint16_t reclen = 24;
		memcpy(p, &e[i].ino, 8);
		memcpy(p + 8, &e[i].off, 8);
		memcpy(p + 16, &reclen, 2);
		p[18] = e[i].type;
		memcpy(p + 19, e[i].name, strlen(e[i].name));
	}
	return 72;
}

static void test_getdents64_counts_without_v_lists_with_v(void)
{
	struct dh d;
	unsigned char buf[72];
	size_t n = dirents64(buf);
	dh_init(&d, SYS_getdents64, 17, 0x1000, 4096, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, buf, n);
	CHECK_STR(dh_run(&d, 72), "getdents64(17, 0x1000 /* 3 entries */, 4096) = 72");
	dh_free(&d);
	dh_init(&d, SYS_getdents64, 17, 0x1000, 4096, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_EXIT, 0x1000, buf, n);
	CHECK_STR(dh_run(&d, 72), "getdents64(17, [{d_ino=10952787, d_off=6357504699377170974, "
		  "d_reclen=24, d_type=DT_DIR, d_name=\".\"}, {d_ino=10952866, "
		  "d_off=7709387121495409031, d_reclen=24, d_type=DT_DIR, d_name=\"..\"}, "
		  "{d_ino=10952803, d_off=9223372036854775807, d_reclen=24, d_type=DT_REG, "
		  "d_name=\"a\"}], 4096) = 72");
	dh_free(&d);
	dh_init(&d, SYS_getdents64, 17, 0x1000, 4096, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "getdents64(17, 0x1000 /* 0 entries */, 4096) = 0");
	dh_free(&d);
}

static void test_xattr_values_and_lists(void)
{
	struct dh d;
	dh_init(&d, SYS_setxattr, 0x1000, 0x2000, 0x3000, 3, 1, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "user.foo");
	dh_mem(&d, SC_AT_ENTRY, 0x3000, "bar", 3);
	CHECK_STR(dh_run(&d, 0), "setxattr(\"/tmp/hf/f1\", \"user.foo\", \"bar\", 3, XATTR_CREATE) = 0");
	dh_free(&d);
	dh_init(&d, SYS_lgetxattr, 0x1000, 0x2000, 0x7ffe1000, 10, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "user.nope");
	CHECK_STR(dh_run(&d, -61), "lgetxattr(\"/tmp/hf/f1\", \"user.nope\", 0x7ffe1000, 10) "
		  "= -1 ENODATA (No data available)");
	dh_free(&d);
	dh_init(&d, SYS_flistxattr, 3, 0x3000, 256, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x3000, "user.x", 7);
	CHECK_STR(dh_run(&d, 7), "flistxattr(3, \"user.x\\0\", 256) = 7");
	dh_free(&d);
	dh_init(&d, SYS_listxattr, 0x1000, 0, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	CHECK_STR(dh_run(&d, 9), "listxattr(\"/tmp/hf/f1\", NULL, 0) = 9");
	dh_free(&d);
}

static void test_inotify_and_fanotify(void)
{
	struct dh d;
	dh_init(&d, SYS_inotify_add_watch, 18, 0x1000, 0x302, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf");
	CHECK_STR(dh_run(&d, 1), "inotify_add_watch(18, \"/tmp/hf\", IN_MODIFY|IN_CREATE|IN_DELETE) = 1");
	dh_free(&d);
	dh_init(&d, SYS_fanotify_init, 1, O_RDONLY, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 19), "fanotify_init(FAN_CLASS_NOTIF|FAN_CLOEXEC, O_RDONLY) = 19");
	dh_free(&d);
	dh_init(&d, SYS_fanotify_mark, 19, 1, 0x28, (uint64_t)-100, 0x1000, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp");
	CHECK_STR(dh_run(&d, 0), "fanotify_mark(19, FAN_MARK_ADD, FAN_CLOSE_WRITE|FAN_OPEN, AT_FDCWD, \"/tmp\") = 0");
	dh_free(&d);
}

static void test_mount_type_and_data_ignored_for_bind_and_remount(void)
{
	struct dh d;
	dh_init(&d, SYS_mount, 0x1000, 0x2000, 0x3000, 6, 0x4000, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "none");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/tmp/hf/dd");
	dh_mem_str(&d, SC_AT_ENTRY, 0x3000, "tmpfs");
	dh_mem_str(&d, SC_AT_ENTRY, 0x4000, "size=1m");
	CHECK_STR(dh_run(&d, 0), "mount(\"none\", \"/tmp/hf/dd\", \"tmpfs\", MS_NOSUID|MS_NODEV, \"size=1m\") = 0");
	dh_free(&d);
	dh_init(&d, SYS_mount, 0, 0x2000, 0, 0x1020, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/tmp/hf/dd");
	CHECK_STR(dh_run(&d, -22), "mount(NULL, \"/tmp/hf/dd\", NULL, MS_REMOUNT|MS_BIND, NULL) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_umount2, 0x2000, 2, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/tmp/hf/dd");
	CHECK_STR(dh_run(&d, 0), "umount2(\"/tmp/hf/dd\", MNT_DETACH) = 0");
	dh_free(&d);
}

static void test_utime_struct_with_dates(void)
{
	struct dh d;
	int64_t t[2] = { 1234567890, 0x7fffffffffffffffLL };
	dh_init(&d, SYS_utime, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexistent");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, t, sizeof(t));
	CHECK_STR(dh_run(&d, -2), "utime(\"/nonexistent\", {actime=1234567890 /* "
		  "2009-02-13T23:31:30+0000 */, modtime=9223372036854775807}) = -1 ENOENT "
		  "(No such file or directory)");
	dh_free(&d);
}

/* Ids print unsigned but -1; modes are umode_t (16 bits); mknod's dev is 32 bits. */
static void test_unsigned_ids_masked_modes_and_dev(void)
{
	struct dh d;
	dh_init(&d, SYS_chown, 0x1000, 0xffff0000u, -1, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f");
	CHECK_STR(dh_run(&d, -2), "chown(\"f\", 4294901760, -1) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
	dh_init(&d, SYS_mkdir, 0x1000, 0xffffffffffff0006ULL, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f");
	CHECK_STR(dh_run(&d, -17), "mkdir(\"f\", 006) = -1 EEXIST (File exists)");
	dh_free(&d);
	dh_init(&d, SYS_mknod, 0x1000, 0xffffffff00002014ULL, 0xdeadbeef00000107ULL, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f");
	CHECK_STR(dh_run(&d, -17), "mknod(\"f\", S_IFCHR|024, makedev(0x1, 0x7)) = -1 EEXIST (File exists)");
	dh_free(&d);
	/* A path running into unreadable memory prints as its address. */
	dh_init(&d, SYS_mkdir, 0x1ffd, 0755, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ffd, "abc", 3);
	CHECK_STR(dh_run(&d, -14), "mkdir(0x1ffd, 0755) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

/* The epoch itself and invalid nanoseconds get no date; tv_nsec is unsigned. */
static void test_utimensat_no_date_for_zero_or_invalid(void)
{
	struct dh d;
	struct timespec ts[2] = { { 0, 0 }, { 3735928559, 4207869677 } };
	dh_init(&d, SYS_utimensat, (uint64_t)-100, 0x1000, 0x2000, 0x100, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "f");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, ts, sizeof(ts));
	CHECK_STR(dh_run(&d, -2), "utimensat(AT_FDCWD, \"f\", [{tv_sec=0, tv_nsec=0}, {tv_sec=3735928559, "
		  "tv_nsec=4207869677}], AT_SYMLINK_NOFOLLOW) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_lookup_dcookie_at_exit(void)
{
	struct dh d;
	dh_init(&d, SYS_lookup_dcookie, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -38), "lookup_dcookie(0, NULL, 0) = -1 ENOSYS (Function not implemented)");
	dh_free(&d);
	dh_init(&d, SYS_lookup_dcookie, 17390648783711107790ULL, 0x1000, 4096, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, "/bin/ls", 7);
	CHECK_STR(dh_run(&d, 7), "lookup_dcookie(17390648783711107790, \"/bin/ls\", 4096) = 7");
	dh_free(&d);
}

int main(void)
{
	/* strace prints the time comments in local time: pin it. */
	setenv("TZ", "UTC", 1);
	tzset();
	static const struct tk_case cases[] = {
		TK_CASE(test_lookup_dcookie_at_exit),
		TK_CASE(test_utimensat_no_date_for_zero_or_invalid),
		TK_CASE(test_unsigned_ids_masked_modes_and_dev),
		TK_CASE(test_access_modes_and_unknown_bits),
		TK_CASE(test_faccessat2_eaccess_flag),
		TK_CASE(test_chmod_and_fchmodat_share_mode_decoders),
		TK_CASE(test_unlinkat_and_renameat2_flags),
		TK_CASE(test_symlinkat_and_link),
		TK_CASE(test_readlink_returned_bytes_and_failure),
		TK_CASE(test_chown_minus_one_and_fchownat),
		TK_CASE(test_getcwd_and_umask),
		TK_CASE(test_utimensat_omit_now_and_comments),
		TK_CASE(test_utimes_prints_microseconds),
		TK_CASE(test_utime_struct_with_dates),
		TK_CASE(test_mknod_dev_only_for_devices),
		TK_CASE(test_getdents64_counts_without_v_lists_with_v),
		TK_CASE(test_xattr_values_and_lists),
		TK_CASE(test_inotify_and_fanotify),
		TK_CASE(test_mount_type_and_data_ignored_for_bind_and_remount),
	};
	return tk_run(cases, sizeof(cases) / sizeof(cases[0]));
}
