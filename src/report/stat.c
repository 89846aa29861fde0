/*
 * --stat.  Counts are kept in arrays indexed by event id and CPU, so the cost per
 * event is two increments and memory does not grow with the trace.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "report/stat.h"
#include "tracefile/reader.h"

struct cpu_count {
	unsigned long long events;
	unsigned long long missed;	/* counted losses the ring buffer marked */
	unsigned long long gaps;	/* losses marked without a count */
};

struct rp_stat {
	unsigned long long *by_id;	/* indexed by event id */
	int nid;
	unsigned long long unknown;	/* events without a format */
	struct cpu_count *cpu;
	int ncpu;
	unsigned long long total;
};

struct rp_stat *rp_stat_new(void)
{
	return calloc(1, sizeof(struct rp_stat));
}

void rp_stat_free(struct rp_stat *st)
{
	if (!st)
		return;
	free(st->by_id);
	free(st->cpu);
	free(st);
}

/* Grow *arr (of *n elements of size sz) to hold index i; false when out of memory. */
static bool grow(void **arr, int *n, int i, size_t sz)
{
	if (i < *n)
		return true;
	int m = *n ? *n : 16;
	while (m <= i)
		m *= 2;
	char *p = realloc(*arr, (size_t)m * sz);
	if (!p)
		return false;
	memset(p + (size_t)*n * sz, 0, (size_t)(m - *n) * sz);
	*arr = p;
	*n = m;
	return true;
}

void rp_stat_add(struct rp_stat *st, const struct tf_event *ev)
{
	st->total++;
	if (!ev->event || ev->event->id < 0 || ev->event->id > 1 << 20 ||
	    !grow((void **)&st->by_id, &st->nid, ev->event->id, sizeof(*st->by_id)))
		st->unknown++;
	else
		st->by_id[ev->event->id]++;
	if (ev->cpu < 0 || !grow((void **)&st->cpu, &st->ncpu, ev->cpu, sizeof(*st->cpu)))
		return;
	st->cpu[ev->cpu].events++;
	if (ev->missed > 0)
		st->cpu[ev->cpu].missed += (unsigned long long)ev->missed;
	else if (ev->missed < 0)
		st->cpu[ev->cpu].gaps++;
}

static void print_events(const struct rp_stat *st, struct tf_reader *r, FILE *out)
{
	struct tep_handle *tep = tf_reader_tep(r);
	struct tep_event **list = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);

	fprintf(out, "Events: %llu\n", st->total);
	for (int i = 0; list && list[i]; i++) {
		struct tep_event *e = list[i];
		if (e->id < 0 || e->id >= st->nid || !st->by_id[e->id])
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%s:%s", e->system, e->name);
		fprintf(out, "  %-40s %12llu\n", name, st->by_id[e->id]);
	}
	if (st->unknown)
		fprintf(out, "  %-40s %12llu\n", "(unknown event id)", st->unknown);
}

static void print_cpus(const struct rp_stat *st, struct tf_reader *r, FILE *out)
{
	const struct tf_info *info = tf_reader_info(r);

	fprintf(out, "CPUs: %d\n", info->cpus);
	fprintf(out, "  %-5s %12s %12s %12s\n", "cpu", "events", "lost", "overrun");
	for (int c = 0; c < info->cpus; c++) {
		struct cpu_count z = { 0 };
		const struct cpu_count *k = c < st->ncpu ? &st->cpu[c] : &z;
		long long ov = tf_reader_cpu_overrun(r, c);
		char lost[32], overrun[32];

		snprintf(lost, sizeof(lost), "%llu%s", k->missed, k->gaps ? "+" : "");
		if (ov < 0)
			snprintf(overrun, sizeof(overrun), "-");
		else
			snprintf(overrun, sizeof(overrun), "%lld", ov);
		fprintf(out, "  %-5d %12llu %12s %12s\n", c, k->events, lost, overrun);
	}
	fputs("lost: events the ring buffer marked as dropped before an event (+: some of "
	      "unknown count);\noverrun: the recorder's per-CPU overrun count (- when the "
	      "file has none).\n", out);
}

void rp_stat_print(const struct rp_stat *st, struct tf_reader *r, FILE *out)
{
	print_events(st, r, out);
	print_cpus(st, r, out);
}
