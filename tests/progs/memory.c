/*
 * memory: the address-space syscalls once each — anonymous and file mmap,
 * mprotect, mremap, madvise, msync, mlock/munlock, munmap and brk.  The file
 * mapping uses a file in a private temp dir that is removed before exit.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "progs.h"

#define PAGE 4096

static void anon(void)
{
	char *p, *q;

	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(p != MAP_FAILED, "mmap anon");
	memset(p, 1, 4 * PAGE);
	check(mprotect(p, PAGE, PROT_READ) == 0, "mprotect");
	check(madvise(p + PAGE, PAGE, MADV_DONTNEED) == 0, "madvise");
	check(mlock(p + 2 * PAGE, PAGE) == 0, "mlock");
	check(munlock(p + 2 * PAGE, PAGE) == 0, "munlock");
	check(munmap(p, 4 * PAGE) == 0, "munmap");

	/* A fresh mapping to grow: mremap needs one uniform region. */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(p != MAP_FAILED, "mmap anon");
	q = mremap(p, 2 * PAGE, 8 * PAGE, MREMAP_MAYMOVE);
	check(q != MAP_FAILED, "mremap");
	check(munmap(q, 8 * PAGE) == 0, "munmap");
}

static void file_backed(void)
{
	char dir[256];
	char path[300];
	char *p;
	int fd;

	make_tmpdir(dir, sizeof(dir), "memory");
	snprintf(path, sizeof(path), "%s/map", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	check(fd >= 0, "open");
	check(ftruncate(fd, PAGE) == 0, "ftruncate");
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED, "mmap file");
	memcpy(p, "mapped", 6);
	check(msync(p, PAGE, MS_SYNC) == 0, "msync");
	check(munmap(p, PAGE) == 0, "munmap");
	close(fd);
	check(unlink(path) == 0, "unlink");
	check(rmdir(dir) == 0, "rmdir");
}

static void heap_break(void)
{
	/* Raw brk: libc's sbrk caches the break, the syscall shows each step. */
	unsigned long cur = syscall(SYS_brk, 0);
	unsigned long grown = syscall(SYS_brk, cur + 4 * PAGE);

	check(grown == cur + 4 * PAGE, "brk grow");
	check((unsigned long)syscall(SYS_brk, cur) == cur, "brk shrink");
}

int main(void)
{
	anon();
	file_backed();
	heap_break();
	return 0;
}
