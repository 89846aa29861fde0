/* open, openat: paths, access modes and flags, modes only when creating. */
#include <fcntl.h>
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

TK_MAIN(TK_CASE(test_openat_prints_dirfd_path_and_flags),
	TK_CASE(test_open_failure_prints_errno_and_text),
	TK_CASE(test_openat_creat_prints_mode_in_octal),
	TK_CASE(test_path_not_in_snapshot_prints_address))
