/*
 * The staged user events into trace.dat: every process's event descriptions
 * become format files with ids of the file's own (above the kernel's), the
 * threads' staged records are merged by time (TSC converted to the mono
 * clock through two calibration points) and written as ring-buffer pages
 * exactly as the kernel writes them (header_page: timestamp, commit, data;
 * each event a 4-byte header with type_len and a 27-bit time delta, time
 * extends for longer gaps), so kbuffer, trace-cmd and our reader read them
 * like any CPU's pages.
 */
#include "ust_priv.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ust/format.h"
#include "util/die.h"

#define USER_ID_BASE 60000	/* above any kernel event id; common_type is 16 bits */
#define TYPE_LEN_TIME_EXTEND 30
#define MAX_SMALL_DATA (28 * 4)
#define DELTA_BITS 27

/* ---- descriptions ---- */

static int find_event(struct ust_rec *u, const struct tk_udesc *d)
{
	for (int i = 0; i < u->nevents_fmt; i++) {
		const struct tk_udesc *e = &u->events_fmt[i].d;

		if (!memcmp(&e->ev, &d->ev, sizeof(d->ev)) && !memcmp(&e->cls, &d->cls, sizeof(d->cls)))
			return i;
	}
	return -1;
}

static int add_event(struct ust_rec *u, const struct tk_udesc *d)
{
	int i = u->nevents_fmt;

	u->events_fmt = xrealloc(u->events_fmt, sizeof(*u->events_fmt) * (size_t)(i + 1));
	struct ust_event *e = &u->events_fmt[i];
	memset(e, 0, sizeof(*e));
	e->d = *d;
	e->id = USER_ID_BASE + (unsigned)i;
	ust_format_text(&d->ev, &d->cls, e->id, &e->text);
	u->nevents_fmt++;
	return i;
}

static void map_local(struct ust_proc *p, unsigned local, int index)
{
	if ((int)local >= p->nmap) {
		int n = (int)local + 16;

		p->map = xrealloc(p->map, sizeof(int) * (size_t)n);
		for (int i = p->nmap; i < n; i++)
			p->map[i] = -1;
		p->nmap = n;
	}
	p->map[local] = index;
}

static void load_process(struct ust_rec *u, int32_t pid, const char *path)
{
	FILE *f = fopen(path, "re");
	struct tk_udesc d;
	char why[128];

	if (!f)
		return;
	u->procs = xrealloc(u->procs, sizeof(*u->procs) * (size_t)(u->nprocs + 1));
	struct ust_proc *p = &u->procs[u->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	while (fread(&d, sizeof(d), 1, f) == 1) {
		if (d.magic != TK_UDESC_MAGIC || !ust_desc_valid(&d.ev, &d.cls, why, sizeof(why))) {
			warnmsg("user events of process %d: %s; its events are skipped", (int)pid,
				why);
			continue;
		}
		int i = find_event(u, &d);
		map_local(p, d.id, i >= 0 ? i : add_event(u, &d));
	}
	fclose(f);
}

static void load_descriptions(struct ust_rec *u)
{
	DIR *dir = opendir(u->dir);
	char path[600];

	for (struct dirent *e; dir && (e = readdir(dir));) {
		if (strncmp(e->d_name, "events-", 7))
			continue;
		snprintf(path, sizeof(path), "%s/%s", u->dir, e->d_name);
		load_process(u, (int32_t)atoi(e->d_name + 7), path);
	}
	if (dir)
		closedir(dir);
}

static int global_index(const struct ust_rec *u, int32_t pid, unsigned local)
{
	for (int i = 0; i < u->nprocs; i++) {
		const struct ust_proc *p = &u->procs[i];

		if (p->pid == pid)
			return (int)local < p->nmap ? p->map[local] : -1;
	}
	return -1;
}

/* ---- pages ---- */

struct page_writer {
	FILE *f;
	unsigned page_size, hdr;	/* hdr: timestamp + commit */
	char *page;
	unsigned used;			/* data bytes in the page */
	uint64_t page_ts, last_ts;
	uint64_t bytes;
	bool failed;
};

static void flush_page(struct page_writer *pw)
{
	uint64_t commit = pw->used;

	if (!pw->used)
		return;
	memcpy(pw->page, &pw->page_ts, 8);
	memcpy(pw->page + 8, &commit, pw->hdr - 8);
	memset(pw->page + pw->hdr + pw->used, 0, pw->page_size - pw->hdr - pw->used);
	if (fwrite(pw->page, pw->page_size, 1, pw->f) != 1)
		pw->failed = true;
	pw->bytes += pw->page_size;
	pw->used = 0;
}

static void put_u32(struct page_writer *pw, uint32_t v)
{
	memcpy(pw->page + pw->hdr + pw->used, &v, 4);
	pw->used += 4;
}

static void put_event(struct page_writer *pw, uint64_t ts, const void *data, uint32_t len)
{
	uint32_t dlen = (len + 3) & ~3u;
	unsigned rec = 4 + (dlen > MAX_SMALL_DATA ? 4 : 0) + dlen;
	uint64_t delta;

	if (ts < pw->last_ts)
		ts = pw->last_ts;	/* threads' clocks may disagree by a few ns: keep order */
	delta = pw->used ? ts - pw->last_ts : 0;
	unsigned ext = delta >> DELTA_BITS ? 8 : 0;
	if (pw->hdr + pw->used + ext + rec > pw->page_size) {
		flush_page(pw);
		delta = 0;
		ext = 0;
	}
	if (!pw->used)
		pw->page_ts = ts;
	if (ext) {
		put_u32(pw, TYPE_LEN_TIME_EXTEND | (uint32_t)(delta & ((1u << DELTA_BITS) - 1)) << 5);
		put_u32(pw, (uint32_t)(delta >> DELTA_BITS));
		delta = 0;
	}
	if (dlen > MAX_SMALL_DATA) {
		put_u32(pw, (uint32_t)delta << 5);
		put_u32(pw, dlen + 4);
	} else {
		put_u32(pw, dlen / 4 | (uint32_t)delta << 5);
	}
	memcpy(pw->page + pw->hdr + pw->used, data, len);
	memset(pw->page + pw->hdr + pw->used + len, 0, dlen - len);
	pw->used += dlen;
	pw->last_ts = ts;
}

/* ---- merging the threads ---- */

struct cursor {
	struct ust_buf *b;
	struct tk_urec r;
	char entry[TK_UREC_MAX + 8];
	uint64_t ns;
};

static uint64_t to_ns(const struct ust_rec *u, const struct ust_buf *b, uint64_t ts)
{
	if (b->clock != TK_CLOCK_TSC || u->end.tsc == u->start.tsc)
		return ts;
	long double rate = (long double)(u->end.ns - u->start.ns) / (u->end.tsc - u->start.tsc);
	return u->start.ns + (uint64_t)(int64_t)((long double)(int64_t)(ts - u->start.tsc) * rate);
}

/* The buffer's next event record; pads are stepped over, a malformed record ends the buffer. */
static bool advance(struct ust_rec *u, struct cursor *c)
{
	for (;;) {
		if (fread(&c->r, sizeof(c->r), 1, c->b->stage) != 1)
			return false;
		if (c->r.kind == TK_UREC_PAD && c->r.len <= c->b->mask &&
		    fseek(c->b->stage, c->r.len, SEEK_CUR) == 0)
			continue;
		size_t rest = TK_UREC_SIZE(c->r.len) - sizeof(c->r);
		if (c->r.kind != TK_UREC_EVENT || c->r.len > TK_UREC_MAX ||
		    c->r.len < sizeof(struct tk_entry_header) || rest > sizeof(c->entry) ||
		    fread(c->entry, rest, 1, c->b->stage) != 1) {
			if (!c->b->corrupt)
				u->corrupt++;
			c->b->corrupt = true;
			return false;
		}
		c->ns = to_ns(u, c->b, c->r.ts);
		return true;
	}
}

static bool before(const struct cursor *a, const struct cursor *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->b < b->b);
}

static void sift_down(struct cursor **h, int n, int i)
{
	for (;;) {
		int m = i, l = 2 * i + 1, r = l + 1;

		if (l < n && before(h[l], h[m]))
			m = l;
		if (r < n && before(h[r], h[m]))
			m = r;
		if (m == i)
			return;
		struct cursor *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void emit(struct ust_rec *u, struct page_writer *pw, struct cursor *c)
{
	int idx = global_index(u, c->b->pid, c->r.id);
	struct tk_entry_header *e = (struct tk_entry_header *)c->entry;

	if (idx < 0) {
		u->unknown++;
		return;
	}
	e->type = (uint16_t)u->events_fmt[idx].id;
	put_event(pw, c->ns, c->entry, c->r.len);
	u->events++;
}

static int merge(struct ust_rec *u, struct page_writer *pw)
{
	struct cursor *cs = xcalloc((size_t)u->nbufs + 1, sizeof(*cs));
	struct cursor **heap = xcalloc((size_t)u->nbufs + 1, sizeof(*heap));
	int n = 0;

	for (int i = 0; i < u->nbufs; i++) {
		cs[i].b = &u->bufs[i];
		if (cs[i].b->stage && fseek(cs[i].b->stage, 0, SEEK_SET) == 0 && advance(u, &cs[i]))
			heap[n++] = &cs[i];
	}
	for (int i = n / 2 - 1; i >= 0; i--)
		sift_down(heap, n, i);
	while (n > 0) {
		emit(u, pw, heap[0]);
		if (!advance(u, heap[0]))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	flush_page(pw);
	free(heap);
	free(cs);
	return pw->failed ? -1 : 0;
}

int ust_write_pages(struct ust_rec *u, char *err, size_t errlen)
{
	struct page_writer pw = { .page_size = (unsigned)sysconf(_SC_PAGESIZE),
				  .hdr = 8 + sizeof(long) };
	char path[4200];

	load_descriptions(u);
	snprintf(path, sizeof(path), "%s.ust", u->out);
	u->pages_path = xstrdup(path);
	pw.f = fopen(path, "w+e");
	if (!pw.f) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	pw.page = xcalloc(1, pw.page_size);
	int ret = merge(u, &pw);
	if (fclose(pw.f) && !ret)
		ret = -1;
	free(pw.page);
	if (ret < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	u->pages_size = pw.bytes;
	return 0;
}

/* ---- into the file's metadata ---- */

/* Lines "pid text" of the kernel's table, plus ours for pids it does not name. */
static void merge_table(struct strbuf *out, struct tf_text kernel, const struct ust_rec *u,
			bool comm)
{
	sb_addn(out, kernel.data ? kernel.data : "", kernel.len);
	if (out->len && out->buf[out->len - 1] != '\n')
		sb_addc(out, '\n');
	for (int i = 0; i < u->nbufs; i++) {
		const struct ust_buf *b = &u->bufs[i];
		char key[24];
		int klen = snprintf(key, sizeof(key), "%d ", (int)b->tid);
		bool have = false;

		for (const char *p = out->buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
			if (!strncmp(p, key, (size_t)klen)) {
				have = true;
				break;
			}
		}
		if (have)
			continue;
		if (comm)
			sb_printf(out, "%d %s\n", (int)b->tid, b->comm[0] ? b->comm : "<...>");
		else
			sb_printf(out, "%d %d\n", (int)b->tid, (int)b->pid);
	}
}

void ust_rec_meta(struct ust_rec *u, struct tf_meta *m)
{
	int n = m->nformats;

	u->formats = xcalloc((size_t)(n + u->nevents_fmt) + 1, sizeof(*u->formats));
	if (n)
		memcpy(u->formats, m->formats, sizeof(*u->formats) * (size_t)n);
	for (int i = 0; i < u->nevents_fmt; i++) {
		u->formats[n + i].system = u->events_fmt[i].d.ev.system;
		u->formats[n + i].text = (struct tf_text){ u->events_fmt[i].text.buf,
							   u->events_fmt[i].text.len };
	}
	m->formats = u->formats;
	m->nformats = n + u->nevents_fmt;
	merge_table(&u->cmdlines, m->cmdlines, u, true);
	merge_table(&u->tgids, m->tgids, u, false);
	m->cmdlines = (struct tf_text){ u->cmdlines.buf, u->cmdlines.len };
	m->tgids = (struct tf_text){ u->tgids.buf, u->tgids.len };
	u->user_cpu = m->cpus;
	m->cpus++;
	/* Readers tell the kernel's CPUs from the user events' slot by this note. */
	u->notes = xcalloc((size_t)m->nnotes + 1, sizeof(*u->notes));
	for (int i = 0; i < m->nnotes; i++)
		u->notes[i] = m->notes[i];
	snprintf(u->cpu_note, sizeof(u->cpu_note), "user_cpu=%d", u->user_cpu);
	u->notes[m->nnotes] = u->cpu_note;
	m->notes = u->notes;
	m->nnotes++;
}

void ust_rec_cpu_stats(struct ust_rec *u, struct tf_writer *w)
{
	char text[256];
	int n = snprintf(text, sizeof(text),
			 "entries: 0\noverrun: %llu\ncommit overrun: 0\nbytes: %llu\n"
			 "dropped events: 0\nread events: %llu\n",
			 (unsigned long long)(u->lost + u->unknown),
			 (unsigned long long)u->pages_size, (unsigned long long)u->events);

	tf_add_cpu_stats(w, u->user_cpu, text, (size_t)n, NULL, 0);
}

const struct tf_cpu_data *ust_rec_cpu_data(struct ust_rec *u, const struct tf_cpu_data *kernel,
					   int nkernel, int *n)
{
	free(u->cpu_data);
	u->cpu_data = xcalloc((size_t)nkernel + 1, sizeof(*u->cpu_data));
	if (nkernel)
		memcpy(u->cpu_data, kernel, sizeof(*kernel) * (size_t)nkernel);
	u->cpu_data[nkernel] = (struct tf_cpu_data){ u->user_cpu, u->pages_path, 0, u->pages_size };
	*n = nkernel + 1;
	return u->cpu_data;
}

void ust_result_free(struct ust_rec *u)
{
	for (int i = 0; i < u->nevents_fmt; i++)
		sb_free(&u->events_fmt[i].text);
	free(u->events_fmt);
	for (int i = 0; i < u->nprocs; i++)
		free(u->procs[i].map);
	free(u->procs);
	free(u->formats);
	sb_free(&u->cmdlines);
	sb_free(&u->tgids);
	free(u->cpu_data);
	free(u->notes);
}
