/*
 * trace.dat layout check, the reader's first stage: our own walk over the file's
 * structure (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)) with every size and offset
 * checked against the file size.  libtracecmd trusts the sizes it reads (a v6 file
 * cut inside its CPU data makes it fault on an mmap past the end of the file), so
 * nothing reaches it before this walk has passed; sections libtraceevent would
 * misparse are checked by guard.c's functions.  The walk also collects what
 * libtracecmd's public API does not give: clock, uname, recorder version, per-CPU
 * stats, where each CPU's data lies (for the fast path) and tracekit's notes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "tracefile/guard.h"
#include "tracefile/reader_priv.h"

struct walk {
	int fd;
	const char *path;
	uint64_t size;		/* of the file */
	uint64_t pos;
	bool big_endian;
	unsigned page_size;
	int version;
	int cpus;
	bool compressed;
	char *err;
	size_t errlen;
	struct tf_reader *r;
	long long *overrun;	/* per CPU, from CPUSTAT options */
	int noverrun;
	struct cpu_loc *loc;	/* per CPU, the top-level buffer's data */
	const char *why_generic;	/* what the fast path cannot read, NULL if nothing */
	const unsigned char *mem;	/* set: read a decompressed section here, not the file */
};

static int fail(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct walk *w, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(w->err, w->errlen, "%s: %s", w->path, what);
	return -1;
}

static int truncated(struct walk *w, const char *section, uint64_t at)
{
	if (w->mem)
		return fail(w, "corrupt compressed %s: its sizes run past its end", section);
	return fail(w, "truncated in the %s at offset 0x%" PRIx64
		    " (the file ends at 0x%" PRIx64 "; the recording was cut short?)",
		    section, at, w->size);
}

/* Read n bytes at w->pos; a short read is truncation of `section`. */
static int get(struct walk *w, void *buf, size_t n, const char *section)
{
	if (w->pos > w->size || n > w->size - w->pos)
		return truncated(w, section, w->pos);
	if (w->mem) {
		memcpy(buf, w->mem + w->pos, n);
		w->pos += n;
		return 0;
	}
	ssize_t got = pread(w->fd, buf, n, (off_t)w->pos);
	if (got < 0)
		return fail(w, "read error at offset 0x%" PRIx64 ": %s", w->pos, strerror(errno));
	if ((size_t)got != n)
		return truncated(w, section, w->pos);
	w->pos += n;
	return 0;
}

static uint64_t swap_n(const unsigned char *b, size_t n, bool big)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)b[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int get_u(struct walk *w, size_t n, uint64_t *v, const char *section)
{
	unsigned char b[8];

	if (get(w, b, n, section) < 0)
		return -1;
	*v = swap_n(b, n, w->big_endian);
	return 0;
}

/* Skip n bytes of `section`, which must lie inside the file. */
static int skip(struct walk *w, uint64_t n, const char *section)
{
	if (w->pos > w->size || n > w->size - w->pos)
		return truncated(w, section, w->pos);
	w->pos += n;
	return 0;
}

/* A NUL-terminated string of at most max bytes; *out is malloc'd when out is non-NULL. */
static int get_str(struct walk *w, size_t max, char **out, const char *section)
{
	char buf[256];
	size_t len = 0;

	if (max > sizeof(buf))
		max = sizeof(buf);
	for (;;) {
		if (len == max)
			return fail(w, "corrupt %s at offset 0x%" PRIx64 ": string too long",
				    section, w->pos - len);
		if (get(w, &buf[len], 1, section) < 0)
			return -1;
		if (buf[len] == '\0')
			break;
		len++;
	}
	if (out)
		*out = strdup(buf);
	return 0;
}

/* The printk formats text, as libtraceevent will parse it (guard.h). */
static int guard_printk(struct walk *w, const char *text, size_t len)
{
	char why[128];

	if (tf_guard_printk(text, len, why, sizeof(why)) == 0)
		return 0;
	return fail(w, "corrupt printk formats section: %s (libtraceevent would read outside "
		    "its buffer)", why);
}

/* len bytes of printk text at w->pos, checked. */
static int read_printk(struct walk *w, uint64_t len)
{
	if (w->pos > w->size || len > w->size - w->pos)
		return truncated(w, "printk formats", w->pos);
	char *text = malloc(len ? len : 1);
	if (!text)
		return fail(w, "out of memory");
	int ret = get(w, text, len, "printk formats");
	if (ret == 0)
		ret = guard_printk(w, text, len);
	free(text);
	return ret;
}

/* v6: <size 4><text>. */
static int walk_printk_v6(struct walk *w)
{
	uint64_t len;

	if (get_u(w, 4, &len, "printk formats") < 0)
		return -1;
	return read_printk(w, len);
}

/* A v7 compressed block <compressed size 4><size 4><zstd frame>, decompressed; NULL after fail(). */
static char *zstd_block(struct walk *w, const char *what, uint64_t *out_len)
{
	uint64_t csize, usize;
	char *z = NULL, *u = NULL;

	if (get_u(w, 4, &csize, what) < 0 || get_u(w, 4, &usize, what) < 0)
		return NULL;
	if (csize > w->size - w->pos || usize > (1u << 28)) {
		fail(w, "corrupt compressed %s section at offset 0x%" PRIx64, what, w->pos - 8);
		return NULL;
	}
	z = malloc(csize ? csize : 1);
	u = malloc(usize ? usize : 1);
	if (!z || !u) {
		fail(w, "out of memory");
		goto bad;
	}
	if (get(w, z, csize, what) < 0)
		goto bad;
	size_t got = ZSTD_decompress(u, usize, z, csize);
	if (ZSTD_isError(got) || got != usize) {
		fail(w, "corrupt compressed %s section at offset 0x%" PRIx64, what,
		     w->pos - csize - 8);
		goto bad;
	}
	free(z);
	*out_len = usize;
	return u;
bad:
	free(z);
	free(u);
	return NULL;
}

/* <size of n bytes><data>: a block of `section` that must lie inside the file. */
static int skip_sized(struct walk *w, size_t n, const char *section)
{
	uint64_t len;

	if (get_u(w, n, &len, section) < 0)
		return -1;
	return skip(w, len, section);
}

static int walk_header_info(struct walk *w)
{
	char label[13];

	if (get(w, label, 12, "header page") < 0)
		return -1;
	if (memcmp(label, "header_page", 12) != 0)
		return fail(w, "corrupt file: no header_page at offset 0x%" PRIx64, w->pos - 12);
	if (skip_sized(w, 8, "header page") < 0)
		return -1;
	if (get(w, label, 13, "header event") < 0)
		return -1;
	if (memcmp(label, "header_event", 13) != 0)
		return fail(w, "corrupt file: no header_event at offset 0x%" PRIx64, w->pos - 13);
	return skip_sized(w, 8, "header event");
}

static int walk_ftrace_formats(struct walk *w)
{
	uint64_t n;

	if (get_u(w, 4, &n, "ftrace event formats") < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (skip_sized(w, 8, "ftrace event formats") < 0)
			return -1;
	return 0;
}

static int walk_event_formats(struct walk *w)
{
	uint64_t n, m;

	if (get_u(w, 4, &n, "event formats") < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (get_str(w, 256, NULL, "event formats") < 0 ||
		    get_u(w, 4, &m, "event formats") < 0)
			return -1;
		for (uint64_t j = 0; j < m; j++)
			if (skip_sized(w, 8, "event formats") < 0)
				return -1;
	}
	return 0;
}

/*
 * One metadata part: v6 has them in a row, v7 one per section.  Every size
 * in it must fit (libtracecmd allocates what a size says before reading).
 */
static int walk_meta_part(struct walk *w, unsigned id)
{
	switch (id) {
	case OPT_HEADER_INFO:
		return walk_header_info(w);
	case OPT_HEADER_INFO + 1:
		return walk_ftrace_formats(w);
	case OPT_HEADER_INFO + 2:
		return walk_event_formats(w);
	case OPT_HEADER_INFO + 3:
		return skip_sized(w, 4, "kallsyms");
	case OPT_PRINTK:
		return walk_printk_v6(w);
	case OPT_CMDLINES:
		return skip_sized(w, 8, "saved command lines");
	}
	return 0;
}

/* v7: a metadata section's content (after its 16-byte header at off), walked as in v6. */
static int check_section_content(struct walk *w, unsigned id, uint64_t off, const char *what)
{
	uint64_t save = w->pos, flags, size;
	int ret = -1;

	w->pos = off + 2;
	if (get_u(w, 2, &flags, what) < 0)
		return -1;
	w->pos = off + 16;
	if (!(flags & SEC_FL_COMPRESS)) {
		ret = walk_meta_part(w, id);
	} else if (strcmp(w->r->compression, "zstd") != 0) {
		ret = 0;	/* not checked: docs/trace-dat.md */
	} else {
		char *block = zstd_block(w, what, &size);
		if (block) {
			struct walk sub = *w;
			sub.mem = (const unsigned char *)block;
			sub.size = size;
			sub.pos = 0;
			ret = walk_meta_part(&sub, id);
			free(block);
		}
	}
	w->pos = save;
	return ret;
}

static int walk_v6_headers(struct walk *w)
{
	for (unsigned id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++)
		if (walk_meta_part(w, id) < 0)
			return -1;
	return 0;
}

/* Copy an option's text (not necessarily NUL-terminated) into a new string. */
static char *opt_text(const char *data, uint64_t len)
{
	char *s = malloc(len + 1);

	if (!s)
		return NULL;
	memcpy(s, data, len);
	s[len] = '\0';
	return s;
}

static void set_str(char **dst, char *s)
{
	free(*dst);
	*dst = s;
}

/* "[local] global counter": the bracketed one. */
static char *clock_from_list(const char *list)
{
	const char *open = strchr(list, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return strdup(list);
	return opt_text(open + 1, (uint64_t)(close - open - 1));
}

static void parse_cpustat(struct walk *w, const char *text)
{
	int cpu;
	const char *ov = strstr(text, "overrun:");

	if (sscanf(text, "CPU: %d", &cpu) != 1 || cpu < 0 || cpu >= w->noverrun || !ov)
		return;
	w->overrun[cpu] = strtoll(ov + 8, NULL, 10);
}

static int add_notes(struct tf_reader *r, const char *data, uint64_t len)
{
	for (uint64_t i = 0; i < len;) {
		uint64_t end = i;

		while (end < len && data[end])
			end++;
		if (end > i) {
			char **n = realloc(r->notes, sizeof(*n) * (size_t)(r->nnotes + 1));
			if (!n)
				return -1;
			r->notes = n;
			n[r->nnotes] = opt_text(data + i, end - i);
			if (!n[r->nnotes])
				return -1;
			r->nnotes++;
		}
		i = end + 1;
	}
	return 0;
}

static void add_tgids(struct tf_reader *r, const char *text)
{
	for (const char *p = text; *p;) {
		char *end;
		long pid = strtol(p, &end, 10), tgid = end != p ? strtol(end, &end, 10) : 0;
		if (pid > 0 && pid < (1l << 30) && tgid > 0 && tgid < (1l << 30))
			tidmap_put(&r->tgids, (pid_t)pid, (void *)(intptr_t)tgid);
		p = strchr(end, '\n');
		if (!p)
			break;
		p++;
	}
}

/* tracekit's notes and saved_tgids after the version string's NUL (writer.h). */
static int add_version_extras(struct tf_reader *r, const char *data, uint64_t len)
{
	uint64_t i = strnlen(data, len) + 1;
	size_t tag = strlen(TF_NOTE_TGIDS);

	while (i < len) {
		uint64_t end = i + strnlen(data + i, len - i);
		if (end - i >= tag && memcmp(data + i, TF_NOTE_TGIDS, tag) == 0)
			add_tgids(r, data + i + tag);
		else if (add_notes(r, data + i, end - i) < 0)
			return -1;
		i = end + 1;
	}
	return 0;
}

/*
 * A compressed block <compressed size 4><size 4><data> at `at`, with room
 * bytes for it: libtracecmd allocates the larger size as an int, so 2 GB or
 * more turns into a huge allocation (an abort under ASan).
 */
static int check_zblock(struct walk *w, uint64_t at, uint64_t room, const char *what)
{
	uint64_t save = w->pos, csize, usize;

	w->pos = at;
	if (get_u(w, 4, &csize, what) < 0 || get_u(w, 4, &usize, what) < 0)
		return -1;
	w->pos = save;
	if (room < 8 || csize > room - 8 || csize >= (1u << 31) || usize >= (1u << 31))
		return fail(w, "corrupt compressed %s at offset 0x%" PRIx64, what, at);
	return 0;
}

/*
 * Where the per-CPU data of one buffer lies: check it against the file.  Whether
 * it is compressed is its flyrecord section's flag, not the file's: a listener
 * appends plain pages to a client's compressed metadata (tracekit listen does).
 */
static int check_cpu_data(struct walk *w, int cpu, uint64_t off, uint64_t size, bool compressed)
{
	char what[64];

	snprintf(what, sizeof(what), "CPU %d data", cpu);
	if (off > w->size)
		return truncated(w, what, off);
	if (size > w->size - off)
		return truncated(w, what, w->size);
	if (!compressed && size % w->page_size)
		w->why_generic = "CPU data that is not whole pages";
	if (!compressed || size == 0)
		return 0;
	/*
	 * Compressed: <chunk count> then <compressed size><size><data> per chunk;
	 * the size trace-cmd writes in the BUFFER option leaves out the count.
	 */
	uint64_t save = w->pos, end = off + 4 + size, count;

	w->pos = off;
	if (get_u(w, 4, &count, what) < 0)
		return -1;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t csize, usize;
		if (get_u(w, 4, &csize, what) < 0 || get_u(w, 4, &usize, what) < 0 ||
		    skip(w, csize, what) < 0)
			return -1;
		/*
		 * libtracecmd allocates per page of what the chunks claim before it
		 * decompresses any: a claim beyond zstd's best ratio (a 128 KB block
		 * in 4 bytes) is a lie that costs gigabytes.
		 */
		if (usize >= (1u << 31) || csize >= (1u << 31) ||
		    usize > csize * ZSTD_MAX_RATIO + w->page_size)
			return fail(w, "corrupt %s: chunk %" PRIu64 " at offset 0x%" PRIx64
				    " is too large", what, i, w->pos - csize - 8);
		if (usize % w->page_size)
			w->why_generic = "a compressed chunk that is not whole pages";
		if (w->pos > end)
			return fail(w, "corrupt %s: chunk %" PRIu64 " at offset 0x%" PRIx64
				    " runs past its end", what, i, w->pos - csize - 8);
	}
	w->pos = save;
	return 0;
}

/* Options libtracecmd parses on open with allocations sized from the file (guard.h). */
static int guard_option(struct walk *w, uint64_t id, uint64_t start, uint64_t len)
{
	char why[160];
	int bad = 0;

	if (len > (1u << 24))
		return fail(w, "corrupt option %" PRIu64 " at offset 0x%" PRIx64 ": %" PRIu64
			    " bytes", id, start, len);
	unsigned char *data = malloc(len ? len : 1);
	if (!data)
		return fail(w, "out of memory");
	uint64_t save = w->pos;
	w->pos = start;
	if (get(w, data, len, "options") < 0) {
		free(data);
		return -1;
	}
	w->pos = save;
	if (id == OPT_TIME_SHIFT)
		bad = tf_guard_time_shift(data, len, w->big_endian, why, sizeof(why));
	else if (id == OPT_GUEST)
		bad = tf_guard_guest(data, len, w->big_endian, why, sizeof(why));
	else
		bad = tf_guard_procmaps((const char *)data, len, why, sizeof(why));
	free(data);
	if (bad)
		return fail(w, "corrupt %s at offset 0x%" PRIx64, why, start);
	return 0;
}

/* A BUFFER option: <offset><name><clock><page size><cpus>{<cpu><offset><size>}. */
static int walk_buffer_opt(struct walk *w, uint64_t len)
{
	uint64_t end = w->pos + len, sec, psize, n, cpu, off, size;
	char *name = NULL, *clock = NULL;
	int ret = -1;

	if (get_u(w, 8, &sec, "buffer option") < 0 ||
	    get_str(w, 256, &name, "buffer option") < 0)
		goto out;
	if (name[0])
		w->why_generic = "several buffers";
	if (w->version < 7) {	/* v6: only an offset and a name; libtracecmd reads the rest */
		ret = sec < w->size ? 0 : truncated(w, "buffer option", sec);
		goto out;
	}
	if (get_str(w, 256, &clock, "buffer option") < 0 ||
	    get_u(w, 4, &psize, "buffer option") < 0 || get_u(w, 4, &n, "buffer option") < 0)
		goto out;
	if (n > MAX_CPUS) {
		fail(w, "corrupt buffer option: %" PRIu64 " CPUs", n);
		goto out;
	}
	uint64_t at = w->pos, flags = 0;
	bool compressed = false;
	if (w->compressed && sec <= w->size - 4) {	/* the flyrecord section's flags */
		w->pos = sec + 2;
		if (get_u(w, 2, &flags, "buffer option") < 0)
			goto out;
		compressed = flags & SEC_FL_COMPRESS;
		w->pos = at;
	}
	if (name[0] == '\0') {
		if (clock && clock[0])
			set_str(&w->r->clock, strdup(clock));
	}
	for (uint64_t i = 0; i < n; i++) {
		if (get_u(w, 4, &cpu, "buffer option") < 0 || get_u(w, 8, &off, "buffer option") < 0 ||
		    get_u(w, 8, &size, "buffer option") < 0)
			goto out;
		if (w->pos > end || cpu >= MAX_CPUS) {
			fail(w, "corrupt buffer option at offset 0x%" PRIx64, end - len);
			goto out;
		}
		/* Only CPUs with data are listed: the count is the highest id + 1. */
		if (name[0] == '\0' && (int)cpu >= w->cpus)
			w->cpus = (int)cpu + 1;
		uint64_t save = w->pos;
		if (check_cpu_data(w, (int)cpu, off, size, compressed) < 0)
			goto out;
		w->pos = save;
		if (name[0] == '\0')
			w->loc[cpu] = (struct cpu_loc){ .off = off, .size = size, .set = true,
							.compressed = compressed };
	}
	ret = 0;
out:
	free(name);
	free(clock);
	w->pos = end;
	return ret;
}

/* Options 16..21 point at sections: their headers and sizes must lie in the file. */
static int check_section(struct walk *w, uint64_t off, const char *what)
{
	uint64_t save = w->pos, id, flags, strid, size;

	w->pos = off;
	if (get_u(w, 2, &id, what) < 0 || get_u(w, 2, &flags, what) < 0 ||
	    get_u(w, 4, &strid, what) < 0 || get_u(w, 8, &size, what) < 0 ||
	    skip(w, size, what) < 0)
		return -1;
	if ((flags & SEC_FL_COMPRESS) && check_zblock(w, off + 16, size, what) < 0)
		return -1;
	w->pos = save;
	return 0;
}

static const char *section_name(unsigned id)
{
	static const char *const names[] = {
		"header info section", "ftrace event formats section", "event formats section",
		"kallsyms section", "printk formats section", "saved command lines section",
	};

	return id >= 16 && id <= 21 ? names[id - 16] : "section";
}

/* One option of id with len bytes of data at w->pos; leaves w->pos after it. */
static int walk_option(struct walk *w, unsigned id, uint64_t len, uint64_t *next)
{
	uint64_t start = w->pos;
	char *data = NULL;

	if (skip(w, len, "options") < 0)
		return -1;
	if (id == OPT_BUFFER) {
		w->pos = start;
		return walk_buffer_opt(w, len);
	}
	if (id == OPT_DONE || (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES)) {
		uint64_t off;
		if (len < 8)
			return fail(w, "corrupt option %u at offset 0x%" PRIx64, id, start);
		w->pos = start;
		if (get_u(w, 8, &off, "options") < 0)
			return -1;
		w->pos = start + len;
		if (id == OPT_DONE) {
			*next = off;
			return 0;
		}
		if (w->version < 7)
			return 0;
		if (check_section(w, off, section_name(id)) < 0)
			return -1;
		return check_section_content(w, (unsigned)id, off, section_name(id));
	}
	if (id == OPT_CPUCOUNT && len >= 4 && w->version >= 7) {
		uint64_t n;
		w->pos = start;
		if (get_u(w, 4, &n, "options") < 0)
			return -1;
		w->pos = start + len;
		if (n > MAX_CPUS)
			return fail(w, "corrupt CPU count option: %" PRIu64 " CPUs", n);
		if ((int)n > w->cpus)
			w->cpus = (int)n;
		return 0;
	}
	if (id == OPT_TIME_SHIFT && len >= 16)
		w->r->time_shift = true;	/* libtracecmd skips a shorter one */
	if (id == OPT_DATE || id == OPT_OFFSET || id == OPT_TIME_SHIFT || id == OPT_TSC2NSEC)
		w->why_generic = "timestamp corrections (date, offset, time shift or TSC options)";
	else if (id == OPT_BUFFER_TEXT)
		w->why_generic = "a latency-format buffer";
	if ((id == OPT_TIME_SHIFT || id == OPT_GUEST || id == OPT_PROCMAPS) &&
	    guard_option(w, id, start, len) < 0)
		return -1;
	if (id != OPT_CPUSTAT && id != OPT_TRACECLOCK && id != OPT_UNAME &&
	    id != OPT_VERSION && id != OPT_TRACEKIT_NOTES && id != OPT_TSC2NSEC &&
	    id != OPT_TRACEKIT_TGIDS)
		return 0;
	if (len > (1u << 20))
		return fail(w, "corrupt option %u at offset 0x%" PRIx64 ": %" PRIu64 " bytes",
			    id, start, len);
	data = malloc(len + 1);
	if (!data)
		return fail(w, "out of memory");
	w->pos = start;
	if (get(w, data, len, "options") < 0) {
		free(data);
		return -1;
	}
	data[len] = '\0';
	switch (id) {
	case OPT_CPUSTAT:
		parse_cpustat(w, data);
		break;
	case OPT_TRACECLOCK:
		if (!w->r->clock)
			w->r->clock = clock_from_list(data);
		break;
	case OPT_UNAME:
		set_str(&w->r->uname, opt_text(data, strnlen(data, len)));
		break;
	case OPT_VERSION:
		set_str(&w->r->tracer_version, opt_text(data, strnlen(data, len)));
		if (add_version_extras(w->r, data, len) < 0) {
			free(data);
			return fail(w, "out of memory");
		}
		break;
	case OPT_TSC2NSEC:
		w->r->info.ts_usecs = true;
		break;
	case OPT_TRACEKIT_TGIDS:
		add_tgids(w->r, data);
		break;
	case OPT_TRACEKIT_NOTES:
		if (add_notes(w->r, data, len) < 0) {
			free(data);
			return fail(w, "out of memory");
		}
		break;
	}
	free(data);
	return 0;
}

/* v6 options: <id 2><size 4><data> until id 0. */
static int walk_v6_options(struct walk *w)
{
	for (int n = 0; n < MAX_SECTIONS * 16; n++) {
		uint64_t id, len, next;
		if (get_u(w, 2, &id, "options") < 0)
			return -1;
		if (id == 0)
			return 0;
		if (get_u(w, 4, &len, "options") < 0 || walk_option(w, (unsigned)id, len, &next) < 0)
			return -1;
	}
	return fail(w, "corrupt options: too many");
}

static int walk_v6(struct walk *w)
{
	uint64_t cpus, off, size;
	char label[10];

	if (walk_v6_headers(w) < 0 || get_u(w, 4, &cpus, "CPU count") < 0)
		return -1;
	if (cpus == 0 || cpus > MAX_CPUS)
		return fail(w, "corrupt file: %" PRIu64 " CPUs", cpus);
	w->cpus = (int)cpus;
	if (get(w, label, 10, "options") < 0)
		return -1;
	if (!memcmp(label, "options  ", 10)) {
		if (walk_v6_options(w) < 0 || get(w, label, 10, "data label") < 0)
			return -1;
	}
	if (!memcmp(label, "latency  ", 10))
		return fail(w, "a latency-tracer text file: only flyrecord files are supported");
	if (memcmp(label, "flyrecord", 10) != 0)
		return fail(w, "corrupt file: no flyrecord label at offset 0x%" PRIx64, w->pos - 10);
	for (int cpu = 0; cpu < w->cpus; cpu++) {
		if (get_u(w, 8, &off, "CPU offsets") < 0 || get_u(w, 8, &size, "CPU offsets") < 0)
			return -1;
		uint64_t save = w->pos;
		if (check_cpu_data(w, cpu, off, size, w->compressed) < 0)
			return -1;
		w->pos = save;
		w->loc[cpu] = (struct cpu_loc){ .off = off, .size = size, .set = true,
						.compressed = w->compressed };
	}
	return 0;
}

/* v7: a chain of options sections starting at `off`. */
/*
 * libtracecmd looks for the strings sections by stepping from section header
 * to section header from the first one to the end of the file, whatever the
 * options say; the compressed ones it meets there are checked the same way.
 */
static int check_strings_scan(struct walk *w, uint64_t at)
{
	uint64_t save = w->pos;
	int ret = 0;

	while (ret == 0 && at <= w->size && w->size - at >= 16) {
		uint64_t id, flags, strid, size, csize;
		w->pos = at;
		if (get_u(w, 2, &id, "") < 0 || get_u(w, 2, &flags, "") < 0 ||
		    get_u(w, 4, &strid, "") < 0 || get_u(w, 8, &size, "") < 0)
			break;
		at += 16;
		if (id != SEC_STRINGS) {
			if (size > w->size - at)
				break;	/* libtracecmd's read fails there: the end of its scan */
			at += size;
			continue;
		}
		if (!(flags & SEC_FL_COMPRESS)) {
			at += size;
			continue;
		}
		ret = check_zblock(w, at, w->size - at, "strings section");
		if (ret == 0 && get_u(w, 4, &csize, "strings section") == 0)
			at += 8 + csize;
	}
	w->pos = save;
	return ret;
}

static int walk_v7(struct walk *w, uint64_t off)
{
	for (int n = 0; off; n++) {
		uint64_t id, flags, strid, size, end, next = 0;

		if (n == MAX_SECTIONS)
			return fail(w, "corrupt file: options sections form a loop");
		if (off < w->pos - 8 && n == 0)
			return fail(w, "corrupt file: options at offset 0x%" PRIx64, off);
		w->pos = off;
		if (get_u(w, 2, &id, "options section") < 0 || get_u(w, 2, &flags, "options section") < 0 ||
		    get_u(w, 4, &strid, "options section") < 0 || get_u(w, 8, &size, "options section") < 0)
			return -1;
		if (id != 0)
			return fail(w, "corrupt file: section %" PRIu64 " at offset 0x%" PRIx64
				    " where options were expected", id, off);
		if (flags & SEC_FL_COMPRESS)
			return fail(w, "compressed options sections are not supported");
		end = w->pos + size;
		if (skip(w, size, "options section") < 0)
			return -1;
		w->pos = end - size;
		while (w->pos < end) {
			uint64_t oid, len;
			if (get_u(w, 2, &oid, "options section") < 0 ||
			    get_u(w, 4, &len, "options section") < 0)
				return -1;
			if (len > end - w->pos)
				return fail(w, "corrupt option %" PRIu64 " at offset 0x%" PRIx64
					    ": longer than its section", oid, w->pos - 6);
			if (walk_option(w, (unsigned)oid, len, &next) < 0)
				return -1;
			if (oid == OPT_DONE)
				break;
		}
		off = next;
	}
	if (w->cpus <= 0)
		return fail(w, "corrupt file: no trace data buffer described in its options");
	return 0;
}

static int walk_file(struct walk *w)
{
	unsigned char head[10];
	char *ver = NULL, *zname = NULL;
	uint64_t psize, off;
	unsigned char endian, lsize;

	if (get(w, head, 10, "file header") < 0)
		return -1;
	if (memcmp(head, "\x17\x08\x44tracing", 10) != 0)
		return fail(w, "not a trace.dat file (no trace-cmd magic at its start)");
	if (get_str(w, 16, &ver, "file header") < 0)
		return -1;
	w->version = atoi(ver);
	free(ver);
	if (w->version != 6 && w->version != 7)
		return fail(w, "file version %d is not supported (6 and 7 are)", w->version);
	if (get(w, &endian, 1, "file header") < 0 || get(w, &lsize, 1, "file header") < 0 ||
	    get_u(w, 4, &psize, "file header") < 0)
		return -1;
	w->big_endian = endian != 0;
	if (psize < 256 || psize > (1u << 24) || (psize & (psize - 1)))
		return fail(w, "corrupt file header: page size %" PRIu64, psize);
	w->page_size = (unsigned)psize;
	if (w->version == 6) {
		w->r->compression = strdup("none");
		return walk_v6(w);
	}
	if (get_str(w, 64, &zname, "compression header") < 0)
		return -1;
	w->r->compression = zname;
	w->compressed = strcmp(zname, "none") != 0;
	if (get_str(w, 64, NULL, "compression header") < 0 ||
	    get_u(w, 8, &off, "compression header") < 0)
		return -1;
	if (check_strings_scan(w, w->pos) < 0)
		return -1;
	return walk_v7(w, off);
}

int tf_layout_check(struct tf_reader *r, int fd, char *err, size_t errlen)
{
	struct stat st;
	long long overrun[MAX_CPUS];
	struct walk w = {
		.fd = fd, .path = r->path, .err = err, .errlen = errlen, .r = r,
		.overrun = overrun, .noverrun = MAX_CPUS,
	};
	int ret = -1;

	if (fstat(fd, &st) < 0)
		return fail(&w, "%s", strerror(errno));
	w.size = (uint64_t)st.st_size;
	if (w.size == 0)
		return fail(&w, "file is empty (no trace was written to it)");
	for (int i = 0; i < MAX_CPUS; i++)
		overrun[i] = -1;
	w.loc = calloc(MAX_CPUS, sizeof(*w.loc));
	if (!w.loc)
		return fail(&w, "out of memory");
	if (walk_file(&w) < 0)
		goto out;
	r->info.version = w.version;
	r->info.page_size = w.page_size;
	if (w.cpus <= 0 || w.cpus > MAX_CPUS) {
		fail(&w, "corrupt file: %d CPUs", w.cpus);
		goto out;
	}
	r->ncpu = w.cpus;
	r->cpu = calloc((size_t)(unsigned)w.cpus, sizeof(*r->cpu));
	if (!r->cpu) {
		fail(&w, "out of memory");
		goto out;
	}
	for (int i = 0; i < w.cpus; i++) {
		r->cpu[i].selected = true;
		r->cpu[i].overrun = overrun[i];
		r->cpu[i].loc = w.loc[i];
	}
	r->why_generic = w.why_generic;
	if (w.compressed && strcmp(r->compression, "zstd") != 0)
		r->why_generic = "a compression other than zstd";
	ret = 0;
out:
	free(w.loc);
	return ret;
}
