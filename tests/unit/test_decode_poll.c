/* poll, ppoll, select, pselect6: what was asked at entry, what was ready after the return. */
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static void put_pollfds(struct dh *d, unsigned when, const struct pollfd *p, size_t n)
{
	dh_mem(d, when, 0x1000, p, n * sizeof(*p));
}

static void test_poll_prints_revents_after_return(void)
{
	struct dh d;
	struct pollfd in = { 3, POLLIN, 0 }, outp = { 3, POLLIN, POLLIN };
	dh_init(&d, SYS_poll, 0x1000, 1, 1000, 0, 0, 0);
	put_pollfds(&d, SC_AT_ENTRY, &in, 1);
	put_pollfds(&d, SC_AT_EXIT, &outp, 1);
	CHECK_STR(dh_run(&d, 1), "poll([{fd=3, events=POLLIN}], 1, 1000) = 1 ([{fd=3, revents=POLLIN}])");
	dh_free(&d);
}

static void test_poll_several_with_nval(void)
{
	struct dh d;
	struct pollfd in[3] = { { 4, POLLIN, 0 }, { 5, POLLOUT, 0 }, { 99, POLLIN, 0 } };
	struct pollfd ex[3] = { { 4, POLLIN, POLLIN }, { 5, POLLOUT, POLLOUT }, { 99, POLLIN, POLLNVAL } };
	dh_init(&d, SYS_poll, 0x1000, 3, 100, 0, 0, 0);
	put_pollfds(&d, SC_AT_ENTRY, in, 3);
	put_pollfds(&d, SC_AT_EXIT, ex, 3);
	CHECK_STR(dh_run(&d, 3), "poll([{fd=4, events=POLLIN}, {fd=5, events=POLLOUT}, {fd=99, "
		  "events=POLLIN}], 3, 100) = 3 ([{fd=4, revents=POLLIN}, {fd=5, revents=POLLOUT}, "
		  "{fd=99, revents=POLLNVAL}])");
	dh_free(&d);
}

static void test_poll_timeout_negative_fd_null_and_fault(void)
{
	struct dh d;
	struct pollfd in[2] = { { 3, POLLIN, 0 }, { -1, POLLIN, 0 } };
	dh_init(&d, SYS_poll, 0x1000, 2, 0, 0, 0, 0);
	put_pollfds(&d, SC_AT_ENTRY, in, 2);
	put_pollfds(&d, SC_AT_EXIT, in, 2);
	CHECK_STR(dh_run(&d, 0), "poll([{fd=3, events=POLLIN}, {fd=-1}], 2, 0) = 0 (Timeout)");
	dh_free(&d);
	dh_init(&d, SYS_poll, 0, 0, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "poll(NULL, 0, 1) = 0 (Timeout)");
	dh_free(&d);
	dh_init(&d, SYS_poll, 8, 1, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -14), "poll(0x8, 1, 0) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_ppoll_prints_timeout_sigmask_and_time_left(void)
{
	struct dh d;
	struct pollfd in = { 5, POLLIN | POLLOUT, 0 }, ex = { 5, POLLIN | POLLOUT, POLLIN | POLLOUT };
	struct timespec ts = { 0, 1000 }, left = { 0, 0 };
	uint64_t mask = 1ull << (SIGUSR1 - 1);
	dh_init(&d, SYS_ppoll, 0x1000, 1, 0x2000, 0x3000, 8, 0);
	put_pollfds(&d, SC_AT_ENTRY, &in, 1);
	put_pollfds(&d, SC_AT_EXIT, &ex, 1);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ts, sizeof(ts));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &left, sizeof(left));
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 1), "ppoll([{fd=5, events=POLLIN|POLLOUT}], 1, {tv_sec=0, tv_nsec=1000}, "
		  "[USR1], 8) = 1 ([{fd=5, revents=POLLIN|POLLOUT}], left {tv_sec=0, tv_nsec=0})");
	dh_free(&d);
}

static void test_select_ready_sets_and_time_left(void)
{
	struct dh d;
	uint64_t r_in = (1u << 0) | (1u << 4), w_in = 1u << 5;
	struct timeval tv = { 1, 0 }, left = { 0, 999994 };
	dh_init(&d, SYS_select, 6, 0x1000, 0x1100, 0, 0x2000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &r_in, sizeof(r_in));
	dh_mem(&d, SC_AT_ENTRY, 0x1100, &w_in, sizeof(w_in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &r_in, sizeof(r_in));
	dh_mem(&d, SC_AT_EXIT, 0x1100, &w_in, sizeof(w_in));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &tv, sizeof(tv));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &left, sizeof(left));
	CHECK_STR(dh_run(&d, 3), "select(6, [0 4], [5], NULL, {tv_sec=1, tv_usec=0}) = 3 (in [0 4], "
		  "out [5], left {tv_sec=0, tv_usec=999994})");
	dh_free(&d);
}

static void test_select_without_timeout(void)
{
	struct dh d;
	uint64_t r = 1u << 4;
	dh_init(&d, SYS_select, 6, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &r, sizeof(r));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &r, sizeof(r));
	CHECK_STR(dh_run(&d, 1), "select(6, [4], NULL, NULL, NULL) = 1 (in [4])");
	dh_free(&d);
}

static void test_pselect6_timeout_with_null_sigmask(void)
{
	struct dh d;
	uint64_t r = 1u << 5, none = 0;
	struct timespec ts = { 1, 0 };
	dh_init(&d, SYS_pselect6, 6, 0x1000, 0, 0, 0x2000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &r, sizeof(r));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &none, sizeof(none));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "pselect6(6, [5], NULL, NULL, {tv_sec=1, tv_nsec=0}, NULL) = 0 (Timeout)");
	dh_free(&d);
}

/* The sigmask behind the pack's pointer is read and printed (strace 6.1's line). */
static void test_pselect6_sigmask_behind_the_pack(void)
{
	struct dh d;
	uint64_t r = 1, mask = 1u << (SIGUSR1 - 1);
	uint64_t pack[2] = { 0x3000, 8 };
	struct timespec ts = { 0, 1000 }, left = { 0, 0 };
	dh_init(&d, SYS_pselect6, 1, 0x1000, 0, 0, 0x2000, 0x2800);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &r, sizeof(r));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &r, sizeof(r));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ts, sizeof(ts));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &left, sizeof(left));
	dh_mem(&d, SC_AT_ENTRY, 0x2800, pack, sizeof(pack));
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 1), "pselect6(1, [0], NULL, NULL, {tv_sec=0, tv_nsec=1000}, "
		  "{sigmask=[USR1], sigsetsize=8}) = 1 (in [0], left {tv_sec=0, tv_nsec=0})");
	dh_free(&d);
}

static void test_select_large_set_is_read_whole(void)
{
	struct dh d;
	unsigned char set[128];
	memset(set, 0, sizeof(set));
	set[1000 / 8] |= 1u << (1000 % 8);
	dh_init(&d, SYS_select, 1001, 0x1000, 0, 0, 0, 0);
	d.fmt.strsize = 4;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, set, sizeof(set));
	dh_mem(&d, SC_AT_EXIT, 0x1000, set, sizeof(set));
	CHECK_STR(dh_run(&d, 1), "select(1001, [1000], NULL, NULL, NULL) = 1 (in [1000])");
	const struct sc_mem_spec *s = dh_spec(SYS_select);
	CHECK(s && s->len_fn && s->size >= 1024 * 1024 / 8);
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_poll_prints_revents_after_return),
	TK_CASE(test_poll_several_with_nval),
	TK_CASE(test_poll_timeout_negative_fd_null_and_fault),
	TK_CASE(test_ppoll_prints_timeout_sigmask_and_time_left),
	TK_CASE(test_select_ready_sets_and_time_left),
	TK_CASE(test_select_without_timeout),
	TK_CASE(test_pselect6_timeout_with_null_sigmask),
	TK_CASE(test_pselect6_sigmask_behind_the_pack),
	TK_CASE(test_select_large_set_is_read_whole))
