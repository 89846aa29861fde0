/* Descriptor paths from the trace itself, for -y in kernel mode; see kernel_fds.h. */
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel_fds.h"
#include "util/die.h"
#include "util/tidmap.h"

#define FD_MAX 65536

/* What the trace saw of a descriptor's socket: netlink messages decode by protocol. */
enum { SOCK_UNKNOWN = 0, SOCK_NOT_NETLINK = 1, SOCK_NETLINK = 2 /* + protocol */ };

struct fdtab {
	char **path;		/* by descriptor, NULL: not known */
	bool *cloexec;
	int *sock;		/* SOCK_*: what socket() made it */
	int n;
	char *cwd;		/* the working directory, from /proc at the start, chdir and fchdir since */
};

struct km_fds {
	struct tidmap procs;	/* tgid -> struct fdtab */
};

struct km_fds *km_fds_new(void)
{
	return xcalloc(1, sizeof(struct km_fds));
}

static void tab_free(struct fdtab *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++)
		free(f->path[i]);
	free(f->path);
	free(f->cloexec);
	free(f->sock);
	free(f->cwd);
	free(f);
}

void km_fds_free(struct km_fds *t)
{
	if (!t)
		return;
	tidmap_foreach(&t->procs, slot)
		tab_free(slot->val);
	tidmap_free(&t->procs);
	free(t);
}

static struct fdtab *tab(struct km_fds *t, pid_t tgid)
{
	struct fdtab *f = tidmap_get(&t->procs, tgid);
	if (!f) {
		f = xcalloc(1, sizeof(*f));
		tidmap_put(&t->procs, tgid, f);
	}
	return f;
}

static void set_sock(struct fdtab *f, long fd, const char *path, bool cloexec, int sock)
{
	if (fd < 0 || fd >= FD_MAX)
		return;
	if (fd >= f->n) {
		int n = (int)fd + 16;
		f->path = xrealloc(f->path, sizeof(*f->path) * (size_t)n);
		f->cloexec = xrealloc(f->cloexec, sizeof(*f->cloexec) * (size_t)n);
		f->sock = xrealloc(f->sock, sizeof(*f->sock) * (size_t)n);
		memset(f->path + f->n, 0, sizeof(*f->path) * (size_t)(n - f->n));
		memset(f->cloexec + f->n, 0, sizeof(*f->cloexec) * (size_t)(n - f->n));
		memset(f->sock + f->n, 0, sizeof(*f->sock) * (size_t)(n - f->n));
		f->n = n;
	}
	free(f->path[fd]);
	f->path[fd] = path ? xstrdup(path) : NULL;
	f->cloexec[fd] = cloexec;
	f->sock[fd] = sock;
}

static void set(struct fdtab *f, long fd, const char *path, bool cloexec)
{
	set_sock(f, fd, path, cloexec, SOCK_UNKNOWN);
}

static const char *known(const struct fdtab *f, long fd)
{
	return f && fd >= 0 && fd < f->n ? f->path[fd] : NULL;
}

static int known_sock(const struct fdtab *f, long fd)
{
	return f && fd >= 0 && fd < f->n ? f->sock[fd] : SOCK_UNKNOWN;
}

/* fd becomes a copy of from (dup*, F_DUPFD*). */
static void copy(struct fdtab *f, long fd, long from, bool cloexec)
{
	set_sock(f, fd, known(f, from), cloexec, known_sock(f, from));
}

/* The path argument at addr as the kernel read it, made absolute against dirfd when we can. */
static void opened(struct fdtab *f, pid_t tgid, struct sc_call *c, long dirfd, uint64_t addr, bool cloexec)
{
	const unsigned char *p;
	long n = sc_mem_peek(c, addr, 4096, &p);
	if (n <= 0 || !memchr(p, 0, (size_t)n)) {
		set(f, c->ret, NULL, cloexec);
		return;
	}
	char buf[8192], cwd[4096];
	const char *dir = NULL;
	if (p[0] != '/') {
		if ((int)dirfd == AT_FDCWD && f->cwd) {
			dir = f->cwd;
		} else if ((int)dirfd == AT_FDCWD) {
			char link[64];
			snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tgid);
			ssize_t k = readlink(link, cwd, sizeof(cwd) - 1);
			if (k > 0) {
				cwd[k] = '\0';
				dir = cwd;
			}
		} else {
			dir = known(f, dirfd);
		}
	}
	if (dir)
		snprintf(buf, sizeof(buf), "%s/%s", strcmp(dir, "/") ? dir : "", (const char *)p);
	else
		snprintf(buf, sizeof(buf), "%s", (const char *)p);
	set(f, c->ret, buf, cloexec);
}

/* clone(CLONE_PIDFD): the kernel stored the new pidfd at parent_tid (x86_64's third argument). */
static void pidfd_made(struct fdtab *f, struct sc_call *c)
{
	const unsigned char *p;
	int fd;
	if (!(c->args[0] & CLONE_PIDFD) || sc_mem_peek(c, c->args[2], sizeof(fd), &p) < (long)sizeof(fd))
		return;
	memcpy(&fd, p, sizeof(fd));
	set(f, fd, "anon_inode:[pidfd]", true);
}

bool km_fds_tracks(int nr)
{
	switch (nr) {
	case SYS_open: case SYS_creat: case SYS_openat: case SYS_openat2: case SYS_dup: case SYS_dup2:
	case SYS_dup3: case SYS_fcntl: case SYS_close: case SYS_close_range: case SYS_socket:
	case SYS_chdir: case SYS_fchdir:
		return true;
	}
	return false;
}

static void set_cwd(struct fdtab *f, const char *dir)
{
	free(f->cwd);
	f->cwd = dir ? xstrdup(dir) : NULL;
}

/* chdir(path): the new directory, made absolute against the old one (".." left as it is). */
static void chdir_to(struct fdtab *f, struct sc_call *c, uint64_t addr)
{
	const unsigned char *p;
	long n = sc_mem_peek(c, addr, 4096, &p);
	if (n <= 0 || !memchr(p, 0, (size_t)n) || (p[0] != '/' && !f->cwd)) {
		set_cwd(f, NULL);
		return;
	}
	char buf[8192];
	if (p[0] == '/')
		snprintf(buf, sizeof(buf), "%s", (const char *)p);
	else
		snprintf(buf, sizeof(buf), "%s/%s", strcmp(f->cwd, "/") ? f->cwd : "", (const char *)p);
	/* A path with . or .. parts is not what /proc would say: not kept. */
	set_cwd(f, strstr(buf, "/.") ? NULL : buf);
}

void km_fds_update(struct km_fds *t, pid_t tgid, const struct sc_call *call)
{
	struct sc_call *c = (struct sc_call *)call;	/* peeking counts misses only */
	if (c->ret < 0 && c->ret > -4096)
		return;
	struct fdtab *f = tab(t, tgid);
	/* Descriptors are ints to the kernel: the upper half of the register is not the number. */
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = (int)c->args[i];
	switch (c->nr) {
	case SYS_open:
		opened(f, tgid, c, AT_FDCWD, c->args[0], a[1] & O_CLOEXEC);
		break;
	case SYS_creat:
		opened(f, tgid, c, AT_FDCWD, c->args[0], false);
		break;
	case SYS_openat:
		opened(f, tgid, c, a[0], c->args[1], a[2] & O_CLOEXEC);
		break;
	case SYS_openat2:
		opened(f, tgid, c, a[0], c->args[1], false);
		break;
	case SYS_dup:
		copy(f, c->ret, (long)a[0], false);
		break;
	case SYS_dup2:
	case SYS_dup3:
		if (a[0] != a[1])
			copy(f, (long)a[1], (long)a[0], c->nr == SYS_dup3 && (a[2] & O_CLOEXEC));
		break;
	case SYS_fcntl:
		if (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC)
			copy(f, c->ret, (long)a[0], a[1] == F_DUPFD_CLOEXEC);
		break;
	case SYS_socket:
		set_sock(f, c->ret, NULL, a[1] & SOCK_CLOEXEC,
			 a[0] == AF_NETLINK ? SOCK_NETLINK + (int)a[2] : SOCK_NOT_NETLINK);
		break;
	case SYS_close:
		set(f, (long)a[0], NULL, false);
		break;
	case SYS_chdir:
		chdir_to(f, c, c->args[0]);
		break;
	case SYS_fchdir:
		set_cwd(f, known(f, a[0]));
		break;
	case SYS_clone:
		pidfd_made(f, c);
		break;
	case SYS_close_range:
		for (uint64_t fd = (unsigned)c->args[0]; fd <= (unsigned)c->args[1] && fd < (uint64_t)f->n; fd++)
			set(f, (long)fd, NULL, false);
		break;
	}
}

void km_fds_learn(struct km_fds *t, pid_t tgid, int fd, const char *path)
{
	struct fdtab *f = tab(t, tgid);
	/* socket() told the netlink protocol already: a name does not change it. */
	set_sock(f, fd, path, false, known_sock(f, fd));
}

void km_fds_seed(struct km_fds *t, pid_t tgid)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)tgid);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct fdtab *f = tab(t, tgid);
	char cwd[4096], cwdlink[64];
	snprintf(cwdlink, sizeof(cwdlink), "/proc/%d/cwd", (int)tgid);
	ssize_t k = readlink(cwdlink, cwd, sizeof(cwd) - 1);
	if (k > 0) {
		cwd[k] = '\0';
		set_cwd(f, cwd);
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char link[320], target[4096], info[4096];
		snprintf(link, sizeof(link), "%s/%s", dir, e->d_name);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		/* fdinfo's "flags:" is octal and holds O_CLOEXEC */
		snprintf(link, sizeof(link), "/proc/%d/fdinfo/%s", (int)tgid, e->d_name);
		unsigned long flags = 0;
		FILE *fi = fopen(link, "re");
		while (fi && fgets(info, sizeof(info), fi))
			if (sscanf(info, "flags: %lo", &flags) == 1)
				break;
		if (fi)
			fclose(fi);
		set(f, atol(e->d_name), target, flags & O_CLOEXEC);
	}
	closedir(d);
}

void km_fds_fork(struct km_fds *t, pid_t parent, pid_t child)
{
	const struct fdtab *p = tidmap_get(&t->procs, parent);
	if (!p || parent == child)
		return;
	struct fdtab *f = tab(t, child);
	for (int fd = 0; fd < p->n; fd++)
		if (p->path[fd] || p->sock[fd])
			set_sock(f, fd, p->path[fd], p->cloexec[fd], p->sock[fd]);
	set_cwd(f, p->cwd);
}

void km_fds_exec(struct km_fds *t, pid_t tgid)
{
	struct fdtab *f = tidmap_get(&t->procs, tgid);
	for (int fd = 0; f && fd < f->n; fd++)
		if (f->cloexec[fd])
			set(f, fd, NULL, false);
}

void km_fds_gone(struct km_fds *t, pid_t tgid)
{
	tab_free(tidmap_del(&t->procs, tgid));
}

int km_fds_netlink(const struct km_fds *t, pid_t tgid, int fd)
{
	int sock = known_sock(tidmap_get(&t->procs, tgid), fd);
	return sock == SOCK_UNKNOWN ? -2 : sock == SOCK_NOT_NETLINK ? -1 : sock - SOCK_NETLINK;
}

int km_fds_path(const struct km_fds *t, pid_t tgid, int fd, char *buf, size_t len)
{
	const struct fdtab *f = tidmap_get(&t->procs, tgid);
	const char *p = fd == AT_FDCWD ? (f ? f->cwd : NULL) : known(f, fd);
	if (!p || !len)
		return -1;
	snprintf(buf, len, "%s", p);
	return (int)strlen(buf);
}
