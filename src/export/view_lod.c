/*
 * Levels of detail for the part of a trace past view's event cap (view_lod.h).
 *
 * A CPU's slices come in time order, so only one bin of a CPU is being filled
 * at a time: its tasks are counted apart (up to LOD_PEND of them, the shortest
 * dropped past that) and the one that ran most is kept when the slices move on.
 * Where bins are merged (the finest widening as the trace grows, the coarser
 * levels) the merged bin's task is the one with the most time among its parts'.
 */
#include <stdlib.h>
#include <string.h>

#include "export/view_lod.h"
#include "util/die.h"

long vw_lod_bins(int ncpus)
{
	long n = 1L << 16;

	/* The CPU lanes' cells stay under 2^21 (the page's budget, docs/view.md). */
	while (n > 1024 && n * ncpus > (1L << 21))
		n /= 2;
	return n;
}

void vw_lod_init(struct vw_lod *l, int ncpus, uint64_t from)
{
	memset(l, 0, sizeof(*l));
	l->from = from;
	l->bin_ns = 1000;
	l->ncpus = ncpus;
	l->nbins = vw_lod_bins(ncpus);
	l->cpu = xcalloc(ncpus, sizeof(*l->cpu));
	for (int c = 0; c < ncpus; c++) {
		l->cpu[c].busy = xcalloc(l->nbins, sizeof(uint64_t));
		l->cpu[c].top = xcalloc(l->nbins, sizeof(int32_t));
		l->cpu[c].top_ns = xcalloc(l->nbins, sizeof(uint64_t));
		l->cpu[c].open = -1;
	}
}

static void pend_add(struct vw_lod_pend *p, int *n, int max, int pid, uint64_t ns)
{
	int least = 0;

	for (int i = 0; i < *n; i++) {
		if (p[i].pid == pid) {
			p[i].ns += ns;
			return;
		}
		if (p[i].ns < p[least].ns)
			least = i;
	}
	if (*n < max)
		p[(*n)++] = (struct vw_lod_pend){ pid, ns };
	else if (p[least].ns < ns)
		p[least] = (struct vw_lod_pend){ pid, ns };
}

/* The open bin's longest task against what the bin already holds (after a merge). */
static void cpu_close(struct vw_lod_cpu *c)
{
	if (c->open < 0)
		return;
	for (int i = 0; i < c->npend; i++) {
		struct vw_lod_pend *p = &c->pend[i];
		if (p->pid == c->top[c->open])
			c->top_ns[c->open] += p->ns;
		else if (p->ns > c->top_ns[c->open]) {
			c->top[c->open] = p->pid;
			c->top_ns[c->open] = p->ns;
		}
	}
	c->open = -1;
	c->npend = 0;
}

static uint32_t add_sat(uint32_t a, uint64_t b)
{
	return b >= UINT32_MAX - a ? UINT32_MAX : a + (uint32_t)b;
}

/* Twice as wide bins, every lane: the trace outgrew nbins * bin_ns. */
static void widen(struct vw_lod *l)
{
	long half = l->nbins / 2;

	for (int i = 0; i < l->ncpus; i++) {
		struct vw_lod_cpu *c = &l->cpu[i];
		cpu_close(c);
		for (long k = 0; k < half; k++) {
			long a = 2 * k, b = 2 * k + 1;
			int keep = c->top_ns[b] > c->top_ns[a] ? b : a;
			uint64_t ns = c->top[a] == c->top[b] ? c->top_ns[a] + c->top_ns[b] :
				      c->top_ns[keep];
			c->busy[k] = c->busy[a] + c->busy[b];
			c->top[k] = c->top[keep];
			c->top_ns[k] = ns;
		}
		memset(c->busy + half, 0, half * sizeof(*c->busy));
		memset(c->top + half, 0, half * sizeof(*c->top));
		memset(c->top_ns + half, 0, half * sizeof(*c->top_ns));
	}
	for (int i = 0; i < l->ntasks; i++) {
		uint32_t (*ns)[4] = l->task[i].ns;
		for (long k = 0; k < half; k++)
			for (int s = 0; s < 4; s++)
				ns[k][s] = add_sat(ns[2 * k][s], ns[2 * k + 1][s]);
		memset(ns + half, 0, half * sizeof(*ns));
	}
	l->bin_ns *= 2;
}

/* [a, b) relative to the levels' start, the bins widened to hold b. */
static bool span_in(struct vw_lod *l, uint64_t *a, uint64_t *b)
{
	if (*a < l->from)
		*a = l->from;
	if (*b <= *a)
		return false;
	*a -= l->from;
	*b -= l->from;
	while (*b > l->bin_ns * (uint64_t)l->nbins)
		widen(l);
	return true;
}

void vw_lod_cpu(struct vw_lod *l, int cpu, uint64_t a, uint64_t b, int pid)
{
	if (cpu < 0 || cpu >= l->ncpus || pid <= 0 || !span_in(l, &a, &b))
		return;
	struct vw_lod_cpu *c = &l->cpu[cpu];
	while (a < b) {
		long k = (long)(a / l->bin_ns);
		uint64_t end = (k + 1) * l->bin_ns;
		if (end > b)
			end = b;
		if (k != c->open) {
			cpu_close(c);
			c->open = k;
		}
		c->busy[k] += end - a;
		pend_add(c->pend, &c->npend, LOD_PEND, pid, end - a);
		a = end;
	}
}

static struct vw_lod_task *task_lane(struct vw_lod *l, int pid)
{
	for (int i = 0; i < l->ntasks; i++)
		if (l->task[i].pid == pid)
			return &l->task[i];
	if (l->ntasks == LOD_TASKS)
		return NULL;
	struct vw_lod_task *t = &l->task[l->ntasks++];
	t->pid = pid;
	t->ns = xcalloc(l->nbins, sizeof(*t->ns));
	return t;
}

bool vw_lod_task(struct vw_lod *l, int pid, int state, uint64_t a, uint64_t b)
{
	struct vw_lod_task *t = task_lane(l, pid);

	if (!t)
		return false;
	if (state < 1 || state > 4 || !span_in(l, &a, &b))
		return true;
	while (a < b) {
		long k = (long)(a / l->bin_ns);
		uint64_t end = (k + 1) * l->bin_ns;
		if (end > b)
			end = b;
		t->ns[k][state - 1] = add_sat(t->ns[k][state - 1], end - a);
		a = end;
	}
	return true;
}

void vw_lod_drop_task(struct vw_lod *l, int pid)
{
	for (int i = 0; i < l->ntasks; i++) {
		if (l->task[i].pid != pid)
			continue;
		free(l->task[i].ns);
		l->task[i] = l->task[--l->ntasks];
		l->task[l->ntasks] = (struct vw_lod_task){ 0 };
		return;
	}
}

/* Bins of the finest level that hold anything: the page stops where the trace does. */
static long used_bins(const struct vw_lod *l)
{
	long used = 0;

	for (int i = 0; i < l->ncpus; i++)
		for (long k = l->nbins - 1; k >= used; k--)
			if (l->cpu[i].busy[k]) {
				used = k + 1;
				break;
			}
	for (int i = 0; i < l->ntasks; i++)
		for (long k = l->nbins - 1; k >= used; k--)
			if (l->task[i].ns[k][0] | l->task[i].ns[k][1] | l->task[i].ns[k][2] |
			    l->task[i].ns[k][3]) {
				used = k + 1;
				break;
			}
	return used;
}

/* One CPU at one level (g finest bins a bin): busy per mille, then the tasks. */
static void write_cpu(const struct vw_lod *l, const struct vw_lod_cpu *c, long g, long n,
		      FILE *out)
{
	fputs("{\"busy\":[", out);
	for (long k = 0; k < n; k++) {
		uint64_t busy = 0;
		for (long j = k * g; j < (k + 1) * g && j < l->nbins; j++)
			busy += c->busy[j];
		fprintf(out, "%s%llu", k ? "," : "",
			(unsigned long long)((busy * 1000 + l->bin_ns * g / 2) / (l->bin_ns * g)));
	}
	fputs("],\"task\":[", out);
	for (long k = 0; k < n; k++) {
		struct vw_lod_pend p[LOD_PEND];
		int np = 0, best = -1;
		for (long j = k * g; j < (k + 1) * g && j < l->nbins; j++)
			if (c->top[j])
				pend_add(p, &np, LOD_PEND, c->top[j], c->top_ns[j]);
		for (int i = 0; i < np; i++)
			if (best < 0 || p[i].ns > p[best].ns)
				best = i;
		fprintf(out, "%s%d", k ? "," : "", best < 0 ? 0 : p[best].pid);
	}
	fputs("]}", out);
}

/*
 * One task at one level: per bin its share of each state in tenths (0..9, rounded
 * ninths), as the digits of one number: running, runnable, sleeping, blocked; 0
 * unknown.  A pixel column over several bins is then drawn in the state the task
 * spent most of the column in, not in the one that won most bins.
 */
static void write_task(const struct vw_lod *l, const struct vw_lod_task *t, long g, long n,
		       FILE *out)
{
	fprintf(out, "\"%d\":[", t->pid);
	for (long k = 0; k < n; k++) {
		uint64_t ns[4] = { 0 }, all = 0;
		int digits = 0;
		for (long j = k * g; j < (k + 1) * g && j < l->nbins; j++)
			for (int s = 0; s < 4; s++)
				ns[s] += t->ns[j][s];
		for (int s = 0; s < 4; s++)
			all += ns[s];
		for (int s = 0; s < 4 && all; s++)
			digits = digits * 10 + (int)((ns[s] * 9 + all / 2) / all);
		fprintf(out, "%s%d", k ? "," : "", digits);
	}
	fputc(']', out);
}

void vw_lod_write(struct vw_lod *l, FILE *out)
{
	long used = used_bins(l), g = 1;

	for (int i = 0; i < l->ncpus; i++)
		cpu_close(&l->cpu[i]);
	fprintf(out, "{\"from\":%llu,\"levels\":[", (unsigned long long)l->from);
	for (int lv = 0; lv < LOD_LEVELS; lv++, g *= LOD_STEP) {
		long n = (used + g - 1) / g;
		fprintf(out, "%s\n{\"bin\":%llu,\"n\":%ld,\"cpus\":[", lv ? "," : "",
			(unsigned long long)(l->bin_ns * g), n);
		for (int i = 0; i < l->ncpus; i++) {
			if (i)
				fputc(',', out);
			write_cpu(l, &l->cpu[i], g, n, out);
		}
		fputs("],\"tasks\":{", out);
		for (int i = 0; i < l->ntasks; i++) {
			if (i)
				fputc(',', out);
			write_task(l, &l->task[i], g, n, out);
		}
		fputs("}}", out);
	}
	fputs("]}", out);
}

void vw_lod_free(struct vw_lod *l)
{
	for (int i = 0; i < l->ncpus; i++) {
		free(l->cpu[i].busy);
		free(l->cpu[i].top);
		free(l->cpu[i].top_ns);
	}
	free(l->cpu);
	for (int i = 0; i < l->ntasks; i++)
		free(l->task[i].ns);
	memset(l, 0, sizeof(*l));
}
