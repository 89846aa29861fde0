/*
 * view_chunks: the detail of every window of a big trace, for `view --serve`
 * (see view_chunks.h).  A span is kept in the chunk that was being read when the
 * analysis closed it, unless it began before that chunk did: then it crosses a
 * chunk's start and goes to the in-memory list every window looks through, so a
 * window gets the long sleeps that began before it or end after it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>

#include "export/view_chunks.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "util/tidmap.h"

/* Where one lane's text of a chunk lies in the cache. */
struct seg {
	int id;			/* pid, or for cpuSpans -1 */
	uint64_t off, len;
};

struct chunk {
	uint64_t start;		/* its first event's time */
	long nevents;
	struct seg events, cpu;
	struct seg *tasks, *sys;
	int ntasks, nsys;
};

enum cross_kind { CROSS_CPU, CROSS_TASK, CROSS_SYS };

struct cross {
	uint64_t a, b, arg;
	int kind, id;
	long v, c;		/* pid/state/nr, and cpu */
};

struct vw_chunks {
	FILE *cache;
	uint64_t pos;		/* where the next text goes */
	bool failed;
	long per_chunk;
	struct chunk *chunk;
	int n, cap;
	/* the chunk being read */
	bool open;
	struct strbuf events, cpu;
	struct tidmap tasks, sys;	/* pid -> struct strbuf * */
	struct cross *cross;
	size_t ncross, capcross;
};

struct vw_chunks *vw_chunks_new(FILE *cache, long chunk_events)
{
	struct vw_chunks *c = xcalloc(1, sizeof(*c));

	c->cache = cache;
	c->per_chunk = chunk_events > 0 ? chunk_events : 1;
	return c;
}

static void free_lanes(struct tidmap *m)
{
	tidmap_foreach(m, s) {
		sb_free(s->val);
		free(s->val);
	}
	tidmap_free(m);
}

void vw_chunks_free(struct vw_chunks *c)
{
	if (!c)
		return;
	for (int k = 0; k < c->n; k++) {
		free(c->chunk[k].tasks);
		free(c->chunk[k].sys);
	}
	free(c->chunk);
	sb_free(&c->events);
	sb_free(&c->cpu);
	free_lanes(&c->tasks);
	free_lanes(&c->sys);
	free(c->cross);
	free(c);
}

/* text (its trailing comma left out) into the cache: where it went. */
static struct seg put(struct vw_chunks *c, int id, struct strbuf *sb)
{
	struct seg s = { .id = id, .off = c->pos, .len = sb->len };

	if (s.len && sb->buf[s.len - 1] == ',')
		s.len--;
	if (s.len && fwrite(sb->buf, 1, s.len, c->cache) != s.len)
		c->failed = true;
	c->pos += s.len;
	sb_reset(sb);
	return s;
}

static int put_lanes(struct vw_chunks *c, struct tidmap *m, struct seg **out)
{
	int n = 0;

	tidmap_foreach(m, s)
		n++;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	n = 0;
	tidmap_foreach(m, s) {
		struct strbuf *sb = s->val;
		if (sb->len)
			(*out)[n++] = put(c, s->tid, sb);
	}
	return n;
}

static void close_chunk(struct vw_chunks *c)
{
	struct chunk *k;

	if (!c->open)
		return;
	k = &c->chunk[c->n - 1];
	k->events = put(c, -1, &c->events);
	k->cpu = put(c, -1, &c->cpu);
	k->ntasks = put_lanes(c, &c->tasks, &k->tasks);
	k->nsys = put_lanes(c, &c->sys, &k->sys);
	c->open = false;
}

void vw_chunks_event(struct vw_chunks *c, uint64_t t, const char *json, size_t n)
{
	if (c->open && c->chunk[c->n - 1].nevents >= c->per_chunk)
		close_chunk(c);
	if (!c->open) {
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 64;
			c->chunk = xrealloc(c->chunk, c->cap * sizeof(*c->chunk));
		}
		memset(&c->chunk[c->n], 0, sizeof(c->chunk[c->n]));
		c->chunk[c->n++].start = t;
		c->open = true;
	}
	struct chunk *k = &c->chunk[c->n - 1];
	if (k->nevents++)
		sb_add(&c->events, ",\n");
	sb_addn(&c->events, json, n);
}

static struct strbuf *lane(struct tidmap *m, int pid)
{
	struct strbuf *sb = tidmap_get(m, pid);

	if (!sb) {
		sb = xcalloc(1, sizeof(*sb));
		tidmap_put(m, pid, sb);
	}
	return sb;
}

/* Whether [a, ...) began before the chunk being read: then it is a crossing span. */
static bool crosses(struct vw_chunks *c, uint64_t a)
{
	return !c->open || a < c->chunk[c->n - 1].start;
}

static void add_cross(struct vw_chunks *c, int kind, int id, uint64_t a, uint64_t b, long v,
		      long cpu, uint64_t arg)
{
	if (c->ncross == c->capcross) {
		c->capcross = c->capcross ? 2 * c->capcross : 1024;
		c->cross = xrealloc(c->cross, c->capcross * sizeof(*c->cross));
	}
	c->cross[c->ncross++] = (struct cross){ .a = a, .b = b, .arg = arg, .kind = kind, .id = id,
						.v = v, .c = cpu };
}

void vw_chunks_cpu_span(struct vw_chunks *c, int cpu, uint64_t a, uint64_t b, int pid)
{
	if (crosses(c, a))
		add_cross(c, CROSS_CPU, cpu, a, b, pid, cpu, 0);
	else
		sb_printf(&c->cpu, "%d,%llu,%llu,%d,", cpu, (unsigned long long)a,
			  (unsigned long long)b, pid);
}

void vw_chunks_task_span(struct vw_chunks *c, int pid, uint64_t a, uint64_t b, int state,
			 int cpu)
{
	if (crosses(c, a))
		add_cross(c, CROSS_TASK, pid, a, b, state, cpu, 0);
	else
		sb_printf(lane(&c->tasks, pid), "%llu,%llu,%d,%d,", (unsigned long long)a,
			  (unsigned long long)b, state, cpu);
}

void vw_chunks_sys_span(struct vw_chunks *c, int pid, uint64_t a, uint64_t b, long nr,
			uint64_t arg)
{
	if (crosses(c, a))
		add_cross(c, CROSS_SYS, pid, a, b, nr, 0, arg);
	else
		sb_printf(lane(&c->sys, pid), "%llu,%llu,%ld,%llu,", (unsigned long long)a,
			  (unsigned long long)b, nr, (unsigned long long)arg);
}

int vw_chunks_finish(struct vw_chunks *c)
{
	close_chunk(c);
	if (fflush(c->cache) != 0)
		c->failed = true;
	return c->failed ? -1 : 0;
}

int vw_chunks_count(const struct vw_chunks *c)
{
	return c->n;
}

uint64_t vw_chunks_start(const struct vw_chunks *c, int k)
{
	return k >= 0 && k < c->n ? c->chunk[k].start : UINT64_MAX;
}

long vw_chunks_events(const struct vw_chunks *c, int ka, int kb)
{
	long n = 0;

	for (int k = ka; k <= kb && k < c->n; k++)
		n += c->chunk[k].nevents;
	return n;
}

/* The text of s from the cache, appended to sb with a comma before it if sb has some. */
static int get(struct vw_chunks *c, const struct seg *s, struct strbuf *sb)
{
	if (!s->len)
		return 0;
	if (sb->len)
		sb_addc(sb, ',');
	sb_grow(sb, s->len + 1);
	if (fseeko(c->cache, (off_t)s->off, SEEK_SET) ||
	    fread(sb->buf + sb->len, 1, s->len, c->cache) != s->len)
		return -1;
	sb->len += s->len;
	sb->buf[sb->len] = '\0';
	return 0;
}

/* "pid":[...] for each lane of the window: its chunks' text, then its crossing spans. */
static int write_lanes(struct vw_chunks *c, int ka, int kb, int kind, FILE *out)
{
	struct tidmap by = { 0 };
	uint64_t ta = c->chunk[ka].start, tb = vw_chunks_start(c, kb + 1);
	int rc = 0;

	for (int k = ka; k <= kb && !rc; k++) {
		struct chunk *ch = &c->chunk[k];
		int n = kind == CROSS_TASK ? ch->ntasks : ch->nsys;
		struct seg *segs = kind == CROSS_TASK ? ch->tasks : ch->sys;
		for (int i = 0; i < n && !rc; i++)
			rc = get(c, &segs[i], lane(&by, segs[i].id));
	}
	for (size_t i = 0; i < c->ncross; i++) {
		const struct cross *x = &c->cross[i];
		if (x->kind != kind || x->b <= ta || x->a >= tb)
			continue;
		struct strbuf *sb = lane(&by, x->id);
		if (kind == CROSS_TASK)
			sb_printf(sb, "%s%llu,%llu,%ld,%ld", sb->len ? "," : "",
				  (unsigned long long)x->a, (unsigned long long)x->b, x->v, x->c);
		else
			sb_printf(sb, "%s%llu,%llu,%ld,%llu", sb->len ? "," : "",
				  (unsigned long long)x->a, (unsigned long long)x->b, x->v,
				  (unsigned long long)x->arg);
	}
	int n = 0;
	tidmap_foreach(&by, s)
		fprintf(out, "%s\"%d\":[%s]", n++ ? "," : "", s->tid, sb_str(s->val));
	free_lanes(&by);
	return rc;
}

int vw_chunks_write(struct vw_chunks *c, int ka, int kb, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t ta, tb;
	int rc = 0;

	if (ka < 0 || kb < ka || kb >= c->n)
		return -1;
	ta = c->chunk[ka].start;
	tb = vw_chunks_start(c, kb + 1);
	fputs("\"taskSpans\":{", out);
	rc |= write_lanes(c, ka, kb, CROSS_TASK, out);
	fputs("},\n\"sysSpans\":{", out);
	rc |= write_lanes(c, ka, kb, CROSS_SYS, out);
	fputs("},\n\"cpuSpans\":[", out);
	for (int k = ka; k <= kb && !rc; k++)
		rc = get(c, &c->chunk[k].cpu, &sb);
	for (size_t i = 0; i < c->ncross; i++) {
		const struct cross *x = &c->cross[i];
		if (x->kind == CROSS_CPU && x->b > ta && x->a < tb)
			sb_printf(&sb, "%s%d,%llu,%llu,%ld", sb.len ? "," : "", x->id,
				  (unsigned long long)x->a, (unsigned long long)x->b, x->v);
	}
	fprintf(out, "%s],\n\"events\":[\n", sb_str(&sb));
	for (int k = ka; k <= kb && !rc; k++) {
		sb_reset(&sb);
		rc = get(c, &c->chunk[k].events, &sb);
		fprintf(out, "%s%s", k > ka && sb.len ? ",\n" : "", sb_str(&sb));
	}
	fputs("]", out);
	sb_free(&sb);
	return rc ? -1 : 0;
}

void vw_chunks_starts_json(const struct vw_chunks *c, FILE *out)
{
	fputc('[', out);
	for (int k = 0; k < c->n; k++)
		fprintf(out, "%s%llu", k ? "," : "", (unsigned long long)c->chunk[k].start);
	fputc(']', out);
}
