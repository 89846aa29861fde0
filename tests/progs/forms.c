/*
 * forms: calls whose arguments strace prints in a form of their own, for the
 * option cases of tests/e2e/test_strace_opts.py (-X raw/verbose, -yy,
 * --decode-fds, -P, the -s limit).  Most calls fail on purpose; none changes
 * anything outside the process.  Every value printed is the same from run to
 * run, apart from addresses (the tests mask those).
 */
#include <asm/ldt.h>
#include <asm/prctl.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

#define PAGE 4096

/* mmap's type and flags, a NUMA mode with flags, rlimits, UTIME_*, faccessat2's flags. */
static void xlat_forms(void)
{
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
	struct rlimit rl;
	unsigned long base = 1;

	syscall(SYS_mmap, 0, 0, PROT_NONE, 0 /* MAP_FILE */, 0, 0);
	syscall(SYS_mmap, 0, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 1);
	syscall(SYS_mbind, 0, PAGE, 0x8000 /* MPOL_DEFAULT|MPOL_F_STATIC_NODES */, 0, 0, 0xff);
	syscall(SYS_getrlimit, RLIMIT_CPU, &rl);
	syscall(SYS_utimensat, AT_FDCWD, "/nonexistent/forms", ts, AT_SYMLINK_NOFOLLOW);
	syscall(SYS_faccessat2, -1, NULL, F_OK, 0xffffffffu);
	syscall(SYS_arch_prctl, ARCH_GET_GS, &base);
	syscall(SYS_arch_prctl, ARCH_GET_CPUID, 0);
	syscall(SYS_modify_ldt, 0, NULL, 0);
}

/* struct open_how and 8 bytes a newer caller would add: shown in hex. */
static void open_how_tail(void)
{
	struct {
		struct open_how how;
		unsigned char more[8];
	} big = { .how = { .flags = O_RDONLY }, .more = { 1, 2, 3, 4, 5, 6, 7, 8 } };

	syscall(SYS_openat2, AT_FDCWD, "/nonexistent/forms", &big, sizeof(big));
}

/* Descriptors on a device: -yy and --decode-fds=dev tell <char 1:7>; -P matches dup2's second fd. */
static void devices(void)
{
	int fd = open("/dev/full", O_WRONLY);

	check(fd >= 0, "open /dev/full");
	check(dup2(fd, 9) == 9, "dup2");
	fsync(9);
	close(9);
	close(fd);
}

/*
 * A buffer whose last readable byte is the -s limit's (32nd): strace reads
 * one more, so the first writev shows the address; a string one byte
 * shorter prints.
 */
static void buffer_at_page_end(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec io;

	check(p != MAP_FAILED, "mmap");
	check(munmap(p + PAGE, PAGE) == 0, "munmap");
	memset(p + PAGE - 33, 'x', 33);
	io = (struct iovec){ p + PAGE - 32, (size_t)-1 };
	syscall(SYS_writev, -1, &io, 1);
	io = (struct iovec){ p + PAGE - 33, (size_t)-1 };
	syscall(SYS_writev, -1, &io, 1);
	check(munmap(p, PAGE) == 0, "munmap");
}

int main(void)
{
	xlat_forms();
	open_how_tail();
	devices();
	buffer_at_page_end();
	return 0;
}
