/*
 * Checking and completing a streamed trace file (see tracemeta.h).  The
 * layouts are trace-cmd.dat.v7(5) and trace-cmd.dat.v6(5); where the data
 * goes is what trace-cmd listen does: v7 appends a flyrecord section and a
 * new options section (its BUFFER option) after whatever the client sent and
 * points the last options section's DONE link at it; v6 appends the
 * "flyrecord" table, the clock and the pages.
 */
#include "net/tracemeta.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefile/writer.h"
#include "util/strbuf.h"

enum { OPT_DONE = 0, OPT_BUFFER = 3, OPT_TRACECLOCK = 4, OPT_CPUCOUNT = 8, SEC_FL_COMPRESS = 1 };

/* Walk state: fd, its size, its byte order; a failure sets err once. */
struct walk {
	int fd;
	uint64_t size;
	bool swap;
	char *err;
	size_t errlen;
	bool failed;
};

static int bad(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->err, w->errlen, fmt, ap);
		va_end(ap);
	}
	w->failed = true;
	errno = EPROTO;
	return -1;
}

/* len bytes at off, all within the metadata. */
static int get(struct walk *w, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;

	if (w->failed)
		return -1;
	if (off > w->size || len > w->size - off)
		return bad(w, "the trace file's metadata ends inside a field at offset %llu",
			   (unsigned long long)off);
	while (done < len) {
		ssize_t r = pread(w->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return bad(w, "cannot read the received metadata: %s",
				   r < 0 ? strerror(errno) : "short file");
		done += (size_t)r;
	}
	return 0;
}

static uint16_t u16_at(struct walk *w, uint64_t off)
{
	uint16_t v = 0;

	get(w, off, &v, 2);
	return w->swap ? __builtin_bswap16(v) : v;
}

static uint32_t u32_at(struct walk *w, uint64_t off)
{
	uint32_t v = 0;

	get(w, off, &v, 4);
	return w->swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64_at(struct walk *w, uint64_t off)
{
	uint64_t v = 0;

	get(w, off, &v, 8);
	return w->swap ? __builtin_bswap64(v) : v;
}

/* A NUL-terminated string of at most max bytes at off: its length with the NUL. */
static size_t str_at(struct walk *w, uint64_t off, char *buf, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (get(w, off + i, buf + i, 1))
			return 0;
		if (!buf[i])
			return i + 1;
	}
	bad(w, "a string in the metadata at offset %llu is longer than %zu bytes",
	    (unsigned long long)off, max - 1);
	return 0;
}

/* off + n, refusing what leaves the metadata. */
static uint64_t skip(struct walk *w, uint64_t off, uint64_t n)
{
	if (off > w->size || n > w->size - off) {
		bad(w, "the metadata announces %llu bytes at offset %llu, past its end (%llu)",
		    (unsigned long long)n, (unsigned long long)off, (unsigned long long)w->size);
		return w->size;
	}
	return off + n;
}

/* "local [mono] global" -> "mono"; a bare "mono" stays. */
static void pick_clock(struct walk *w, uint64_t off, uint32_t len, char *clock, size_t size)
{
	char buf[512];
	char *open, *close;
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

	if (get(w, off, buf, n))
		return;
	buf[n] = '\0';
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		open++;
	} else {
		buf[strcspn(buf, " \n")] = '\0';
		open = buf;
	}
	n = strnlen(open, size - 1);
	memcpy(clock, open, n);
	clock[n] = '\0';
	for (char *c = clock; *c; c++)	/* a name, not text to print as is */
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '-' && *c != '_')
			*c = '_';
}

/* One option's effect on mi (clock, CPU count). */
static void note_option(struct walk *w, struct net_meta *mi, uint16_t id, uint64_t off,
			uint32_t len)
{
	if (id == OPT_TRACECLOCK && len)
		pick_clock(w, off, len, mi->clock, sizeof(mi->clock));
	if (id == OPT_CPUCOUNT && len == 4)
		mi->cpus = u32_at(w, off);
}

static int walk_v7(struct walk *w, struct net_meta *mi, uint64_t off)
{
	char name[64];
	uint64_t next, prev = 0;

	off = skip(w, off, str_at(w, off, name, sizeof(name)));	/* compression name */
	off = skip(w, off, str_at(w, off, name, sizeof(name)));	/* and its version */
	next = u64_at(w, off);
	for (int sections = 0; !w->failed; sections++) {
		uint64_t sec = next, pos, end;
		uint16_t id, flags;

		if (sections >= 4096)
			return bad(w, "more than 4096 options sections");
		if (sec <= prev || sec >= w->size)
			return bad(w, "an options section at offset %llu, outside the metadata or "
				   "before the last one", (unsigned long long)sec);
		prev = sec;
		id = u16_at(w, sec);
		flags = u16_at(w, sec + 2);
		end = skip(w, sec + 16, u64_at(w, sec + 8));
		if (w->failed)
			return -1;
		if (id != 0)
			return bad(w, "the section at offset %llu is not an options section (id %u)",
				   (unsigned long long)sec, id);
		if (flags & SEC_FL_COMPRESS)
			return bad(w, "a compressed options section (trace-cmd writes them plain)");
		next = 0;
		for (pos = sec + 16; pos < end && !w->failed;) {
			uint16_t oid = u16_at(w, pos);
			uint32_t len = u32_at(w, pos + 2);
			uint64_t data = pos + 6;

			if (w->failed || skip(w, data, len) > end)
				return bad(w, "an option (id %u) runs past its section", oid);
			if (oid == OPT_DONE) {
				if (len != 8)
					return bad(w, "a DONE option of %u bytes (8 expected)", len);
				next = u64_at(w, data);
				if (!next) {
					mi->link = data;
					return w->failed ? -1 : 0;
				}
				break;
			}
			note_option(w, mi, oid, data, len);
			pos = data + len;
		}
		if (!next && !w->failed)
			return bad(w, "an options section without its DONE option");
	}
	return -1;
}

/* v6: every block in order up to the options, whose end is the metadata's end. */
static int walk_v6(struct walk *w, struct net_meta *mi, uint64_t off)
{
	char name[4096];
	uint32_t n, systems;

	for (int i = 0; i < 2; i++) {	/* "header_page", "header_event" */
		off = skip(w, off, str_at(w, off, name, 16));
		off = skip(w, off + 8, u64_at(w, off));
	}
	n = u32_at(w, off);	/* ftrace formats */
	off += 4;
	for (uint32_t i = 0; i < n && !w->failed; i++)
		off = skip(w, off + 8, u64_at(w, off));
	systems = u32_at(w, off);
	off += 4;
	for (uint32_t s = 0; s < systems && !w->failed; s++) {
		off = skip(w, off, str_at(w, off, name, sizeof(name)));
		n = u32_at(w, off);
		off += 4;
		for (uint32_t i = 0; i < n && !w->failed; i++)
			off = skip(w, off + 8, u64_at(w, off));
	}
	off = skip(w, off + 4, u32_at(w, off));	/* kallsyms */
	off = skip(w, off + 4, u32_at(w, off));	/* printk formats */
	off = skip(w, off + 8, u64_at(w, off));	/* saved cmdlines */
	mi->cpus = u32_at(w, off);
	off += 4;
	if (w->failed)
		return -1;
	if (!mi->cpus || mi->cpus > 1024)
		return bad(w, "the metadata announces %u CPUs", mi->cpus);
	if (get(w, off, name, 10) || memcmp(name, "options  ", 10))
		return bad(w, "no options where a version 6 file has them");
	off += 10;
	for (int i = 0; !w->failed; i++) {
		uint16_t id = u16_at(w, off);
		uint32_t len;

		if (w->failed)
			return -1;
		if (id == OPT_DONE) {
			off += 2;
			break;
		}
		if (i >= 65536)
			return bad(w, "more than 65536 options");
		len = u32_at(w, off + 2);
		note_option(w, mi, id, off + 6, len);
		off = skip(w, off + 6, len);
	}
	if (!w->failed && off != w->size)
		return bad(w, "%llu bytes after the options (the data is not sent with the metadata)",
			   (unsigned long long)(w->size - off));
	return w->failed ? -1 : 0;
}

int net_meta_inspect(int fd, uint64_t size, struct net_meta *mi, char *err, size_t errlen)
{
	struct walk w = { .fd = fd, .size = size, .err = err, .errlen = errlen };
	char head[10], version[16];
	uint8_t endian = 0, longsize = 0;
	uint64_t off;

	memset(mi, 0, sizeof(*mi));
	mi->size = size;
	if (get(&w, 0, head, 10) || memcmp(head, "\x17\x08\x44tracing", 10))
		return bad(&w, "the metadata is not a trace-cmd file (no magic)");
	off = skip(&w, 10, str_at(&w, 10, version, sizeof(version)));
	if (get(&w, off, &endian, 1) || get(&w, off + 1, &longsize, 1))
		return -1;
	w.swap = (endian != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	mi->swap = w.swap;
	if (endian > 1 || (longsize != 4 && longsize != 8))
		return bad(&w, "the metadata's byte order or long size is not one trace-cmd writes");
	mi->page_size = u32_at(&w, off + 2);
	off += 6;
	if (w.failed)
		return -1;
	if (mi->page_size < 1024 || mi->page_size > 65536 ||
	    (mi->page_size & (mi->page_size - 1)))
		return bad(&w, "the metadata's page size %u is not a power of two from 1024 to 65536",
			   mi->page_size);
	if (!strcmp(version, "7")) {
		mi->version = 7;
		return walk_v7(&w, mi, off);
	}
	if (!strcmp(version, "6")) {
		mi->version = 6;
		return walk_v6(&w, mi, off);
	}
	return bad(&w, "the metadata is a version '%.8s' trace file (6 and 7 are read)", version);
}

/* ---- appending ---- */

static void add_n(struct strbuf *sb, const struct net_meta *mi, uint64_t v, int bytes)
{
	uint8_t b[8];

	if (bytes == 2) {
		uint16_t x = (uint16_t)v;
		x = mi->swap ? __builtin_bswap16(x) : x;
		memcpy(b, &x, 2);
	} else if (bytes == 4) {
		uint32_t x = (uint32_t)v;
		x = mi->swap ? __builtin_bswap32(x) : x;
		memcpy(b, &x, 4);
	} else {
		v = mi->swap ? __builtin_bswap64(v) : v;
		memcpy(b, &v, 8);
	}
	sb_addn(sb, (const char *)b, (size_t)bytes);
}

static int put_at(int fd, uint64_t off, const void *buf, size_t len, char *err, size_t errlen)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "cannot write the trace file: %s", strerror(errno));
			return -1;
		}
		done += (size_t)r;
	}
	return 0;
}

/* Copy size bytes of src (from 0) to fd at off. */
static int copy_pages(int fd, uint64_t off, int src, uint64_t size, char *err, size_t errlen)
{
	static __thread char buf[1 << 16];
	uint64_t done = 0;

	while (done < size) {
		size_t want = size - done < sizeof(buf) ? (size_t)(size - done) : sizeof(buf);
		ssize_t r = pread(src, buf, want, (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "cannot read the received pages: %s",
				 r < 0 ? strerror(errno) : "short file");
			return -1;
		}
		if (put_at(fd, off + done, buf, (size_t)r, err, errlen))
			return -1;
		done += (uint64_t)r;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, unsigned page)
{
	return (v + page - 1) / page * page;
}

/* The extra options as the file's byte order has them (the caller checked it is ours). */
static void add_extras(struct strbuf *sb, const struct net_meta *mi, const struct tf_option *opts,
		       int nopts)
{
	for (int i = 0; i < nopts; i++) {
		add_n(sb, mi, opts[i].id, 2);
		add_n(sb, mi, opts[i].len, 4);
		sb_addn(sb, opts[i].data, opts[i].len);
	}
}

static int finish_v7(int fd, const struct net_meta *mi, const struct net_cpu_file *cpus, int n,
		     const struct tf_option *opts, int nopts, char *err, size_t errlen)
{
	struct strbuf extra = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT, buf = STRBUF_INIT;
	uint64_t section = mi->size, at, options, *offs;
	const char *clock = mi->clock[0] ? mi->clock : "local";
	uint32_t with_data = 0;
	int ret = -1;

	offs = calloc((size_t)n + 1, sizeof(*offs));
	if (!offs)
		return -1;
	at = align_up(section + 16, mi->page_size);
	for (int i = 0; i < n; i++) {
		offs[i] = at;
		at += cpus[i].size;
	}
	/* the flyrecord section: header, padding to a page, the pages */
	add_n(&sb, mi, OPT_BUFFER, 2);
	add_n(&sb, mi, 0, 2);
	add_n(&sb, mi, 0xffffffffu, 4);	/* no description string (trace-cmd's -1) */
	add_n(&sb, mi, at - section - 16, 8);
	if (put_at(fd, section, sb.buf, sb.len, err, errlen))
		goto out;
	for (int i = 0; i < n; i++)
		if (cpus[i].size && copy_pages(fd, offs[i], cpus[i].fd, cpus[i].size, err, errlen))
			goto out;
	/* the options section: BUFFER, DONE */
	sb_reset(&sb);
	add_n(&buf, mi, section, 8);
	sb_addn(&buf, "", 1);		/* the top instance */
	sb_addn(&buf, clock, strlen(clock) + 1);
	add_n(&buf, mi, mi->page_size, 4);
	for (int i = 0; i < n; i++)
		with_data += cpus[i].size ? 1 : 0;
	add_n(&buf, mi, with_data, 4);
	for (int i = 0; i < n; i++) {
		if (!cpus[i].size)
			continue;
		add_n(&buf, mi, (uint64_t)cpus[i].cpu, 4);
		add_n(&buf, mi, offs[i], 8);
		add_n(&buf, mi, cpus[i].size, 8);
	}
	options = at;
	add_extras(&extra, mi, opts, nopts);
	add_n(&sb, mi, 0, 2);		/* options section */
	add_n(&sb, mi, 0, 2);
	add_n(&sb, mi, 0xffffffffu, 4);
	add_n(&sb, mi, 6 + buf.len + extra.len + 6 + 8, 8);
	add_n(&sb, mi, OPT_BUFFER, 2);
	add_n(&sb, mi, buf.len, 4);
	sb_addn(&sb, buf.buf, buf.len);
	sb_addn(&sb, extra.buf ? extra.buf : "", extra.len);
	add_n(&sb, mi, OPT_DONE, 2);
	add_n(&sb, mi, 8, 4);
	add_n(&sb, mi, 0, 8);
	if (put_at(fd, options, sb.buf, sb.len, err, errlen))
		goto out;
	/* last: the link that makes the new sections part of the file */
	sb_reset(&sb);
	add_n(&sb, mi, options, 8);
	ret = put_at(fd, mi->link, sb.buf, 8, err, errlen);
out:
	sb_free(&sb);
	sb_free(&buf);
	sb_free(&extra);
	free(offs);
	return ret;
}

static int finish_v6(int fd, const struct net_meta *mi0, const struct net_cpu_file *cpus, int n,
		     const struct tf_option *opts, int nopts, char *err, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;
	struct net_meta m = *mi0, *mi = &m;
	char clock[48];
	uint64_t at;
	int ret = -1;

	if (nopts) {
		/* the options end the metadata: the extra ones go over its DONE, then a DONE */
		add_extras(&sb, mi, opts, nopts);
		add_n(&sb, mi, 0, 2);
		if (put_at(fd, mi->size - 2, sb.buf, sb.len, err, errlen))
			goto out;
		m.size = mi->size - 2 + sb.len;
		sb_reset(&sb);
	}
	snprintf(clock, sizeof(clock), "[%s]", mi->clock[0] ? mi->clock : "local");
	at = align_up(mi->size + 10 + 16 * (uint64_t)mi->cpus + 8 + strlen(clock), mi->page_size);
	sb_addn(&sb, "flyrecord", 10);
	for (uint32_t c = 0; c < mi->cpus; c++) {
		const struct net_cpu_file *f = NULL;

		for (int i = 0; i < n; i++)
			if (cpus[i].cpu == (int)c)
				f = &cpus[i];
		add_n(&sb, mi, f && f->size ? at : 0, 8);
		add_n(&sb, mi, f ? f->size : 0, 8);
		if (f && f->size) {
			if (copy_pages(fd, at, f->fd, f->size, err, errlen))
				goto out;
			at += f->size;
		}
	}
	add_n(&sb, mi, strlen(clock), 8);
	sb_addn(&sb, clock, strlen(clock));
	ret = put_at(fd, mi->size, sb.buf, sb.len, err, errlen);
out:
	sb_free(&sb);
	return ret;
}

int net_meta_finish(int fd, const struct net_meta *mi, const struct net_cpu_file *cpus, int n,
		    char *err, size_t errlen)
{
	return net_meta_finish_with(fd, mi, cpus, n, NULL, 0, err, errlen);
}

int net_meta_finish_with(int fd, const struct net_meta *mi, const struct net_cpu_file *cpus,
			 int n, const struct tf_option *opts, int nopts, char *err, size_t errlen)
{
	if (nopts && mi->swap) {
		snprintf(err, errlen, "the file's byte order is not this machine's: its time-sync "
			 "option is left out");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (cpus[i].size % mi->page_size) {
			snprintf(err, errlen, "CPU %d's data is not whole pages", cpus[i].cpu);
			return -1;
		}
		if (mi->version == 6 && (cpus[i].cpu < 0 || (uint32_t)cpus[i].cpu >= mi->cpus)) {
			snprintf(err, errlen, "data for CPU %d of a %u-CPU file", cpus[i].cpu,
				 mi->cpus);
			return -1;
		}
	}
	return mi->version == 7 ? finish_v7(fd, mi, cpus, n, opts, nopts, err, errlen)
				: finish_v6(fd, mi, cpus, n, opts, nopts, err, errlen);
}
