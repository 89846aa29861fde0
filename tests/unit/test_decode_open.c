/* open, openat: paths, access modes and flags, modes only when creating. */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_openat_prints_dirfd_path_and_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/etc/passwd");
	CHECK_STR(dh_run(&d, 3), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3");
	dh_free(&d);
}

static void test_open_failure_prints_errno_and_text(void)
{
	struct dh d;
	dh_init(&d, SYS_open, 0x1000, O_RDONLY, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexistent");
	CHECK_STR(dh_run(&d, -2), "open(\"/nonexistent\", O_RDONLY) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_openat_creat_prints_mode_in_octal(void)
{
	struct dh d;
	dh_init(&d, SYS_openat, 5, 0x1000, O_WRONLY | O_CREAT | O_TRUNC, 0644, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "out.txt");
	CHECK_STR(dh_run(&d, 4), "openat(5, \"out.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4");
	dh_free(&d);
}

static void test_path_not_in_snapshot_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_open, 0x7ffd1000, O_RDONLY, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -14), "open(0x7ffd1000, O_RDONLY) = -1 EFAULT (Bad address)");
	dh_free(&d);
}


static void test_openat_directory_prints_no_mode(void)
{
	struct dh d;
	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, O_RDONLY | O_DIRECTORY, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, ".");
	CHECK_STR(dh_run(&d, 16), "openat(AT_FDCWD, \".\", O_RDONLY|O_DIRECTORY) = 16");
	dh_free(&d);
}

static void test_openat_tmpfile_and_sync_print_composite_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, O_RDWR | O_TMPFILE, 0600, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/x");
	CHECK_STR(dh_run(&d, -2), "openat(AT_FDCWD, \"/tmp/hf/x\", O_RDWR|O_TMPFILE, 0600) "
		  "= -1 ENOENT (No such file or directory)");
	dh_free(&d);
	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, O_WRONLY | O_SYNC, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	CHECK_STR(dh_run(&d, 5), "openat(AT_FDCWD, \"/tmp/hf/f1\", O_WRONLY|O_SYNC) = 5");
	dh_free(&d);
	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, 3 | 0x40000000, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	CHECK_STR(dh_run(&d, 7), "openat(AT_FDCWD, \"/tmp/hf/f1\", O_ACCMODE|0x40000000) = 7");
	dh_free(&d);
}

static void test_creat_and_openat2(void)
{
	struct dh d;
	dh_init(&d, SYS_creat, 0x1000, 0640, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f3");
	CHECK_STR(dh_run(&d, 15), "creat(\"/tmp/hf/f3\", 0640) = 15");
	dh_free(&d);
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = 0x04 | 0x08 };
	dh_init(&d, SYS_openat2, (uint64_t)-100, 0x1000, 0x2000, sizeof(how), 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &how, sizeof(how));
	CHECK_STR(dh_run(&d, -18), "openat2(AT_FDCWD, \"/tmp/hf/f1\", {flags=O_RDONLY|O_CLOEXEC, "
		  "resolve=RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH}, 24) = -1 EXDEV (Invalid cross-device link)");
	dh_free(&d);
}

static void test_memfd_create_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_memfd_create, 0x1000, 3, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "mymem");
	CHECK_STR(dh_run(&d, 9), "memfd_create(\"mymem\", MFD_CLOEXEC|MFD_ALLOW_SEALING) = 9");
	dh_free(&d);
}

static void test_name_to_handle_at_size_change_and_handle(void)
{
	struct dh d;
	unsigned char in[8] = { 128, 0, 0, 0, 0, 0, 0, 0 };
	unsigned char outh[16] = { 8, 0, 0, 0, 1, 0, 0, 0, 0xd2, 0x21, 0xa7, 0, 0x5e, 0xd4, 0x60, 0xfa };
	int mnt = 27;
	dh_init(&d, SYS_name_to_handle_at, (uint64_t)-100, 0x1000, 0x2000, 0x3000, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/tmp/hf/f1");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x2000, outh, sizeof(outh));
	dh_mem(&d, SC_AT_EXIT, 0x3000, &mnt, sizeof(mnt));
	CHECK_STR(dh_run(&d, 0), "name_to_handle_at(AT_FDCWD, \"/tmp/hf/f1\", {handle_bytes=128 => 8, "
		  "handle_type=1, f_handle=\"\\xd2\\x21\\xa7\\x00\\x5e\\xd4\\x60\\xfa\"}, [27], 0) = 0");
	dh_free(&d);
}

/* memfd_create's name may be 249 bytes and a NUL, whatever -s says is more. */
static void test_memfd_create_name_limit(void)
{
	struct dh d;
	char name[300];
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	dh_init(&d, SYS_memfd_create, 0x1000, 0, 0, 0, 0, 0);
	d.fmt.strsize = 256;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, name, sizeof(name));
	char want[400];
	snprintf(want, sizeof(want), "memfd_create(\"%.250s\"..., 0) = -1 EINVAL (Invalid argument)", name);
	CHECK_STR(dh_run(&d, -22), want);
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_memfd_create_name_limit),
	TK_CASE(test_openat_prints_dirfd_path_and_flags),
	TK_CASE(test_open_failure_prints_errno_and_text),
	TK_CASE(test_openat_creat_prints_mode_in_octal),
	TK_CASE(test_path_not_in_snapshot_prints_address),
	TK_CASE(test_openat_directory_prints_no_mode),
	TK_CASE(test_openat_tmpfile_and_sync_print_composite_flags),
	TK_CASE(test_creat_and_openat2),
	TK_CASE(test_memfd_create_flags),
	TK_CASE(test_name_to_handle_at_size_change_and_handle))
