/*
 * files: exercises the file-descriptor and path syscalls once each, in a
 * fixed order, inside a private temp dir that is removed before exit.
 * Used by the e2e comparison against strace; output is the trace, not stdout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "progs.h"

static void exercise_fds(const char *path)
{
	char buf[64] = "";
	struct stat st;
	int fd, fd2;

	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0, "openat");
	check(write(fd, "hello, tracekit\n", 16) == 16, "write");
	check(pwrite(fd, "HELLO", 5, 0) == 5, "pwrite");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	check(read(fd, buf, 8) == 8, "read");
	check(pread(fd, buf, 4, 7) == 4, "pread");
	check(syscall(SYS_fstat, fd, &st) == 0, "fstat");

	struct iovec wv[2] = { { "ab", 2 }, { "cd\n", 3 } };
	check(writev(fd, wv, 2) == 5, "writev");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek");
	char a[3], b[5];
	struct iovec rv[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	check(readv(fd, rv, 2) == 8, "readv");

	check(fcntl(fd, F_GETFL) >= 0, "fcntl F_GETFL");
	check(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, "fcntl F_SETFD");
	fd2 = dup(fd);
	check(fd2 >= 0, "dup");
	check(dup2(fd, 10) == 10, "dup2");
	check(dup3(fd, 11, O_CLOEXEC) == 11, "dup3");
	check(ftruncate(fd, 4) == 0, "ftruncate");
	close(11);
	close(10);
	close(fd2);
	close(fd);
}

static void exercise_paths(const char *dir, const char *path)
{
	char p2[512], sub[512], link[512], target[512];
	struct stat st;
	struct statx stx;
	char dents[4096];
	int fd, pfd[2];

	snprintf(p2, sizeof(p2), "%s/renamed", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(link, sizeof(link), "%s/link", dir);

	check(syscall(SYS_stat, path, &st) == 0, "stat");
	check(syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) == 0, "newfstatat");
	check(syscall(SYS_statx, AT_FDCWD, path, 0, STATX_SIZE, &stx) == 0, "statx");
	check(syscall(SYS_access, path, R_OK | W_OK) == 0, "access");
	check(truncate(path, 2) == 0, "truncate");
	check(chmod(path, 0600) == 0, "chmod");
	umask(022);
	check(symlink("renamed", link) == 0, "symlink");
	check(readlink(link, target, sizeof(target)) == 7, "readlink");
	check(rename(path, p2) == 0, "rename");
	check(syscall(SYS_mkdir, sub, 0755) == 0, "mkdir");

	fd = syscall(SYS_openat, AT_FDCWD, dir, O_RDONLY | O_DIRECTORY);
	check(fd >= 0, "open dir");
	check(syscall(SYS_getdents64, fd, dents, sizeof(dents)) > 0, "getdents64");
	close(fd);

	check(syscall(SYS_rmdir, sub) == 0, "rmdir");
	check(syscall(SYS_unlink, link) == 0, "unlink");
	check(syscall(SYS_unlink, p2) == 0, "unlink");

	/* A path that does not exist: the tracer must print ENOENT. */
	fd = syscall(SYS_openat, AT_FDCWD, "/nonexistent/tracekit-progs", O_RDONLY);
	check(fd == -1 && errno == ENOENT, "open nonexistent");

	check(pipe2(pfd, O_CLOEXEC) == 0, "pipe2");
	check(write(pfd[1], "x", 1) == 1, "pipe write");
	check(read(pfd[0], target, 1) == 1, "pipe read");
	close(pfd[0]);
	close(pfd[1]);
}

int main(void)
{
	char dir[256];
	char path[512];

	make_tmpdir(dir, sizeof(dir), "files");
	snprintf(path, sizeof(path), "%s/data", dir);
	exercise_fds(path);
	exercise_paths(dir, path);
	check(rmdir(dir) == 0, "rmdir tmp");
	return 0;
}
