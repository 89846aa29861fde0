/*
 * `probe trace` on the kernel backend: the probes are made in a group unique
 * to this run, enabled in a private tracefs instance following the command
 * (set_event_pid + event-fork), and the instance's trace_pipe is printed as
 * it comes -- the kernel's own line format.  The group and the instance go
 * away on every path: command exit, Ctrl-C/SIGTERM/SIGHUP, any failure.
 *
 * What the kernel cannot print, tracekit fixes in the line: a :symbol arg on
 * a user address (the kernel got x64) is named through /proc/PID/maps and the
 * mapped file's symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ftrace/session.h"
#include "probe/hitline.h"
#include "probe/kernel.h"
#include "probe/live.h"
#include "probe/translate.h"
#include "tracee/spawn.h"
#include "util/stopsig.h"
#include "util/die.h"
#include "util/strbuf.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct comm_cache {
	int tid;
	char comm[16];		/* TASK_COMM_LEN */
};

struct live {
	const struct pl_options *o;
	struct probe_def *defs;
	char (*events)[64];
	size_t ndefs;
	char group[64];
	bool group_made;
	struct strbuf pending;	/* a partial line from trace_pipe */
	pid_t child;		/* the command we started */
	struct comm_cache comms[64];	/* names of tids the kernel printed as <...> */
	unsigned ncomms;
};

/* ---- :symbol args on user addresses ---- */

static const struct probe_def *def_of_event(const struct live *lv, const char *ev, size_t len)
{
	for (size_t i = 0; i < lv->ndefs; i++)
		if (strlen(lv->events[i]) == len && !memcmp(lv->events[i], ev, len))
			return &lv->defs[i];
	return NULL;
}

/*
 * The load bias of the probed file in this hit: the run-time address the line
 * shows in "(0xADDR)" (entry) or "(0xRET <- 0xFUNC)" (return) minus its
 * link-time address.  No /proc needed, so it works after the process is gone.
 */
static int hit_bias(const struct probe_def *def, const char *head, uint64_t *bias)
{
	const char *open = strstr(head, "(0x");
	if (!open)
		return -1;
	const char *arrow = strstr(open, "<- 0x");
	uint64_t at = strtoull(arrow ? arrow + 3 : open + 1, NULL, 16);
	*bias = at - (arrow ? def->func_vaddr : def->vaddr);
	return 0;
}

static void fix_symbols(const struct live *lv, const char *line, struct strbuf *out)
{
	/* "...: EVENT: (0x...) args" */
	const char *colon = strstr(line, ": ");
	const char *evs = colon ? colon + 2 : NULL;
	const char *eve = evs ? strchr(evs, ':') : NULL;
	const struct probe_def *def = eve ? def_of_event(lv, evs, (size_t)(eve - evs)) : NULL;
	if (!def || def->target != PD_USER) {
		sb_add(out, line);
		return;
	}
	const char *p = line;
	uint64_t bias = 0;
	hit_bias(def, eve, &bias);
	for (size_t i = 0; i < def->nargs; i++) {
		if (def->args[i].type.kind != PD_T_SYMBOL || def->args[i].type.array)
			continue;
		char key[80];
		snprintf(key, sizeof(key), " %s=0x", def->args[i].name);
		const char *at = strstr(p, key);
		if (!at)
			continue;
		const char *hex = at + strlen(key) - 2;
		char *end;
		uint64_t v = strtoull(hex, &end, 16);
		sb_addn(out, p, (size_t)(hex - p));
		if (ph_symbolize(def, bias, ph_line_pid(line), v, out) < 0)
			sb_addn(out, hex, (size_t)(end - hex));
		p = end;
	}
	sb_add(out, p);
}

/*
 * The name of tid, for a line the kernel printed as "<...>-TID" (its
 * saved_cmdlines did not have it yet, as for the first hits of a new
 * process): /proc/TID/comm, else the command's name for the process we
 * started.  Remembered, so later lines keep it after the process is gone.
 */
static const char *comm_of(struct live *lv, int tid)
{
	unsigned n = lv->ncomms < 64 ? lv->ncomms : 64;
	for (unsigned i = 0; i < n; i++)
		if (lv->comms[i].tid == tid)
			return lv->comms[i].comm;
	char path[64], name[16] = "";
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	if (!name[0] && tid == lv->child) {
		const char *slash = strrchr(lv->o->argv[0], '/');
		snprintf(name, sizeof(name), "%s", slash ? slash + 1 : lv->o->argv[0]);
	}
	if (!name[0])
		return NULL;
	struct comm_cache *c = &lv->comms[lv->ncomms++ % 64];
	c->tid = tid;
	memcpy(c->comm, name, sizeof(c->comm));
	return c->comm;
}

static void name_unknown_comm(struct live *lv, const char *line, struct strbuf *out)
{
	int tid = ph_unknown_comm_tid(line);
	const char *comm = tid > 0 ? comm_of(lv, tid) : NULL;
	if (comm)
		ph_set_comm(line, comm, out);
	else
		sb_add(out, line);
}

/*
 * $current->pid on a kernel whose fetch args cannot reach current: the
 * kernel wrote no field for it; its value is the line's own pid, put in
 * where the arg stands (before the next arg the kernel did print).
 */
static void put_event_pids(const struct live *lv, const char *line, struct strbuf *out)
{
	const char *colon = strstr(line, ": ");
	const char *evs = colon ? colon + 2 : NULL;
	const char *eve = evs ? strchr(evs, ':') : NULL;
	const struct probe_def *def = eve ? def_of_event(lv, evs, (size_t)(eve - evs)) : NULL;
	const char *p = line;
	const char *head = eve ? strchr(eve, ')') : NULL;
	for (size_t i = 0; def && head && i < def->nargs; i++) {
		if (!def->args[i].from_event_pid)
			continue;
		const char *at = NULL;
		for (size_t j = i + 1; j < def->nargs && !at; j++) {
			char key[80];
			if (!def->args[j].fetch)
				continue;
			snprintf(key, sizeof(key), " %s=", def->args[j].name);
			at = strstr(head, key);
		}
		if (!at)
			at = line + strlen(line);
		if (at < p)
			continue;
		sb_addn(out, p, (size_t)(at - p));
		sb_printf(out, " %s=%d", def->args[i].name, ph_line_pid(line));
		p = at;
	}
	sb_add(out, p);
}

static void emit_line(struct live *lv, const char *line)
{
	struct strbuf named = STRBUF_INIT, fixed = STRBUF_INIT, pids = STRBUF_INIT;
	name_unknown_comm(lv, line, &named);
	line = sb_str(&named);
	fix_symbols(lv, line, &fixed);
	put_event_pids(lv, sb_str(&fixed), &pids);
	ph_emit(sb_str(&pids), lv->o->json, stdout);
	sb_free(&pids);
	sb_free(&fixed);
	sb_free(&named);
}

/* Read what trace_pipe has (non-blocking) and print whole lines; 0 when it had nothing. */
static ssize_t pump(struct live *lv, int fd)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n <= 0)
		return n;
	sb_addn(&lv->pending, buf, (size_t)n);
	char *start = lv->pending.buf, *nl;
	while ((nl = memchr(start, '\n', lv->pending.len - (size_t)(start - lv->pending.buf)))) {
		*nl = '\0';
		emit_line(lv, start);
		start = nl + 1;
	}
	size_t rest = lv->pending.len - (size_t)(start - lv->pending.buf);
	memmove(lv->pending.buf, start, rest);
	sb_truncate(&lv->pending, rest);
	/* The reader went away (| head): stop as on Ctrl-C, cleaning up. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		stop_requested = 1;
		return 0;
	}
	return n;
}

static int make_probes(struct live *lv, char *err, size_t errlen)
{
	const struct pl_options *o = lv->o;
	lv->defs = xcalloc((size_t)o->nspecs, sizeof(*lv->defs));
	lv->events = xcalloc((size_t)o->nspecs, sizeof(*lv->events));
	/* Everything parsed and resolved before the kernel is touched. */
	for (int i = 0; i < o->nspecs; i++) {
		struct pd_error perr;
		if (pd_parse(o->specs[i], &lv->defs[i], &perr) < 0) {
			pd_error_line(o->specs[i], &perr, err, errlen);
			return -1;
		}
		lv->ndefs++;
		if (pk_supported(&lv->defs[i], err, errlen) < 0 ||
		    pd_resolve(&lv->defs[i], err, errlen) < 0)
			return -1;
		if (lv->defs[i].event)
			snprintf(lv->events[i], sizeof(lv->events[i]), "%s", lv->defs[i].event);
		else
			pd_event_name(&lv->defs[i], lv->events[i], sizeof(lv->events[i]));
		for (int j = 0; j < i; j++)
			if (!strcmp(lv->events[i], lv->events[j])) {
				snprintf(err, errlen, "two probes named '%s': name one with p:NAME ...",
					 lv->events[i]);
				return -1;
			}
	}
	if (pk_run_group_new(lv->group, sizeof(lv->group), err, errlen) < 0)
		return -1;
	lv->group_made = true;
	for (int i = 0; i < o->nspecs; i++) {
		char g[64], e[64];
		if (pk_create_spec(o->specs[i], lv->group, g, sizeof(g), e, sizeof(e), err, errlen) < 0)
			return -1;
	}
	return 0;
}

/*
 * After a stop was asked for: what became of the command.  A Ctrl-C at a
 * terminal reaches its whole process group, so the command usually got the
 * same SIGINT: give it a moment and say what really happened.
 */
static void report_child_after_stop(struct held_child *c, const char *name, int *status)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	int st = 0;
	pid_t pid = c->pid, got = 0;
	/* up to a second: a command's own SIGINT handler may clean up first (a shell's trap) */
	for (int i = 0; i < 50 && (got = waitpid(pid, &st, WNOHANG)) == 0; i++)
		nanosleep(&nap, NULL);
	if (got != pid) {
		fprintf(stderr, "tracekit: probe: stopped; '%s' (pid %d) runs on untraced\n", name,
			(int)pid);
		return;
	}
	c->pid = -1;
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "tracekit: probe: stopped; '%s' (pid %d) was killed by SIG%s too\n",
			name, (int)pid, sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?");
		*status = 128 + WTERMSIG(st);
	} else {
		fprintf(stderr, "tracekit: probe: stopped; '%s' (pid %d) exited with status %d\n",
			name, (int)pid, WEXITSTATUS(st));
		*status = WEXITSTATUS(st);
	}
}

static int wait_child(struct held_child *c, int *status)
{
	int st;
	if (c->pid <= 0)
		return 1;
	if (waitpid(c->pid, &st, WNOHANG) != c->pid)
		return 0;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	c->pid = -1;
	return 1;
}

int pl_run(const struct pl_options *o)
{
	char err[1024] = "";
	struct live lv = { .o = o, .pending = STRBUF_INIT };
	struct held_child child = { .pid = -1, .go = -1, .failed = -1 };
	struct ft_session *s = NULL;
	int status = 1, fd = -1;

	catch_stop_signals(on_stop);
	if (make_probes(&lv, err, sizeof(err)) < 0)
		goto fail;
	if (!(s = ft_session_new(err, sizeof(err))) ||
	    ft_set_clock(s, "mono", err, sizeof(err)) < 0 ||
	    held_spawn(NULL, o->argv, &child, err, sizeof(err)) < 0 ||
	    ft_set_pids(s, &child.pid, 1, true, err, sizeof(err)) < 0 ||
	    ft_enable_events(s, lv.group, err, sizeof(err)) < 0)
		goto fail;
	char path[512];
	snprintf(path, sizeof(path), "%s/trace_pipe", ft_instance_dir(s));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, sizeof(err), "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (ft_tracing_on(s, true, err, sizeof(err)) < 0)
		goto fail;
	if (held_release(&child, o->argv[0], err, sizeof(err)) < 0)
		goto fail;
	status = 0;
	while (!wait_child(&child, &status) && !stop_requested) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		poll(&pfd, 1, 50);
		while (pump(&lv, fd) > 0)
			;
	}
	ft_tracing_on(s, false, NULL, 0);
	while (pump(&lv, fd) > 0)
		;
	int e = 0;
	if (child.failed >= 0 && read(child.failed, &e, sizeof(e)) == sizeof(e) && e) {
		errmsg("cannot run '%s': %s", o->argv[0], strerror(e));
		status = 1;	/* as syscalls (and strace): a runtime error */
	}
	if (stop_requested && child.pid > 0)
		report_child_after_stop(&child, o->argv[0], &status);
	goto out;
fail:
	if (geteuid() != 0 && strstr(err, "needs root"))
		/* the breakpoint engine needs no root: say so where the user is stuck */
		errmsg("%s; without root, add --ptrace: tracekit probe trace --ptrace SPEC... -- COMMAND",
		       err);
	else
		errmsg("%s", err);
	status = 1;
	if (child.pid > 0) {
		if (child.go >= 0)
			close(child.go);
		child.go = -1;
		waitpid(child.pid, NULL, 0);
	}
out:
	if (fd >= 0)
		close(fd);
	if (child.go >= 0)
		close(child.go);
	if (child.failed >= 0)
		close(child.failed);
	/* The instance first: an event enabled in it cannot be removed. */
	ft_session_destroy(s);
	if (lv.group_made)
		pk_run_group_end(lv.group);
	for (size_t i = 0; i < lv.ndefs; i++)
		pd_free(&lv.defs[i]);
	free(lv.defs);
	free(lv.events);
	sb_free(&lv.pending);
	return status;
}
