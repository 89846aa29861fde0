/*
 * Per-CPU recorder threads; see recorder.h.
 *
 * Each thread waits on its trace_pipe_raw with poll (the kernel wakes it
 * when the buffer is partly full) and splices whole pages through a pipe
 * into its temp file.  Stopping sets a flag; each thread then drains: more
 * splices, then read() for the last partly filled page, which splice does
 * not hand out.
 */
#include "recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>

#include "util/die.h"

#define SPLICE_PAGES 16		/* pages moved per splice call */
#define POLL_MS 100		/* how often a thread looks at the stop flag */
#define RECORDER_NICE -10

struct cpu_rec {
	struct recorder *r;
	int cpu;
	int in;			/* trace_pipe_raw */
	int out;		/* temp file */
	int pipe[2];
	pthread_t thread;
	bool started;
	uint64_t bytes;
	uint64_t read_before;	/* the kernel's "read events" when we started */
	bool has_read;		/* its stats have that line */
	int err;		/* first errno of a failed write */
	char path[4096];
};

struct recorder {
	int ncpus;
	unsigned page_size;
	uint64_t max_bytes;
	atomic_uint_fast64_t total;
	atomic_bool stop;
	atomic_bool limit;	/* max size reached or a write failed */
	char instance[4096];
	struct cpu_rec *cpu;
	struct tf_cpu_data *data;
	struct rec_cpu_stats *stats;
};

/* Move whatever whole pages are ready; returns bytes moved, or -1 on a write error. */
static long splice_ready(struct cpu_rec *c)
{
	long moved = 0;
	size_t chunk = (size_t)c->r->page_size * SPLICE_PAGES;
	for (;;) {
		ssize_t n = splice(c->in, NULL, c->pipe[1], NULL, chunk, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n <= 0)
			return moved;	/* EAGAIN: nothing ready; 0: empty */
		for (ssize_t left = n; left > 0;) {
			ssize_t w = splice(c->pipe[0], NULL, c->out, NULL, (size_t)left, SPLICE_F_MOVE);
			if (w <= 0) {
				c->err = w < 0 ? errno : EIO;
				return -1;
			}
			left -= w;
		}
		moved += n;
		c->bytes += (uint64_t)n;
		uint64_t total = atomic_fetch_add(&c->r->total, (uint64_t)n) + (uint64_t)n;
		if (c->r->max_bytes && total >= c->r->max_bytes)
			atomic_store(&c->r->limit, true);
	}
}

/* The last, partly filled pages: read() hands them out (splice does not). */
static void read_rest(struct cpu_rec *c)
{
	unsigned ps = c->r->page_size;
	char *page = xmalloc(ps);
	for (;;) {
		ssize_t n = read(c->in, page, ps);
		if (n <= 0)
			break;
		if ((size_t)n < ps)
			memset(page + n, 0, ps - (size_t)n);
		if (write(c->out, page, ps) != (ssize_t)ps) {
			c->err = errno ? errno : EIO;
			break;
		}
		c->bytes += ps;
	}
	free(page);
}

static void *cpu_thread(void *arg)
{
	struct cpu_rec *c = arg;

	/*
	 * Ahead of the traced programs when the CPUs are busy: a recorder that
	 * waits for a CPU is a buffer that overflows.  Only this thread; a
	 * refusal (not root) leaves it at the default.
	 */
	setpriority(PRIO_PROCESS, (id_t)gettid(), RECORDER_NICE);
	while (!atomic_load(&c->r->stop)) {
		struct pollfd p = { .fd = c->in, .events = POLLIN };
		poll(&p, 1, POLL_MS);
		if (splice_ready(c) < 0) {
			atomic_store(&c->r->limit, true);
			return NULL;
		}
	}
	if (splice_ready(c) >= 0)
		read_rest(c);
	return NULL;
}

static uint64_t stat_field(const char *text, const char *name)
{
	const char *p = strstr(text, name);
	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

/* per_cpu/cpuN/stats of the instance into text; false when it cannot be read. */
static bool stats_text(const struct recorder *r, int cpu, char *text, size_t len)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", r->instance, cpu);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(text, 1, len - 1, f);
	fclose(f);
	text[n] = '\0';
	return true;
}

static void read_stats(struct recorder *r, int i)
{
	char text[1024];
	struct rec_cpu_stats *s = &r->stats[i];
	s->cpu = i;
	s->bytes = r->cpu[i].bytes;
	if (!stats_text(r, i, text, sizeof(text))) {
		r->cpu[i].has_read = false;
		return;
	}
	s->entries = stat_field(text, "entries: ");
	s->overrun = stat_field(text, "\noverrun: ");
	s->commit_overrun = stat_field(text, "commit overrun: ");
	s->dropped = stat_field(text, "dropped events: ");
	if (r->cpu[i].has_read && strstr(text, "read events: "))
		s->events = stat_field(text, "read events: ") - r->cpu[i].read_before;
	else
		r->cpu[i].has_read = false;
}

void rec_progress(const struct recorder *r, uint64_t *events, uint64_t *lost, uint64_t *bytes)
{
	char text[1024];

	*events = *lost = 0;
	*bytes = atomic_load(&r->total);
	for (int i = 0; i < r->ncpus; i++) {
		const struct cpu_rec *c = &r->cpu[i];
		if (!c->started || !stats_text(r, i, text, sizeof(text)))
			continue;
		if (c->has_read)
			*events += stat_field(text, "read events: ") - c->read_before;
		*lost += stat_field(text, "\noverrun: ") + stat_field(text, "dropped events: ");
	}
}

static int open_cpu(struct recorder *r, struct cpu_rec *c, const char *out, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", r->instance, c->cpu);
	c->in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->in < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s.cpu%d", out, c->cpu);
	c->out = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (c->out < 0) {
		snprintf(err, errlen, "cannot write '%s': %s (is the output directory writable?)", c->path,
			 strerror(errno));
		return -1;
	}
	if (pipe2(c->pipe, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	/*
	 * The kernel counts the events read from each CPU's buffer, splice
	 * included: the count at the end less this one is what we recorded,
	 * with no second pass over the pages (tests/e2e/test_writer_tracecmd.py
	 * checks that the two agree).
	 */
	char text[1024];
	c->has_read = stats_text(r, c->cpu, text, sizeof(text)) && strstr(text, "read events: ");
	c->read_before = c->has_read ? stat_field(text, "read events: ") : 0;
	/* A pipe as large as one splice, so a splice never waits on the pipe. */
	fcntl(c->pipe[1], F_SETPIPE_SZ, (int)(r->page_size * SPLICE_PAGES));
	return 0;
}

struct recorder *rec_start(const char *instance_dir, int ncpus, const char *out,
			   unsigned page_size, uint64_t max_bytes, char *err, size_t errlen)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	r->ncpus = ncpus;
	r->page_size = page_size;
	r->max_bytes = max_bytes;
	snprintf(r->instance, sizeof(r->instance), "%s", instance_dir);
	r->cpu = xcalloc((size_t)ncpus, sizeof(*r->cpu));
	for (int i = 0; i < ncpus; i++) {
		struct cpu_rec *c = &r->cpu[i];
		*c = (struct cpu_rec){ .r = r, .cpu = i, .in = -1, .out = -1, .pipe = { -1, -1 } };
	}
	for (int i = 0; i < ncpus; i++) {
		struct cpu_rec *c = &r->cpu[i];
		if (open_cpu(r, c, out, err, errlen) < 0)
			goto fail;
		if (pthread_create(&c->thread, NULL, cpu_thread, c) != 0) {
			snprintf(err, errlen, "cannot start the CPU %d recorder thread", i);
			goto fail;
		}
		c->started = true;
	}
	return r;
fail:
	atomic_store(&r->stop, true);
	rec_stop(r, NULL, 0);
	rec_free(r, false);
	return NULL;
}

bool rec_should_stop(const struct recorder *r)
{
	return atomic_load(&r->limit);
}

/*
 * The events in one ring-buffer page, by walking its entry headers as the
 * kernel's header_event describes them (type_len 5 bits, time_delta 27;
 * type 29 padding, 30 time extend, 31 time stamp, 0 a length in the next
 * word, 1..28 that many words of data).  kbuffer has no count, and walking
 * with it (kbuffer_next_event, even kbuffer_raw_get) was a fifth of the
 * recorder's CPU time in bench/record.sh.  data_off and size come from
 * kbuffer, which parsed the page header.
 */
static uint64_t page_events(const unsigned char *page, unsigned data_off, unsigned size)
{
	const unsigned char *p = page + data_off, *end = page + data_off + size;
	uint64_t n = 0;

	while (p + 4 <= end) {
		uint32_t h, len;
		memcpy(&h, p, 4);
		unsigned type = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? h >> 27 : h & 31;
		if (type >= 30) {
			p += 8;
			continue;
		}
		if (type <= 28) {
			n++;
			if (type) {
				p += 4 + 4 * type;
				continue;
			}
		}
		if (p + 8 > end)
			break;
		memcpy(&len, p + 4, 4);
		if (type == 29 && h >> (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 0 : 5) == 0)
			break;	/* padding with no delta: the rest of the page is unused */
		p += type == 29 ? 4 + (uint64_t)len : 8 + (((uint64_t)len - 4 + 3) & ~3ull);
	}
	return n;
}

uint64_t rec_count_events(const char *path, uint64_t size, unsigned ps, uint64_t *missed)
{
	uint64_t events = 0;
	int fd = size ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	unsigned char *map = fd >= 0 ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);

	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED || !kb)
		goto out;
	madvise(map, size, MADV_SEQUENTIAL);
	for (uint64_t off = 0; off + ps <= size; off += ps) {
		unsigned char *page = map + off;
		if (kbuffer_load_subbuffer(kb, page) < 0)
			break;
		int m = kbuffer_missed_events(kb);
		if (m > 0)
			*missed += (uint64_t)m;
		unsigned start = (unsigned)kbuffer_start_of_data(kb);
		unsigned len = (unsigned)kbuffer_subbuffer_size(kb);
		if (start < ps && len <= ps - start)
			events += page_events(page, start, len);
	}
out:
	if (map != MAP_FAILED)
		munmap(map, size);
	if (kb)
		kbuffer_free(kb);
	return events;
}

/*
 * The events of a CPU.  The kernel's count of read events when it has one
 * and every page read was written: no pass over the pages.  The losses are
 * in the same stats: a page header's "missed events" is the growth of the
 * overrun counter since the page before, so the overrun stat already holds
 * them.  Otherwise (a failed write, no stats) the pages are walked, and
 * their headers give the losses.
 */
static void count_events(struct recorder *r, struct cpu_rec *c, struct rec_cpu_stats *s)
{
	uint64_t size = c->bytes - c->bytes % r->page_size;

	if (c->has_read && !c->err)
		return;
	s->events = rec_count_events(c->path, size, r->page_size, &s->missed);
}

int rec_stop(struct recorder *r, char *err, size_t errlen)
{
	atomic_store(&r->stop, true);
	int rc = 0;
	r->data = xcalloc((size_t)r->ncpus, sizeof(*r->data));
	r->stats = xcalloc((size_t)r->ncpus, sizeof(*r->stats));
	for (int i = 0; i < r->ncpus; i++) {
		struct cpu_rec *c = &r->cpu[i];
		if (c->started)
			pthread_join(c->thread, NULL);
		c->started = false;
		if (c->err && rc == 0 && err) {
			snprintf(err, errlen, "writing '%s' failed: %s; the recording stopped there",
				 c->path, strerror(c->err));
			rc = -1;
		}
		read_stats(r, i);
		count_events(r, c, &r->stats[i]);
		r->data[i] = (struct tf_cpu_data){ .cpu = i, .path = c->path, .offset = 0,
						   .size = c->bytes - c->bytes % r->page_size };
	}
	return rc;
}

const struct tf_cpu_data *rec_cpu_data(const struct recorder *r, int *n)
{
	*n = r->ncpus;
	return r->data;
}

const struct rec_cpu_stats *rec_stats(const struct recorder *r, int *n)
{
	*n = r->ncpus;
	return r->stats;
}

void rec_free(struct recorder *r, bool keep_files)
{
	if (!r)
		return;
	for (int i = 0; i < r->ncpus; i++) {
		struct cpu_rec *c = &r->cpu[i];
		if (c->in >= 0)
			close(c->in);
		if (c->out >= 0)
			close(c->out);
		if (c->pipe[0] >= 0)
			close(c->pipe[0]);
		if (c->pipe[1] >= 0)
			close(c->pipe[1]);
		if (!keep_files && c->path[0])
			unlink(c->path);
	}
	free(r->cpu);
	free(r->data);
	free(r->stats);
	free(r);
}
