/*
 * The trace.dat writer (see writer.h and docs/trace-dat.md).
 *
 * Version 7 file, as we lay it out:
 *
 *	initial header (magic, "tracing", "7", endianness, long size, page size,
 *	                compression "none", offset of the first options section)
 *	section 16 header info | 17 ftrace formats | 18 event formats |
 *	19 kallsyms | 20 printk formats | 21 saved cmdlines
 *	section 0  options: where 16..21 are, CPUCOUNT, TRACECLOCK, UNAME,
 *	           VERSION, CPUSTAT, tracekit's notes, DONE -> next options
 *	section 3  flyrecord: padding to a page, then each CPU's pages
 *	section 0  options: BUFFER (the flyrecord's per-CPU offsets), DONE = 0
 *	section 15 strings: the section descriptions
 *
 * Version 6 has the same blocks without section headers, then the CPU count,
 * "options  " with the options, "flyrecord" with a per-CPU offset/size table
 * and the "[clock]" text, and the page-aligned data.
 *
 * Every metadata block's size is known before it is written, so the only
 * back-patches are the 8-byte links to the next options section.  Numbers are
 * written in the host's byte order, which the initial header declares.
 */
#include "tracefile/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/strbuf.h"

/* Section and option ids of trace-cmd.dat.v7(5); sections share the option id space. */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	SEC_OPTIONS = 0,
	SEC_STRINGS = 15,
	SEC_HEADER_INFO = 16,
	SEC_FTRACE_EVENTS = 17,
	SEC_EVENT_FORMATS = 18,
	SEC_KALLSYMS = 19,
	SEC_PRINTK = 20,
	SEC_CMDLINES = 21,
};

#define NMETA_SECTIONS (SEC_CMDLINES - SEC_HEADER_INFO + 1)
#define SECTION_HEADER_SIZE 16

struct cpu_slot {
	int cpu;
	uint64_t offset, size;
};

struct tf_writer {
	int fd;
	char *path;
	int version;
	uint64_t pos;			/* where the next write lands */
	char *err;			/* the caller's buffer during one API call */
	size_t errlen;
	bool failed, meta_done, data_done;

	unsigned page_size;
	int cpus;
	char *clock;
	uint64_t sections[NMETA_SECTIONS];	/* v7: offsets of sections 16..21 */
	uint64_t link;			/* v7: where the next options section's offset goes */
	struct strbuf strings;		/* v7: section descriptions (the strings section) */
	struct strbuf pending;		/* options not written yet (CPUSTAT added late) */
};

static int fail(struct tf_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct tf_writer *w, const char *fmt, ...)
{
	va_list ap;

	w->failed = true;
	if (!w->err || !w->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(w->err, w->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *space_hint(int e)
{
	if (e == ENOSPC || e == EDQUOT || e == EFBIG)
		return " (free space on that filesystem, or write the file elsewhere)";
	return "";
}

static int write_failed(struct tf_writer *w, const char *what)
{
	int e = errno;

	return fail(w, "cannot write %s to %s: %s%s", what, w->path, strerror(e), space_hint(e));
}

static int put(struct tf_writer *w, const void *buf, size_t n, const char *what)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(w->fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = ENOSPC;
			return write_failed(w, what);
		}
		p += r;
		n -= (size_t)r;
		w->pos += (uint64_t)r;
	}
	return 0;
}

static int put_sb(struct tf_writer *w, const struct strbuf *sb, const char *what)
{
	return put(w, sb->buf, sb->len, what);
}

/* Overwrite 8 bytes already in the file: the links between options sections. */
static int patch_u64(struct tf_writer *w, uint64_t at, uint64_t val, const char *what)
{
	ssize_t r = pwrite(w->fd, &val, sizeof(val), (off_t)at);

	if (r == (ssize_t)sizeof(val))
		return 0;
	if (r >= 0)
		errno = ENOSPC;
	return write_failed(w, what);
}

static void add_u16(struct strbuf *sb, uint16_t v)
{
	sb_addn(sb, (const char *)&v, sizeof(v));
}

static void add_u32(struct strbuf *sb, uint32_t v)
{
	sb_addn(sb, (const char *)&v, sizeof(v));
}

static void add_u64(struct strbuf *sb, uint64_t v)
{
	sb_addn(sb, (const char *)&v, sizeof(v));
}

static void add_str0(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s) + 1);
}

static void add_option(struct strbuf *sb, uint16_t id, const void *data, size_t len)
{
	add_u16(sb, id);
	add_u32(sb, (uint32_t)len);
	sb_addn(sb, data, len);
}

static void add_option_str(struct strbuf *sb, uint16_t id, const char *s)
{
	add_option(sb, id, s, strlen(s) + 1);
}

static uint64_t align_up(uint64_t v, unsigned page)
{
	return (v + page - 1) / page * page;
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

struct tf_writer *tf_writer_open(const char *path, int version, char *err, size_t errlen)
{
	struct tf_writer *w;
	int fd;

	if (version != 6 && version != 7) {
		snprintf(err, errlen, "trace.dat version %d is not supported (use 6 or 7)",
			 version);
		return NULL;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->path = xstrdup(path);
	w->version = version;
	return w;
}

/* ---- metadata ---- */

static int check_meta(struct tf_writer *w, const struct tf_meta *m)
{
	if (w->meta_done)
		return fail(w, "%s: the metadata is already written", w->path);
	if (!m->page_size || (m->page_size & (m->page_size - 1)))
		return fail(w, "%s: page size %u is not a power of two", w->path, m->page_size);
	if (m->cpus <= 0)
		return fail(w, "%s: CPU count %d must be positive", w->path, m->cpus);
	if (m->kallsyms.len > UINT32_MAX || m->printk_formats.len > UINT32_MAX)
		return fail(w, "%s: kallsyms or printk formats exceed 4 GiB", w->path);
	for (int i = 0; i < m->nformats; i++) {
		if (!m->formats[i].system || !*m->formats[i].system)
			return fail(w, "%s: event format %d has no system name", w->path, i);
	}
	return 0;
}

static int write_initial_header(struct tf_writer *w)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	sb_addn(&sb, "\x17\x08\x44" "tracing", 10);
	add_str0(&sb, w->version == 7 ? "7" : "6");
	sb_addc(&sb, host_big_endian() ? 1 : 0);
	sb_addc(&sb, (char)sizeof(long));
	add_u32(&sb, w->page_size);
	if (w->version == 7) {
		add_str0(&sb, "none");	/* compression algorithm */
		add_str0(&sb, "");	/* and its version */
		w->link = sb.len;	/* the first options section's offset, patched later */
		add_u64(&sb, 0);
	}
	ret = put_sb(w, &sb, "the file header");
	sb_free(&sb);
	return ret;
}

/* The id of a string in the strings section (its offset there). */
static uint32_t add_string(struct tf_writer *w, const char *s)
{
	uint32_t id = (uint32_t)w->strings.len;

	add_str0(&w->strings, s);
	return id;
}

/* v7: a section header for a body of size bytes; v6 has none. */
static int begin_section(struct tf_writer *w, uint16_t id, const char *desc, uint64_t size)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (w->version < 7)
		return 0;
	if (id >= SEC_HEADER_INFO && id <= SEC_CMDLINES)
		w->sections[id - SEC_HEADER_INFO] = w->pos;
	add_u16(&sb, id);
	add_u16(&sb, 0);	/* flags: not compressed */
	add_u32(&sb, add_string(w, desc));
	add_u64(&sb, size);
	ret = put_sb(w, &sb, desc);
	sb_free(&sb);
	return ret;
}

/* A block whose body is in memory: section header (v7) and body. */
static int write_block(struct tf_writer *w, uint16_t id, const char *desc,
		       const struct strbuf *body)
{
	if (begin_section(w, id, desc, body->len))
		return -1;
	return put_sb(w, body, desc);
}

static void add_sized_text(struct strbuf *sb, const char *name, const struct tf_text *t)
{
	if (name)
		add_str0(sb, name);
	add_u64(sb, t->len);
	sb_addn(sb, t->data ? t->data : "", t->len);
}

static int write_header_info(struct tf_writer *w, const struct tf_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	add_sized_text(&sb, "header_page", &m->header_page);
	add_sized_text(&sb, "header_event", &m->header_event);
	ret = write_block(w, SEC_HEADER_INFO, "headers", &sb);
	sb_free(&sb);
	return ret;
}

static int write_ftrace_formats(struct tf_writer *w, const struct tf_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t n = 0;
	int ret;

	add_u32(&sb, 0);	/* count, set below */
	for (int i = 0; i < m->nformats; i++) {
		if (strcmp(m->formats[i].system, "ftrace"))
			continue;
		add_sized_text(&sb, NULL, &m->formats[i].text);
		n++;
	}
	memcpy(sb.buf, &n, sizeof(n));
	ret = write_block(w, SEC_FTRACE_EVENTS, "ftrace events", &sb);
	sb_free(&sb);
	return ret;
}

/* True when formats[i] is the first of its system: systems are written in first-seen order. */
static bool first_of_system(const struct tf_meta *m, int i)
{
	for (int j = 0; j < i; j++) {
		if (!strcmp(m->formats[j].system, m->formats[i].system))
			return false;
	}
	return true;
}

static void add_system(struct strbuf *sb, const struct tf_meta *m, int first)
{
	const char *sys = m->formats[first].system;
	size_t count_at;
	uint32_t n = 0;

	add_str0(sb, sys);
	count_at = sb->len;
	add_u32(sb, 0);
	for (int i = first; i < m->nformats; i++) {
		if (strcmp(m->formats[i].system, sys))
			continue;
		add_sized_text(sb, NULL, &m->formats[i].text);
		n++;
	}
	memcpy(sb->buf + count_at, &n, sizeof(n));
}

static int write_event_formats(struct tf_writer *w, const struct tf_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t nsys = 0;
	int ret;

	add_u32(&sb, 0);
	for (int i = 0; i < m->nformats; i++) {
		if (!strcmp(m->formats[i].system, "ftrace") || !first_of_system(m, i))
			continue;
		add_system(&sb, m, i);
		nsys++;
	}
	memcpy(sb.buf, &nsys, sizeof(nsys));
	ret = write_block(w, SEC_EVENT_FORMATS, "events format", &sb);
	sb_free(&sb);
	return ret;
}

/* kallsyms and printk formats: a 4-byte size, then the text, written straight from the caller. */
static int write_text32(struct tf_writer *w, uint16_t id, const char *desc, const struct tf_text *t)
{
	uint32_t len = (uint32_t)t->len;

	if (begin_section(w, id, desc, sizeof(len) + t->len))
		return -1;
	if (put(w, &len, sizeof(len), desc))
		return -1;
	return put(w, t->data ? t->data : "", t->len, desc);
}

static int write_cmdlines(struct tf_writer *w, const struct tf_meta *m)
{
	uint64_t len = m->cmdlines.len;

	if (begin_section(w, SEC_CMDLINES, "command lines", sizeof(len) + len))
		return -1;
	if (put(w, &len, sizeof(len), "command lines"))
		return -1;
	return put(w, m->cmdlines.data ? m->cmdlines.data : "", len, "command lines");
}

/*
 * tracekit's notes and saved_tgids ride in the VERSION option after the
 * version string's NUL: libtracecmd keeps that option as a C string, so it
 * never sees them, while an option id of our own would make it warn
 * "unknown option" on every open (KernelShark shows that).
 */
static void add_version_extras(struct strbuf *tmp, const struct tf_meta *m)
{
	add_str0(tmp, "");	/* the version string's NUL */
	for (int i = 0; i < m->nnotes; i++)
		if (m->notes[i] && m->notes[i][0])
			add_str0(tmp, m->notes[i]);
	if (m->tgids.len) {
		sb_add(tmp, TF_NOTE_TGIDS);
		sb_addn(tmp, m->tgids.data, strnlen(m->tgids.data, m->tgids.len));
		add_str0(tmp, "");
	}
}

/* The options both versions carry; v7 adds where its sections are. */
static void add_common_options(struct tf_writer *w, const struct tf_meta *m, struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;

	sb_printf(&tmp, "[%s]", w->clock);
	add_option_str(sb, OPT_TRACECLOCK, tmp.buf);
	if (m->uname)
		add_option_str(sb, OPT_UNAME, m->uname);
	sb_addn(sb, w->pending.buf ? w->pending.buf : "", w->pending.len);	/* CPUSTAT */
	sb_reset(&w->pending);
	if (m->version || m->nnotes > 0 || m->tgids.len) {
		sb_reset(&tmp);
		sb_printf(&tmp, "tracekit%s%s", m->version ? " " : "", m->version ? m->version : "");
		add_version_extras(&tmp, m);
		add_option(sb, OPT_VERSION, tmp.buf, tmp.len);
	}
	for (int i = 0; i < m->noptions; i++)
		add_option(sb, m->options[i].id, m->options[i].data, m->options[i].len);
	sb_free(&tmp);
}

/*
 * v7: one options section holding opts, ending in DONE whose offset (0 for
 * now) is where the next options section's offset will go; the previous link
 * (the initial header's or the last DONE's) is pointed here.
 */
static int write_options_v7(struct tf_writer *w, const struct strbuf *opts)
{
	uint64_t start = w->pos;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	sb_addn(&sb, opts->buf ? opts->buf : "", opts->len);
	add_u16(&sb, OPT_DONE);
	add_u32(&sb, 8);
	add_u64(&sb, 0);
	ret = write_block(w, SEC_OPTIONS, "options", &sb);
	sb_free(&sb);
	if (ret || patch_u64(w, w->link, start, "options"))
		return -1;
	w->link = w->pos - 8;
	return 0;
}

static int write_first_options_v7(struct tf_writer *w, const struct tf_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t cpus = (uint32_t)m->cpus;
	int ret;

	for (int i = 0; i < NMETA_SECTIONS; i++)
		add_option(&sb, (uint16_t)(SEC_HEADER_INFO + i), &w->sections[i], 8);
	add_option(&sb, OPT_CPUCOUNT, &cpus, sizeof(cpus));
	add_common_options(w, m, &sb);
	ret = write_options_v7(w, &sb);
	sb_free(&sb);
	return ret;
}

/* v6: the CPU count, then "options  ", the options and a 0 id. */
static int write_options_v6(struct tf_writer *w, const struct tf_meta *m)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	add_u32(&sb, (uint32_t)m->cpus);
	sb_addn(&sb, "options  ", 10);
	add_common_options(w, m, &sb);
	add_u16(&sb, OPT_DONE);
	ret = put_sb(w, &sb, "options");
	sb_free(&sb);
	return ret;
}

int tf_write_meta(struct tf_writer *w, const struct tf_meta *m, char *err, size_t errlen)
{
	w->err = err;
	w->errlen = errlen;
	if (w->failed || check_meta(w, m))
		return -1;
	w->page_size = m->page_size;
	w->cpus = m->cpus;
	w->clock = xstrdup(m->clock && *m->clock ? m->clock : "local");
	if (write_initial_header(w) || write_header_info(w, m) || write_ftrace_formats(w, m) ||
	    write_event_formats(w, m) ||
	    write_text32(w, SEC_KALLSYMS, "kallsyms", &m->kallsyms) ||
	    write_text32(w, SEC_PRINTK, "printk", &m->printk_formats) || write_cmdlines(w, m))
		return -1;
	if (w->version == 7 ? write_first_options_v7(w, m) : write_options_v6(w, m))
		return -1;
	w->meta_done = true;
	return 0;
}

int tf_add_cpu_stats(struct tf_writer *w, int cpu, const char *text, size_t len, char *err,
		     size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;

	w->err = err;
	w->errlen = errlen;
	if (w->version < 7 && w->meta_done)
		return fail(w, "%s: CPU statistics must come before the metadata in a "
			    "version 6 file", w->path);
	sb_printf(&sb, "CPU: %d\n", cpu);
	sb_addn(&sb, text ? text : "", len);
	add_option(&w->pending, OPT_CPUSTAT, sb.buf, sb.len + 1);
	sb_free(&sb);
	return 0;
}

/* ---- flyrecord data ---- */

static int cmp_slot(const void *a, const void *b)
{
	const struct cpu_slot *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int check_cpu_data(struct tf_writer *w, const struct tf_cpu_data *cpus, int n)
{
	if (!w->meta_done)
		return fail(w, "%s: the metadata must be written before the CPU data", w->path);
	if (w->data_done)
		return fail(w, "%s: the CPU data is already written", w->path);
	if (n < 0 || n > w->cpus)
		return fail(w, "%s: %d CPU data entries for %d CPUs", w->path, n, w->cpus);
	for (int i = 0; i < n; i++) {
		const struct tf_cpu_data *c = &cpus[i];

		if (c->cpu < 0 || c->cpu >= w->cpus)
			return fail(w, "%s: CPU %d is out of range (%d CPUs)", w->path, c->cpu,
				    w->cpus);
		for (int j = 0; j < i; j++) {
			if (cpus[j].cpu == c->cpu)
				return fail(w, "%s: CPU %d's data is given twice", w->path, c->cpu);
		}
		if (c->size % w->page_size)
			return fail(w, "%s: CPU %d's data (%llu bytes) is not a whole number of "
				    "%u-byte pages", w->path, c->cpu, (unsigned long long)c->size,
				    w->page_size);
		if (c->size && !c->path)
			return fail(w, "%s: CPU %d's data has no file", w->path, c->cpu);
	}
	return 0;
}

/*
 * Where each CPU's pages go: from the first page boundary at or after start,
 * one after another (sizes are whole pages, so every start stays aligned).
 */
static uint64_t place_cpus(struct tf_writer *w, struct cpu_slot *slot, const struct tf_cpu_data *in,
			   int n, uint64_t start)
{
	uint64_t at = align_up(start, w->page_size);

	for (int i = 0; i < w->cpus; i++) {
		slot[i].cpu = i;
		slot[i].size = 0;
	}
	for (int i = 0; i < n; i++)
		slot[in[i].cpu].size = in[i].size;
	for (int i = 0; i < w->cpus; i++) {
		slot[i].offset = at;
		at += slot[i].size;
	}
	return at;
}

static int pad_to(struct tf_writer *w, uint64_t to)
{
	static const char zeros[4096];

	while (w->pos < to) {
		size_t n = to - w->pos < sizeof(zeros) ? (size_t)(to - w->pos) : sizeof(zeros);

		if (put(w, zeros, n, "padding before the CPU data"))
			return -1;
	}
	return 0;
}

/* Read/write copy where copy_file_range cannot go (other filesystems, pipes). */
static int copy_rw(struct tf_writer *w, int src, const struct tf_cpu_data *c, uint64_t done,
		   const char *what)
{
	static char buf[1 << 16];

	while (done < c->size) {
		size_t want = c->size - done < sizeof(buf) ? (size_t)(c->size - done) : sizeof(buf);
		ssize_t r = pread(src, buf, want, (off_t)(c->offset + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(w, "cannot read CPU %d's data from %s: %s", c->cpu, c->path,
				    strerror(errno));
		if (r == 0)
			return fail(w, "CPU %d's data in %s ends after %llu of %llu bytes", c->cpu,
				    c->path, (unsigned long long)done, (unsigned long long)c->size);
		if (put(w, buf, (size_t)r, what))
			return -1;
		done += (uint64_t)r;
	}
	return 0;
}

static int copy_cpu(struct tf_writer *w, const struct tf_cpu_data *c)
{
	char what[64];
	uint64_t done = 0;
	loff_t off = (loff_t)c->offset;
	int src, ret = 0;

	snprintf(what, sizeof(what), "CPU %d's data", c->cpu);
	src = open(c->path, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return fail(w, "cannot open CPU %d's data %s: %s", c->cpu, c->path,
			    strerror(errno));
	while (done < c->size) {
		ssize_t r = copy_file_range(src, &off, w->fd, NULL, c->size - done, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
			      errno == EOPNOTSUPP)) {
			ret = copy_rw(w, src, c, done, what);
			goto out;
		}
		if (r < 0) {
			ret = write_failed(w, what);
			goto out;
		}
		if (r == 0) {
			ret = fail(w, "CPU %d's data in %s ends after %llu of %llu bytes", c->cpu,
				   c->path, (unsigned long long)done, (unsigned long long)c->size);
			goto out;
		}
		done += (uint64_t)r;
		w->pos += (uint64_t)r;
	}
out:
	close(src);
	return ret;
}

static int copy_all(struct tf_writer *w, const struct cpu_slot *slot, const struct tf_cpu_data *in,
		    int n)
{
	for (int i = 0; i < n; i++) {
		const struct tf_cpu_data *c = &in[i];

		if (!c->size)
			continue;
		if (pad_to(w, slot[c->cpu].offset) || copy_cpu(w, c))
			return -1;
	}
	return 0;
}

/* The BUFFER option of the top-level buffer: its flyrecord section and the CPUs with data. */
static void add_buffer_option(struct tf_writer *w, struct strbuf *sb, uint64_t section,
			      const struct cpu_slot *slot)
{
	struct strbuf b = STRBUF_INIT;
	uint32_t n = 0;

	add_u64(&b, section);
	add_str0(&b, "");		/* the top instance's name */
	add_str0(&b, w->clock);
	add_u32(&b, w->page_size);
	add_u32(&b, 0);			/* count, set below */
	for (int i = 0; i < w->cpus; i++) {
		if (!slot[i].size)
			continue;
		add_u32(&b, (uint32_t)slot[i].cpu);
		add_u64(&b, slot[i].offset);
		add_u64(&b, slot[i].size);
		n++;
	}
	memcpy(b.buf + 8 + 1 + strlen(w->clock) + 1 + 4, &n, sizeof(n));
	add_option(sb, OPT_BUFFER, b.buf, b.len);
	sb_free(&b);
}

static int write_data_v7(struct tf_writer *w, struct cpu_slot *slot, const struct tf_cpu_data *in,
			 int n)
{
	uint64_t section = w->pos;
	uint64_t end = place_cpus(w, slot, in, n, section + SECTION_HEADER_SIZE);
	struct strbuf opts = STRBUF_INIT;
	int ret;

	uint64_t size = end - section - SECTION_HEADER_SIZE;

	if (begin_section(w, OPT_BUFFER, "buffer flyrecord ", size) || copy_all(w, slot, in, n) ||
	    pad_to(w, end))
		return -1;
	add_buffer_option(w, &opts, section, slot);
	ret = write_options_v7(w, &opts);
	sb_free(&opts);
	return ret;
}

static int write_data_v6(struct tf_writer *w, struct cpu_slot *slot, const struct tf_cpu_data *in,
			 int n)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf clock = STRBUF_INIT;
	uint64_t table = 10 + 16 * (uint64_t)w->cpus;
	uint64_t end;
	int ret;

	sb_printf(&clock, "[%s]", w->clock);
	end = place_cpus(w, slot, in, n, w->pos + table + 8 + clock.len);
	sb_addn(&sb, "flyrecord", 10);
	for (int i = 0; i < w->cpus; i++) {
		add_u64(&sb, slot[i].offset);
		add_u64(&sb, slot[i].size);
	}
	add_u64(&sb, clock.len);
	sb_addn(&sb, clock.buf, clock.len);
	ret = put_sb(w, &sb, "the flyrecord header");
	if (!ret)
		ret = copy_all(w, slot, in, n);
	if (!ret)
		ret = pad_to(w, end);
	sb_free(&sb);
	sb_free(&clock);
	return ret;
}

int tf_write_cpu_data(struct tf_writer *w, const struct tf_cpu_data *cpus, int n, char *err,
		      size_t errlen)
{
	struct tf_cpu_data *in;
	struct cpu_slot *slot;
	int ret;

	w->err = err;
	w->errlen = errlen;
	if (w->failed || check_cpu_data(w, cpus, n))
		return -1;
	in = xcalloc((size_t)n + 1, sizeof(*in));
	if (n)
		memcpy(in, cpus, (size_t)n * sizeof(*in));
	qsort(in, (size_t)n, sizeof(*in), cmp_slot);
	slot = xcalloc((size_t)w->cpus, sizeof(*slot));
	if (w->version == 7)
		ret = write_data_v7(w, slot, in, n);
	else
		ret = write_data_v6(w, slot, in, n);
	free(slot);
	free(in);
	if (!ret)
		w->data_done = true;
	return ret;
}

/* ---- the end ---- */

static int finish_v7(struct tf_writer *w)
{
	if (w->pending.len && write_options_v7(w, &w->pending))
		return -1;
	/* "strings" is itself a description: the body is every string, this one included. */
	if (begin_section(w, SEC_STRINGS, "strings", w->strings.len + sizeof("strings")))
		return -1;
	return put_sb(w, &w->strings, "strings");
}

static int finish(struct tf_writer *w)
{
	if (w->failed)
		return -1;
	if (!w->meta_done)
		return fail(w, "%s: closed before its metadata was written", w->path);
	if (!w->data_done && tf_write_cpu_data(w, NULL, 0, w->err, w->errlen))
		return -1;
	if (w->version == 7 && finish_v7(w))
		return -1;
	return 0;
}

static int release(struct tf_writer *w, int ret);

int tf_writer_close(struct tf_writer *w, char *err, size_t errlen)
{
	if (!w)
		return 0;
	w->err = err;
	w->errlen = errlen;
	return release(w, finish(w));
}

int tf_writer_close_meta(struct tf_writer *w, char *err, size_t errlen)
{
	int ret = 0;

	w->err = err;
	w->errlen = errlen;
	if (w->failed)
		ret = -1;
	else if (!w->meta_done || w->data_done)
		ret = fail(w, "%s: closed as metadata only, but the metadata is %s", w->path,
			   w->meta_done ? "followed by data" : "not written");
	else if (w->version == 7)
		ret = finish_v7(w);
	return release(w, ret);
}

static int release(struct tf_writer *w, int ret)
{
	if (close(w->fd) && !ret)
		ret = write_failed(w, "the end of the file");
	sb_free(&w->strings);
	sb_free(&w->pending);
	free(w->clock);
	free(w->path);
	free(w);
	return ret;
}
