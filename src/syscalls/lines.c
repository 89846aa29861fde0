/* Exit and signal lines, and -P; see lines.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "lines.h"
#include "print_signal.h"

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

/* Is descriptor fd of tid open on one of paths? */
static bool fd_is_path(pid_t tid, int fd, const char *const *paths, int npaths)
{
	char link[64], target[4096];
	if (fd < 0)
		return false;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	for (int i = 0; i < npaths; i++)
		if (strcmp(target, paths[i]) == 0)
			return true;
	return false;
}

static bool str_is_path(struct sc_call *c, uint64_t addr, const char *const *paths, int npaths)
{
	const unsigned char *p;
	long n = sc_mem_peek(c, addr, 4096, &p);
	if (n <= 0 || !memchr(p, 0, (size_t)n))
		return false;
	for (int i = 0; i < npaths; i++)
		if (strcmp((const char *)p, paths[i]) == 0)
			return true;
	return false;
}

bool sc_touches_path(struct sc_call *c, const char *const *paths, int npaths)
{
	const struct sc_entry *e = c->ent;
	struct sc_trace_args t = { .nfd = 0 };
	if (!e)
		return false;
	if (e->dec && e->dec->trace_args) {
		e->dec->trace_args(c, &t);
	} else {
		if (e->dec)
			for (const struct sc_mem_spec *m = e->dec->mem; m->kind; m++)
				if (m->kind == SC_MEM_STR && m->len_src == SC_LEN_PATH &&
				    str_is_path(c, c->args[m->arg], paths, npaths))
					return true;
		if (e->classes & SC_DESC && first_arg_is_fd(e->name))
			t.fd[t.nfd++] = (int)c->args[0];
	}
	for (int k = 0; k < t.npath; k++)
		if (str_is_path(c, t.path[k], paths, npaths))
			return true;
	for (int k = 0; k < t.nfd; k++)
		if (fd_is_path(c->tid, t.fd[k], paths, npaths))
			return true;
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
