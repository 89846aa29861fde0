/*
 * Several trace files as one stream (merge.h).  Each file keeps its own reader (its own tep:
 * formats and ids differ between machines); the merge holds the next event of each and hands
 * out the earliest.  Few files: a scan, no heap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tracefile/merge.h"
#include "tracefile/reader_priv.h"

struct slot {
	struct tf_event ev;
	bool have;		/* ev is this file's next event */
	bool done;		/* the file has no more (or a filter it cannot take) */
};

struct tf_merge {
	struct tf_machine m[TF_MAX_MACHINES];
	struct slot s[TF_MAX_MACHINES];
	int n;
	int last;		/* the machine whose event was handed out last, or -1 */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* "CPU N/TCG" or "CPU N/KVM": the pid of the host thread qemu named so, or 0. */
static int vcpu_thread(struct tep_handle *tep, int vcpu)
{
	static const char *const accel[] = { "TCG", "KVM" };
	char comm[32];

	for (size_t a = 0; a < sizeof(accel) / sizeof(accel[0]); a++) {
		snprintf(comm, sizeof(comm), "CPU %d/%s", vcpu, accel[a]);
		struct tep_cmdline *c = tep_data_pid_from_comm(tep, comm, NULL);
		/* Two qemus: their threads share the name, and which is ours is unknown. */
		if (c && !tep_data_pid_from_comm(tep, comm, c))
			return tep_cmdline_pid(tep, c);
	}
	return 0;
}

/* A guest's vCPU threads from the host's thread names: 0 when vCPU 0 has none. */
static int map_by_names(struct tf_machine *g, struct tep_handle *host_tep)
{
	int n = g->nvcpu ? g->nvcpu : 256;
	int found = 0;

	if (!g->vcpu_pid) {
		g->vcpu_pid = calloc((size_t)n, sizeof(int));
		if (!g->vcpu_pid)
			return -1;
	}
	for (int i = 0; i < n; i++) {
		g->vcpu_pid[i] = vcpu_thread(host_tep, i);
		if (!g->vcpu_pid[i])
			break;
		found++;
	}
	if (!g->nvcpu)
		g->nvcpu = found;
	if (found)
		g->vcpu_map_from = "thread names";
	return 0;
}

/* Machine i as a guest of machine h, if h's GUEST options name i's trace id. */
static int pair_guest(struct tf_merge *m, int i, int h)
{
	struct tf_machine *g = &m->m[i];
	const char *name = NULL;
	const int *pids = NULL;
	int count = 0;
	unsigned long long id = tracecmd_get_traceid(g->r->in);

	if (tracecmd_get_guest_cpumap(m->m[h].r->in, id, &name, &count, &pids) < 0)
		return 0;
	g->host = h;
	g->name = name && *name ? name : g->name;
	m->m[h].name = "host";
	if (count <= 0 || count > MAX_CPUS)
		count = 0;
	g->nvcpu = count;
	bool any = false;
	if (count) {
		g->vcpu_pid = calloc((size_t)count, sizeof(int));
		if (!g->vcpu_pid)
			return -1;
		for (int k = 0; pids && k < count; k++) {
			g->vcpu_pid[k] = pids[k] > 0 ? pids[k] : 0;
			any |= g->vcpu_pid[k] > 0;
		}
	}
	if (any) {
		g->vcpu_map_from = "GUEST option";
		return 0;
	}
	return map_by_names(g, m->m[h].r->tep);
}

/*
 * Files without GUEST options: two files where one has qemu's vCPU threads (a host
 * recording of a TCG or KVM guest) pair as host and guest by those names.
 */
static int pair_by_names(struct tf_merge *m)
{
	if (m->n != 2 || m->m[0].host >= 0 || m->m[1].host >= 0 || !strcmp(m->m[0].name, "host") ||
	    !strcmp(m->m[1].name, "host"))
		return 0;
	for (int h = 0; h < 2; h++) {
		/* a guest's file (TIME_SHIFT) is no host here: its own is not among the files */
		if (m->m[h].time_shift || !vcpu_thread(m->m[h].r->tep, 0) ||
		    vcpu_thread(m->m[1 - h].r->tep, 0))
			continue;
		struct tf_machine *g = &m->m[1 - h];
		if (map_by_names(g, m->m[h].r->tep) < 0)
			return -1;
		g->host = h;
		m->m[h].name = "host";
		return 0;
	}
	return 0;
}

/* "CPU N/TCG" or "CPU N/KVM": N, else -1. */
static int vcpu_of_name(const char *comm)
{
	char accel[4];
	int n, len = 0;

	if (sscanf(comm, "CPU %d/%3[A-Z]%n", &n, accel, &len) != 2 || comm[len] || n < 0 ||
	    n >= MAX_CPUS || (strcmp(accel, "TCG") && strcmp(accel, "KVM")))
		return -1;
	return n;
}

/*
 * pids[N] = the thread named "CPU N/..." in path's sched_switch events; *n the most N + 1;
 * *two_qemus when a name is two threads' (then that vCPU's pid is 0).
 */
static int scan_vcpu_threads(const char *path, int *pids, int *n, bool *two_qemus, char *err,
			     size_t errlen)
{
	static const char *const only_switch[] = { "sched_switch" };
	struct tf_reader *r = tf_reader_open(path, err, errlen);
	struct tf_event ev;
	int rc;

	if (!r)
		return -1;
	*n = 0;
	if (tf_reader_set_filters(r, only_switch, 1, err, errlen) < 0) {
		tf_reader_close(r);
		return 0;	/* no sched_switch: no vCPU thread to find */
	}
	struct tep_format_field *f[2] = { NULL, NULL }, *p[2] = { NULL, NULL };
	bool shared[256] = { false };
	while ((rc = tf_reader_next(r, &ev, err, errlen)) == 1) {
		if (!ev.event)
			continue;
		if (!f[0]) {
			f[0] = tep_find_field(ev.event, "prev_comm");
			f[1] = tep_find_field(ev.event, "next_comm");
			p[0] = tep_find_field(ev.event, "prev_pid");
			p[1] = tep_find_field(ev.event, "next_pid");
		}
		for (int k = 0; k < 2; k++) {
			char comm[32];
			unsigned long long pid;
			if (!f[k] || !p[k] || f[k]->offset + f[k]->size > ev.record->size ||
			    tep_read_number_field(p[k], ev.record->data, &pid) < 0)
				continue;
			snprintf(comm, sizeof(comm), "%.*s", f[k]->size,
				 (const char *)ev.record->data + f[k]->offset);
			int v = vcpu_of_name(comm);
			if (v < 0 || v >= 256)
				continue;
			if (pids[v] && pids[v] != (int)pid)
				shared[v] = true;
			pids[v] = (int)pid;
			if (v + 1 > *n)
				*n = v + 1;
		}
	}
	tf_reader_close(r);
	/* Two qemus: their threads share the names, and which runs this guest is unknown. */
	*two_qemus = false;
	for (int v = 0; v < *n; v++)
		if (shared[v]) {
			pids[v] = 0;
			*two_qemus = true;
		}
	return rc;
}

/* Guest g's map from host h's events: 0 (found or not), -1 and err. */
static int map_from_events(struct tf_merge *m, int g, int h, char *err, size_t errlen)
{
	int pids[256] = { 0 }, n;
	struct tf_machine *x = &m->m[g];

	bool two_qemus;

	if (scan_vcpu_threads(m->m[h].path, pids, &n, &two_qemus, err, errlen) < 0)
		return -1;
	if (n && two_qemus && x->host < 0) {
		/* h runs qemus, so it is the host; but no map: sched says why. */
		x->host = h;
		m->m[h].name = "host";
		return 0;
	}
	if (!n || !pids[0] || two_qemus)
		return 0;
	if (!x->nvcpu)
		x->nvcpu = n;
	free(x->vcpu_pid);
	x->vcpu_pid = calloc((size_t)x->nvcpu, sizeof(int));
	if (!x->vcpu_pid) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < x->nvcpu && i < n; i++)
		x->vcpu_pid[i] = pids[i];
	x->host = h;
	x->vcpu_map_from = "thread names";
	m->m[h].name = "host";
	return 0;
}

int tf_merge_find_vcpus(struct tf_merge *m, char *err, size_t errlen)
{
	bool paired = false;

	for (int i = 0; i < m->n; i++) {
		paired |= m->m[i].host >= 0;
		if (m->m[i].host >= 0 && !m->m[i].vcpu_map_from &&
		    map_from_events(m, i, m->m[i].host, err, errlen) < 0)
			return -1;
	}
	if (paired || m->n != 2)
		return 0;
	/*
	 * Two files, no GUEST option: the one with qemu's vCPU threads is the host, unless it
	 * is itself a guest's (TIME_SHIFT: its host is another, not among the files).
	 */
	for (int h = 0; h < 2 && m->m[0].host < 0 && m->m[1].host < 0; h++)
		if (!m->m[h].time_shift && map_from_events(m, 1 - h, h, err, errlen) < 0)
			return -1;
	return 0;
}

struct tf_merge *tf_merge_open(const char *const *paths, int n, char *err, size_t errlen)
{
	struct tf_merge *m;

	if (n < 1 || n > TF_MAX_MACHINES) {
		snprintf(err, errlen, "%d trace files: give 1 to %d", n, TF_MAX_MACHINES);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->last = -1;
	for (int i = 0; i < n; i++) {
		struct tf_machine *x = &m->m[i];
		x->path = paths[i];
		x->name = base_name(paths[i]);
		x->host = -1;
		x->r = tf_reader_open(paths[i], err, errlen);
		if (!x->r)
			goto fail;
		x->time_shift = x->r->time_shift;
		m->n++;
	}
	for (int i = 0; i < n; i++)
		for (int h = 0; h < n && m->m[i].host < 0; h++)
			if (h != i && pair_guest(m, i, h) < 0)
				goto oom;
	if (pair_by_names(m) < 0)
		goto oom;
	return m;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	tf_merge_close(m);
	return NULL;
}

void tf_merge_close(struct tf_merge *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		tf_reader_close(m->m[i].r);
		free(m->m[i].vcpu_pid);
	}
	free(m);
}

int tf_merge_nmachines(const struct tf_merge *m)
{
	return m->n;
}

const struct tf_machine *tf_merge_machine(const struct tf_merge *m, int i)
{
	return i >= 0 && i < m->n ? &m->m[i] : NULL;
}

int tf_merge_set_filters(struct tf_merge *m, const char *const *filters, int n, char *err,
			 size_t errlen)
{
	char first[512] = "";
	int fit = 0;

	if (!n)
		return 0;
	for (int i = 0; i < m->n; i++) {
		char why[512];
		if (tf_reader_set_filters(m->m[i].r, filters, n, why, sizeof(why)) == 0) {
			fit++;
			continue;
		}
		if (!first[0])
			snprintf(first, sizeof(first), "%s", why);
		m->s[i].done = true;	/* none of its events can match */
	}
	if (fit)
		return 0;
	snprintf(err, errlen, "%s", first);
	return -1;
}

int tf_merge_next(struct tf_merge *m, struct tf_event *ev, char *err, size_t errlen)
{
	int best = -1;

	/* The event handed out last is spent: its reader may move on. */
	if (m->last >= 0)
		m->s[m->last].have = false;
	for (int i = 0; i < m->n; i++) {
		struct slot *s = &m->s[i];
		if (s->done)
			continue;
		if (!s->have) {
			int rc = tf_reader_next(m->m[i].r, &s->ev, err, errlen);
			if (rc < 0)
				return -1;
			if (rc == 0) {
				s->done = true;
				continue;
			}
			s->ev.machine = i;
			s->have = true;
		}
		if (best < 0 || s->ev.ts < m->s[best].ev.ts)
			best = i;
	}
	m->last = best;
	if (best < 0)
		return 0;
	*ev = m->s[best].ev;
	return 1;
}
