/*
 * The vCPU accounting of sched_guest.h: running totals per vCPU, marks per task.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sched_guest.h"

int sg_init(struct sg_guest *g, int nvcpu, const int *host_pid)
{
	memset(g, 0, sizeof(*g));
	g->vcpu = calloc(nvcpu > 0 ? (size_t)nvcpu : 1, sizeof(*g->vcpu));
	if (!g->vcpu)
		return -1;
	g->nvcpu = nvcpu;
	for (int i = 0; i < nvcpu; i++)
		g->vcpu[i].host_pid = host_pid[i];
	return 0;
}

void sg_free(struct sg_guest *g)
{
	free(g->vcpu);
	free(g->task);
	tidmap_free(&g->index);
	memset(g, 0, sizeof(*g));
}

uint64_t sg_vcpu_off(const struct sg_vcpu *v, uint64_t ts)
{
	if (!v->known || v->on || ts < v->since)
		return v->off_total;
	return v->off_total + (ts - v->since);
}

/* The host thread of vCPU v changes to on at ts (known from now on). */
static void vcpu_set(struct sg_vcpu *v, bool on, uint64_t ts)
{
	if (v->known && ts >= v->since) {
		if (v->on)
			v->on_total += ts - v->since;
		else
			v->off_total += ts - v->since;
	}
	if (!v->known)
		v->first = ts;
	v->known = true;
	v->on = on;
	v->since = ts;
	v->last = ts;
}

void sg_guest_seen(struct sg_guest *g, uint64_t ts)
{
	if (ts > g->guest_last)
		g->guest_last = ts;
}

void sg_host_switch(struct sg_guest *g, int prev_pid, int next_pid, uint64_t ts)
{
	for (int i = 0; i < g->nvcpu; i++) {
		struct sg_vcpu *v = &g->vcpu[i];
		if (!v->host_pid)
			continue;
		/* Its first change since the guest's latest event: what was true then. */
		if (!v->snap || v->snap_ts != g->guest_last) {
			v->snap_off = sg_vcpu_off(v, g->guest_last);
			v->snap_ts = g->guest_last;
			v->snap = true;
		}
		if (v->host_pid == prev_pid && prev_pid != next_pid)
			vcpu_set(v, false, ts);
		else if (v->host_pid == next_pid && prev_pid != next_pid)
			vcpu_set(v, true, ts);
	}
}

static void set_comm(struct sg_task *t, const char *comm)
{
	if (comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

struct sg_task *sg_task_of(struct sg_guest *g, int pid)
{
	uintptr_t k = pid > 0 ? (uintptr_t)tidmap_get(&g->index, pid) : 0;

	return k ? &g->task[k - 1] : NULL;
}

static struct sg_task *task(struct sg_guest *g, int pid, const char *comm)
{
	struct sg_task *t = sg_task_of(g, pid);

	if (t) {
		set_comm(t, comm);
		return t;
	}
	if (g->ntask == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		t = realloc(g->task, (size_t)cap * sizeof(*t));
		if (!t)
			return NULL;
		g->task = t;
		g->cap = cap;
	}
	t = &g->task[g->ntask++];
	*t = (struct sg_task){ .pid = pid, .vcpu = -1 };
	set_comm(t, comm);
	tidmap_put(&g->index, pid, (void *)(uintptr_t)g->ntask);
	return t;
}

/*
 * The off total of v at ts, a time of the guest's (its latest event at most): the value
 * then, though the host's events may have gone past it.
 */
static uint64_t off_at(const struct sg_vcpu *v, uint64_t ts)
{
	if (v->snap && v->snap_ts == ts && ts < v->since)
		return v->snap_off;
	return sg_vcpu_off(v, ts);
}

/* t leaves its vCPU at ts; its host thread's state is known up to off_ts. */
static void detach(struct sg_guest *g, struct sg_task *t, uint64_t ts, uint64_t off_ts)
{
	if (t->vcpu < 0)
		return;
	uint64_t off = off_at(&g->vcpu[t->vcpu], off_ts < ts ? off_ts : ts);
	if (off > t->mark)
		t->waited += off - t->mark;
	if (ts > t->attached_at)
		t->attached += ts - t->attached_at;
	t->vcpu = -1;
}

static void attach(struct sg_guest *g, int pid, const char *comm, int vcpu, bool running,
		   uint64_t ts)
{
	if (pid <= 0 || vcpu < 0 || vcpu >= g->nvcpu)
		return;	/* the idle task is no task; a CPU the map lacks is not counted */
	struct sg_task *t = task(g, pid, comm);
	if (!t)
		return;
	if (t->vcpu == vcpu) {
		t->running = running;
		return;
	}
	detach(g, t, ts, ts);
	t->vcpu = vcpu;
	t->running = running;
	t->mark = off_at(&g->vcpu[vcpu], ts);
	t->attached_at = ts;
}

void sg_guest_run(struct sg_guest *g, int pid, const char *comm, int vcpu, uint64_t ts)
{
	attach(g, pid, comm, vcpu, true, ts);
}

void sg_guest_queue(struct sg_guest *g, int pid, const char *comm, int vcpu, uint64_t ts)
{
	attach(g, pid, comm, vcpu, false, ts);
}

void sg_guest_sleep(struct sg_guest *g, int pid, uint64_t ts)
{
	struct sg_task *t = sg_task_of(g, pid);

	if (t)
		detach(g, t, ts, ts);
}

void sg_window_start(struct sg_guest *g, uint64_t ts)
{
	for (int i = 0; i < g->nvcpu; i++) {
		struct sg_vcpu *v = &g->vcpu[i];
		if (v->known && ts > v->since)
			vcpu_set(v, v->on, ts);
		v->on_total = v->off_total = 0;
		v->snap = false;
		if (v->known)
			v->first = ts;
	}
	for (int i = 0; i < g->ntask; i++) {
		struct sg_task *t = &g->task[i];
		t->waited = t->attached = 0;
		if (t->vcpu >= 0) {
			t->mark = 0;	/* its vCPU's off total from ts: 0 */
			t->attached_at = ts;
		}
	}
}

void sg_end(struct sg_guest *g, uint64_t ts, uint64_t host_end)
{
	for (int i = 0; i < g->ntask; i++)
		detach(g, &g->task[i], ts, host_end);
	for (int i = 0; i < g->nvcpu; i++) {
		struct sg_vcpu *v = &g->vcpu[i];
		if (v->known && host_end > v->since)
			vcpu_set(v, v->on, host_end);
	}
}
