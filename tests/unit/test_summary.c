/* The -c table: strace 6.1's layout, sums and -S orders. */
#include <sys/syscall.h>

#include "syscalls/summary.h"
#include "tk_test.h"

#define MS 1000000ull

static char out[4096];

static const char *print(const struct sc_summary *s)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	out[0] = '\0';

	sc_summary_print(s, f);
	fclose(f);
	return out;
}

/* Two reads of 1 ms and one failed openat of 3 ms. */
static struct sc_summary *sample(void)
{
	struct sc_summary *s = sc_summary_new();

	sc_summary_add(s, SYS_read, 1 * MS, false);
	sc_summary_add(s, SYS_read, 1 * MS, false);
	sc_summary_add(s, SYS_openat, 3 * MS, true);
	return s;
}

static void test_table_sorted_by_time_with_total_line(void)
{
	struct sc_summary *s = sample();

	CHECK_STR(print(s),
		  "% time     seconds  usecs/call     calls    errors syscall\n"
		  "------ ----------- ----------- --------- --------- ----------------\n"
		  " 60.00    0.003000        3000         1         1 openat\n"
		  " 40.00    0.002000        1000         2           read\n"
		  "------ ----------- ----------- --------- --------- ----------------\n"
		  "100.00    0.005000        1666         3         1 total\n");
	sc_summary_free(s);
}

static void test_nothing_counted_prints_nothing(void)
{
	struct sc_summary *s = sc_summary_new();

	CHECK_STR(print(s), "");
	sc_summary_free(s);
}

static void test_zero_times_print_zero_percent_not_nan(void)
{
	struct sc_summary *s = sc_summary_new();

	sc_summary_add(s, SYS_close, 0, false);
	CHECK_STR(print(s),
		  "% time     seconds  usecs/call     calls    errors syscall\n"
		  "------ ----------- ----------- --------- --------- ----------------\n"
		  "  0.00    0.000000           0         1           close\n"
		  "------ ----------- ----------- --------- --------- ----------------\n"
		  "100.00    0.000000           0         1           total\n");
	sc_summary_free(s);
}

static void test_ties_keep_syscall_number_order(void)
{
	struct sc_summary *s = sc_summary_new();

	sc_summary_add(s, SYS_close, 0, false);
	sc_summary_add(s, SYS_write, 0, false);
	sc_summary_add(s, SYS_read, 0, false);
	CHECK(strstr(print(s), " read\n") < strstr(out, " write\n"));
	CHECK(strstr(out, " write\n") < strstr(out, " close\n"));
	sc_summary_free(s);
}

static void test_sort_by_calls_puts_most_called_first(void)
{
	struct sc_summary *s = sample();
	char err[256];

	CHECK_INT(sc_summary_set_sort(s, "calls", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " read\n") < strstr(out, " openat\n"));
	sc_summary_free(s);
}

static void test_sort_by_name_is_alphabetical(void)
{
	struct sc_summary *s = sc_summary_new();
	char err[256];

	sc_summary_add(s, SYS_write, 5 * MS, false);
	sc_summary_add(s, SYS_close, 1 * MS, false);
	sc_summary_add(s, SYS_brk, 3 * MS, false);
	CHECK_INT(sc_summary_set_sort(s, "syscall_name", err, sizeof(err)), 0);
	print(s);
	CHECK(strstr(out, " brk\n") < strstr(out, " close\n"));
	CHECK(strstr(out, " close\n") < strstr(out, " write\n"));
	sc_summary_free(s);
}

static void test_sort_by_nothing_is_syscall_number_order(void)
{
	struct sc_summary *s = sample();
	char err[256];

	CHECK_INT(sc_summary_set_sort(s, "nothing", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " read\n") < strstr(out, " openat\n"));
	sc_summary_free(s);
}

static void test_sort_by_min_max_avg_and_errors(void)
{
	struct sc_summary *s = sc_summary_new();
	char err[256];

	/* read: 1 and 9 ms (min 1, max 9, avg 5); write: 4 ms twice, one failed */
	sc_summary_add(s, SYS_read, 1 * MS, false);
	sc_summary_add(s, SYS_read, 9 * MS, false);
	sc_summary_add(s, SYS_write, 4 * MS, true);
	sc_summary_add(s, SYS_write, 4 * MS, false);
	CHECK_INT(sc_summary_set_sort(s, "min-time", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " write\n") < strstr(out, " read\n"));
	CHECK_INT(sc_summary_set_sort(s, "longest", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " read\n") < strstr(out, " write\n"));
	CHECK_INT(sc_summary_set_sort(s, "time_avg", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " read\n") < strstr(out, " write\n"));
	CHECK_INT(sc_summary_set_sort(s, "errors", err, sizeof(err)), 0);
	CHECK(strstr(print(s), " write\n") < strstr(out, " read\n"));
	sc_summary_free(s);
}

static void test_unknown_sort_key_is_refused_with_the_keys(void)
{
	struct sc_summary *s = sc_summary_new();
	char err[256];

	CHECK_INT(sc_summary_set_sort(s, "speed", err, sizeof(err)), -1);
	CHECK_STR(err, "invalid sort key 'speed' in -S speed (keys: time, min-time, max-time, "
		  "avg-time, calls, errors, name, nothing)");
	sc_summary_free(s);
}

static void test_long_names_and_large_times_widen_their_columns(void)
{
	struct sc_summary *s = sc_summary_new();

	sc_summary_add(s, SYS_sched_get_priority_max, 123456ull * 1000 * MS, false);
	CHECK_STR(print(s),
		  "% time       seconds   usecs/call     calls    errors syscall\n"
		  "------ ------------- ------------ --------- --------- -----------------------\n"
		  "100.00 123456.000000 123456000000         1           sched_get_priority_max\n"
		  "------ ------------- ------------ --------- --------- -----------------------\n"
		  "100.00 123456.000000 123456000000         1           total\n");
	sc_summary_free(s);
}

static void test_usecs_per_call_is_rounded_mean_truncated_to_microseconds(void)
{
	struct sc_summary *s = sc_summary_new();

	/* 2999 ns over two calls: mean 1500 ns rounds to 1 us */
	sc_summary_add(s, SYS_getpid, 1000, false);
	sc_summary_add(s, SYS_getpid, 1999, false);
	CHECK(strstr(print(s), "    0.000003           1         2           getpid\n") != NULL);
	sc_summary_free(s);
}

static void test_overhead_is_subtracted_but_never_below_zero(void)
{
	struct sc_summary *s = sc_summary_new();

	sc_summary_set_overhead(s, 2 * MS);
	sc_summary_add(s, SYS_read, 5 * MS, false);
	sc_summary_add(s, SYS_read, 1 * MS, false);
	CHECK(strstr(print(s), "    0.003000        1500         2           read\n") != NULL);
	sc_summary_free(s);
}

TK_MAIN(TK_CASE(test_table_sorted_by_time_with_total_line),
	TK_CASE(test_nothing_counted_prints_nothing),
	TK_CASE(test_zero_times_print_zero_percent_not_nan),
	TK_CASE(test_ties_keep_syscall_number_order),
	TK_CASE(test_sort_by_calls_puts_most_called_first),
	TK_CASE(test_sort_by_name_is_alphabetical),
	TK_CASE(test_sort_by_nothing_is_syscall_number_order),
	TK_CASE(test_sort_by_min_max_avg_and_errors),
	TK_CASE(test_unknown_sort_key_is_refused_with_the_keys),
	TK_CASE(test_long_names_and_large_times_widen_their_columns),
	TK_CASE(test_usecs_per_call_is_rounded_mean_truncated_to_microseconds),
	TK_CASE(test_overhead_is_subtracted_but_never_below_zero))
