/*
 * ftrace session: one private instance per recording (see session.h).
 *
 * Every write goes through inst_write() so a refusal always names the file
 * and the value; the kernel's answers (EPERM on files this kernel locks,
 * EINVAL on a bad value) pass through in errno so callers can tell an
 * optional feature refused from a broken recording.
 */
#include "ftrace/session.h"
#include "ftrace/events.h"
#include "ftrace/registry.h"
#include "ftrace/toplevel.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

struct ft_session {
	struct tracefs_instance *inst;
	char *root;		/* tracefs mount point */
	char *dir;		/* the instance's directory */
	char name[64];
	int ncpus;
	char **events;		/* "system:event", in the order enabled */
	int nevents;
	struct tep_handle *tep;
	struct ftt_state *top;	/* the borrowed top level (inst NULL), see toplevel.h */
};

/* Numbers sessions within this process: "tracekit-<pid>-<n>". */
static unsigned session_seq;

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int e = errno;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	errno = e;
}

/* At the top level, rel's old value is saved before the first write to it. */
static int top_save(struct ft_session *s, const char *rel, char *err, size_t errlen)
{
	char dummy[8];
	if (!s->top)
		return 0;
	return ftt_save(s->top, rel, err ? err : dummy, err ? errlen : sizeof(dummy));
}

/* Write val to the instance's file rel; on refusal, err names both. */
static int inst_write(struct ft_session *s, const char *rel, const char *val,
		      char *err, size_t errlen)
{
	if (top_save(s, rel, err, errlen) < 0)
		return -1;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	if (ft_write_file(path, val) == 0)
		return 0;
	set_err(err, errlen, "tracefs refused writing '%s' to %s/%s: %s", val, s->dir, rel,
		strerror(errno));
	return -1;
}

static int count_cpus(const char *dir)
{
	char path[PATH_MAX];
	int max = -1;
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	DIR *d = opendir(path);
	if (!d)
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	for (struct dirent *de; (de = readdir(d));) {
		int cpu;
		if (sscanf(de->d_name, "cpu%d", &cpu) == 1 && cpu > max)
			max = cpu;
	}
	closedir(d);
	return max + 1;
}

/* Create a fresh instance; a name already in use (a leftover of an earlier pid) is skipped. */
static int create_instance(struct ft_session *s, char *err, size_t errlen)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned n = __atomic_fetch_add(&session_seq, 1, __ATOMIC_RELAXED);
		snprintf(s->name, sizeof(s->name), FT_INSTANCE_PREFIX "%d-%u", (int)getpid(), n);
		if (tracefs_instance_exists(s->name))
			continue;
		/* Registered first: a SIGKILL right after mkdir still leaves a trace for reset. */
		bool registered = ftr_register(s->name) == 0;
		s->inst = tracefs_instance_create(s->name);
		if (s->inst && tracefs_instance_is_new(s->inst))
			return 0;
		int e = errno;
		if (registered)
			ftr_unregister(s->name);
		if (s->inst) {
			tracefs_instance_free(s->inst);
			s->inst = NULL;
			continue;
		}
		errno = e;
		if (e == EACCES || e == EPERM)
			set_err(err, errlen, "tracefs needs root (run as root or with sudo)");
		else
			set_err(err, errlen, "cannot create tracefs instance %s/instances/%s: %s",
				s->root, s->name, strerror(e));
		return -1;
	}
	set_err(err, errlen, "cannot find a free tracefs instance name (run 'tracekit reset')");
	return -1;
}

struct ft_session *ft_session_new_top(const char *purpose, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return NULL;
	struct ft_session *s = calloc(1, sizeof(*s));
	if (!s || !(s->root = strdup(root)) || !(s->dir = strdup(root))) {
		set_err(err, errlen, "out of memory");
		goto fail;
	}
	snprintf(s->name, sizeof(s->name), "top level");
	s->top = ftt_claim(root, purpose, true, err, errlen);
	if (!s->top)
		goto fail;
	s->ncpus = count_cpus(s->dir);
	return s;
fail:
	ft_session_destroy(s);
	return NULL;
}

int ft_session_note_output(struct ft_session *s, const char *output)
{
	return s->top ? ftt_note_output(s->top, output) : ftr_note_output(s->name, output);
}

bool ft_session_is_top(const struct ft_session *s)
{
	return s->top != NULL;
}

struct ft_session *ft_session_new(char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return NULL;
	struct ft_session *s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	s->root = strdup(root);
	if (!s->root)
		goto oom;
	if (create_instance(s, err, errlen) < 0)
		goto fail;
	s->dir = tracefs_instance_get_dir(s->inst);
	if (!s->dir)
		goto oom;
	s->ncpus = count_cpus(s->dir);
	return s;
oom:
	set_err(err, errlen, "out of memory");
fail:
	ft_session_destroy(s);
	return NULL;
}

/*
 * rmdir fails with EBUSY while a file of the instance is still open (a
 * recorder thread closing its trace_pipe_raw); give it a moment.
 */
static int destroy_instance(struct tracefs_instance *inst)
{
	for (int i = 0; i < 100; i++) {
		if (tracefs_instance_destroy(inst) == 0)
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	return -1;
}

void ft_session_destroy(struct ft_session *s)
{
	if (!s)
		return;
	if (s->top) {
		ftt_release(s->top);
	} else if (s->inst) {
		tracefs_instance_file_write(s->inst, "tracing_on", "0");
		tracefs_event_disable(s->inst, NULL, NULL);
		tracefs_instance_file_write(s->inst, "set_event_pid", "");
		/* Left registered when rmdir fails, so 'tracekit reset' can retry. */
		if (destroy_instance(s->inst) == 0)
			ftr_unregister(s->name);
		tracefs_instance_free(s->inst);
	}
	ft_free_list(s->events, s->nevents);
	if (s->tep)
		tep_free(s->tep);
	tracefs_put_tracing_file(s->dir);
	free(s->root);
	free(s);
}

const char *ft_tracefs_dir(const struct ft_session *s)
{
	return s->root;
}

const char *ft_instance_dir(const struct ft_session *s)
{
	return s->dir;
}

const char *ft_instance_name(const struct ft_session *s)
{
	return s->name;
}

int ft_cpu_count(const struct ft_session *s)
{
	return s->ncpus;
}

void ft_free_list(char **list, int n)
{
	if (!list)
		return;
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* ---- events ---- */

/* The events spec names; none is an error that names the closest ones. */
static int expand_spec(const char *spec, char ***list, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		set_err(err, errlen, "empty event name (use SYSTEM:EVENT, SYSTEM or a glob)");
		return -1;
	}
	int n = ft_list_events(spec, list, err, errlen);
	if (n == 0) {
		ft_free_list(*list, 0);
		ft_event_not_found(spec, err, errlen);
		errno = ENOENT;
		return -1;
	}
	return n;
}

/* Split "system:event" in place; returns the event part. */
static char *split_event(char *full)
{
	char *colon = strchr(full, ':');
	if (!colon)
		return NULL;
	*colon = '\0';
	return colon + 1;
}

static bool is_enabled(const struct ft_session *s, const char *full)
{
	for (int i = 0; i < s->nevents; i++)
		if (strcmp(s->events[i], full) == 0)
			return true;
	return false;
}

static int enable_one(struct ft_session *s, const char *full, char *err, size_t errlen)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", full);
	char *ev = split_event(buf);
	if (!ev)
		return 0;
	/*
	 * The exact event's enable file: tracefs_event_enable() takes regexes and
	 * rescans the system's directory per call, slow for syscalls:* (700 events).
	 */
	char rel[512];
	snprintf(rel, sizeof(rel), "events/%s/%s/enable", buf, ev);
	if (top_save(s, rel, err, errlen) < 0)
		return -1;
	errno = 0;
	if (tracefs_event_file_write(s->inst, buf, ev, "enable", "1") < 0) {
		if (!errno)
			errno = EIO;
		set_err(err, errlen, "tracefs refused writing '1' to %s/events/%s/%s/enable: %s",
			s->dir, buf, ev, strerror(errno));
		return -1;
	}
	if (is_enabled(s, full))
		return 0;
	char **grown = realloc(s->events, (size_t)(s->nevents + 1) * sizeof(*grown));
	char *copy = strdup(full);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			s->events = grown;
		set_err(err, errlen, "out of memory");
		return -1;
	}
	s->events = grown;
	s->events[s->nevents++] = copy;
	return 0;
}

int ft_enable_events(struct ft_session *s, const char *spec, char *err, size_t errlen)
{
	char **list;
	int n = expand_spec(spec, &list, err, errlen);
	if (n < 0)
		return -1;
	int ret = 0;
	for (int i = 0; i < n && ret == 0; i++)
		ret = enable_one(s, list[i], err, errlen);
	ft_free_list(list, n);
	return ret;
}

int ft_enabled_events(const struct ft_session *s, char ***list)
{
	*list = calloc((size_t)s->nevents + 1, sizeof(**list));
	if (!*list)
		return -1;
	for (int i = 0; i < s->nevents; i++) {
		(*list)[i] = strdup(s->events[i]);
		if (!(*list)[i]) {
			ft_free_list(*list, i);
			*list = NULL;
			return -1;
		}
	}
	return s->nevents;
}

/*
 * error_log's last entry as one line:
 *   "[  12.3] event filter parse error: error: Field not found\n  Command: x ==\n      ^\n"
 * becomes "Field not found (at '==')".
 */
void ft_error_log_line(char *log, char *out, size_t outlen)
{
	char *msg = strchr(log, ']');
	msg = msg ? msg + 1 : log;
	char *nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	/* The kernel's text after its last "error: ", else the whole first line. */
	for (char *p = msg; (p = strstr(p, "error: ")); p++)
		msg = p + strlen("error: ");
	while (*msg == ' ')
		msg++;
	snprintf(out, outlen, "%s", msg);

	char *cmd = nl ? strstr(nl + 1, "  Command: ") : NULL;
	if (!cmd)
		return;
	char *caret_line = strchr(cmd, '\n');
	if (!caret_line)
		return;
	*caret_line++ = '\0';
	char *caret = strchr(caret_line, '^'), *end = strchr(caret_line, '\n');
	if (!caret || (end && caret > end))
		return;
	/* The caret's column counts from the start of the "  Command: " line. */
	const char *text = cmd + strlen("  Command: ");
	long col = (long)(caret - caret_line) - (long)strlen("  Command: ");
	size_t len = strlen(out);
	if (col >= 0 && (size_t)col < strlen(text))
		snprintf(out + len, outlen - len, " (at '%s')", text + col);
	else if (col >= 0)
		snprintf(out + len, outlen - len, " (at the end)");
}

/* Why the kernel refused a filter: the instance's error_log, else the filter file's text. */
static void filter_error(struct ft_session *s, const char *sys, const char *ev,
			 char *out, size_t outlen)
{
	char *log = tracefs_error_last(s->inst);
	if (log && *log) {
		ft_error_log_line(log, out, outlen);
		free(log);
		return;
	}
	free(log);
	char *text = tracefs_event_file_read(s->inst, sys, ev, "filter", NULL);
	char *p = text ? strstr(text, "parse_error: ") : NULL;
	if (p) {
		p += strlen("parse_error: ");
		p[strcspn(p, "\n")] = '\0';
		snprintf(out, outlen, "%s", p);
	} else {
		snprintf(out, outlen, "%s", strerror(EINVAL));
	}
	free(text);
}

static int filter_one(struct ft_session *s, const char *full, const char *filter,
		      char *err, size_t errlen)
{
	char buf[256], why[512];
	snprintf(buf, sizeof(buf), "%s", full);
	char *ev = split_event(buf);
	if (!ev)
		return 0;
	char rel[512];
	snprintf(rel, sizeof(rel), "events/%s/%s/filter", buf, ev);
	if (top_save(s, rel, err, errlen) < 0)
		return -1;
	tracefs_error_clear(s->inst);
	errno = 0;
	if (tracefs_event_file_write(s->inst, buf, ev, "filter", filter) >= 0)
		return 0;
	int e = errno ? errno : EIO;
	if (e == EINVAL)
		filter_error(s, buf, ev, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", strerror(e));
	errno = e;
	set_err(err, errlen, "bad filter '%s' for %s: %s", filter, full, why);
	return -1;
}

int ft_set_filter(struct ft_session *s, const char *spec, const char *filter,
		  char *err, size_t errlen)
{
	char **list;
	int n = expand_spec(spec, &list, err, errlen);
	if (n < 0)
		return -1;
	int ret = 0;
	for (int i = 0; i < n && ret == 0; i++)
		ret = filter_one(s, list[i], filter, err, errlen);
	ft_free_list(list, n);
	return ret;
}

/* ---- instance settings ---- */

/* The clock names trace_clock offers: "[local] global counter ..." without brackets. */
static char *available_clocks(struct ft_session *s)
{
	char *text = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	if (!text)
		return NULL;
	char *w = text;
	for (char *r = text; *r; r++)
		if (*r != '[' && *r != ']' && *r != '\n')
			*w++ = *r;
	*w = '\0';
	while (w > text && w[-1] == ' ')
		*--w = '\0';
	return text;
}

static bool word_in(const char *word, const char *list)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

int ft_set_clock(struct ft_session *s, const char *clock, char *err, size_t errlen)
{
	char *clocks = available_clocks(s);
	if (!clocks) {
		set_err(err, errlen, "cannot read %s/trace_clock: %s", s->dir, strerror(errno));
		return -1;
	}
	if (!*clock || strchr(clock, ' ') || !word_in(clock, clocks)) {
		set_err(err, errlen, "clock '%s' not available (available: %s)", clock, clocks);
		free(clocks);
		errno = EINVAL;
		return -1;
	}
	free(clocks);
	return inst_write(s, "trace_clock", clock, err, errlen);
}

int ft_set_buffer_kb(struct ft_session *s, unsigned kb_per_cpu, char *err, size_t errlen)
{
	char val[32];
	if (kb_per_cpu == 0) {
		set_err(err, errlen, "buffer size must be at least 1 KB per CPU");
		errno = EINVAL;
		return -1;
	}
	snprintf(val, sizeof(val), "%u", kb_per_cpu);
	return inst_write(s, "buffer_size_kb", val, err, errlen);
}

int ft_set_buffer_percent(struct ft_session *s, unsigned percent)
{
	char val[16];
	snprintf(val, sizeof(val), "%u", percent);
	return inst_write(s, "buffer_percent", val, NULL, 0);
}

int ft_set_option(struct ft_session *s, const char *option, bool on, char *err, size_t errlen)
{
	char rel[128];
	enum tracefs_option_id id = tracefs_option_id(option);

	if (id == TRACEFS_OPTION_INVALID) {
		set_err(err, errlen, "unknown tracefs option '%s'", option);
		errno = EINVAL;
		return -1;
	}
	snprintf(rel, sizeof(rel), "options/%s", option);
	if (!tracefs_option_is_supported(s->inst, id)) {
		set_err(err, errlen, "this kernel has no %s/%s", s->dir, rel);
		errno = ENOTSUP;
		return -1;
	}
	if (top_save(s, rel, err, errlen) < 0)
		return -1;
	errno = 0;
	if ((on ? tracefs_option_enable : tracefs_option_disable)(s->inst, id) == 0)
		return 0;
	if (!errno)
		errno = EIO;
	set_err(err, errlen, "tracefs refused writing '%d' to %s/%s: %s", on, s->dir, rel,
		strerror(errno));
	return -1;
}

int ft_set_pids(struct ft_session *s, const pid_t *pids, int n, bool follow,
		char *err, size_t errlen)
{
	char *val = malloc((size_t)n * 12 + 1);
	if (!val) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	size_t len = 0;
	val[0] = '\0';
	for (int i = 0; i < n; i++)
		len += (size_t)sprintf(val + len, "%s%d", i ? " " : "", (int)pids[i]);
	/* event-fork first: a child forked between the two writes is then caught too. */
	int ret = ft_set_option(s, "event-fork", follow, err, errlen);
	if (ret == 0)
		ret = inst_write(s, "set_event_pid", val, err, errlen);
	free(val);
	return ret;
}

int ft_write(struct ft_session *s, const char *rel, const char *val, char *err, size_t errlen)
{
	return inst_write(s, rel, val, err, errlen);
}

int ft_tracing_on(struct ft_session *s, bool on, char *err, size_t errlen)
{
	return inst_write(s, "tracing_on", on ? "1" : "0", err, errlen);
}

/* ---- reading ---- */

char *ft_read_file(const struct ft_session *s, const char *rel, size_t *len)
{
	int size = 0;
	char *text = tracefs_instance_file_read(s->inst, rel, &size);
	if (len)
		*len = text ? (size_t)size : 0;
	return text;
}

char *ft_read_top_file(const struct ft_session *s, const char *rel, size_t *len)
{
	(void)s;
	int size = 0;
	char *text = tracefs_instance_file_read(NULL, rel, &size);
	if (len)
		*len = text ? (size_t)size : 0;
	return text;
}

struct tep_handle *ft_tep(struct ft_session *s)
{
	if (!s->tep)
		s->tep = tracefs_local_events(s->root);
	return s->tep;
}
