/*
 * The trace.dat reader on trace-cmd-made fixtures (tests/fixtures, the directory
 * given as argv[1] through FIXTURES): meta data, every event in time order, CPU
 * selection, and one clear error for truncated and corrupt files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tk_test.h"
#include "tracefile/reader.h"

static const char *dir;

static char *fixture(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* Events in the stored trace-cmd report: its lines but the "cpus=" one. */
static long stored_events(const char *name, int cpu)
{
	char path[4200], line[4096], tag[16];
	long n = 0;

	snprintf(path, sizeof(path), "%s/%s.report.txt", dir, name);
	snprintf(tag, sizeof(tag), "[%03d]", cpu);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "cpus=", 5) && (cpu < 0 || strstr(line, tag)))
			n++;
	fclose(f);
	return n;
}

static long count(struct tf_reader *r, int *bad_order, int *cpus_seen)
{
	struct tf_event ev;
	char err[256];
	uint64_t last = 0;
	long n = 0;

	*bad_order = 0;
	*cpus_seen = 0;
	while (tf_reader_next(r, &ev, err, sizeof(err)) > 0) {
		if (ev.ts < last)
			(*bad_order)++;
		last = ev.ts;
		if (!ev.event || ev.ts != ev.record->ts)
			(*bad_order)++;
		*cpus_seen |= 1 << ev.cpu;
		n++;
	}
	return n;
}

static void check_fixture(const char *name, int version, const char *compression)
{
	char err[512];
	int bad, cpus;
	struct tf_reader *r = tf_reader_open(fixture(name), err, sizeof(err));

	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	const struct tf_info *info = tf_reader_info(r);
	CHECK_INT(info->version, version);
	CHECK_STR(info->compression, compression);
	CHECK_INT(info->cpus, 2);
	CHECK_INT(info->page_size, 4096);
	CHECK_STR(info->clock, "local");
	CHECK(!strncmp(info->uname, "Linux ", 6));
	CHECK(info->ts_usecs);
	CHECK_INT(tf_reader_nnotes(r), 0);
	CHECK_INT(tf_reader_cpu_overrun(r, 0), 0);
	CHECK(tep_find_event_by_name(tf_reader_tep(r), "sched", "sched_switch") != NULL);
	CHECK_INT(count(r, &bad, &cpus), stored_events(name, -1));
	CHECK_INT(bad, 0);
	CHECK_INT(cpus, 3);
	tf_reader_close(r);
}

static void test_reads_v6(void)
{
	check_fixture("tracecmd-v6.dat", 6, "none");
}

static void test_reads_v7(void)
{
	check_fixture("tracecmd-v7.dat", 7, "none");
}

static void test_reads_v7_zstd(void)
{
	check_fixture("tracecmd-v7zstd.dat", 7, "zstd");
}

static void test_selects_one_cpu(void)
{
	char err[512];
	int bad, cpus;
	bool mask[2] = { false, true };
	struct tf_reader *r = tf_reader_open(fixture("tracecmd-v7zstd.dat"), err, sizeof(err));

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_INT(tf_reader_select_cpus(r, mask, 2), 0);
	CHECK_INT(count(r, &bad, &cpus), stored_events("tracecmd-v7zstd.dat", 1));
	CHECK_INT(cpus, 2);
	CHECK_INT(tf_reader_select_cpus(r, NULL, 0), -1);	/* too late */
	tf_reader_close(r);
}

/* The fast reader yields libtracecmd's records: same order, CPU, time, bytes, losses. */
static void check_fast_matches_generic(const char *name)
{
	char err[512], err2[512];
	struct tf_event a, b;
	int ra, rb;
	long n = 0, diff = 0;

	setenv("TRACEKIT_REPORT_GENERIC", "1", 1);
	struct tf_reader *gen = tf_reader_open(fixture(name), err, sizeof(err));
	unsetenv("TRACEKIT_REPORT_GENERIC");
	struct tf_reader *fast = tf_reader_open(fixture(name), err2, sizeof(err2));

	CHECK(gen != NULL && fast != NULL);
	if (!gen || !fast)
		goto out;
	CHECK(tf_reader_fast(fast, NULL));
	CHECK(!tf_reader_fast(gen, NULL));
	for (;;) {
		ra = tf_reader_next(fast, &a, err, sizeof(err));
		rb = tf_reader_next(gen, &b, err2, sizeof(err2));
		if (ra <= 0 || rb <= 0)
			break;
		n++;
		/* Two readers, two teps: formats compare by id. */
		if (a.cpu != b.cpu || a.ts != b.ts || a.missed != b.missed || !a.event ||
		    !b.event || a.event->id != b.event->id || a.record->size != b.record->size ||
		    memcmp(a.record->data, b.record->data, (size_t)a.record->size))
			diff++;
	}
	CHECK_INT(ra, 0);
	CHECK_INT(rb, 0);
	CHECK_INT(diff, 0);
	CHECK_INT(n, stored_events(name, -1));
out:
	tf_reader_close(gen);
	tf_reader_close(fast);
}

static void test_fast_reader_matches_libtracecmd(void)
{
	check_fast_matches_generic("tracecmd-v6.dat");
	check_fast_matches_generic("tracecmd-v7.dat");
	check_fast_matches_generic("tracecmd-v7zstd.dat");
	check_fast_matches_generic("tracecmd-mixed-v7zstd.dat");
}

/* A copy of a fixture's first n bytes, then open it: the error text. */
static const char *open_cut(const char *name, long n, char *err, size_t errlen)
{
	char path[] = "/tmp/tracekit-test-reader-XXXXXX";
	int fd = mkstemp(path);
	FILE *in = fopen(fixture(name), "rb");
	char buf[4096];

	if (fd < 0 || !in)
		return "cannot make a temporary copy";
	for (long left = n; left > 0;) {
		size_t k = fread(buf, 1, left < (long)sizeof(buf) ? (size_t)left : sizeof(buf), in);
		if (k == 0 || write(fd, buf, k) != (ssize_t)k)
			break;
		left -= (long)k;
	}
	fclose(in);
	close(fd);
	struct tf_reader *r = tf_reader_open(path, err, errlen);
	unlink(path);
	if (r) {
		tf_reader_close(r);
		return NULL;
	}
	/* Past the path: the part of the message that does not depend on it. */
	const char *p = strstr(err, ": ");
	return p ? p + 2 : err;
}

static void test_truncated_v6_names_cpu_data(void)
{
	char err[512];
	/* tracecmd-v6.dat: 0x1e000 bytes, CPU 1's data last. */
	CHECK_STR(open_cut("tracecmd-v6.dat", 0x1d000, err, sizeof(err)),
		  "truncated in the CPU 1 data at offset 0x1d000 (the file ends at 0x1d000; the "
		  "recording was cut short?)");
}

static void test_truncated_header(void)
{
	char err[512];
	CHECK_STR(open_cut("tracecmd-v7zstd.dat", 12, err, sizeof(err)),
		  "truncated in the file header at offset 0xc (the file ends at 0xc; the "
		  "recording was cut short?)");
	CHECK_STR(open_cut("tracecmd-v7zstd.dat", 0, err, sizeof(err)),
		  "file is empty (no trace was written to it)");
}

static void test_truncated_v7_options(void)
{
	char err[512];
	const char *msg = open_cut("tracecmd-v7.dat", 4096, err, sizeof(err));
	CHECK(msg && !strncmp(msg, "truncated in the options section at offset 0x", 45));
}

static void test_not_a_trace_file(void)
{
	char err[512];
	struct tf_reader *r = tf_reader_open(fixture("make-tracecmd-fixtures.sh"), err,
					     sizeof(err));
	CHECK(r == NULL);
	CHECK(strstr(err, "not a trace.dat file") != NULL);
	r = tf_reader_open(fixture("no-such-file.dat"), err, sizeof(err));
	CHECK(r == NULL);
	CHECK(strstr(err, "No such file or directory") != NULL);
}

static const struct tk_case cases[] = {
	TK_CASE(test_reads_v6), TK_CASE(test_reads_v7), TK_CASE(test_reads_v7_zstd),
	TK_CASE(test_selects_one_cpu), TK_CASE(test_truncated_v6_names_cpu_data),
	TK_CASE(test_truncated_header), TK_CASE(test_truncated_v7_options),
	TK_CASE(test_not_a_trace_file), TK_CASE(test_fast_reader_matches_libtracecmd),
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-reader FIXTURE_DIR\n");
		return 2;
	}
	dir = argv[1];
	return tk_run(cases, sizeof(cases) / sizeof(cases[0]));
}
