/* fcntl: per-command arguments, lock structs, and the getters' result comments. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_getfl_prints_hex_and_open_modes(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 3, F_GETFL, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0x8002), "fcntl(3, F_GETFL) = 0x8002 (flags O_RDWR|O_LARGEFILE)");
	dh_free(&d);
}

static void test_getfd_comment_only_when_set(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 11, F_GETFD, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 1), "fcntl(11, F_GETFD) = 0x1 (flags FD_CLOEXEC)");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_GETFD, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_GETFD) = 0");
	dh_free(&d);
}

static void test_setfl_prints_access_mode_and_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 3, F_SETFL, O_NONBLOCK | O_APPEND, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_SETFL, O_RDONLY|O_APPEND|O_NONBLOCK) = 0");
	dh_free(&d);
}

static void test_dupfd_and_setfd(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 3, F_DUPFD_CLOEXEC, 30, 0, 0, 0);
	CHECK_STR(dh_run(&d, 30), "fcntl(3, F_DUPFD_CLOEXEC, 30) = 30");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_SETFD, FD_CLOEXEC, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_SETFD, FD_CLOEXEC) = 0");
	dh_free(&d);
}

static void test_setlk_and_getlk_structs(void)
{
	struct dh d;
	struct flock fl;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_len = 10;
	dh_init(&d, SYS_fcntl, 3, F_SETLK, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &fl, sizeof(fl));
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, "
		  "l_start=0, l_len=10}) = 0");
	dh_free(&d);
	fl.l_type = F_UNLCK;
	dh_init(&d, SYS_fcntl, 3, F_OFD_GETLK, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &fl, sizeof(fl));
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_OFD_GETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, "
		  "l_start=0, l_len=10, l_pid=0}) = 0");
	dh_free(&d);
}

static void test_seals_signals_and_leases(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 9, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fcntl(9, F_ADD_SEALS, F_SEAL_SHRINK|F_SEAL_GROW) = 0");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 9, F_GET_SEALS, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 6), "fcntl(9, F_GET_SEALS) = 0x6 (seals F_SEAL_SHRINK|F_SEAL_GROW)");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_SETSIG, SIGUSR1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_SETSIG, SIGUSR1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_GETSIG, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 10), "fcntl(3, F_GETSIG) = 10 (SIGUSR1)");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_GETLEASE, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 2), "fcntl(3, F_GETLEASE) = 0x2 (F_UNLCK)");
	dh_free(&d);
}

static void test_getown_ex_and_notify(void)
{
	struct dh d;
	struct f_owner_ex o = { F_OWNER_TID, 0 };
	dh_init(&d, SYS_fcntl, 3, F_GETOWN_EX, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "fcntl(3, F_GETOWN_EX, {type=F_OWNER_TID, pid=0}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 3, F_NOTIFY, DN_CREATE | DN_MULTISHOT, 0, 0, 0);
	CHECK_STR(dh_run(&d, -20), "fcntl(3, F_NOTIFY, DN_CREATE|DN_MULTISHOT) = -1 ENOTDIR (Not a directory)");
	dh_free(&d);
}

static void test_unknown_command_prints_hex(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 1, 9999, 5, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "fcntl(1, 0x270f /* F_??? */, 0x5) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_pipe_size_commands(void)
{
	struct dh d;
	dh_init(&d, SYS_fcntl, 7, F_GETPIPE_SZ, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 65536), "fcntl(7, F_GETPIPE_SZ) = 65536");
	dh_free(&d);
	dh_init(&d, SYS_fcntl, 7, F_SETPIPE_SZ, 8192, 0, 0, 0);
	CHECK_STR(dh_run(&d, 8192), "fcntl(7, F_SETPIPE_SZ, 8192) = 8192");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_getfl_prints_hex_and_open_modes),
	TK_CASE(test_getfd_comment_only_when_set),
	TK_CASE(test_setfl_prints_access_mode_and_flags),
	TK_CASE(test_dupfd_and_setfd),
	TK_CASE(test_setlk_and_getlk_structs),
	TK_CASE(test_seals_signals_and_leases),
	TK_CASE(test_getown_ex_and_notify),
	TK_CASE(test_unknown_command_prints_hex),
	TK_CASE(test_pipe_size_commands))
