/*
 * The trace clock as the time sync reads it (tsync.h).  The clocks user space
 * can read are read with clock_gettime; the others (local, global, perf,
 * x86-tsc...) have no such door, so each stamp is a write to trace_marker_raw
 * in a private instance set to that clock, and the batch's stamps are the
 * kernel's timestamps of those raw_data events, read back at its end -- the
 * way trace-cmd's ptp takes its stamps.  The instance is a tracekit-* one
 * (src/ftrace/session.h): removed at the end, and by `tracekit reset` after
 * a SIGKILL.
 */
#include "net/tsync.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "ftrace/session.h"
#include "util/die.h"

/* A raw_data event of ours: this tag, the batch, the stamp's id. */
#define MARK_TAG 0x746b7473u

struct mark {
	uint32_t tag;
	uint32_t batch;
	uint32_t id;
};

struct tsync_clock {
	clockid_t id;		/* -1: through markers */
	struct ft_session *s;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct tep_format_field *field;
	int raw_id;
	int marker_fd;
	uint32_t batch;
	/* end(): where the batch's stamps go */
	int64_t *out;
	int n;
};

static const struct {
	const char *name;
	clockid_t id;
} direct[] = {
	{ "mono", CLOCK_MONOTONIC },
	{ "mono_raw", CLOCK_MONOTONIC_RAW },
	{ "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

static int open_markers(struct tsync_clock *c, const char *clock, char *err, size_t errlen)
{
	const char *systems[] = { "ftrace", NULL };
	struct tep_event *raw;
	char path[4200];

	c->s = ft_session_new(err, errlen);
	if (!c->s)
		return -1;
	if (ft_set_clock(c->s, clock, err, errlen) < 0 ||
	    ft_set_buffer_kb(c->s, 256, err, errlen) < 0)
		return -1;
	c->inst = tracefs_instance_alloc(ft_tracefs_dir(c->s), ft_instance_name(c->s));
	c->tep = tracefs_local_events_system(ft_tracefs_dir(c->s), systems);
	raw = c->tep ? tep_find_event_by_name(c->tep, "ftrace", "raw_data") : NULL;
	c->field = raw ? tep_find_field(raw, "id") : NULL;
	if (!c->inst || !c->field) {
		snprintf(err, errlen, "time sync with trace clock '%s': the ftrace raw_data event's "
			 "format cannot be read (use -C mono)", clock);
		return -1;
	}
	c->raw_id = raw->id;
	snprintf(path, sizeof(path), "%s/trace_marker_raw", ft_instance_dir(c->s));
	c->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (c->marker_fd < 0) {
		snprintf(err, errlen, "time sync with trace clock '%s': %s: %s (use -C mono)",
			 clock, path, strerror(errno));
		return -1;
	}
	return ft_tracing_on(c->s, true, err, errlen);
}

struct tsync_clock *tsync_clock_open(const char *clock, char *err, size_t errlen)
{
	struct tsync_clock *c = xcalloc(1, sizeof(*c));

	c->id = -1;
	c->marker_fd = -1;
	if (!clock || !*clock)
		clock = "mono";
	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		if (!strcmp(clock, direct[i].name))
			c->id = direct[i].id;
	if (c->id == (clockid_t)-1 && open_markers(c, clock, err, errlen) < 0) {
		tsync_clock_close(c);
		return NULL;
	}
	return c;
}

void tsync_clock_close(struct tsync_clock *c)
{
	if (!c)
		return;
	if (c->marker_fd >= 0)
		close(c->marker_fd);
	if (c->inst)
		tracefs_instance_free(c->inst);
	if (c->tep)
		tep_free(c->tep);
	ft_session_destroy(c->s);
	free(c);
}

void tsync_clock_begin(struct tsync_clock *c)
{
	c->batch++;
}

void tsync_clock_mark(struct tsync_clock *c, int id, int64_t *ts)
{
	struct timespec t;
	struct mark m = { MARK_TAG, c->batch, (uint32_t)id };

	if (c->id != (clockid_t)-1) {
		clock_gettime(c->id, &t);
		*ts = (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
		return;
	}
	*ts = 0;
	if (write(c->marker_fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		return;		/* no stamp: the probe is left out */
}

static int take_mark(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct tsync_clock *c = ctx;
	struct mark m;

	(void)cpu;
	if (ev->id != c->raw_id || rec->size < c->field->offset + (int)sizeof(m))
		return 0;
	memcpy(&m, (const char *)rec->data + c->field->offset, sizeof(m));
	if (m.tag == MARK_TAG && m.batch == c->batch && m.id >= 1 && (int)m.id <= c->n)
		c->out[m.id - 1] = (int64_t)rec->ts;
	return 0;
}

int tsync_clock_end(struct tsync_clock *c, int64_t *ts, int n)
{
	if (c->id != (clockid_t)-1)
		return 0;
	for (int i = 0; i < n; i++)
		ts[i] = 0;
	c->out = ts;
	c->n = n;
	/* reads (and so empties) the instance's buffers */
	if (tracefs_iterate_raw_events(c->tep, c->inst, NULL, 0, take_mark, c) < 0)
		return -1;
	return 0;
}
