/*
 * Descriptor I/O: read, write, close and their positional and vector kin,
 * descriptor duplication, pipes, syncing, locking and in-kernel copies.
 */
#include <inttypes.h>

#include "decoder.h"
#include "print_stat.h"

SC_DECODER(read, MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %" PRIu64, c->args[2]);
	return 0;
}

SC_DECODER(write, MEM_BUF_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_buf(c, c->args[1], (int64_t)c->args[2]);
	out(c, ", %" PRIu64, c->args[2]);
	return SC_DONE;
}

SC_DECODER(close)
{
	p_fd(c, c->args[0]);
	return SC_DONE;
}

/* pread64 and pwrite64 share the shape of read and write plus an offset. */
SC_DECODER(pread64, MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %" PRIu64 ", %" PRId64, c->args[2], (int64_t)c->args[3]);
	return 0;
}

SC_DECODER(pwrite64, MEM_BUF_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_buf(c, c->args[1], (int64_t)c->args[2]);
	out(c, ", %" PRIu64 ", %" PRId64, c->args[2], (int64_t)c->args[3]);
	return SC_DONE;
}

/* The vector the kernel filled, up to the bytes it returned; the address on failure. */
static void p_iov_read(struct sc_call *c)
{
	p_iov(c, c->args[1], c->args[2], sc_failed(c) ? SC_IOV_ADDR_ONLY : c->ret);
	out(c, ", %" PRIu64, c->args[2]);
}

static void p_iov_written(struct sc_call *c)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_iov(c, c->args[1], c->args[2], -1);
	out(c, ", %" PRIu64, c->args[2]);
}

SC_DECODER(readv, MEM_IOVEC_OUT(1, 2))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_iov_read(c);
	return 0;
}

SC_DECODER(writev, MEM_IOVEC_IN(1, 2))
{
	p_iov_written(c);
	return SC_DONE;
}

/* preadv, preadv2: the offset (one register on x86_64) and, for v2, the flags in arg 5. */
static int preadv_common(struct sc_call *c, bool v2)
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_iov_read(c);
	out(c, ", %" PRId64, (int64_t)c->args[3]);
	if (v2) {
		p_sep(c);
		p_flags(c, &xlat_rwf_flags, c->args[5], "RWF_???");
	}
	return 0;
}

static int pwritev_common(struct sc_call *c, bool v2)
{
	p_iov_written(c);
	out(c, ", %" PRId64, (int64_t)c->args[3]);
	if (v2) {
		p_sep(c);
		p_flags(c, &xlat_rwf_flags, c->args[5], "RWF_???");
	}
	return SC_DONE;
}

SC_DECODER(preadv, MEM_IOVEC_OUT(1, 2))
{
	return preadv_common(c, false);
}

SC_DECODER(preadv2, MEM_IOVEC_OUT(1, 2))
{
	return preadv_common(c, true);
}

SC_DECODER(pwritev, MEM_IOVEC_IN(1, 2))
{
	return pwritev_common(c, false);
}

SC_DECODER(pwritev2, MEM_IOVEC_IN(1, 2))
{
	return pwritev_common(c, true);
}

SC_DECODER(lseek)
{
	p_fd(c, c->args[0]);
	out(c, ", %" PRId64 ", ", (int64_t)c->args[1]);
	p_xval(c, &xlat_whence, (unsigned)c->args[2], "SEEK_???");
	return SC_DONE;
}

SC_DECODER(dup)
{
	p_fd(c, c->args[0]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(dup2)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_fd(c, c->args[1]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(dup3)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_fd(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_open_flags, (unsigned)c->args[2], "O_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

/* [3, 4] once the kernel wrote them; the address when the call failed. */
static void p_pipefds(struct sc_call *c)
{
	int fds[2];
	if (sc_failed(c)) {
		p_addr(c, c->args[0]);
		return;
	}
	if (p_fetch(c, c->args[0], fds, sizeof(fds)) < 0)
		return;
	out(c, "[");
	p_fd(c, (uint64_t)fds[0]);
	p_sep(c);
	p_fd(c, (uint64_t)fds[1]);
	out(c, "]");
}

SC_DECODER(pipe, MEM_BYTES_OUT(0, 2 * sizeof(int)))
{
	if (c->entering)
		return 0;
	p_pipefds(c);
	return 0;
}

SC_DECODER(pipe2, MEM_BYTES_OUT(0, 2 * sizeof(int)))
{
	if (c->entering)
		return 0;
	p_pipefds(c);
	p_sep(c);
	p_flags(c, &xlat_open_flags, (unsigned)c->args[1], "O_???");
	return 0;
}

SC_DECODER(flock)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_flock_ops, (unsigned)c->args[1], "LOCK_???");
	return SC_DONE;
}

/* fsync, fdatasync, syncfs, fchdir: one descriptor and nothing else. */
SC_DECODER(fsync)
{
	p_fd(c, c->args[0]);
	return SC_DONE;
}

SC_DECODER(sync)
{
	(void)c;
	return SC_DONE;
}

SC_DECODER(ftruncate)
{
	p_fd(c, c->args[0]);
	out(c, ", %" PRId64, (int64_t)c->args[1]);
	return SC_DONE;
}

SC_DECODER(truncate, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	out(c, ", %" PRId64, (int64_t)c->args[1]);
	return SC_DONE;
}

/*
 * sendfile: the offset the kernel reads and, when it copied anything,
 * advances: "[2] => [12]".  Without an offset or a count all is said at entry.
 */
SC_DECODER(sendfile, MEM_BYTES_INOUT(2, sizeof(int64_t)))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_fd(c, c->args[1]);
		p_sep(c);
		int64_t off;
		bool held = c->args[2] && sc_mem_read(c, c->args[2], &off, sizeof(off)) == 0;
		p_u64_ptr(c, c->args[2]);
		if (held && c->args[3])
			return 0;
		out(c, ", %" PRIu64, c->args[3]);
		return SC_DONE;
	}
	if (!sc_failed(c) && c->ret) {
		out(c, " => ");
		p_u64_ptr(c, c->args[2]);
	}
	out(c, ", %" PRIu64, c->args[3]);
	return 0;
}

SC_DECODER(copy_file_range, MEM_BYTES_IN(1, sizeof(int64_t)), MEM_BYTES_IN(3, sizeof(int64_t)))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_s64_ptr(c, c->args[1]);
	p_sep(c);
	p_fd(c, c->args[2]);
	p_sep(c);
	p_s64_ptr(c, c->args[3]);
	out(c, ", %" PRIu64 ", %u", c->args[4], (unsigned)c->args[5]);
	return SC_DONE;
}

SC_DECODER(splice, MEM_BYTES_IN(1, sizeof(int64_t)), MEM_BYTES_IN(3, sizeof(int64_t)))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_s64_ptr(c, c->args[1]);
	p_sep(c);
	p_fd(c, c->args[2]);
	p_sep(c);
	p_s64_ptr(c, c->args[3]);
	out(c, ", %" PRIu64 ", ", c->args[4]);
	p_flags(c, &xlat_splice_flags, (unsigned)c->args[5], "SPLICE_F_???");
	return SC_DONE;
}

SC_DECODER(tee)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_fd(c, c->args[1]);
	out(c, ", %" PRIu64 ", ", c->args[2]);
	p_flags(c, &xlat_splice_flags, (unsigned)c->args[3], "SPLICE_F_???");
	return SC_DONE;
}

SC_DECODER(fallocate)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_falloc_flags, (unsigned)c->args[1], "FALLOC_FL_???");
	out(c, ", %" PRId64 ", %" PRId64, (int64_t)c->args[2], (int64_t)c->args[3]);
	return SC_DONE;
}

SC_DECODER(fadvise64)
{
	p_fd(c, c->args[0]);
	/* the offset is loff_t, the length size_t */
	out(c, ", %" PRId64 ", %" PRIu64 ", ", (int64_t)c->args[1], c->args[2]);
	p_xval(c, &xlat_fadvise_advice, (unsigned)c->args[3], "POSIX_FADV_???");
	return SC_DONE;
}

SC_DECODER(sync_file_range)
{
	p_fd(c, c->args[0]);
	out(c, ", %" PRId64 ", %" PRId64 ", ", (int64_t)c->args[1], (int64_t)c->args[2]);
	p_flags(c, &xlat_sync_file_range_flags, (unsigned)c->args[3], "SYNC_FILE_RANGE_???");
	return SC_DONE;
}

SC_DECODER(close_range)
{
	out(c, "%u, %u, ", (unsigned)c->args[0], (unsigned)c->args[1]);
	p_flags(c, &xlat_close_range_flags, (unsigned)c->args[2], "CLOSE_RANGE_???");
	return SC_DONE;
}

SC_DECODER(readahead)
{
	p_fd(c, c->args[0]);
	out(c, ", %" PRId64 ", %" PRIu64, (int64_t)c->args[1], c->args[2]);
	return SC_DONE;
}

/* vmsplice: the user pages go into (or come out of) a pipe, printed like writev's. */
SC_DECODER(vmsplice, MEM_IOVEC_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_iov(c, c->args[1], c->args[2], -1);
	out(c, ", %" PRIu64 ", ", c->args[2]);
	p_flags(c, &xlat_splice_flags, (unsigned)c->args[3], "SPLICE_F_???");
	return SC_DONE;
}
