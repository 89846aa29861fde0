/*
 * Memory mappings and their attributes: mmap and friends, locking, advice,
 * residency (mincore), membarrier.  Addresses print in hex, lengths in decimal.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "print_pid.h"
#include "decoder.h"

#define HUGE_SHIFT 26
#define HUGE_MASK (0x3fu << HUGE_SHIFT)

static void p_len(struct sc_call *c, uint64_t len)
{
	out(c, "%llu", (unsigned long long)len);
}

static void p_prot(struct sc_call *c, uint64_t prot)
{
	p_flags(c, &xlat_mmap_prot, prot, "PROT_???");
}

/* MAP_PRIVATE|MAP_ANONYMOUS|21<<MAP_HUGE_SHIFT: type, flags, then the huge page size. */
static void p_mmap_flags_abbrev(struct sc_call *c, uint64_t flags)
{
	p_xval(c, &xlat_mmap_types, flags & MAP_TYPE, "MAP_???");
	uint64_t huge = flags & HUGE_MASK;
	flags &= ~(uint64_t)(MAP_TYPE | HUGE_MASK);
	if (flags) {
		out(c, "|");
		p_flags(c, &xlat_mmap_flags, flags, NULL);
	}
	if (huge)
		out(c, "|%llu<<MAP_HUGE_SHIFT", (unsigned long long)(huge >> HUGE_SHIFT));
}

static void p_mmap_flags(struct sc_call *c, uint64_t flags)
{
	p_compound(c, flags, p_mmap_flags_abbrev);
}

SC_DECODER(mmap)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_prot(c, c->args[2]);
	p_sep(c);
	p_mmap_flags(c, c->args[3]);
	p_sep(c);
	p_fd(c, c->args[4]);
	out(c, ", %#llx", (unsigned long long)c->args[5]);
	c->rv = SC_RV_HEX;
	return SC_DONE;
}

/* munmap, mlock, munlock: an address and a length. */
SC_DECODER(munmap)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(mprotect)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_prot(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(pkey_mprotect)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_prot(c, c->args[2]);
	p_sep(c);
	p_int(c, c->args[3]);
	return SC_DONE;
}

SC_DECODER(brk)
{
	p_addr(c, c->args[0]);
	c->rv = SC_RV_HEX;
	return SC_DONE;
}

SC_DECODER(mremap)
{
	uint64_t flags = c->args[3];
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_len(c, c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_mremap_flags, flags, "MREMAP_???");
	/* The new address is an argument only when the mapping may move to it. */
	if ((flags & (MREMAP_MAYMOVE | MREMAP_FIXED)) == (MREMAP_MAYMOVE | MREMAP_FIXED)) {
		p_sep(c);
		p_addr(c, c->args[4]);
	}
	c->rv = SC_RV_HEX;
	return SC_DONE;
}

SC_DECODER(madvise)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_xval(c, &xlat_madvise_cmds, (unsigned)c->args[2], "MADV_???");
	return SC_DONE;
}

SC_DECODER(msync)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_msync_flags, (unsigned)c->args[2], "MS_???");
	return SC_DONE;
}

SC_DECODER(mlock2)
{
	p_addr(c, c->args[0]);
	p_sep(c);
	p_len(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_mlock_flags, (unsigned)c->args[2], "MLOCK_???");
	return SC_DONE;
}

SC_DECODER(mlockall)
{
	p_flags(c, &xlat_mlockall_flags, (unsigned)c->args[0], "MCL_???");
	return SC_DONE;
}

#define PAGE_SIZE_ 4096u
#define MINCORE_CAP 4096u	/* vector bytes copied (and printed before "...") at most */

static size_t mincore_len(const struct sc_call *c)
{
	uint64_t pages = (c->args[1] + PAGE_SIZE_ - 1) / PAGE_SIZE_;
	return pages < MINCORE_CAP ? (size_t)pages : MINCORE_CAP;
}

/* One byte per page: [1, 0, ...], abbreviated after -s entries unless -v. */
/* .size caps the length: without it the engine would copy only -s bytes. */
#define MEM_MINCORE_VEC { .arg = 2, .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_FN,	\
			  .len_fn = mincore_len, .size = MINCORE_CAP }

SC_DECODER(mincore, MEM_MINCORE_VEC)
{
	const unsigned char *v;
	if (c->entering) {
		p_addr(c, c->args[0]);
		p_sep(c);
		p_len(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	size_t n = (size_t)((c->args[1] + PAGE_SIZE_ - 1) / PAGE_SIZE_);
	size_t max = c->fmt && !c->fmt->verbose ? c->fmt->strsize : (size_t)-1;
	long held = sc_failed(c) || !c->args[2] ? -1 : sc_mem_peek(c, c->args[2], n, &v);
	if (held < 0 || (size_t)held < (n < MINCORE_CAP ? n : MINCORE_CAP)) {
		p_addr(c, c->args[2]);
		return 0;
	}
	out(c, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			p_sep(c);
		if (i >= max || i >= (size_t)held) {
			out(c, "...");
			break;
		}
		out(c, "%u", v[i] & 1u);
	}
	out(c, "]");
	return 0;
}

SC_DECODER(membarrier)
{
	unsigned cmd = (unsigned)c->args[0];
	if (c->entering) {
		p_xval(c, &xlat_membarrier_cmds, cmd, "MEMBARRIER_CMD_???");
		p_sep(c);
		p_flags(c, &xlat_membarrier_flags, (unsigned)c->args[1], "MEMBARRIER_CMD_FLAG_???");
		return 0;
	}
	/* QUERY answers with the set of supported commands. */
	if (cmd == 0 && !sc_failed(c) && c->ret > 0) {
		struct strbuf sb = STRBUF_INIT;
		sb_flags(&sb, &xlat_membarrier_cmds, (uint64_t)c->ret, NULL);
		/* rv_extra holds 127 bytes: a longer list would be cut, so none is shown. */
		if (sb.len + 2 < sizeof(c->rv_extra))
			snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb_str(&sb));
		sb_free(&sb);
		c->rv = SC_RV_HEX;
	}
	return 0;
}

/* The vector names ranges of the target's memory: bases print as addresses. */
static void p_remote_iov(struct sc_call *c, uint64_t addr, uint64_t cnt);

SC_DECODER(process_madvise, MEM_ARRAY_IN(1, struct iovec, 2))
{
	uint64_t n = c->args[2];
	p_fd(c, c->args[0]);
	p_sep(c);
	p_remote_iov(c, c->args[1], n);
	out(c, ", %llu, ", (unsigned long long)n);
	p_xval(c, &xlat_madvise_cmds, (unsigned)c->args[3], "MADV_???");
	out(c, ", %#x", (unsigned)c->args[4]);
	return SC_DONE;
}

/* ---- protection keys, secret memory, user fault handling ------------------ */

SC_DECODER(pkey_alloc)
{
	p_hex(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_pkey_access, c->args[1], "PKEY_???");
	return SC_DONE;
}

SC_DECODER(pkey_free)
{
	out(c, "%d", (int)c->args[0]);
	return SC_DONE;
}

SC_DECODER(memfd_secret)
{
	p_flags(c, &xlat_memfd_secret_flags, (unsigned)c->args[0], NULL);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(userfaultfd)
{
	p_flags(c, &xlat_uffd_flags, (unsigned)c->args[0], "O_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

/* ---- another process's memory -------------------------------------------- */

/* The remote vector: addresses in the other process, never its data. */
static void p_remote_iov(struct sc_call *c, uint64_t addr, uint64_t cnt)
{
	struct iovec iov;
	if (!addr) {
		out(c, "NULL");
		return;
	}
	if (cnt && sc_mem_read(c, addr, &iov, sizeof(iov)) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (uint64_t i = 0; i < cnt && i < SC_VEC_MAX; i++) {
		if (i)
			p_sep(c);
		/* an unreadable element is told before the -s limit, as strace does */
		if (sc_mem_read(c, addr + i * sizeof(iov), &iov, sizeof(iov)) < 0) {
			out(c, "... /* %#llx */", (unsigned long long)(addr + i * sizeof(iov)));
			break;
		}
		if (c->fmt && i >= c->fmt->strsize && !c->fmt->verbose) {
			out(c, "...");
			break;
		}
		out(c, "{iov_base=");
		p_addr(c, (uint64_t)(uintptr_t)iov.iov_base);
		out(c, ", iov_len=%zu}", iov.iov_len);
	}
	out(c, "]");
}

/* process_vm_readv: the local vector holds what was read, at exit. */
SC_DECODER(process_vm_readv, MEM_IOVEC_OUT(1, 2), MEM_ARRAY_IN(3, struct iovec, 4))
{
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_remote_iov(c, c->args[1], c->args[2]);
	else
		p_iov(c, c->args[1], c->args[2], c->ret);
	out(c, ", %llu, ", (unsigned long long)c->args[2]);
	p_remote_iov(c, c->args[3], c->args[4]);
	out(c, ", %llu, %llu", (unsigned long long)c->args[4], (unsigned long long)c->args[5]);
	return 0;
}

SC_DECODER(process_vm_writev, MEM_IOVEC_IN(1, 2), MEM_ARRAY_IN(3, struct iovec, 4))
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	p_iov(c, c->args[1], c->args[2], -1);
	out(c, ", %llu, ", (unsigned long long)c->args[2]);
	p_remote_iov(c, c->args[3], c->args[4]);
	out(c, ", %llu, %llu", (unsigned long long)c->args[4], (unsigned long long)c->args[5]);
	return SC_DONE;
}

/* remap_file_pages: deprecated, but strace still names its prot and flags. */
SC_DECODER(remap_file_pages)
{
	p_addr(c, c->args[0]);
	out(c, ", %llu, ", (unsigned long long)c->args[1]);
	p_prot(c, c->args[2]);
	out(c, ", %llu, ", (unsigned long long)c->args[3]);
	p_mmap_flags(c, c->args[4]);
	return SC_DONE;
}
