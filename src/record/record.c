/*
 * `tracekit record`: the whole recording, in the order that loses nothing.
 *
 *   instance (clock, buffer, record-tgid) -> the command forked but held
 *   before exec -> pid filter (set_event_pid + event-fork) -> events and
 *   filters -> recorder threads -> tracing on -> the command is released ->
 *   wait (command exit, Ctrl-C, --duration, --max-size) -> tracing off ->
 *   drain -> trace.dat -> instance removed.
 *
 * Every exit path after the instance exists goes through the same teardown.
 */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ftrace/functions.h"
#include "ftrace/registry.h"
#include "ftrace/session.h"
#include "probe/kernel.h"
#include "bufsize.h"
#include "meta.h"
#include "guest.h"
#include "net/agent.h"
#include "net/msg.h"
#include "netrec.h"
#include "output.h"
#include "recover.h"
#include "recorder.h"
#include "tracee/spawn.h"
#include "ust.h"
#include "tracefile/writer.h"
#include "util/stopsig.h"
#include "util/die.h"
#include "util/progress.h"
#include "util/strbuf.h"

/* The scheduling set that `sched` and `view` need. */
static const char *const default_events[] = {
	"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
	"sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_fork",
	"sched:sched_process_exec", "sched:sched_process_exit",
};

/*
 * With the scheduling set: the interrupt context around a wakeup, so `sched` tells a
 * timer's wakeup from another interrupt's (and from the task the interrupt hit).
 */
static const char *const waker_events[] = {
	"timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit", "irq:irq_handler_entry",
	"irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
};

/* Per CPU, for -p function|function_graph without -b. */
#define FUNC_BUFFER_KB 8192

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

bool rec_interrupted(void)
{
	return stop_requested;
}

/* The output's absolute path: what reset is told (the run's working directory is not its). */
static bool output_abs(const char *output, char *abs, size_t len)
{
	char dir[4096];
	const char *slash = strrchr(output, '/');
	const char *base = slash ? slash + 1 : output;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - output), output);
	else
		snprintf(dir, sizeof(dir), ".");
	char *real = realpath(dir[0] ? dir : "/", NULL);
	if (!real)
		return false;
	snprintf(abs, len, "%s/%s", strcmp(real, "/") ? real : "", base);
	free(real);
	return true;
}

/* In the registry entry name (see ftr_note_output). */
static void note_output(const char *name, const char *output)
{
	char abs[4200];
	if (output_abs(output, abs, sizeof(abs)))
		ftr_note_output(name, abs);
}

/*
 * The output and each guest's file (its FILE.part and FILE.cpuN while it records), so that
 * reset after a SIGKILL removes the guests' leftovers too.
 */
static void note_outputs_with_guests(const char *name, const struct rec_options *o,
				     const char *output)
{
	static char abs[FTR_MAX_OUTPUTS][4200];
	const char *paths[FTR_MAX_OUTPUTS];
	char gname[128], file[4200];
	int n = 0;

	if (output_abs(output, abs[n], sizeof(abs[n])))
		paths[n] = abs[n], n++;
	for (int i = 0; i < o->nguests && n < FTR_MAX_OUTPUTS; i++) {
		rec_guest_name(o->guests[i].agent, o->guests[i].name, gname, sizeof(gname));
		rec_guest_file(output, gname, file, sizeof(file));
		if (output_abs(file, abs[n], sizeof(abs[n])))
			paths[n] = abs[n], n++;
	}
	ftr_note_outputs(name, paths, n);
}

/* Every thread and descendant of pid now, from /proc (later ones come through event-fork). */
static void collect_tree(pid_t pid, pid_t **out, int *n)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		pid_t tid = (pid_t)atoi(e->d_name);
		if (tid <= 0)
			continue;
		*out = xrealloc(*out, sizeof(pid_t) * (size_t)(*n + 1));
		(*out)[(*n)++] = tid;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, tid);
		FILE *f = fopen(path, "re");
		int child;
		while (f && fscanf(f, "%d", &child) == 1)
			collect_tree(child, out, n);
		if (f)
			fclose(f);
	}
	closedir(d);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --probe: the recording's own probes, in a group only it uses, removed with it. */
static int setup_probes(struct ft_session *s, const struct rec_options *o, char *group,
			size_t glen, char *err, size_t errlen)
{
	char g[64], e[64];
	if (pk_run_group_new(group, glen, err, errlen) < 0)
		return -1;
	for (int i = 0; i < o->nprobes; i++)
		if (pk_create_spec(o->probes[i], group, g, sizeof(g), e, sizeof(e), err, errlen) < 0)
			return -1;
	return ft_enable_events(s, group, err, errlen);
}

/* The scheduling set is asked for: by default, or -e sched (the whole system). */
static bool wants_sched(const struct rec_options *o)
{
	if (!o->nevents)
		return !o->nprobes && !o->func.tracer;
	for (int i = 0; i < o->nevents; i++)
		if (!strcmp(o->events[i].spec, "sched") || !strcmp(o->events[i].spec, "sched:*"))
			return true;
	return false;
}

/* Add waker_events where the kernel has them; say which are missing, and what that costs. */
static void add_waker_events(struct ft_session *s, const struct rec_options *o)
{
	char err[512], missing[256] = "";
	size_t at = 0;

	if (!wants_sched(o))
		return;
	for (size_t i = 0; i < sizeof(waker_events) / sizeof(waker_events[0]); i++) {
		const char *ev = waker_events[i];
		size_t syslen = strcspn(ev, ":");
		bool given = false;
		for (int k = 0; k < o->nevents; k++) {	/* the event, or its whole system */
			const char *spec = o->events[k].spec;
			given |= !strcmp(spec, ev) || (strlen(spec) == syslen &&
						       !strncmp(spec, ev, syslen));
		}
		if (given)
			continue;
		if (ft_enable_events(s, waker_events[i], err, sizeof(err)) < 0 && at < sizeof(missing))
			at += (size_t)snprintf(missing + at, sizeof(missing) - at, "%s%s", at ? ", " : "",
					       waker_events[i]);
	}
	if (at)
		warnmsg("%s not available: sched tells wakeups in interrupts by their context "
			"only (a timer's as hardirq or softirq)", missing);
}

static int setup_events(struct ft_session *s, const struct rec_options *o, char *err, size_t errlen)
{
	if (!o->nevents && (o->nprobes || o->func.tracer))
		return 0;
	if (!o->nevents) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			if (ft_enable_events(s, default_events[i], err, errlen) < 0)
				return -1;
		add_waker_events(s, o);
		return 0;
	}
	/* streamed (-N, an agent's recording): no program's own tracepoints, every -e a kernel one */
	bool streamed = o->net || o->agent_link;
	for (int i = 0; i < o->nevents; i++) {
		if (!streamed && ust_is_user_spec(s, o->events[i].spec))
			continue;	/* the program's own: see ust.c */
		if (ft_enable_events(s, o->events[i].spec, err, errlen) < 0)
			return -1;
		if (o->events[i].filter &&
		    ft_set_filter(s, o->events[i].spec, o->events[i].filter, err, errlen) < 0)
			return -1;
	}
	add_waker_events(s, o);
	return 0;
}

/* Without -b: a buffer sized for the events enabled (bufsize.h). */
static int set_default_buffer(struct ft_session *s, char *err, size_t errlen)
{
	char **events = NULL;
	int n = ft_enabled_events(s, &events);
	unsigned kb = rec_buffer_kb_for(events, n, rec_mem_available_kb(), ft_cpu_count(s));
	ft_free_list(events, n);
	return ft_set_buffer_kb(s, kb, err, errlen);
}

/* Optional settings: a kernel that refuses one gets a warning, and the recording goes on. */
static void try_option(struct ft_session *s, const char *opt, bool needed_by_user)
{
	char err[512];
	if (ft_set_option(s, opt, true, err, sizeof(err)) < 0) {
		if (needed_by_user)
			warnmsg("%s; recording without it", err);
	}
}

/* "1.2 MB": a size as people read it. */
static void human_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes < 1024 * 1024)
		snprintf(buf, len, "%llu KB", (unsigned long long)(bytes / 1024));
	else if (bytes < 1024ull * 1024 * 1024)
		snprintf(buf, len, "%.1f MB", (double)bytes / (1024 * 1024));
	else
		snprintf(buf, len, "%.2f GB", (double)bytes / (1024.0 * 1024 * 1024));
}

/*
 * The live line on a terminal: the kernel's events so far, and how to stop
 * (user events are counted when their pages are written, at the end).
 */
static void show_progress(struct progress *p, const struct recorder *r)
{
	uint64_t events, lost, bytes;
	char size[32];

	if (!progress_due(p))
		return;
	rec_progress(r, &events, &lost, &bytes);
	human_size(bytes, size, sizeof(size));
	progress_show(p, "tracekit: record: %llu events, %llu lost, %s, %.1f s (Ctrl-C to stop)",
		      (unsigned long long)events, (unsigned long long)lost, size,
		      progress_elapsed(p));
}

/* Wait until the command ends, a stop is asked for, or a limit is reached. */
static int wait_for_end(const struct rec_options *o, struct held_child *c, struct recorder *r,
			int *status)
{
	double end = o->duration > 0 ? now_s() + o->duration : 0;
	struct progress p;
	int why = 0;

	/* The first line after half a second: a short recording shows none. */
	progress_init(&p, o->quiet, 0.5);
	for (;;) {
		if (c->pid > 0) {
			int st;
			pid_t w = waitpid(c->pid, &st, WNOHANG);
			if (w == c->pid) {
				*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				c->pid = -1;
				break;
			}
		}
		if (stop_requested || (o->agent_link && o->agent_link->stop &&
				       *o->agent_link->stop)) {
			why = 1;
			break;
		}
		if (end && now_s() >= end) {
			why = 2;
			break;
		}
		if (rec_should_stop(r)) {
			why = 3;
			break;
		}
		if (o->agent_link && net_agent_close_asked(o->agent_link)) {
			why = 4;
			break;
		}
		show_progress(&p, r);
		usleep(20000);
	}
	progress_done(&p);
	return why;
}

/*
 * A recording stopped before its command ended (Ctrl-C, SIGTERM from `reset --all`,
 * --duration, --max-size) stops tracing, not the command.  A Ctrl-C reaches the whole
 * process group, so give the command a moment to die of it; if it runs on, say so.
 */
static void tell_if_command_runs_on(struct held_child *c, const char *argv0, int *status)
{
	for (int i = 0; i < 20 && c->pid > 0; i++) {
		int st;
		if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
			/* its status, as when it ends first: the same Ctrl-C, the same exit */
			*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			c->pid = -1;
			return;
		}
		usleep(10000);
	}
	if (c->pid > 0) {
		const char *slash = strrchr(argv0, '/');
		fprintf(stderr, "tracekit: record: stopped; '%s' (pid %d) runs on, untraced\n",
			slash ? slash + 1 : argv0, (int)c->pid);
	}
}

/*
 * 127 before any user event: what a shell says for a command not found and
 * the dynamic loader for a shared library not found (libtracekit.so.0 of a
 * program built without an rpath).  Its own message went to the terminal;
 * this says what the status means for the recording.
 */
static void tell_not_started(const char *argv0)
{
	fprintf(stderr, "tracekit: record: '%s' exited with status 127 before its first event: the "
		"dynamic loader (or a shell) could not start it, most often a shared library not "
		"found (see its message above; build it with an rpath or set LD_LIBRARY_PATH)\n",
		argv0);
}

static void add_note(struct strbuf *sb, const char ***notes, int *n, const char *key, const char *val)
{
	(void)sb;
	size_t len = strlen(key) + strlen(val) + 2;
	char *note = xmalloc(len);
	snprintf(note, len, "%s=%s", key, val);
	*notes = xrealloc(*notes, sizeof(char *) * (size_t)(*n + 1));
	(*notes)[(*n)++] = note;
}

/* What was traced, for sched and view: "command=...", "command_pid=...", "maps=...", "follow=...". */
static int build_notes(const struct rec_options *o, pid_t command_pid, const char *maps,
		       const char ***notes)
{
	int nnotes = 0;
	struct strbuf sb = STRBUF_INIT;
	*notes = NULL;
	if (o->argv) {
		for (char **a = o->argv; *a; a++) {
			if (a != o->argv)
				sb_addc(&sb, ' ');
			sb_add(&sb, *a);
		}
		add_note(&sb, notes, &nnotes, "command", sb_str(&sb));
		/* Which process is the command, so analyses need not guess by name. */
		char pid[16];
		snprintf(pid, sizeof(pid), "%d", (int)command_pid);
		add_note(&sb, notes, &nnotes, "command_pid", pid);
		if (maps)	/* names the command's data (its locks) for analyses */
			add_note(&sb, notes, &nnotes, "maps", maps);
	}
	sb_reset(&sb);
	for (int i = 0; i < o->npids; i++)
		sb_printf(&sb, "%s%d", i ? "," : "", (int)o->pids[i]);
	if (o->npids)
		add_note(&sb, notes, &nnotes, "pids", sb_str(&sb));
	add_note(&sb, notes, &nnotes, "follow", o->follow_command ? "command" : o->npids ? "pids" : "system");
	sb_free(&sb);
	return nnotes;
}

static void free_notes(const char **notes, int n)
{
	for (int i = 0; i < n; i++)
		free((char *)notes[i]);
	free(notes);
}

/*
 * Written before recording, while there is room: a full disk that stops the
 * trace file leaves the per-CPU files with what `record --recover` needs.
 */
static void note_recover(struct ft_session *s, const struct rec_options *o, const char *output,
			 pid_t command_pid)
{
	const char **notes;
	int nnotes = build_notes(o, command_pid, NULL, &notes);
	rec_recover_note(s, notes, nnotes, o->clock ? o->clock : "mono",
			 o->file_version ? o->file_version : 7, output);
	free_notes(notes, nnotes);
}

static int write_trace(struct ft_session *s, const struct rec_options *o, struct recorder *r,
		       struct ust_rec *u, const struct tf_option *opts, int nopts,
		       const char *output, pid_t command_pid, const char *maps, char *err,
		       size_t errlen)
{
	const char **notes;
	int nnotes = build_notes(o, command_pid, maps, &notes);
	int ncpu;
	const struct tf_cpu_data *data = rec_cpu_data(r, &ncpu);
	int rc = rec_write_file(s, notes, nnotes, o->clock ? o->clock : "mono",
				o->file_version ? o->file_version : 7, data, ncpu, u, opts, nopts,
				output, err, errlen);
	free_notes(notes, nnotes);
	return rc;
}

/* One CPU's lost events: the stats and the page headers count them two ways, take the larger. */
static uint64_t cpu_lost(const struct rec_cpu_stats *st)
{
	uint64_t l = st->overrun + st->dropped + st->commit_overrun;
	return st->missed > l ? st->missed : l;
}

static void print_stats(const struct rec_options *o, struct recorder *r, const char *output)
{
	int n;
	const struct rec_cpu_stats *st = rec_stats(r, &n);
	uint64_t events = 0, lost = 0, bytes = 0;
	for (int i = 0; i < n; i++) {
		uint64_t l = cpu_lost(&st[i]);
		events += st[i].events;
		lost += l;
		bytes += st[i].bytes;
		if (!o->quiet)
			fprintf(stderr, "  CPU %d: %llu events, %llu lost, %llu KB\n", st[i].cpu,
				(unsigned long long)st[i].events, (unsigned long long)l,
				(unsigned long long)(st[i].bytes / 1024));
	}
	fprintf(stderr, "tracekit: record: %s: %llu events, %llu lost%s, %llu KB\n", output,
		(unsigned long long)events, (unsigned long long)lost,
		lost ? " (the buffer filled faster than it was read: try -b with more KB per CPU)" : "",
		(unsigned long long)(bytes / 1024));
}

/* record -N: the last pages, CLOSE, and the counts (the kernel's losses as print_stats). */
static int net_finish(struct rec_net *net, struct recorder *r, bool quiet, char *err,
		      size_t errlen)
{
	int n;
	const struct rec_cpu_stats *st = rec_stats(r, &n);
	unsigned long long events = 0, lost = 0;
	for (int i = 0; i < n; i++) {
		events += st[i].events;
		lost += cpu_lost(&st[i]);
	}
	return rec_net_finish(net, events, lost, quiet, err, errlen);
}

int rec_run(const struct rec_options *o)
{
	if (o->recover)
		return rec_recover(o->recover);
	char err[1024] = "";
	const char *output = o->output ? o->output : "trace.dat";
	int status = 1;
	struct held_child child = { .pid = -1, .go = -1, .failed = -1 };
	struct recorder *r = NULL;
	struct ust_rec *u = NULL;
	pid_t *pids = NULL;
	int npids = 0;
	char probe_group[64] = "";
	char *maps = NULL;
	bool kept_files = false;

	stop_requested = 0;
	catch_stop_signals(on_stop);
	struct ft_session *s = NULL;
	struct rec_net *net = NULL;
	struct rec_guest **guests = o->nguests ? xcalloc((size_t)o->nguests, sizeof(*guests)) : NULL;
	uint64_t trace_id = 0;
	/* TRACEID and a GUEST per guest */
	struct tf_option *opts = xcalloc((size_t)o->nguests + 1, sizeof(*opts));
	int nopts = 0;
	char spool[128];
	if (!o->net && rec_check_output(output, err, sizeof(err)) < 0)
		goto fail;
	s = o->func.tracer ? ft_function_session(o->func.tracer, err, sizeof(err))
			   : ft_session_new(err, sizeof(err));
	if (!s) {
		status = o->func.tracer && errno == EINVAL ? 2 : 1;	/* a mistyped -p */
		goto fail;
	}
	/*
	 * A new instance traces at once: off until the recorder runs, so the events enabled
	 * one by one start together (not sys_enter a few calls before sys_exit).
	 */
	if (!o->func.tracer && ft_tracing_on(s, false, err, sizeof(err)) < 0)
		goto fail;
	if (ft_set_clock(s, o->clock ? o->clock : "mono", err, sizeof(err)) < 0) {
		status = errno == EINVAL ? 2 : 1;	/* a clock this kernel lacks: fix -C */
		goto fail;
	}
	/* The function tracers fill a default-sized buffer in a blink: a bigger one unless -b. */
	unsigned buffer_kb = o->buffer_kb ? o->buffer_kb : o->func.tracer ? FUNC_BUFFER_KB : 0;
	if (buffer_kb && ft_set_buffer_kb(s, buffer_kb, err, sizeof(err)) < 0)
		goto fail;
	try_option(s, "record-tgid", false);
	if (o->kernel_stack)
		try_option(s, "stacktrace", true);
	if (o->user_stack)
		try_option(s, "userstacktrace", true);

	/* Before the command: it finds the user-event session in its environment. */
	if (!o->net && !o->agent_link)	/* user events are not streamed: they need the local file */
		u = ust_rec_start(s, o->events, o->nevents, o->pids, o->npids, o->clock, output,
			  o->buffer_kb, o->user_wait_ms, err, sizeof(err));
	if (!u && err[0])
		goto fail;
	if (o->argv && held_spawn(NULL, o->argv, &child, err, sizeof(err)) < 0)
		goto fail;
	if (o->follow_command && child.pid > 0) {
		pids = xmalloc(sizeof(pid_t));
		pids[npids++] = child.pid;
	}
	for (int i = 0; i < o->npids; i++) {
		int before = npids;
		collect_tree(o->pids[i], &pids, &npids);
		if (npids == before) {
			snprintf(err, sizeof(err), "no process %d (-P takes the pid of a running process)",
				 (int)o->pids[i]);
			goto fail;
		}
	}
	if (npids && ft_set_pids(s, pids, npids, true, err, sizeof(err)) < 0)
		goto fail;
	if (o->nprobes && setup_probes(s, o, probe_group, sizeof(probe_group), err, sizeof(err)) < 0)
		goto fail;
	if (setup_events(s, o, err, sizeof(err)) < 0) {
		/* An event that does not exist or a filter the kernel cannot parse: fix -e/-f. */
		status = errno == ENOENT || errno == EINVAL ? 2 : 1;
		goto fail;
	}
	/* Without -b: sized from the events (the function tracers' own size above). */
	if (!buffer_kb && set_default_buffer(s, err, sizeof(err)) < 0)
		goto fail;
	/*
	 * The reader woken at a tenth full, not the kernel's half: a recorder
	 * thread that waits for a CPU behind the traced program still finds room
	 * (bench/record.sh: no loss where half lost a tenth of the events).
	 */
	ft_set_buffer_percent(s, 10);	/* older kernels have no buffer_percent */
	if (ft_function_setup(s, &o->func, pids, npids, true, err, sizeof(err)) < 0)
		goto fail;

	/* Before the per-CPU files exist: a SIGKILL from here on leaves them for reset to find. */
	char abs[4200];
	if (o->agent_link) {
		const char **notes;
		int nnotes = build_notes(o, -1, NULL, &notes);
		/*
		 * On before the metadata goes: the host starts its command once it has the
		 * metadata and the data ports, so the guest's first events of it would be lost
		 * if tracing began only after (the ring buffer keeps them until read).
		 */
		if (ft_tracing_on(s, true, err, sizeof(err)) < 0) {
			free_notes(notes, nnotes);
			goto fail;
		}
		net = rec_net_start_agent(s, o->agent_link, o->file_version ? o->file_version : 7,
					  notes, nnotes, o->clock ? o->clock : "mono", spool,
					  sizeof(spool), err, sizeof(err));
		free_notes(notes, nnotes);
		if (!net)
			goto fail;
	} else if (o->net) {
		const char **notes;
		int nnotes = build_notes(o, child.pid, NULL, &notes);
		net = rec_net_start(s, o->net, o->net_tcp, o->file_version ? o->file_version : 7,
				    notes, nnotes, o->clock ? o->clock : "mono", spool, sizeof(spool),
				    err, sizeof(err));
		free_notes(notes, nnotes);
		if (!net)
			goto fail;
	} else if (!ft_session_is_top(s)) {
		note_outputs_with_guests(ft_instance_name(s), o, output);
		note_recover(s, o, output, child.pid);
	} else if (output_abs(output, abs, sizeof(abs)) &&
		   ft_session_note_output(s, abs) < 0) {
		snprintf(err, sizeof(err), "cannot note %.200s for reset: %s (it could not remove "
			 "a killed run's %.200s.cpuN)", output, strerror(errno), output);
		goto fail;
	}
	if (o->nguests) {
		if (getrandom(&trace_id, sizeof(trace_id), 0) != sizeof(trace_id))
			trace_id = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
		opts[nopts++] = (struct tf_option){ TF_OPT_TRACEID, &trace_id, 8 };
	}
	/* a Ctrl-C while an agent is slow to answer ends the wait (record's own is set up) */
	net_set_interrupt(&stop_requested);
	for (int i = 0; i < o->nguests; i++) {
		const struct rec_guest_arg *ga = &o->guests[i];
		struct rec_guest_opts go = {
			.hostport = ga->agent, .name = ga->name, .argv = ga->argv, .argc = ga->argc,
			.clock = o->clock ? o->clock : "mono", .trace_id = trace_id,
			.output = output, .tsync_interval_ms = o->tsync_interval_ms,
			.guest_pid = ga->pid, .quiet = o->quiet,
		};
		guests[i] = rec_guest_start(&go, err, sizeof(err));
		if (!guests[i]) {
			net_set_interrupt(NULL);
			goto fail;
		}
	}
	net_set_interrupt(NULL);
	r = rec_start(ft_instance_dir(s), ft_cpu_count(s), net ? spool : output,
		      (unsigned)sysconf(_SC_PAGESIZE), o->max_bytes, err, sizeof(err));
	if (!r || (net && rec_net_stream(net, err, sizeof(err)) < 0) ||
	    ft_tracing_on(s, true, err, sizeof(err)) < 0)
		goto fail;

	if (child.pid > 0) {
		if (held_release(&child, o->argv[0], err, sizeof(err)) < 0)
			goto fail;
		maps = held_exec_maps(&child);
	} else if (!o->quiet && !o->agent_link) {
		const char *who = o->npids ? " the given processes" : " the whole system";
		if (o->duration)	/* it stops by itself; Ctrl-C still ends it early */
			fprintf(stderr, "tracekit: record: recording%s for %.15g s\n", who, o->duration);
		else
			fprintf(stderr, "tracekit: record: recording%s; Ctrl-C to stop\n", who);
	}

	status = 0;
	pid_t command_pid = child.pid;
	int why = wait_for_end(o, &child, r, &status);
	ft_tracing_on(s, false, NULL, 0);
	if (why && child.pid > 0)
		tell_if_command_runs_on(&child, o->argv[0], &status);
	int e = 0;
	bool not_run = false;
	if (child.failed >= 0 && read(child.failed, &e, sizeof(e)) == sizeof(e) && e) {
		errmsg("cannot run '%s': %s", o->argv[0], strerror(e));
		status = 1;	/* as syscalls (and strace): a runtime error */
		not_run = true;
	}
	if (why == 3 && o->max_bytes && !o->quiet)
		fprintf(stderr, "tracekit: record: --max-size reached, recording stopped\n");

	bool write_failed = rec_stop(r, err, sizeof(err)) < 0;
	if (write_failed)
		errmsg("%s", err);
	if (u && ust_rec_stop(u, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		write_failed = true;
	}
	if (not_run)
		goto out;	/* nothing ran: an existing output stays as it was */
	if (net) {
		if (net_finish(net, r, o->quiet, err, sizeof(err)) < 0) {
			errmsg("%s", err);
			status = status ? status : 1;
		}
		goto out;
	}
	/* every guest stops recording at once, then each is read to its end */
	for (int i = 0; i < o->nguests; i++)
		rec_guest_ask_close(guests[i]);
	for (int i = 0; i < o->nguests; i++) {
		size_t glen = 0;
		if (rec_guest_stop(guests[i], err, sizeof(err)) < 0) {
			errmsg("%s", err);
			status = status ? status : 1;
			continue;
		}
		opts[nopts].id = TF_OPT_GUEST;
		opts[nopts].data = rec_guest_option(guests[i], &glen);
		opts[nopts++].len = (uint32_t)glen;
	}
	if (write_trace(s, o, r, u, opts, nopts, output, command_pid, maps, err,
			sizeof(err)) < 0) {
		char kept[256];
		/* Outlives the instance, so `tracekit reset` finds the files. */
		snprintf(kept, sizeof(kept), "%s-kept", ft_instance_name(s));
		note_output(kept, output);
		errmsg("%s (the per-CPU data is kept in %s.cpuN: once there is room, 'tracekit record "
		       "--recover %s' writes the trace from it; 'tracekit reset' removes it)",
		       err, output, output);
		kept_files = true;
		rec_free(r, true);
		r = NULL;
		status = status ? status : 1;
	} else {
		print_stats(o, r, output);
		bool unstarted = command_pid > 0 && status == 127 && !ust_rec_events(u);
		/* -e named nothing that exists, found only now: a usage error all the same */
		if (u && ust_rec_print_stats(u, s, output, o->quiet, !unstarted) && !status)
			status = 2;
		if (unstarted)
			tell_not_started(o->argv[0]);
		if (write_failed && !status)
			status = 1;
	}
	goto out;
fail:
	errmsg("%s", err);
	status = status ? status : 1;
	if (child.pid > 0) {
		/* Never started: the held child sees its pipe close and exits. */
		if (child.go >= 0)
			close(child.go);
		child.go = -1;
		waitpid(child.pid, NULL, 0);
	}
	if (r) {
		ft_tracing_on(s, false, NULL, 0);
		rec_stop(r, NULL, 0);
	}
out:
	if (!kept_files)	/* what --recover would need goes with the per-CPU files */
		rec_recover_forget(output);
	if (child.go >= 0)
		close(child.go);
	if (child.failed >= 0)
		close(child.failed);
	rec_free(r, false);
	rec_net_free(net);
	for (int i = 0; i < o->nguests; i++)
		rec_guest_free(guests[i]);
	free(guests);
	free(opts);
	ust_rec_free(u, false);
	ft_session_destroy(s);
	/* After the instance: an event still enabled in it cannot be removed. */
	if (probe_group[0])
		pk_run_group_end(probe_group);
	free(pids);
	free(maps);
	return status;
}
