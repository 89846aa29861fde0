/*
 * trace.dat reader.  Two stages:
 *
 *  1. layout check (layout.c): the file's structure walked, every size and offset
 *     checked, before libtracecmd sees it.
 *  2. events, two ways:
 *     - fast path: our own per-CPU page streams (pages.c: pread windows, zstd chunk
 *       by chunk), libtraceevent's kbuffer on each page, a heap on (timestamp, CPU)
 *       to merge the CPUs.  Memory is a window or a chunk per CPU.
 *     - generic path: libtracecmd reads the records (one held per CPU of each buffer:
 *       the top-level one and every instance, trace-cmd record -B), for what the
 *       fast path does not handle: several buffers, timestamp corrections (offset,
 *       time shift, TSC conversion), other compressions, latency files; or when
 *       TRACEKIT_REPORT_GENERIC is set in the environment.
 *     libtracecmd opens the file either way: it owns the tep (formats, plugins,
 *     cmdlines, kallsyms) the printers use.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracefile/fields.h"
#include "tracefile/filtercheck.h"
#include "tracefile/funcgraph.h"
#include "tracefile/reader_priv.h"

/* ---- stage 2: events ---- */

/* Clocks whose timestamps are ns, printed as seconds.usecs (as trace-cmd report does). */
static bool clock_in_ns(const char *clock)
{
	static const char *const ns[] = { "local", "global", "uptime", "perf", "tai",
					  "x86-tsc-nsec" };

	if (!clock[0] || !strncmp(clock, "mono", 4))
		return true;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (!strcmp(clock, ns[i]))
			return true;
	return false;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* ---- stage 2, fast path ---- */

/* One kbuffer per CPU, shaped like the file's ring-buffer pages. */
static struct kbuffer *new_kbuffer(struct tep_handle *tep)
{
	int lsize = tep_get_header_page_size(tep);
	struct kbuffer *kb;

	if (lsize != 4 && lsize != 8)
		lsize = tep_get_long_size(tep);
	kb = kbuffer_alloc(lsize == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			   tep_is_file_bigendian(tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (kb && tep_is_old_format(tep))
		kbuffer_set_old_format(kb);
	return kb;
}

static int fast_open(struct tf_reader *r)
{
	bool zstd = strcmp(r->info.compression, "zstd") == 0;

	r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
	r->heap = calloc((size_t)r->ncpu, sizeof(*r->heap));
	if (r->fd < 0 || !r->heap)
		return -1;
	for (int i = 0; i < r->ncpu; i++) {
		struct cpu_state *c = &r->cpu[i];
		if (!c->loc.set)
			continue;
		c->pages = tf_pages_open(r->fd, c->loc.off, c->loc.size, zstd && c->loc.compressed,
					 tep_is_file_bigendian(r->tep), r->info.page_size);
		c->kbuf = new_kbuffer(r->tep);
		if (!c->pages || !c->kbuf)
			return -1;
	}
	return 0;
}

/*
 * A page header is <timestamp 8><commit: long>; the commit's low 27 bits are the
 * data size (the others flag lost events), which must fit in the page.
 */
static bool page_fits(struct tf_reader *r, const void *page)
{
	int lsize = tep_get_header_page_size(r->tep) == 4 ? 4 : 8;
	unsigned char b[8];
	uint64_t commit = 0;
	bool big = tep_is_file_bigendian(r->tep);

	memcpy(b, (const char *)page + 8, (size_t)lsize);
	for (int i = 0; i < lsize; i++)
		commit |= (uint64_t)b[big ? lsize - 1 - i : i] << (8 * i);
	return (commit & ((1u << 27) - 1)) <= r->info.page_size - 8 - (unsigned)lsize;
}

/* The CPU's next event into c->rec: 1, 0 at its end, -1 on error. */
static int fast_advance(struct tf_reader *r, int cpu, char *err, size_t errlen)
{
	struct cpu_state *c = &r->cpu[cpu];
	unsigned long long ts;
	void *data = c->page_loaded ? kbuffer_next_event(c->kbuf, &ts) : NULL;

	while (!data) {
		void *page;
		int ret = tf_pages_next(c->pages, &page, err, errlen);
		if (ret <= 0) {
			c->done = true;
			return ret;
		}
		if (!page_fits(r, page) || kbuffer_load_subbuffer(c->kbuf, page) < 0) {
			snprintf(err, errlen, "CPU %d: corrupt ring-buffer page (its data size is "
				 "larger than the page)", cpu);
			return -1;
		}
		c->page = page;
		c->page_loaded = true;
		data = kbuffer_read_event(c->kbuf, &ts);
	}
	/* kbuffer trusts event lengths: one must not reach past its page. */
	if (kbuffer_event_size(c->kbuf) < 0 || (char *)data < (char *)c->page ||
	    (size_t)((char *)data - (char *)c->page) + (size_t)kbuffer_event_size(c->kbuf) >
	    r->info.page_size) {
		snprintf(err, errlen, "CPU %d: corrupt ring-buffer page (an event runs past its end)",
			 cpu);
		return -1;
	}
	c->rec.ts = ts;
	c->rec.data = data;
	c->rec.size = kbuffer_event_size(c->kbuf);
	c->rec.record_size = kbuffer_curr_size(c->kbuf);
	c->rec.missed_events = kbuffer_missed_events(c->kbuf);
	c->rec.cpu = cpu;
	return 1;
}

/* Heap order: timestamp, then CPU (the lower CPU first, as libtracecmd's merge). */
static bool before(struct tf_reader *r, int a, int b)
{
	uint64_t ta = r->cpu[a].rec.ts, tb = r->cpu[b].rec.ts;

	return ta < tb || (ta == tb && a < b);
}

static void heap_down(struct tf_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		if (l < r->nheap && before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		int t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static int fast_start(struct tf_reader *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->ncpu; i++) {
		struct cpu_state *c = &r->cpu[i];
		if (!c->selected || !c->pages)
			continue;
		int ret = fast_advance(r, i, err, errlen);
		if (ret < 0)
			return -1;
		if (ret > 0)
			r->heap[r->nheap++] = i;
	}
	for (int i = r->nheap / 2 - 1; i >= 0; i--)
		heap_down(r, i);
	return 0;
}

/* The record's format: a small direct-mapped cache in front of libtraceevent's search. */
static struct tep_event *event_of(struct tf_reader *r, struct tep_record *rec)
{
	int type = tep_data_type(r->tep, rec);
	struct type_slot *t = &r->types[(unsigned)type % TYPE_CACHE];

	if (!t->event || t->type != type) {
		t->event = tep_find_event(r->tep, type);
		t->type = type;
	}
	return t->event;
}

static int fast_next(struct tf_reader *r, struct tf_event *ev, char *err, size_t errlen)
{
	struct cpu_state *c;

	if (!r->started) {
		r->started = true;
		if (fast_start(r, err, errlen) < 0)
			return -1;
	} else if (r->last >= 0) {
		/* The event handed out last is the heap's top: move its CPU on. */
		int ret = fast_advance(r, r->last, err, errlen);
		if (ret < 0)
			return -1;
		if (ret == 0)
			r->heap[0] = r->heap[--r->nheap];
		heap_down(r, 0);
	}
	if (!r->nheap) {
		r->last = -1;
		return 0;
	}
	r->last = r->heap[0];
	c = &r->cpu[r->last];
	ev->record = &c->rec;
	ev->event = event_of(r, &c->rec);
	ev->cpu = r->last;
	ev->ts = c->rec.ts;
	ev->missed = c->rec.missed_events;
	return 1;
}

bool tf_reader_fast(const struct tf_reader *r, const char **why)
{
	if (why)
		*why = r->why_generic;
	return !r->why_generic;
}

/*
 * libtraceevent 1.7's format parser (reached through tracecmd_open) crashes
 * on some corrupted print formats that no layout check can recognise.  So
 * the file is parsed once in a throw-away child first: if that child dies of
 * a signal, the file is refused with a message instead of taking tracekit
 * down.  Costs one extra parse of the headers (kallsyms mostly), not of the data.
 */
static int parses_safely(const char *path)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;	/* cannot check: go on as before */
	if (pid == 0) {
		/* Die quietly: no sanitizer or fuzzer report for a crash we expect here. */
		int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		tracecmd_set_loglevel(TEP_LOG_NONE);
		_exit(tracecmd_open(path, 0) ? 0 : 1);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFSIGNALED(st) ? -1 : 0;
}

/* The CLI's choice of buffers (tf_reader_choose_buffers): none means all. */
static struct {
	const char *const *names;
	int n;
	bool top;
} chosen;

void tf_reader_choose_buffers(const char *const *names, int n, bool top)
{
	chosen.names = names;
	chosen.n = n;
	chosen.top = top;
}

/* "top-level, a, b": the file's buffers, for an error naming what it has. */
static void list_buffers(const struct tf_reader *r, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "the top-level one");
	for (int i = 0; i < r->ninst && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ", %s", r->inst[i].name);
}

/*
 * The file's instance buffers, each with its own libtracecmd handle (sharing the
 * top-level one's formats), and which buffers are read.
 */
static int open_instances(struct tf_reader *r, char *err, size_t errlen)
{
	int n = tracecmd_buffer_instances(r->in);

	r->top_selected = !chosen.n || chosen.top;
	if (n > 0 && !(r->inst = calloc((size_t)n, sizeof(*r->inst)))) {
		snprintf(err, errlen, "%s: out of memory", r->path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct instance *b = &r->inst[r->ninst];
		b->name = tracecmd_buffer_instance_name(r->in, i);
		b->in = b->name ? tracecmd_buffer_instance_handle(r->in, i) : NULL;
		if (!b->in) {
			snprintf(err, errlen, "%s: libtracecmd cannot read its buffer %d (%s)", r->path,
				 i, b->name ? b->name : "no name");
			return -1;
		}
		r->ninst++;
		/* libtracecmd gives no buffer's CPU count: the file's (it stops at the buffer's). */
		b->ncpu = tep_get_cpus(r->tep) > r->ncpu ? tep_get_cpus(r->tep) : r->ncpu;
		if (b->ncpu > MAX_CPUS)
			b->ncpu = MAX_CPUS;
		b->cpu = calloc((size_t)b->ncpu + 1, sizeof(*b->cpu));
		if (!b->cpu) {
			snprintf(err, errlen, "%s: out of memory", r->path);
			return -1;
		}
		b->selected = !chosen.n && !chosen.top;
		for (int k = 0; k < chosen.n; k++)
			b->selected |= !strcmp(chosen.names[k], b->name);
		for (int c = 0; c < b->ncpu; c++)
			b->cpu[c].selected = true;
	}
	for (int k = 0; k < chosen.n; k++) {
		bool found = false;
		for (int i = 0; i < r->ninst; i++)
			found |= !strcmp(chosen.names[k], r->inst[i].name);
		if (!found) {
			char have[512];
			list_buffers(r, have, sizeof(have));
			snprintf(err, errlen, "%s has no buffer '%s' (its buffers: %s)", r->path,
				 chosen.names[k], have);
			return -1;
		}
	}
	if (r->ninst && !r->why_generic)
		r->why_generic = "several buffers";
	return 0;
}

int tf_reader_ninstances(const struct tf_reader *r)
{
	return r->ninst;
}

const char *tf_reader_instance(const struct tf_reader *r, int i)
{
	return i >= 0 && i < r->ninst ? r->inst[i].name : NULL;
}

struct tf_reader *tf_reader_open(const char *path, char *err, size_t errlen)
{
	struct tf_reader *r = calloc(1, sizeof(*r));
	int fd;

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	r->path = path;
	r->fd = -1;
	r->last = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (tf_layout_check(r, fd, err, errlen) < 0) {
		close(fd);
		goto fail;
	}
	close(fd);
	if (parses_safely(path) < 0) {
		snprintf(err, errlen, "%s: the event formats or headers are corrupt (libtraceevent's "
			 "parser crashes on them)", path);
		goto fail;
	}
	/* libtracecmd's own complaints go to stderr; ours is the one line that counts. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r->in = tracecmd_open(path, 0);
	if (!r->in) {
		snprintf(err, errlen, "%s: libtracecmd cannot read this file (corrupt headers or "
			 "event formats?)", path);
		goto fail;
	}
	r->tep = tracecmd_get_tep(r->in);
	tf_fix_probe_arrays(r->tep);
	if (open_instances(r, err, errlen) < 0)
		goto fail;
	/* libtracecmd's function_graph printers would look ahead through an iterator we do not use. */
	fg_register(r->tep);
	if (tep_get_cpus(r->tep) > 0 && tep_get_cpus(r->tep) < r->ncpu)
		r->ncpu = tep_get_cpus(r->tep);
	r->info.cpus = r->ncpu;
	r->info.user_cpu = -1;
	for (int i = 0; i < r->nnotes; i++) {
		if (!strncmp(r->notes[i], "user_cpu=", 9) && atoi(r->notes[i] + 9) < r->ncpu)
			r->info.user_cpu = atoi(r->notes[i] + 9);
	}
	r->info.clock = nz(r->clock);
	r->info.uname = nz(r->uname);
	r->info.tracer_version = nz(r->tracer_version);
	r->info.compression = nz(r->compression);
	if (!r->info.ts_usecs)
		r->info.ts_usecs = clock_in_ns(r->info.clock);
	const char *generic = getenv("TRACEKIT_REPORT_GENERIC");
	if (generic && *generic && strcmp(generic, "0") != 0)
		r->why_generic = "TRACEKIT_REPORT_GENERIC is set";
	if (!r->why_generic && fast_open(r) < 0)
		r->why_generic = "out of memory for the fast path";
	return r;
fail:
	tf_reader_close(r);
	return NULL;
}

void tf_reader_close(struct tf_reader *r)
{
	if (!r)
		return;
	if (r->held)
		tracecmd_free_record(r->held);
	for (int i = 0; i < r->ninst; i++) {
		for (int c = 0; c < r->inst[i].ncpu; c++)
			if (r->inst[i].cpu[c].next)
				tracecmd_free_record(r->inst[i].cpu[c].next);
		free(r->inst[i].cpu);
		if (r->inst[i].in)
			tracecmd_close(r->inst[i].in);
	}
	free(r->inst);
	for (int i = 0; r->cpu && i < r->ncpu; i++) {
		if (r->cpu[i].next)
			tracecmd_free_record(r->cpu[i].next);
		tf_pages_close(r->cpu[i].pages);
		if (r->cpu[i].kbuf)
			kbuffer_free(r->cpu[i].kbuf);
	}
	if (r->fd >= 0)
		close(r->fd);
	free(r->heap);
	if (r->filter)
		tep_filter_free(r->filter);
	free(r->skipped_missed);
	if (r->in)
		tracecmd_close(r->in);
	for (int i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	tidmap_free(&r->tgids);
	free(r->cpu);
	free(r->clock);
	free(r->uname);
	free(r->tracer_version);
	free(r->compression);
	free(r);
}

const struct tf_info *tf_reader_info(const struct tf_reader *r)
{
	return &r->info;
}

struct tep_handle *tf_reader_tep(struct tf_reader *r)
{
	return r->tep;
}

int tf_reader_nnotes(const struct tf_reader *r)
{
	return r->nnotes;
}

int tf_reader_tgid(const struct tf_reader *r, int pid)
{
	void *v = pid > 0 ? tidmap_get(&r->tgids, pid) : NULL;
	return v ? (int)(intptr_t)v : 0;
}

const char *tf_reader_note(const struct tf_reader *r, int i)
{
	return i >= 0 && i < r->nnotes ? r->notes[i] : NULL;
}

long long tf_reader_cpu_overrun(const struct tf_reader *r, int cpu)
{
	return cpu >= 0 && cpu < r->ncpu ? r->cpu[cpu].overrun : -1;
}

int tf_reader_select_cpus(struct tf_reader *r, const bool *mask, int n)
{
	if (r->started) {
		errno = EBUSY;
		return -1;
	}
	for (int i = 0; i < r->ncpu; i++)
		r->cpu[i].selected = !mask || (i < n && mask[i]);
	for (int b = 0; b < r->ninst; b++)
		for (int i = 0; i < r->inst[b].ncpu; i++)
			r->inst[b].cpu[i].selected = !mask || (i < n && mask[i]);
	return 0;
}

static void read_ahead(struct tracecmd_input *in, struct cpu_state *c, int cpu)
{
	c->next = tracecmd_read_data(in, cpu);
	if (!c->next)
		c->done = true;
}

/* Start a buffer's CPUs: the selected ones read ahead, the others done. */
static void start_buffer(struct tracecmd_input *in, struct cpu_state *cpu, int n, bool selected)
{
	for (int i = 0; i < n; i++)
		if (selected && cpu[i].selected)
			read_ahead(in, &cpu[i], i);
		else
			cpu[i].done = true;
}

/* Of the CPUs of one buffer (b: -1 top-level), the one whose next record is the earliest. */
static void earliest(struct cpu_state *cpu, int n, int b, struct cpu_state **best, int *bbuf,
		     int *bcpu)
{
	for (int i = 0; i < n; i++) {
		struct cpu_state *c = &cpu[i];
		if (c->done)
			continue;
		if (!*best || c->next->ts < (*best)->next->ts) {
			*best = c;
			*bbuf = b;
			*bcpu = i;
		}
	}
}

static int next_any(struct tf_reader *r, struct tf_event *ev, char *err, size_t errlen)
{
	struct cpu_state *best = NULL;
	int bbuf = -1, bcpu = -1;

	ev->buffer = NULL;
	ev->machine = 0;
	if (!r->why_generic) {
		int ret = fast_next(r, ev, err, errlen);
		if (ret < 0) {
			char what[200];
			snprintf(what, sizeof(what), "%s", err);
			snprintf(err, errlen, "%s: %s", r->path, what);
		}
		return ret;
	}
	if (r->held) {
		tracecmd_free_record(r->held);
		r->held = NULL;
	}
	if (!r->started) {
		r->started = true;
		start_buffer(r->in, r->cpu, r->ncpu, r->top_selected);
		for (int b = 0; b < r->ninst; b++)
			start_buffer(r->inst[b].in, r->inst[b].cpu, r->inst[b].ncpu, r->inst[b].selected);
	}
	/* Few CPUs and buffers: a scan beats a heap's bookkeeping. */
	earliest(r->cpu, r->ncpu, -1, &best, &bbuf, &bcpu);
	for (int b = 0; b < r->ninst; b++)
		earliest(r->inst[b].cpu, r->inst[b].ncpu, b, &best, &bbuf, &bcpu);
	if (!best)
		return 0;
	r->held = best->next;
	read_ahead(bbuf < 0 ? r->in : r->inst[bbuf].in, best, bcpu);
	ev->record = r->held;
	ev->event = tep_find_event_by_record(r->tep, r->held);
	ev->cpu = bcpu;
	ev->ts = r->held->ts;
	ev->missed = r->held->missed_events;
	ev->buffer = bbuf < 0 ? NULL : r->inst[bbuf].name;
	return 1;
}

bool tf_reader_gap_ahead(const struct tf_reader *r, int cpu, uint64_t *ts, long long *missed)
{
	if (!r->started || cpu < 0 || cpu >= r->ncpu)
		return false;
	const struct cpu_state *c = &r->cpu[cpu];
	if (c->done || !c->selected)
		return false;
	const struct tep_record *next = r->why_generic ? c->next : (cpu == r->last ? NULL : &c->rec);
	if (!next || !next->missed_events)
		return false;
	*ts = next->ts;
	*missed = next->missed_events;
	return true;
}

/* A loss belongs to the next event handed out on its CPU, filtered or not. */
static void carry_missed(long long *acc, long long missed)
{
	if (*acc < 0 || missed < 0)
		*acc = -1;
	else
		*acc += missed;
}

int tf_reader_next(struct tf_reader *r, struct tf_event *ev, char *err, size_t errlen)
{
	int ret;

	while ((ret = next_any(r, ev, err, errlen)) == 1 && r->filter) {
		long long *acc = !ev->buffer && ev->cpu >= 0 && ev->cpu < r->ncpu ?
				 &r->skipped_missed[ev->cpu] : NULL;
		if (tep_filter_match(r->filter, ev->record) == TEP_ERRNO__FILTER_MATCH) {
			if (acc && *acc) {
				carry_missed(acc, ev->missed);
				ev->missed = *acc;
				*acc = 0;
			}
			break;
		}
		if (acc && ev->missed)
			carry_missed(acc, ev->missed);
	}
	return ret;
}

int tf_reader_set_filters(struct tf_reader *r, const char *const *filters, int n,
			  char *err, size_t errlen)
{
	if (!n)
		return 0;
	r->filter = tf_filter_make(r->tep, filters, n, err, errlen);
	if (!r->filter)
		return -1;
	r->skipped_missed = calloc((size_t)r->ncpu + 1, sizeof(*r->skipped_missed));
	if (!r->skipped_missed) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
