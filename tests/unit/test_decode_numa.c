/* NUMA policy calls: node masks as word arrays, modes with flags; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static const uint64_t mask[3] = { 1, 0xdeadbeefcafef00dULL, 3 };

static void test_set_mempolicy(void)
{
	struct dh d;
	dh_init(&d, SYS_set_mempolicy, 2 | 0x8000, 0x1000, 129, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 0), "set_mempolicy(MPOL_BIND|MPOL_F_STATIC_NODES, "
		  "[0x00000000000001, 0xdeadbeefcafef00d], 129) = 0");
	dh_free(&d);
	/* The second word is not readable. */
	uint64_t zero = 0;
	dh_init(&d, SYS_set_mempolicy, 1, 0x1ff8, 129, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff8, &zero, sizeof(zero));
	CHECK_STR(dh_run(&d, -EFAULT), "set_mempolicy(MPOL_PREFERRED, [0000000000000000, ... /* "
		  "0x2000 */], 129) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_mbind_and_get(void)
{
	struct dh d;
	dh_init(&d, SYS_mbind, 0x7000, 4096, 0x2000 | 4, 0x1000, 2, 8);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, mask, sizeof(mask));
	CHECK_STR(dh_run(&d, -EINVAL), "mbind(0x7000, 4096, MPOL_LOCAL|MPOL_F_NUMA_BALANCING, "
		  "[0x00000000000001], 2, 0x8 /* MPOL_??? */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	int pol = 1;
	dh_init(&d, SYS_get_mempolicy, 0x2000, 0x1000, 64, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x2000, &pol, sizeof(pol));
	dh_mem(&d, SC_AT_EXIT, 0x1000, mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 0), "get_mempolicy([MPOL_PREFERRED], [0x00000000000001], 64, NULL, 0) = 0");
	dh_free(&d);
}

static void test_move_pages(void)
{
	struct dh d;
	uint64_t pages[3] = { 0x7000, 0x8000, 0 };
	int st[3] = { 0, -EFAULT, -EFAULT };
	dh_init(&d, SYS_move_pages, 0, 3, 0x1000, 0, 0x2000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, pages, sizeof(pages));
	dh_mem(&d, SC_AT_EXIT, 0x2000, st, sizeof(st));
	CHECK_STR(dh_run(&d, 0), "move_pages(0, 3, [0x7000, 0x8000, NULL], NULL, "
		  "[0, -EFAULT, -EFAULT], 0) = 0");
	dh_free(&d);
	dh_init(&d, SYS_migrate_pages, 0, 65, 0x1000, 0x1008, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 0), "migrate_pages(0, 65, [0x00000000000001], [0xdeadbeefcafef00d]) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_set_mempolicy),
	TK_CASE(test_mbind_and_get),
	TK_CASE(test_move_pages))
