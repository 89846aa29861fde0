/* sethostname, acct, syslog, reboot, ioperm, modules; lines from strace 6.1. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void check(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, int64_t ret,
		  const char *want)
{
	struct dh d;
	dh_init(&d, nr, a0, a1, a2, a3, 0, 0);
	CHECK_STR(dh_run(&d, ret), want);
	dh_free(&d);
}

static void test_hostname(void)
{
	struct dh d;
	check(SYS_sethostname, 0, 63, 0, 0, -EFAULT,
	      "sethostname(NULL, 63) = -1 EFAULT (Bad address)");
	dh_init(&d, SYS_sethostname, 0x1000, 12, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "hostname-xyz", 12);
	CHECK_STR(dh_run(&d, 0), "sethostname(\"hostname-xyz\", 12) = 0");
	dh_free(&d);
	/* Longer than a utsname field: the address, whatever is there. */
	dh_init(&d, SYS_sethostname, 0x1000, 300, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "hostname-xyz", 12);
	CHECK_STR(dh_run(&d, -EINVAL), "sethostname(0x1000, 300) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_setdomainname, 0x1000, 5, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "hostname-xyz", 12);
	CHECK_STR(dh_run(&d, 0), "setdomainname(\"hostn\", 5) = 0");
	dh_free(&d);
}

static void test_acct(void)
{
	check(SYS_acct, 0, 0, 0, 0, 0, "acct(NULL) = 0");
}

static void test_syslog_actions(void)
{
	struct dh d;
	check(SYS_syslog, 0, 0, 0, 0, 0, "syslog(0 /* SYSLOG_ACTION_CLOSE */) = 0");
	check(SYS_syslog, 2, 0, -1, 0, -EINVAL,
	      "syslog(2 /* SYSLOG_ACTION_READ */, NULL, -1) = -1 EINVAL (Invalid argument)");
	check(SYS_syslog, 8, 0xdeadbeef, 5, 0, 0,
	      "syslog(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, 0xdeadbeef, 5 /* LOGLEVEL_NOTICE */) = 0");
	check(SYS_syslog, 10, 0, 0, 0, 131072, "syslog(10 /* SYSLOG_ACTION_SIZE_BUFFER */) = 131072");
	check(SYS_syslog, -1, 0, 0, 0, -EINVAL,
	      "syslog(-1 /* SYSLOG_ACTION_??? */, NULL, 0) = -1 EINVAL (Invalid argument)");
	dh_init(&d, SYS_syslog, 3, 0x1000, 10, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, "<6>hello", 8);
	CHECK_STR(dh_run(&d, 8), "syslog(3 /* SYSLOG_ACTION_READ_ALL */, \"<6>hello\", 10) = 8");
	dh_free(&d);
}

static void test_reboot_and_ports(void)
{
	check(SYS_reboot, 0, 0, 0, 0, -EINVAL,
	      "reboot(0 /* LINUX_REBOOT_MAGIC_??? */, 0 /* LINUX_REBOOT_MAGIC_??? */, "
	      "LINUX_REBOOT_CMD_CAD_OFF) = -1 EINVAL (Invalid argument)");
	struct dh d;
	dh_init(&d, SYS_reboot, 0xfee1dead, 672274793, 0xA1B2C3D4, 0x1000, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "recovery");
	CHECK_STR(dh_run(&d, -EPERM), "reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, "
		  "LINUX_REBOOT_CMD_RESTART2, \"recovery\") = -1 EPERM (Operation not permitted)");
	dh_free(&d);
	check(SYS_iopl, 4, 0, 0, 0, -ENOSYS, "iopl(4) = -1 ENOSYS (Function not implemented)");
	check(SYS_ioperm, 0xdeadbeef, 0xbadc0ded, 0xdeadc0de, 0, -ENOSYS,
	      "ioperm(0xdeadbeef, 0xbadc0ded, -559038242) = -1 ENOSYS (Function not implemented)");
	check(SYS_vhangup, 0, 0, 0, 0, -EPERM, "vhangup() = -1 EPERM (Operation not permitted)");
}

static void test_modules(void)
{
	struct dh d;
	check(SYS_delete_module, 0, 0, 0, 0, -ENOSYS,
	      "delete_module(NULL, 0) = -1 ENOSYS (Function not implemented)");
	dh_init(&d, SYS_delete_module, 0x1000, 0xa40, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "hostname-xyz");
	CHECK_STR(dh_run(&d, -ENOSYS), "delete_module(\"hostname-xyz\", O_NONBLOCK|O_TRUNC|0x40) "
		  "= -1 ENOSYS (Function not implemented)");
	dh_free(&d);
	check(SYS_finit_module, -1, 0, 0xf0, 0, -ENOSYS,
	      "finit_module(-1, NULL, 0xf0 /* MODULE_INIT_??? */) = -1 ENOSYS (Function not implemented)");
	dh_init(&d, SYS_finit_module, -1, 0x1000, 7, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "hostname-xyz");
	CHECK_STR(dh_run(&d, -ENOSYS), "finit_module(-1, \"hostname-xyz\", "
		  "MODULE_INIT_IGNORE_MODVERSIONS|MODULE_INIT_IGNORE_VERMAGIC|"
		  "MODULE_INIT_COMPRESSED_FILE) = -1 ENOSYS (Function not implemented)");
	dh_free(&d);
	check(SYS_init_module, 0, 16, 0, 0, -ENOSYS,
	      "init_module(NULL, 16, NULL) = -1 ENOSYS (Function not implemented)");
}

static void test_swap(void)
{
	struct dh d;
	dh_init(&d, SYS_swapon, 0x1000, 0x18000 | 7, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexistent");
	CHECK_STR(dh_run(&d, -2), "swapon(\"/nonexistent\", SWAP_FLAG_PREFER|SWAP_FLAG_DISCARD|7) "
		  "= -1 ENOENT (No such file or directory)");
	dh_free(&d);
	check(SYS_swapon, 0, 0x80000 | 7, 0, 0, -22,
	      "swapon(NULL, 0x80000 /* SWAP_FLAG_??? */|7) = -1 EINVAL (Invalid argument)");
	check(SYS_swapoff, 0, 0, 0, 0, -14, "swapoff(NULL) = -1 EFAULT (Bad address)");
}

static void test_kexec(void)
{
	struct dh d;
	uint64_t seg[4] = { 0x5000, 16, 0x100000, 4096 };
	dh_init(&d, SYS_kexec_load, 0, 1, 0x1000, (62u << 16) | 3, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, seg, sizeof(seg));
	CHECK_STR(dh_run(&d, -ENOSYS), "kexec_load(NULL, 1, [{buf=0x5000, bufsz=16, mem=0x100000, "
		  "memsz=4096}], KEXEC_ARCH_X86_64|KEXEC_ON_CRASH|KEXEC_PRESERVE_CONTEXT) "
		  "= -1 ENOSYS (Function not implemented)");
	dh_free(&d);
	/* A size_t length past INT64_MAX is huge, not empty. */
	dh_init(&d, SYS_kexec_file_load, -1, -1, 0xcb0000000000000fULL, 0x1000, 0, 0);
	CHECK_STR(dh_run(&d, -ENOSYS), "kexec_file_load(-1, -1, 14627691589699371023, 0x1000, 0) "
		  "= -1 ENOSYS (Function not implemented)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_hostname),
	TK_CASE(test_acct),
	TK_CASE(test_syslog_actions),
	TK_CASE(test_reboot_and_ports),
	TK_CASE(test_modules),
	TK_CASE(test_swap),
	TK_CASE(test_kexec))
