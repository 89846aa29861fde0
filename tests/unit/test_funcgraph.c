/*
 * function_graph's printers (src/tracefile/funcgraph.c) on hand-made records
 * of 6.1's funcgraph_entry/exit formats: trace-cmd report 3.1's layout at the
 * edges the lab's short recordings never reach (each overhead marker's
 * threshold, durations of 7 and more digits of microseconds, deep indents,
 * a function kallsyms lacks).  The ordinary range is checked line by line
 * against trace-cmd itself in the kernel lab (ftrace-graph).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tk_test.h"
#include "tracefile/funcgraph.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char entry_fmt[] = "name: funcgraph_entry\nID: 11\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char exit_fmt[] = "name: funcgraph_exit\nID: 10\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

#define VFS_READ 0xffffffff81234560ULL

static struct tep_handle *tep;

static void setup(void)
{
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_parse_event(tep, entry_fmt, sizeof(entry_fmt) - 1, "ftrace");
	tep_parse_event(tep, exit_fmt, sizeof(exit_fmt) - 1, "ftrace");
	tep_register_function(tep, "vfs_read", VFS_READ, NULL);
	fg_register(tep);
}

struct rec {
	unsigned char data[40];
	struct tep_record r;
};

static void make(struct rec *x, int id, uint64_t func, int depth, uint64_t call, uint64_t ret)
{
	memset(x, 0, sizeof(*x));
	uint16_t type = (uint16_t)id;
	int32_t pid = 42, d = depth;
	memcpy(x->data, &type, 2);
	memcpy(x->data + 4, &pid, 4);
	memcpy(x->data + 8, &func, 8);
	memcpy(x->data + 16, &d, 4);
	memcpy(x->data + 24, &call, 8);
	memcpy(x->data + 32, &ret, 8);
	x->r.data = x->data;
	x->r.size = id == 10 ? 40 : 24;
}

/* The INFO part of the line trace-cmd prints after "funcgraph_exit: " and its padding. */
static void info(struct rec *x, char *out, size_t len)
{
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &x->r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, len, "%s", s.buffer);
	trace_seq_destroy(&s);
}

static void check_exit(uint64_t ns, int depth, const char *want)
{
	struct rec x;
	char got[256];
	make(&x, 10, VFS_READ, depth, 1000, 1000 + ns);
	info(&x, got, sizeof(got));
	CHECK_STR(got, want);
}

static void test_markers_at_their_thresholds(void)
{
	check_exit(10000, 0, "  10.000 us  |  }");
	check_exit(10001, 0, "+ 10.001 us  |  }");
	check_exit(100000, 0, "+ 100.000 us |  }");
	check_exit(100001, 0, "! 100.001 us |  }");
	check_exit(1000000, 0, "! 1000.000 us |  }");
	check_exit(1000001, 0, "# 1000.001 us |  }");
	check_exit(1000000001, 0, "$ 1000000 us |  }");
}

static void test_durations_short_and_long(void)
{
	check_exit(0, 0, "  0.000 us   |  }");
	check_exit(999, 0, "  0.999 us   |  }");
	check_exit(123456789ULL, 0, "# 123456.789 us |  }");
	/* Seven digits of microseconds: no decimals, as trace-cmd. */
	check_exit(1234567890ULL, 0, "$ 1234567 us |  }");
	check_exit(12345678901ULL, 0, "$ 12345678 us |  }");
}

static void test_depth_indents_two_per_level(void)
{
	check_exit(1500, 3, "  1.500 us   |        }");
}

static void test_entry_nested_and_leaf(void)
{
	struct rec entry, exit;
	char got[256];
	make(&entry, 11, VFS_READ, 1, 0, 0);
	info(&entry, got, sizeof(got));
	CHECK_STR(got, "             |    vfs_read() {");
	make(&exit, 10, VFS_READ, 1, 5000, 27345);
	fg_set_leaf(tep, &exit.r);
	info(&entry, got, sizeof(got));
	CHECK_STR(got, "+ 22.345 us  |    vfs_read();");
	/* The leaf is for one line only. */
	info(&entry, got, sizeof(got));
	CHECK_STR(got, "             |    vfs_read() {");
}

static void test_unknown_function_in_hex(void)
{
	struct rec entry;
	char got[256];
	make(&entry, 11, 0xffffffffa0001234ULL, 0, 0, 0);
	info(&entry, got, sizeof(got));
	CHECK_STR(got, "             |  ffffffffa0001234() {");
}

static void test_parse_fields(void)
{
	struct rec x;
	struct fg_event e;
	make(&x, 10, VFS_READ, 2, 100, 350);
	CHECK(fg_parse(tep_find_event(tep, 10), &x.r, &e));
	CHECK(!e.entry);
	CHECK_INT(e.depth, 2);
	CHECK_INT(e.rettime - e.calltime, 250);
	CHECK(e.func == VFS_READ);
}

static void teardown(void)
{
	tep_free(tep);
}

static void run_setup(void) { setup(); }
static void run_teardown(void) { teardown(); }

TK_MAIN(TK_CASE(run_setup), TK_CASE(test_markers_at_their_thresholds),
	TK_CASE(test_durations_short_and_long), TK_CASE(test_depth_indents_two_per_level),
	TK_CASE(test_entry_nested_and_leaf), TK_CASE(test_unknown_function_in_hex),
	TK_CASE(test_parse_fields), TK_CASE(run_teardown))
