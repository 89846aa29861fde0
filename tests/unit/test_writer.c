/*
 * The trace.dat writer's byte layout, checked against trace-cmd.dat.v7(5) and
 * .v6(5) on a small synthetic recording, and its errors (bad input, a full
 * disk, a short data file).  That trace-cmd reads real recordings written by
 * it is tests/e2e/test_writer_tracecmd.py's job.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tk_test.h"
#include "tracefile/writer.h"

#define PAGE 4096

static char dir[] = "/tmp/tk-test-writer-XXXXXX";

static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
static const char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";
static const char kallsyms[] = "ffffffff81000000 T _stext\n";
static const char printk[] = "0xffffffff82000000 : \"hello\\n\"\n";
static const char cmdlines[] = "1 systemd\n42 sh\n";
static const char tgids[] = "1 1\n42 42\n";
static const char *const notes[] = { "command=./prog a b", "pids=42" };

#define T(s) { s, sizeof(s) - 1 }
static const struct tf_format formats[] = {
	{ "sched", T("name: sched_switch\nID: 300\nformat:\n") },
	{ "ftrace", T("name: function\nID: 1\nformat:\n") },
	{ "irq", T("name: irq_handler_entry\nID: 100\nformat:\n") },
	{ "sched", T("name: sched_wakeup\nID: 301\nformat:\n") },
};

static struct tf_meta meta(void)
{
	struct tf_meta m = {
		.page_size = PAGE,
		.cpus = 2,
		.header_page = T(header_page),
		.header_event = T(header_event),
		.formats = formats,
		.nformats = 4,
		.kallsyms = T(kallsyms),
		.printk_formats = T(printk),
		.cmdlines = T(cmdlines),
		.tgids = T(tgids),
		.clock = "mono",
		.uname = "Linux host 6.18 x86_64",
		.version = "0.1.0",
		.notes = notes,
		.nnotes = 2,
	};
	return m;
}

struct file {
	unsigned char *b;
	size_t len;
};

static uint16_t u16(const struct file *f, size_t at)
{
	uint16_t v = 0;

	if (at + 2 <= f->len)
		memcpy(&v, f->b + at, 2);
	return v;
}

static uint32_t u32(const struct file *f, size_t at)
{
	uint32_t v = 0;

	if (at + 4 <= f->len)
		memcpy(&v, f->b + at, 4);
	return v;
}

static uint64_t u64(const struct file *f, size_t at)
{
	uint64_t v = 0;

	if (at + 8 <= f->len)
		memcpy(&v, f->b + at, 8);
	return v;
}

static int same(const struct file *f, size_t at, const void *want, size_t n)
{
	return at + n <= f->len && memcmp(f->b + at, want, n) == 0;
}

static struct file slurp(const char *path)
{
	struct file f = { NULL, 0 };
	FILE *fp = fopen(path, "rb");
	long n;

	if (!fp)
		return f;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	f.b = malloc((size_t)n + 1);
	f.len = fread(f.b, 1, (size_t)n, fp);
	fclose(fp);
	return f;
}

/* A file of n pages of byte c: stands in for trace_pipe_raw pages. */
static char *pages_file(const char *name, int n, int c)
{
	static char path[3][256];
	static int k;
	char *p = path[k++ % 3];
	char page[PAGE];
	FILE *fp;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	fp = fopen(p, "wb");
	memset(page, c, sizeof(page));
	for (int i = 0; i < n; i++)
		fwrite(page, 1, sizeof(page), fp);
	fclose(fp);
	return p;
}

/* Writes a file of the given version with CPU 1 holding two pages of 0xab and CPU 0 empty. */
static struct file write_sample(int version, const char *name)
{
	char path[256], err[256] = "";
	struct tf_meta m = meta();
	struct tf_cpu_data cpus[2] = {
		{ 1, pages_file("cpu1", 2, 0xab), 0, 2 * PAGE },
		{ 0, NULL, 0, 0 },
	};
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = tf_writer_open(path, version, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return (struct file){ NULL, 0 };
	CHECK_INT(tf_add_cpu_stats(w, 1, "entries: 0\n", 11, err, sizeof(err)), 0);
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_write_cpu_data(w, cpus, 2, err, sizeof(err)), 0);
	CHECK_INT(tf_writer_close(w, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	return slurp(path);
}

/* Magic, "tracing", version, little endian, long size, page size: 20 bytes in both versions. */
static size_t check_initial(const struct file *f, const char *version)
{
	size_t at = 10 + strlen(version) + 1;

	CHECK(same(f, 0, "\x17\x08\x44tracing", 10));
	CHECK(same(f, 10, version, strlen(version) + 1));
	CHECK_INT(f->b[at], 0);
	CHECK_INT(f->b[at + 1], sizeof(long));
	CHECK_INT(u32(f, at + 2), PAGE);
	return at + 6;
}

/* ---- version 7 ---- */

struct section {
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size, at;	/* at: the section header's offset */
};

static int sections(const struct file *f, size_t at, struct section *s, int max)
{
	int n = 0;

	while (at + 16 <= f->len && n < max) {
		s[n] = (struct section){ u16(f, at), u16(f, at + 2), u32(f, at + 4), u64(f, at + 8),
					 at };
		at += 16 + s[n].size;
		n++;
	}
	CHECK_INT(at, f->len);	/* sizes chain from the header to the end of the file */
	return n;
}

static const struct section *find(const struct section *s, int n, uint16_t id, int nth)
{
	for (int i = 0; i < n; i++) {
		if (s[i].id == id && nth-- == 0)
			return &s[i];
	}
	return NULL;
}

/* Options of the section at s: returns the offset of option id's data (nth of them), or 0. */
static size_t option(const struct file *f, const struct section *s, uint16_t id, int nth,
		     uint32_t *len)
{
	size_t at = s->at + 16, end = s->at + 16 + s->size;

	while (at + 6 <= end) {
		uint16_t oid = u16(f, at);
		uint32_t olen = u32(f, at + 2);

		if (oid == id && nth-- == 0) {
			*len = olen;
			return at + 6;
		}
		if (oid == 0)
			return 0;
		at += 6 + olen;
	}
	return 0;
}

static void test_v7_initial_format_and_compression_header(void)
{
	struct file f = write_sample(7, "a.dat");
	size_t at = check_initial(&f, "7");

	CHECK(same(&f, at, "none\0\0", 6));
	/* The first options section is where the header's offset says. */
	CHECK_INT(u16(&f, u64(&f, at + 6)), 0);
	CHECK(u64(&f, at + 6) > at + 14);
	free(f.b);
}

static void test_v7_sections_in_order_and_chained(void)
{
	struct file f = write_sample(7, "b.dat");
	struct section s[16];
	static const int want[] = { 16, 17, 18, 19, 20, 21, 0, 3, 0, 15 };
	int n = sections(&f, 32, s, 16);

	CHECK_INT(n, 10);
	for (int i = 0; i < n && i < 10; i++) {
		CHECK_INT(s[i].id, want[i]);
		CHECK_INT(s[i].flags, 0);
	}
	free(f.b);
}

static void test_v7_section_descriptions_in_strings_section(void)
{
	struct file f = write_sample(7, "c.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *str = find(s, n, 15, 0);
	static const char *const want[] = { "headers", "ftrace events", "events format", "kallsyms",
		"printk", "command lines", "options", "buffer flyrecord ", "options", "strings" };

	CHECK(str != NULL);
	for (int i = 0; str && i < n && i < 10; i++) {
		CHECK(s[i].desc < str->size);
		if (s[i].desc < str->size)
			CHECK_STR((const char *)f.b + str->at + 16 + s[i].desc, want[i]);
	}
	free(f.b);
}

static void test_v7_header_info_and_formats(void)
{
	struct file f = write_sample(7, "d.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *hi = find(s, n, 16, 0), *ft = find(s, n, 17, 0);
	const struct section *ev = find(s, n, 18, 0);
	size_t at;

	CHECK(hi && ft && ev);
	if (!hi || !ft || !ev)
		return;
	at = hi->at + 16;
	CHECK(same(&f, at, "header_page", 12));
	CHECK_INT(u64(&f, at + 12), sizeof(header_page) - 1);
	CHECK(same(&f, at + 20, header_page, sizeof(header_page) - 1));
	at += 20 + sizeof(header_page) - 1;
	CHECK(same(&f, at, "header_event", 13));
	CHECK_INT(u64(&f, at + 13), sizeof(header_event) - 1);

	/* ftrace formats: a count, then size + text; only the "ftrace" system. */
	CHECK_INT(u32(&f, ft->at + 16), 1);
	CHECK_INT(u64(&f, ft->at + 20), formats[1].text.len);
	CHECK(same(&f, ft->at + 28, formats[1].text.data, formats[1].text.len));

	/* event formats: systems in first-seen order, each with its events. */
	at = ev->at + 16;
	CHECK_INT(u32(&f, at), 2);
	CHECK(same(&f, at + 4, "sched", 6));
	CHECK_INT(u32(&f, at + 10), 2);
	CHECK_INT(u64(&f, at + 14), formats[0].text.len);
	at += 22 + formats[0].text.len;
	CHECK_INT(u64(&f, at), formats[3].text.len);
	CHECK(same(&f, at + 8, formats[3].text.data, formats[3].text.len));
	at += 8 + formats[3].text.len;
	CHECK(same(&f, at, "irq", 4));
	CHECK_INT(u32(&f, at + 4), 1);
	free(f.b);
}

static void test_v7_kallsyms_printk_cmdlines(void)
{
	struct file f = write_sample(7, "e.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *k = find(s, n, 19, 0), *p = find(s, n, 20, 0), *c = find(s, n, 21, 0);

	CHECK(k && p && c);
	if (!k || !p || !c)
		return;
	CHECK_INT(u32(&f, k->at + 16), sizeof(kallsyms) - 1);
	CHECK(same(&f, k->at + 20, kallsyms, sizeof(kallsyms) - 1));
	CHECK_INT(u32(&f, p->at + 16), sizeof(printk) - 1);
	CHECK(same(&f, p->at + 20, printk, sizeof(printk) - 1));
	CHECK_INT(u64(&f, c->at + 16), sizeof(cmdlines) - 1);	/* 8-byte size here */
	CHECK(same(&f, c->at + 24, cmdlines, sizeof(cmdlines) - 1));
	free(f.b);
}

static void test_v7_first_options_point_at_sections(void)
{
	struct file f = write_sample(7, "f.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *o = find(s, n, 0, 0);
	uint32_t len = 0;
	size_t at;

	CHECK(o != NULL);
	if (!o)
		return;
	for (uint16_t id = 16; id <= 21; id++) {
		at = option(&f, o, id, 0, &len);
		CHECK_INT(len, 8);
		CHECK_INT(u64(&f, at), find(s, n, id, 0)->at);
	}
	at = option(&f, o, 8, 0, &len);		/* CPUCOUNT */
	CHECK_INT(len, 4);
	CHECK_INT(u32(&f, at), 2);
	at = option(&f, o, 4, 0, &len);		/* TRACECLOCK */
	CHECK_STR(at ? (const char *)f.b + at : NULL, "[mono]");
	at = option(&f, o, 5, 0, &len);		/* UNAME */
	CHECK_STR(at ? (const char *)f.b + at : NULL, "Linux host 6.18 x86_64");
	at = option(&f, o, 9, 0, &len);		/* VERSION */
	CHECK_STR(at ? (const char *)f.b + at : NULL, "tracekit 0.1.0");
	at = option(&f, o, 2, 0, &len);		/* CPUSTAT */
	CHECK_STR(at ? (const char *)f.b + at : NULL, "CPU: 1\nentries: 0\n");
	free(f.b);
}

/*
 * The notes and tgids follow the version string in the VERSION option:
 * libtracecmd keeps that option as a C string and never sees them, where an
 * option id of our own made it warn "unknown option" on every open.
 */
static void test_v7_notes_and_tgids_in_version_option(void)
{
	static const char want[] = "tracekit 0.1.0\0command=./prog a b\0pids=42\0"
				   TF_NOTE_TGIDS "1 1\n42 42\n";
	struct file f = write_sample(7, "g.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *o = find(s, n, 0, 0);
	uint32_t len = 0;
	size_t at;

	if (!o)
		return;
	at = option(&f, o, 9, 0, &len);
	CHECK_INT(len, sizeof(want));
	CHECK(same(&f, at, want, sizeof(want)));
	CHECK_INT(option(&f, o, TF_OPTION_TRACEKIT_NOTES, 0, &len), 0);
	CHECK_INT(option(&f, o, TF_OPTION_TRACEKIT_TGIDS, 0, &len), 0);
	free(f.b);
}

static void test_v7_done_links_options_sections(void)
{
	struct file f = write_sample(7, "h.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *o1 = find(s, n, 0, 0), *o2 = find(s, n, 0, 1);
	uint32_t len = 0;
	size_t at;

	CHECK(o1 && o2);
	if (!o1 || !o2)
		return;
	CHECK_INT(u64(&f, 24), o1->at);	/* the initial header's link */
	at = option(&f, o1, 0, 0, &len);
	CHECK_INT(len, 8);
	CHECK_INT(u64(&f, at), o2->at);
	at = option(&f, o2, 0, 0, &len);
	CHECK_INT(len, 8);
	CHECK_INT(u64(&f, at), 0);
	CHECK_INT(at + 8, o2->at + 16 + o2->size);	/* DONE is the last option */
	free(f.b);
}

static void test_v7_buffer_option_and_page_aligned_data(void)
{
	struct file f = write_sample(7, "i.dat");
	struct section s[16];
	int n = sections(&f, 32, s, 16);
	const struct section *fly = find(s, n, 3, 0), *o2 = find(s, n, 0, 1);
	unsigned char page[PAGE];
	uint32_t len = 0;
	size_t at;
	uint64_t data;

	CHECK(fly && o2);
	if (!fly || !o2)
		return;
	at = option(&f, o2, 3, 0, &len);
	CHECK_INT(len, 8 + 1 + 5 + 4 + 4 + 20);
	CHECK_INT(u64(&f, at), fly->at);
	CHECK(same(&f, at + 8, "\0mono", 6));
	CHECK_INT(u32(&f, at + 14), PAGE);
	CHECK_INT(u32(&f, at + 18), 1);		/* only CPUs with data are listed */
	CHECK_INT(u32(&f, at + 22), 1);
	data = u64(&f, at + 26);
	CHECK_INT(data % PAGE, 0);
	CHECK(data >= fly->at + 16);
	CHECK_INT(u64(&f, at + 34), 2 * PAGE);
	memset(page, 0xab, sizeof(page));
	CHECK(same(&f, data, page, PAGE));
	CHECK(same(&f, data + PAGE, page, PAGE));
	CHECK_INT(data + 2 * PAGE, fly->at + 16 + fly->size);
	free(f.b);
}

/* ---- version 6 ---- */

static void test_v6_layout(void)
{
	struct file f = write_sample(6, "v6.dat");
	unsigned char page[PAGE];
	size_t at = check_initial(&f, "6");
	uint64_t off0, size0, off1, size1;

	/* No compression header, no sections: the header info comes next. */
	CHECK(same(&f, at, "header_page", 12));
	at += 20 + sizeof(header_page) - 1;
	CHECK(same(&f, at, "header_event", 13));
	at += 21 + sizeof(header_event) - 1;
	CHECK_INT(u32(&f, at), 1);			/* ftrace formats */
	at += 4 + 8 + formats[1].text.len;
	CHECK_INT(u32(&f, at), 2);			/* systems */
	at += 4 + 6 + 4 + 8 + formats[0].text.len + 8 + formats[3].text.len;
	at += 4 + 4 + 8 + formats[2].text.len;
	CHECK_INT(u32(&f, at), sizeof(kallsyms) - 1);
	at += 4 + sizeof(kallsyms) - 1;
	CHECK_INT(u32(&f, at), sizeof(printk) - 1);
	at += 4 + sizeof(printk) - 1;
	CHECK_INT(u64(&f, at), sizeof(cmdlines) - 1);
	at += 8 + sizeof(cmdlines) - 1;
	CHECK_INT(u32(&f, at), 2);			/* CPU count */
	CHECK(same(&f, at + 4, "options  ", 10));
	at += 14;
	while (at + 6 <= f.len && u16(&f, at) != 0)	/* options up to the 0 id */
		at += 6 + u32(&f, at + 2);
	at += 2;
	CHECK(same(&f, at, "flyrecord", 10));
	off0 = u64(&f, at + 10);
	size0 = u64(&f, at + 18);
	off1 = u64(&f, at + 26);
	size1 = u64(&f, at + 34);
	CHECK_INT(u64(&f, at + 42), 6);
	CHECK(same(&f, at + 50, "[mono]", 6));
	CHECK_INT(size0, 0);
	CHECK_INT(size1, 2 * PAGE);
	CHECK_INT(off1 % PAGE, 0);
	CHECK(off0 >= at + 56);
	memset(page, 0xab, sizeof(page));
	CHECK(same(&f, off1, page, PAGE));
	CHECK_INT(off1 + size1, f.len);
	free(f.b);
}

/* ---- errors ---- */

static void test_unsupported_version_refused(void)
{
	char err[256] = "", path[256];

	snprintf(path, sizeof(path), "%s/v5.dat", dir);
	CHECK(tf_writer_open(path, 5, err, sizeof(err)) == NULL);
	CHECK_STR(err, "trace.dat version 5 is not supported (use 6 or 7)");
}

static void test_full_disk_names_file_and_part(void)
{
	char err[256] = "";
	struct tf_meta m = meta();
	struct tf_writer *w = tf_writer_open("/dev/full", 7, err, sizeof(err));

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), -1);
	CHECK_STR(err, "cannot write the file header to /dev/full: No space left on device "
		  "(free space on that filesystem, or write the file elsewhere)");
	CHECK_INT(tf_writer_close(w, NULL, 0), -1);
}

/* A file size limit stands in for a disk that fills up in the middle of a part. */
static void test_write_error_midway_names_the_part(void)
{
	static char big[1 << 16];
	char err[256] = "", path[256], want[512];
	struct tf_meta m = meta();
	struct rlimit old, lim;
	struct tf_writer *w;

	memset(big, 'k', sizeof(big));
	m.kallsyms = (struct tf_text){ big, sizeof(big) };
	snprintf(path, sizeof(path), "%s/limited.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 16384;
	setrlimit(RLIMIT_FSIZE, &lim);
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), -1);
	setrlimit(RLIMIT_FSIZE, &old);
	snprintf(want, sizeof(want), "cannot write kallsyms to %s: File too large "
		 "(free space on that filesystem, or write the file elsewhere)", path);
	CHECK_STR(err, want);
	CHECK_INT(tf_writer_close(w, NULL, 0), -1);
}

static void test_partial_page_data_refused(void)
{
	char err[256] = "", path[256], want[512];
	struct tf_meta m = meta();
	struct tf_cpu_data c = { 0, pages_file("odd", 1, 1), 0, 100 };
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/odd.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_write_cpu_data(w, &c, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: CPU 0's data (100 bytes) is not a whole number of "
		 "4096-byte pages", path);
	CHECK_STR(err, want);
	tf_writer_close(w, NULL, 0);
}

static void test_short_data_file_reported(void)
{
	char err[256] = "", path[256], want[512];
	struct tf_meta m = meta();
	struct tf_cpu_data c = { 1, pages_file("short", 1, 2), 0, 2 * PAGE };
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/short.dat", dir);
	w = tf_writer_open(path, 6, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_write_cpu_data(w, &c, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "CPU 1's data in %s ends after 4096 of 8192 bytes", c.path);
	CHECK_STR(err, want);
	tf_writer_close(w, NULL, 0);
}

static void test_cpu_out_of_range_refused(void)
{
	char err[256] = "", path[256], want[512];
	struct tf_meta m = meta();
	struct tf_cpu_data c = { 2, NULL, 0, 0 };
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/range.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_write_cpu_data(w, &c, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: CPU 2 is out of range (2 CPUs)", path);
	CHECK_STR(err, want);
	tf_writer_close(w, NULL, 0);
}

static void test_close_without_metadata_fails(void)
{
	char err[256] = "", path[256], want[512];
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/empty.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_writer_close(w, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: closed before its metadata was written", path);
	CHECK_STR(err, want);
}

static void test_v7_without_data_still_has_buffer(void)
{
	char err[256] = "", path[256];
	struct tf_meta m = meta();
	struct tf_writer *w;
	struct section s[16];
	struct file f;
	uint32_t len = 0;
	int n;

	snprintf(path, sizeof(path), "%s/nodata.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_writer_close(w, err, sizeof(err)), 0);
	f = slurp(path);
	n = sections(&f, 32, s, 16);
	CHECK(find(s, n, 3, 0) != NULL);
	if (find(s, n, 0, 1)) {
		size_t at = option(&f, find(s, n, 0, 1), 3, 0, &len);

		CHECK_INT(u32(&f, at + 18), 0);	/* no CPU has data */
	}
	free(f.b);
}

/* Version 7 takes CPU statistics after the metadata too: one more options section. */
static void test_v7_late_cpu_stats_in_last_options(void)
{
	char err[256] = "", path[256];
	struct tf_meta m = meta();
	struct tf_writer *w;
	struct section s[16];
	const struct section *o3;
	struct file f;
	uint32_t len = 0;
	size_t at;
	int n;

	snprintf(path, sizeof(path), "%s/late.dat", dir);
	w = tf_writer_open(path, 7, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_add_cpu_stats(w, 0, "overrun: 3\n", 11, err, sizeof(err)), 0);
	CHECK_INT(tf_writer_close(w, err, sizeof(err)), 0);
	f = slurp(path);
	n = sections(&f, 32, s, 16);
	CHECK_INT(n, 11);
	o3 = find(s, n, 0, 2);
	CHECK(o3 != NULL);
	if (o3) {
		at = option(&f, o3, 2, 0, &len);
		CHECK_STR(at ? (const char *)f.b + at : NULL, "CPU: 0\noverrun: 3\n");
		at = option(&f, find(s, n, 0, 1), 0, 0, &len);
		CHECK_INT(u64(&f, at), o3->at);	/* the BUFFER section's DONE links to it */
	}
	free(f.b);
}

static void test_v6_late_cpu_stats_refused(void)
{
	char err[256] = "", path[256], want[512];
	struct tf_meta m = meta();
	struct tf_writer *w;

	snprintf(path, sizeof(path), "%s/late6.dat", dir);
	w = tf_writer_open(path, 6, err, sizeof(err));
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_add_cpu_stats(w, 0, "x", 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: CPU statistics must come before the metadata in a "
		 "version 6 file", path);
	CHECK_STR(err, want);
	tf_writer_close(w, NULL, 0);
}

static void cleanup(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_v7_initial_format_and_compression_header),
		TK_CASE(test_v7_sections_in_order_and_chained),
		TK_CASE(test_v7_section_descriptions_in_strings_section),
		TK_CASE(test_v7_header_info_and_formats),
		TK_CASE(test_v7_kallsyms_printk_cmdlines),
		TK_CASE(test_v7_first_options_point_at_sections),
		TK_CASE(test_v7_notes_and_tgids_in_version_option),
		TK_CASE(test_v7_done_links_options_sections),
		TK_CASE(test_v7_buffer_option_and_page_aligned_data),
		TK_CASE(test_v6_layout),
		TK_CASE(test_unsupported_version_refused),
		TK_CASE(test_full_disk_names_file_and_part),
		TK_CASE(test_write_error_midway_names_the_part),
		TK_CASE(test_partial_page_data_refused),
		TK_CASE(test_short_data_file_reported),
		TK_CASE(test_cpu_out_of_range_refused),
		TK_CASE(test_close_without_metadata_fails),
		TK_CASE(test_v7_without_data_still_has_buffer),
		TK_CASE(test_v7_late_cpu_stats_in_last_options),
		TK_CASE(test_v6_late_cpu_stats_refused),
	};
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ret = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	cleanup();
	return ret;
}
