/* Exit and signal lines, and -P; see lines.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "lines.h"
#include "print_pid.h"
#include "print_signal.h"

static bool path_listed(const char *path, const char *const *paths, int npaths)
{
	for (int i = 0; i < npaths; i++)
		if (strcmp(path, paths[i]) == 0)
			return true;
	return false;
}

static bool fd_listed(struct sc_call *c, int fd, const char *const *paths, int npaths)
{
	char link[64], target[4096];
	if (fd < 0)
		return false;
	/* The mode's own record first: --kernel knows descriptors of processes gone by now. */
	if (c->fmt && c->fmt->fd_target) {
		int len = c->fmt->fd_target(c->fmt->fd_ctx, sc_pid_proc(c->tid), fd, target, sizeof(target));
		return len > 0 && path_listed(target, paths, npaths);
	}
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)c->tid, fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return path_listed(target, paths, npaths);
}

/* Calls whose descriptors are not (only) argument 0, as strace's -P looks at them. */
#define NO_FD 0xff
static const struct {
	const char *name;
	unsigned char fd[2];
} fd_args[] = {
	{ "dup2", { 0, 1 } }, { "dup3", { 0, 1 } }, { "sendfile", { 0, 1 } },
	{ "tee", { 0, 1 } }, { "kexec_file_load", { 0, 1 } },
	{ "copy_file_range", { 0, 2 } }, { "splice", { 0, 2 } },
	{ "linkat", { 0, 2 } }, { "renameat", { 0, 2 } }, { "renameat2", { 0, 2 } },
	{ "move_mount", { 0, 2 } }, { "symlinkat", { 1, NO_FD } },
	{ "mmap", { 4, NO_FD } }, { "epoll_ctl", { 2, NO_FD } },
	{ "fanotify_mark", { 3, NO_FD } },
};

/* poll and ppoll: each struct pollfd's fd, from the snapshot. */
static bool pollfds_listed(struct sc_call *c, const char *const *paths, int npaths)
{
	uint64_t n = c->args[1] > 1024 * 1024 ? 1024 * 1024 : c->args[1];
	for (uint64_t i = 0; i < n; i++) {
		int32_t fd;
		if (sc_mem_read(c, c->args[0] + i * 8, &fd, sizeof(fd)) < 0)
			return false;
		if (fd_listed(c, fd, paths, npaths))
			return true;
	}
	return false;
}

/* select and pselect6: the descriptors set in any of the three sets. */
static bool fdsets_listed(struct sc_call *c, const char *const *paths, int npaths)
{
	int nfds = (int)c->args[0];
	if (nfds <= 0)
		return false;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	size_t size = (((size_t)nfds + 63) / 64) * 8;
	for (int a = 1; a <= 3; a++) {
		const unsigned char *set;
		if (!c->args[a] || sc_mem_peek(c, c->args[a], size, &set) != (long)size)
			continue;
		for (int fd = 0; fd < nfds; fd++)
			if ((set[fd / 8] >> (fd % 8) & 1) && fd_listed(c, fd, paths, npaths))
				return true;
	}
	return false;
}

/* Descriptor calls whose first argument is not a descriptor: they make one. */
static bool first_arg_is_fd(const char *name)
{
	static const char *const makers[] = {
		"pidfd_open", "eventfd", "eventfd2", "epoll_create", "epoll_create1", "inotify_init",
		"inotify_init1", "memfd_create", "memfd_secret", "perf_event_open", "fanotify_init",
		"timerfd_create", "userfaultfd", "pipe", "pipe2", "socket", "socketpair",
	};
	for (size_t i = 0; i < sizeof(makers) / sizeof(makers[0]); i++)
		if (!strcmp(name, makers[i]))
			return false;
	return true;
}

/* A decoder's own list of what its call names (move_mount, fsconfig ...). */
static bool traced_args_listed(struct sc_call *c, const char *const *paths, int npaths)
{
	struct sc_trace_args t = { .nfd = 0 };
	c->ent->dec->trace_args(c, &t);
	for (int k = 0; k < t.npath; k++) {
		const unsigned char *p;
		long n = sc_mem_peek(c, t.path[k], 4096, &p);
		if (n > 0 && memchr(p, 0, (size_t)n) && path_listed((const char *)p, paths, npaths))
			return true;
	}
	for (int k = 0; k < t.nfd; k++)
		if (fd_listed(c, t.fd[k], paths, npaths))
			return true;
	return false;
}

bool sc_touches_path(struct sc_call *c, const char *const *paths, int npaths)
{
	const struct sc_entry *e = c->ent;
	if (!e)
		return false;
	if (e->dec && e->dec->trace_args)
		return traced_args_listed(c, paths, npaths);
	if (e->dec) {
		for (const struct sc_mem_spec *m = e->dec->mem; m->kind; m++) {
			if (m->kind != SC_MEM_STR || m->len_src != SC_LEN_PATH)
				continue;
			const unsigned char *p;
			long n = sc_mem_peek(c, c->args[m->arg], 4096, &p);
			if (n <= 0 || !memchr(p, 0, (size_t)n))
				continue;
			if (path_listed((const char *)p, paths, npaths))
				return true;
		}
	}
	if (!e->name)
		return false;
	for (size_t i = 0; i < sizeof(fd_args) / sizeof(fd_args[0]); i++) {
		if (strcmp(e->name, fd_args[i].name))
			continue;
		for (int k = 0; k < 2; k++)
			if (fd_args[i].fd[k] != NO_FD &&
			    fd_listed(c, (int)c->args[fd_args[i].fd[k]], paths, npaths))
				return true;
		return false;
	}
	if (!strcmp(e->name, "poll") || !strcmp(e->name, "ppoll"))
		return pollfds_listed(c, paths, npaths);
	if (!strcmp(e->name, "select") || !strcmp(e->name, "pselect6"))
		return fdsets_listed(c, paths, npaths);
	if (e->classes & SC_DESC && first_arg_is_fd(e->name))
		return fd_listed(c, (int)c->args[0], paths, npaths);
	return false;
}

void sc_exit_text(struct strbuf *sb, bool json, const struct timespec *real, pid_t tgid, pid_t tid,
		  bool killed, int code, bool core)
{
	if (json) {
		sb_printf(sb, "{\"type\":\"%s\",\"time\":%ld.%06ld,\"pid\":%d,\"tid\":%d,",
			  killed ? "killed" : "exit", (long)real->tv_sec, real->tv_nsec / 1000, (int)tgid,
			  (int)tid);
		if (!killed) {
			sb_printf(sb, "\"status\":%d}", code);
		} else {
			const char *name = sc_signame(code);
			sb_add(sb, "\"signal\":");
			json_str(sb, name ? name : "?");
			sb_printf(sb, ",\"core_dumped\":%s}", core ? "true" : "false");
		}
		return;
	}
	struct sc_call c = { .tid = tid, .out = sb };
	if (!killed) {
		sb_printf(sb, "+++ exited with %d +++", code);
	} else {
		sb_add(sb, "+++ killed by ");
		p_signal(&c, (uint64_t)code);
		sb_add(sb, core ? " (core dumped) +++" : " +++");
	}
}

void sc_signal_text(struct strbuf *sb, bool json, const struct timespec *real, pid_t tgid,
		    pid_t tid, int sig, const siginfo_t *si, const struct sc_fmt *fmt)
{
	struct sc_call c = { .tid = tid, .out = sb, .fmt = fmt };
	if (json) {
		sb_printf(sb, "{\"type\":\"signal\",\"time\":%ld.%06ld,\"pid\":%d,\"tid\":%d,\"signal\":",
			  (long)real->tv_sec, real->tv_nsec / 1000, (int)tgid, (int)tid);
		const char *name = sc_signame(sig);
		struct strbuf info = STRBUF_INIT;
		struct sc_call ic = { .tid = tid, .out = &info, .fmt = fmt };
		p_siginfo_val(&ic, si);
		if (name)
			json_str(sb, name);
		else
			sb_printf(sb, "%d", sig);
		sb_add(sb, ",\"siginfo\":");
		json_str(sb, sb_str(&info));
		sb_addc(sb, '}');
		sb_free(&info);
		return;
	}
	sb_add(sb, "--- ");
	p_signal(&c, (uint64_t)sig);
	sb_addc(sb, ' ');
	p_siginfo_val(&c, si);
	sb_add(sb, " ---");
}
