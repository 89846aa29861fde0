/* Memory mappings: mmap flags, brk, mremap, advice, mincore; lines from strace 6.1. */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_mmap_anonymous_returns_hex(void)
{
	struct dh d;
	dh_init(&d, SYS_mmap, 0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		(uint64_t)-1, 0);
	CHECK_STR(dh_run(&d, 0x7ff5bc0f9000), "mmap(NULL, 8192, PROT_READ|PROT_WRITE, "
		  "MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7ff5bc0f9000");
	dh_free(&d);
}

static void test_mmap_file_with_offset(void)
{
	struct dh d;
	dh_init(&d, SYS_mmap, 0x7ff5bbf32000, 1400832, PROT_READ | PROT_EXEC,
		MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE, 3, 0x26000);
	CHECK_STR(dh_run(&d, 0x7ff5bbf32000), "mmap(0x7ff5bbf32000, 1400832, PROT_READ|PROT_EXEC, "
		  "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0x26000) = 0x7ff5bbf32000");
	dh_free(&d);
}

static void test_mmap_huge_page_size_and_unknown_prot(void)
{
	struct dh d;
	dh_init(&d, SYS_mmap, 0, 4096, PROT_READ, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | (21u << 26),
		(uint64_t)-1, 0);
	CHECK_STR(dh_run(&d, -12), "mmap(NULL, 4096, PROT_READ, MAP_SHARED|MAP_ANONYMOUS|MAP_HUGETLB|"
		  "21<<MAP_HUGE_SHIFT, -1, 0) = -1 ENOMEM (Cannot allocate memory)");
	dh_free(&d);
	dh_init(&d, SYS_mmap, 0x10000000, 4096, PROT_NONE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_POPULATE, (uint64_t)-1, 0);
	CHECK_STR(dh_run(&d, 0x10000000), "mmap(0x10000000, 4096, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|"
		  "MAP_POPULATE|MAP_FIXED_NOREPLACE, -1, 0) = 0x10000000");
	dh_free(&d);
	dh_init(&d, SYS_mmap, 0, 4096, PROT_READ | 0x100, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB,
		(uint64_t)-1, 0x1000);
	CHECK_STR(dh_run(&d, -22), "mmap(NULL, 4096, PROT_READ|0x100, MAP_PRIVATE|MAP_ANONYMOUS|"
		  "MAP_HUGETLB, -1, 0x1000) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_brk_and_munmap(void)
{
	struct dh d;
	dh_init(&d, SYS_brk, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0x55c725a03000), "brk(NULL) = 0x55c725a03000");
	dh_free(&d);
	dh_init(&d, SYS_munmap, (uint64_t)-1, 16384, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "munmap(0xffffffffffffffff, 16384) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_mlock, 0x7ff5bc0f7000, 4096, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "mlock(0x7ff5bc0f7000, 4096) = 0");
	dh_free(&d);
}

static void test_mremap_fixed_prints_new_address(void)
{
	struct dh d;
	dh_init(&d, SYS_mremap, 0x10000000, 4096, 8192, MREMAP_MAYMOVE | MREMAP_FIXED, 0x20000000, 0);
	CHECK_STR(dh_run(&d, 0x20000000), "mremap(0x10000000, 4096, 8192, MREMAP_MAYMOVE|MREMAP_FIXED, "
		  "0x20000000) = 0x20000000");
	dh_free(&d);
	dh_init(&d, SYS_mremap, 0x7ff5bc0f7000, 8192, 16384, MREMAP_MAYMOVE, 0, 0);
	CHECK_STR(dh_run(&d, -14), "mremap(0x7ff5bc0f7000, 8192, 16384, MREMAP_MAYMOVE) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_madvise_known_and_unknown(void)
{
	struct dh d;
	dh_init(&d, SYS_madvise, 0x7ff5bc0f7000, 8192, MADV_DONTNEED, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "madvise(0x7ff5bc0f7000, 8192, MADV_DONTNEED) = 0");
	dh_free(&d);
	dh_init(&d, SYS_madvise, 0x10000000, 4096, 12345, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "madvise(0x10000000, 4096, 0x3039 /* MADV_??? */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_msync_mlockall_mlock2(void)
{
	struct dh d;
	dh_init(&d, SYS_msync, 0x7ff5bc0f7000, 4096, MS_SYNC, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "msync(0x7ff5bc0f7000, 4096, MS_SYNC) = 0");
	dh_free(&d);
	dh_init(&d, SYS_mlockall, MCL_CURRENT, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "mlockall(MCL_CURRENT) = 0");
	dh_free(&d);
	dh_init(&d, SYS_mlock2, 0x7ffdb95bc6d8, 10, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "mlock2(0x7ffdb95bc6d8, 10, MLOCK_ONFAULT) = 0");
	dh_free(&d);
	dh_init(&d, SYS_munlockall, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "munlockall() = 0");
	dh_free(&d);
}

static void test_mincore_vector(void)
{
	struct dh d;
	unsigned char vec[2] = { 1, 0 };
	dh_init(&d, SYS_mincore, 0x7ff5bc0f7000, 8192, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, vec, sizeof(vec));
	CHECK_STR(dh_run(&d, 0), "mincore(0x7ff5bc0f7000, 8192, [1, 0]) = 0");
	dh_free(&d);
}

static void test_membarrier_query_lists_commands(void)
{
	struct dh d;
	dh_init(&d, SYS_membarrier, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0x9), "membarrier(MEMBARRIER_CMD_QUERY, 0) = 0x9 "
		  "(MEMBARRIER_CMD_GLOBAL|MEMBARRIER_CMD_PRIVATE_EXPEDITED)");
	dh_free(&d);
}

static void test_pkey_mprotect_and_process_madvise(void)
{
	struct dh d;
	dh_init(&d, SYS_pkey_mprotect, 0x10000000, 4096, PROT_READ | PROT_WRITE, (uint64_t)-1, 0, 0);
	CHECK_STR(dh_run(&d, 0), "pkey_mprotect(0x10000000, 4096, PROT_READ|PROT_WRITE, -1) = 0");
	dh_free(&d);
	uint64_t iov[2] = { 0x10000000, 4096 };
	dh_init(&d, SYS_process_madvise, 4, 0x1000, 1, MADV_COLD, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, iov, sizeof(iov));
	CHECK_STR(dh_run(&d, -12), "process_madvise(4, [{iov_base=0x10000000, iov_len=4096}], 1, "
		  "MADV_COLD, 0) = -1 ENOMEM (Cannot allocate memory)");
	dh_free(&d);
}

static void test_pkeys_memfd_secret_userfaultfd(void)
{
	struct dh d;
	dh_init(&d, SYS_pkey_alloc, 0xbadc0ded, 3, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "pkey_alloc(0xbadc0ded, PKEY_DISABLE_ACCESS|PKEY_DISABLE_WRITE) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_pkey_alloc, 0, 0xfffffffc, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "pkey_alloc(0, PKEY_DISABLE_EXECUTE|0xfffffff8) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_pkey_free, -1, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "pkey_free(-1) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	/* memfd_secret's unknown bits carry no comment, userfaultfd's known ones come first. */
	dh_init(&d, SYS_memfd_secret, 0xde97face, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "memfd_secret(0xde97face) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_memfd_secret, 0xde97face | 02000000, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "memfd_secret(O_CLOEXEC|0xde97face) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_userfaultfd, 0xfffff, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "userfaultfd(UFFD_USER_MODE_ONLY|O_NONBLOCK|O_CLOEXEC|0x7f7fe) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

/* process_vm_readv: the local vector with the data read, the remote one by address. */
static void test_process_vm_readv(void)
{
	struct dh d;
	struct { uint64_t base, len; } l = { 0x3000, 11 }, r = { 0x7000, 11 };
	dh_init(&d, SYS_process_vm_readv, 7927, 0x1000, 1, 0x2000, 1, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &l, sizeof(l));
	dh_mem(&d, SC_AT_EXIT, 0x3000, "hello world", 11);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &r, sizeof(r));
	CHECK_STR(dh_run(&d, 11), "process_vm_readv(7927, [{iov_base=\"hello world\", iov_len=11}], 1, "
		  "[{iov_base=0x7000, iov_len=11}], 1, 0) = 11");
	dh_free(&d);
	dh_init(&d, SYS_process_vm_writev, 7927, 0, 1, 0x2000, 0, 0);
	CHECK_STR(dh_run(&d, -14), "process_vm_writev(7927, NULL, 1, [], 0, 0) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_process_madvise_vector_and_flags(void)
{
	struct dh d;
	struct { uint64_t base, len; } iov = { 0x9796959493929190ULL, 11501803794301884824ULL };
	dh_init(&d, SYS_process_madvise, -1, 0x1ff0, 2, 0xdeadc0de, 0xdefaced00000000ULL, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff0, &iov, sizeof(iov));
	CHECK_STR(dh_run(&d, -22), "process_madvise(-1, [{iov_base=0x9796959493929190, "
		  "iov_len=11501803794301884824}, ... /* 0x2000 */], 2, 0xdeadc0de /* MADV_??? */, 0) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_remap_file_pages_prot_and_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_remap_file_pages, 0xfacefeeddeadbeefULL, 16067382020775538701ULL, 7,
		14624237743343197933ULL, 0x22, 0);
	CHECK_STR(dh_run(&d, -22), "remap_file_pages(0xfacefeeddeadbeef, 16067382020775538701, "
		  "PROT_READ|PROT_WRITE|PROT_EXEC, 14624237743343197933, MAP_PRIVATE|MAP_ANONYMOUS) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_remap_file_pages_prot_and_flags),
	TK_CASE(test_process_madvise_vector_and_flags),
	TK_CASE(test_mmap_anonymous_returns_hex),
	TK_CASE(test_mmap_file_with_offset),
	TK_CASE(test_mmap_huge_page_size_and_unknown_prot),
	TK_CASE(test_brk_and_munmap),
	TK_CASE(test_mremap_fixed_prints_new_address),
	TK_CASE(test_madvise_known_and_unknown),
	TK_CASE(test_msync_mlockall_mlock2),
	TK_CASE(test_mincore_vector),
	TK_CASE(test_membarrier_query_lists_commands),
	TK_CASE(test_pkey_mprotect_and_process_madvise),
	TK_CASE(test_pkeys_memfd_secret_userfaultfd),
	TK_CASE(test_process_vm_readv))
