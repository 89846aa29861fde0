/* Descriptor I/O: positional and vector reads and writes, dup, pipes, copies. */
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_pread64_prints_data_read_and_offset(void)
{
	struct dh d;
	dh_init(&d, SYS_pread64, 3, 0x1000, 5, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, "helXY", 5);
	CHECK_STR(dh_run(&d, 5), "pread64(3, \"helXY\", 5, 0) = 5");
	dh_free(&d);
}

static void test_pwrite64_prints_data_and_offset(void)
{
	struct dh d;
	dh_init(&d, SYS_pwrite64, 3, 0x1000, 2, 3, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "XY", 2);
	CHECK_STR(dh_run(&d, 2), "pwrite64(3, \"XY\", 2, 3) = 2");
	dh_free(&d);
}

static void test_read_failure_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_read, (uint64_t)-1, 0x7ffc1000, 10, 0, 0, 0);
	CHECK_STR(dh_run(&d, -9), "read(-1, 0x7ffc1000, 10) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

static void test_write_truncates_at_strsize(void)
{
	struct dh d;
	dh_init(&d, SYS_write, 1, 0x1000, 12, 0, 0, 0);
	d.fmt.strsize = 5;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "hello world\n", 12);
	CHECK_STR(dh_run(&d, 12), "write(1, \"hello\"..., 12) = 12");
	dh_free(&d);
}

static void iov_fixture(struct dh *d, unsigned when)
{
	struct iovec iov[2] = { { (void *)0x2000, 3 }, { (void *)0x3000, 4 } };
	dh_mem(d, when, 0x1000, iov, sizeof(iov));
	dh_mem(d, when, 0x2000, "hel", 3);
	dh_mem(d, when, 0x3000, "XY w", 4);
}

static void test_readv_prints_vectors_at_exit(void)
{
	struct dh d;
	dh_init(&d, SYS_readv, 3, 0x1000, 2, 0, 0, 0);
	iov_fixture(&d, SC_AT_EXIT);
	CHECK_STR(dh_run(&d, 7), "readv(3, [{iov_base=\"hel\", iov_len=3}, "
		  "{iov_base=\"XY w\", iov_len=4}], 2) = 7");
	dh_free(&d);
}

static void test_pwritev2_prints_offset_and_rwf_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_pwritev2, 3, 0x1000, 2, (uint64_t)-1, 0, 0x12);
	iov_fixture(&d, SC_AT_ENTRY);
	CHECK_STR(dh_run(&d, 7), "pwritev2(3, [{iov_base=\"hel\", iov_len=3}, "
		  "{iov_base=\"XY w\", iov_len=4}], 2, -1, RWF_DSYNC|RWF_APPEND) = 7");
	dh_free(&d);
}

static void test_preadv_failure_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_preadv, 3, 0x1000, 2, 0, 0, 0);
	CHECK_STR(dh_run(&d, -9), "preadv(3, 0x1000, 2, 0) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

static void test_lseek_whence_and_unknown_whence(void)
{
	struct dh d;
	dh_init(&d, SYS_lseek, 3, (uint64_t)-2, SEEK_END, 0, 0, 0);
	CHECK_STR(dh_run(&d, 10), "lseek(3, -2, SEEK_END) = 10");
	dh_free(&d);
	dh_init(&d, SYS_lseek, 3, 10, 9, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "lseek(3, 10, 0x9 /* SEEK_??? */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_dup3_flags_with_unknown_bits(void)
{
	struct dh d;
	dh_init(&d, SYS_dup3, 3, 11, O_CLOEXEC, 0, 0, 0);
	CHECK_STR(dh_run(&d, 11), "dup3(3, 11, O_CLOEXEC) = 11");
	dh_free(&d);
	dh_init(&d, SYS_dup3, 3, 11, 0x1234, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "dup3(3, 11, O_TRUNC|O_DSYNC|0x34) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_pipe_prints_fds_or_address(void)
{
	struct dh d;
	int fds[2] = { 3, 4 };
	dh_init(&d, SYS_pipe, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, fds, sizeof(fds));
	CHECK_STR(dh_run(&d, 0), "pipe([3, 4]) = 0");
	dh_free(&d);
	dh_init(&d, SYS_pipe, 0x8, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -14), "pipe(0x8) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_pipe2_prints_flags(void)
{
	struct dh d;
	int fds[2] = { 7, 8 };
	dh_init(&d, SYS_pipe2, 0x1000, O_CLOEXEC | O_NONBLOCK, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, fds, sizeof(fds));
	CHECK_STR(dh_run(&d, 0), "pipe2([7, 8], O_NONBLOCK|O_CLOEXEC) = 0");
	dh_free(&d);
}

static void test_flock_unknown_bits(void)
{
	struct dh d;
	dh_init(&d, SYS_flock, 3, 1 | 0x100, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "flock(3, LOCK_SH|0x100) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_sendfile_offset_before_and_after(void)
{
	struct dh d;
	int64_t before = 2, after = 12;
	dh_init(&d, SYS_sendfile, 12, 3, 0x1000, 10, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &before, sizeof(before));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &after, sizeof(after));
	CHECK_STR(dh_run(&d, 10), "sendfile(12, 3, [2] => [12], 10) = 10");
	dh_free(&d);
	dh_init(&d, SYS_sendfile, 12, 3, 0, 5, 0, 0);
	CHECK_STR(dh_run(&d, 0), "sendfile(12, 3, NULL, 5) = 0");
	dh_free(&d);
}

static void test_splice_offsets_and_flags(void)
{
	struct dh d;
	int64_t off = 7;
	dh_init(&d, SYS_splice, 3, 0x1000, 8, 0, 4, 1 | 2);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &off, sizeof(off));
	CHECK_STR(dh_run(&d, 4), "splice(3, [7], 8, NULL, 4, SPLICE_F_MOVE|SPLICE_F_NONBLOCK) = 4");
	dh_free(&d);
}

static void test_copy_file_range_offsets(void)
{
	struct dh d;
	int64_t zero = 0;
	dh_init(&d, SYS_copy_file_range, 3, 0x1000, 12, 0x2000, 7, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &zero, sizeof(zero));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &zero, sizeof(zero));
	CHECK_STR(dh_run(&d, 7), "copy_file_range(3, [0], 12, [0], 7, 0) = 7");
	dh_free(&d);
}

static void test_fallocate_and_fadvise_unknown_values(void)
{
	struct dh d;
	dh_init(&d, SYS_fallocate, 3, 0x1000, 0, 1, 0, 0);
	CHECK_STR(dh_run(&d, -95),
		  "fallocate(3, 0x1000 /* FALLOC_FL_??? */, 0, 1) = -1 EOPNOTSUPP (Operation not supported)");
	dh_free(&d);
	dh_init(&d, SYS_fadvise64, 3, 0, 100, 2, 0, 0);
	CHECK_STR(dh_run(&d, 0), "fadvise64(3, 0, 100, POSIX_FADV_SEQUENTIAL) = 0");
	dh_free(&d);
}

static void test_close_range_and_sync_file_range(void)
{
	struct dh d;
	dh_init(&d, SYS_close_range, 50, 0xffffffff, 4, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "close_range(50, 4294967295, CLOSE_RANGE_CLOEXEC) = 0");
	dh_free(&d);
	dh_init(&d, SYS_sync_file_range, 3, 0, 100, 3, 0, 0);
	CHECK_STR(dh_run(&d, 0),
		  "sync_file_range(3, 0, 100, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE) = 0");
	dh_free(&d);
}

static void test_fd_only_calls_share_one_decoder(void)
{
	struct dh d;
	dh_init(&d, SYS_syncfs, 3, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "syncfs(3) = 0");
	dh_free(&d);
	dh_init(&d, SYS_sync, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "sync() = 0");
	dh_free(&d);
}

static void test_readahead(void)
{
	struct dh d;
	dh_init(&d, SYS_readahead, -1, 0x7ffffffffffLL, 4096, 0, 0, 0);
	CHECK_STR(dh_run(&d, -9), "readahead(-1, 8796093022207, 4096) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

/* A buffer unreadable before -s bytes prints as its address; an unreadable iovec ends the list. */
static void test_buffer_lookahead_and_iov_end(void)
{
	struct dh d;
	char x[16];
	memset(x, 'X', sizeof(x));
	dh_init(&d, SYS_write, 1, 0x1ff0, 100, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff0, x, sizeof(x));
	CHECK_STR(dh_run(&d, -14), "write(1, 0x1ff0, 100) = -1 EFAULT (Bad address)");
	dh_free(&d);
	struct { uint64_t base, len; } iov[2] = { { 0x3000, 2 }, { 0x3001, 1 } };
	dh_init(&d, SYS_writev, 1, 0x1ff0, 3, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff0, iov, sizeof(iov[0]));
	dh_mem(&d, SC_AT_ENTRY, 0x3000, "ab", 2);
	CHECK_STR(dh_run(&d, -14), "writev(1, [{iov_base=\"ab\", iov_len=2}, ... /* 0x2000 */], 3) "
		  "= -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_vmsplice_like_writev(void)
{
	struct dh d;
	struct { uint64_t base, len; } iov[2] = { { 0x3000, 3 }, { 0x3003, 5 } };
	dh_init(&d, SYS_vmsplice, 1, 0x1000, 2, 2, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, iov, sizeof(iov));
	dh_mem(&d, SC_AT_ENTRY, 0x3000, "01234567", 8);
	CHECK_STR(dh_run(&d, 8), "vmsplice(1, [{iov_base=\"012\", iov_len=3}, {iov_base=\"34567\", "
		  "iov_len=5}], 2, SPLICE_F_NONBLOCK) = 8");
	dh_free(&d);
}

/* Octal escapes take three digits only before an octal digit: "\0020", but "\58". */
static void test_octal_escape_width(void)
{
	struct dh d;
	dh_init(&d, SYS_write, 1, 0x1000, 4, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "\2" "0\5" "8", 4);
	CHECK_STR(dh_run(&d, 4), "write(1, \"\\0020\\58\", 4) = 4");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_octal_escape_width),
	TK_CASE(test_vmsplice_like_writev),
	TK_CASE(test_buffer_lookahead_and_iov_end),
	TK_CASE(test_pread64_prints_data_read_and_offset),
	TK_CASE(test_pwrite64_prints_data_and_offset),
	TK_CASE(test_read_failure_prints_address),
	TK_CASE(test_write_truncates_at_strsize),
	TK_CASE(test_readv_prints_vectors_at_exit),
	TK_CASE(test_pwritev2_prints_offset_and_rwf_flags),
	TK_CASE(test_preadv_failure_prints_address),
	TK_CASE(test_lseek_whence_and_unknown_whence),
	TK_CASE(test_dup3_flags_with_unknown_bits),
	TK_CASE(test_pipe_prints_fds_or_address),
	TK_CASE(test_pipe2_prints_flags),
	TK_CASE(test_flock_unknown_bits),
	TK_CASE(test_sendfile_offset_before_and_after),
	TK_CASE(test_splice_offsets_and_flags),
	TK_CASE(test_copy_file_range_offsets),
	TK_CASE(test_fallocate_and_fadvise_unknown_values),
	TK_CASE(test_close_range_and_sync_file_range),
	TK_CASE(test_fd_only_calls_share_one_decoder),
	TK_CASE(test_readahead))
