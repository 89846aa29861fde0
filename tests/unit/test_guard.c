/*
 * The section checks that keep hostile files away from libtraceevent's
 * unchecked parsers (src/tracefile/guard.c): the printk formats lines that
 * make tep_parse_printk_formats read outside its buffer are refused, real
 * ones pass; and the reader refuses such a file, v6 and v7, before
 * libtracecmd opens it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_test.h"
#include "tracefile/guard.h"
#include "tracefile/reader.h"
#include "tracefile/writer.h"

#define PAGE 4096

static char dir[] = "/tmp/tk-test-guard-XXXXXX";

struct printk_case {
	const char *text;
	const char *why;	/* NULL: safe */
};

static const struct printk_case printk_cases[] = {
	{ "0xffffffff82000000 : \"hello\\n\"\n", NULL },
	{ "0xffffffff82000000 : \"hello\"\n0xffffffff82000010 : \"%s\"\n", NULL },
	{ "\n\n0xffffffff82000000 : \"abc\"\n\n", NULL },
	{ "0x1 : \"abc\n", NULL },			/* three bytes after the quote */
	{ ":::\n", NULL },				/* the library stops there */
	{ "", NULL },
	{ "0x1 : \"ok\\n\"\nffffffff", "line 2 has no ':' after the address" },
	{ "0xffffffff82000000", "line 1 has no ':' after the address" },
	{ "::0x1", "line 1 has no ':' after the address" },
	{ "0x1 :", "line 1 has nothing after the ':'" },
	{ "0x1 :\n0x2 : \"fine\"", "line 1 has nothing after the ':'" },
	{ "0x1 : \"\"\n", "line 1 has a format shorter than the library expects" },
	{ "0x1 : \"a\"", "line 1 has a format shorter than the library expects" },
	{ "0x1 : ab", "line 1 has a format shorter than the library expects" },
	{ "0x1 : \n", "line 1 has a format shorter than the library expects" },
};

static void test_printk_lines(void)
{
	for (size_t i = 0; i < sizeof(printk_cases) / sizeof(printk_cases[0]); i++) {
		const struct printk_case *c = &printk_cases[i];
		char why[128] = "";
		int ret = tf_guard_printk(c->text, strlen(c->text), why, sizeof(why));

		if (!c->why) {
			CHECK_INT(ret, 0);
			if (ret)
				fprintf(stderr, "  case %zu: %s\n", i, why);
		} else {
			CHECK_INT(ret, -1);
			CHECK_STR(why, c->why);
		}
	}
}

static void test_printk_text_ends_at_nul(void)
{
	static const char text[] = "0x1 : \"fine\"\n\0garbage";
	char why[128];

	CHECK_INT(tf_guard_printk(text, sizeof(text) - 1, why, sizeof(why)), 0);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the tests run little-endian files on the host's order */
}

static void test_time_shift_counts(void)
{
	unsigned char d[16 + 4 + 24] = { 0 };
	char why[160] = "";

	put32(d + 12, 1);
	put32(d + 16, 1);
	CHECK_INT(tf_guard_time_shift(d, sizeof(d), 0, why, sizeof(why)), 0);
	put32(d + 12, 0x63206c61);
	CHECK_INT(tf_guard_time_shift(d, sizeof(d), 0, why, sizeof(why)), -1);
	CHECK_STR(why, "time shift option claims 1663069281 CPUs");
	put32(d + 12, 1);
	put32(d + 16, 2);
	CHECK_INT(tf_guard_time_shift(d, sizeof(d), 0, why, sizeof(why)), -1);
	CHECK_STR(why, "time shift option claims 2 samples for CPU 0");
	CHECK_INT(tf_guard_time_shift(d, 12, 0, why, sizeof(why)), 0);	/* skipped by the library */
}

static void test_guest_vcpus(void)
{
	unsigned char d[4 + 8 + 4 + 16] = "vm0";
	char why[160] = "";

	put32(d + 12, 2);
	put32(d + 16, 0);
	put32(d + 24, 1);
	CHECK_INT(tf_guard_guest(d, sizeof(d), 0, why, sizeof(why)), 0);
	put32(d + 24, (uint32_t)-1);
	CHECK_INT(tf_guard_guest(d, sizeof(d), 0, why, sizeof(why)), -1);
	CHECK_STR(why, "guest option names vCPU -1 of 2");
	put32(d + 12, 0x7fffffff);
	CHECK_INT(tf_guard_guest(d, sizeof(d), 0, why, sizeof(why)), -1);
	CHECK_STR(why, "guest option claims 2147483647 vCPUs");
}

static void test_procmaps_count(void)
{
	static const char ok[] = "1f 1 sh\n400000 401000 /bin/sh\n";
	static const char bad[] = "1f ffffff sh\n400000 401000 /bin/sh\n";
	char why[160] = "";

	CHECK_INT(tf_guard_procmaps(ok, sizeof(ok), why, sizeof(why)), 0);
	CHECK_INT(tf_guard_procmaps(bad, sizeof(bad), why, sizeof(why)), -1);
	CHECK_STR(why, "process maps option claims 16777215 maps in 2 lines");
	CHECK_INT(tf_guard_procmaps(bad, sizeof(bad) - 1, why, sizeof(why)), 0);	/* no NUL: ignored */
}

/* A small file with the given printk text, as the writer makes it. */
static void write_file(const char *path, int version, const char *printk)
{
	static const char hp[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
	static const char he[] = "# compressed entry header\n\ttype_len    :    5 bits\n";
	static const char fmt[] = "name: sched_switch\nID: 300\nformat:\n";
	static const struct tf_format formats[] = { { "sched", { fmt, sizeof(fmt) - 1 } } };
	struct tf_meta m = {
		.page_size = PAGE, .cpus = 1,
		.header_page = { hp, sizeof(hp) - 1 }, .header_event = { he, sizeof(he) - 1 },
		.formats = formats, .nformats = 1,
		.printk_formats = { printk, strlen(printk) },
		.clock = "mono", .version = "0.1.0",
	};
	struct tf_cpu_data cpu = { 0, NULL, 0, 0 };
	char err[256] = "";
	struct tf_writer *w = tf_writer_open(path, version, err, sizeof(err));

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT(tf_write_meta(w, &m, err, sizeof(err)), 0);
	CHECK_INT(tf_write_cpu_data(w, &cpu, 1, err, sizeof(err)), 0);
	CHECK_INT(tf_writer_close(w, err, sizeof(err)), 0);
}

static void check_refused(int version)
{
	char path[256], err[512], want[512];

	snprintf(path, sizeof(path), "%s/v%d.dat", dir, version);
	write_file(path, version, "0x1 : \"ok\\n\"\n0x2 : \"\"\n");
	struct tf_reader *r = tf_reader_open(path, err, sizeof(err));
	CHECK(r == NULL);
	if (r)
		tf_reader_close(r);
	snprintf(want, sizeof(want), "%s: corrupt printk formats section: line 2 has a format "
		 "shorter than the library expects (libtraceevent would read outside its buffer)",
		 path);
	CHECK_STR(err, want);
	unlink(path);
}

static void test_reader_refuses_v6(void)
{
	check_refused(6);
}

static void test_reader_refuses_v7(void)
{
	check_refused(7);
}

int main(void)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_printk_lines),
		TK_CASE(test_printk_text_ends_at_nul),
		TK_CASE(test_time_shift_counts),
		TK_CASE(test_guest_vcpus),
		TK_CASE(test_procmaps_count),
		TK_CASE(test_reader_refuses_v6),
		TK_CASE(test_reader_refuses_v7),
	};
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ret = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	rmdir(dir);
	return ret;
}
