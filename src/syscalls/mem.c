/*
 * The call's snapshot of tracee memory, and the engine-side fetch that fills
 * it from a decoder's declared spec (see decoder.h).  Decoders read only the
 * snapshot; a read the spec did not cover is counted in mem.misses and the
 * decoder prints the address instead, so a missing declaration shows up in
 * tests as a line that differs from strace's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/aio_abi.h>

#include "util/die.h"
#include "decoder.h"

#define PAGE 4096u
#define PATH_CAP 4096u
#define ARRAY_CAP (64u * 1024)	/* bytes of one array copied at most */
#define IOV_CAP 1024u		/* UIO_MAXIOV */
#define STRV_CAP 4096u		/* pointers followed in argv/envp */
#define CTRL_CAP (128u * 1024)	/* msg_control bytes: the kernel's optmem_max, as strace */

struct fetch {
	struct sc_call *c;
	unsigned when;
	sc_read_fn read;
	void *ctx;
};

void sc_mem_reset(struct sc_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->r[i].data);
	s->n = 0;
	s->misses = 0;
	s->cut_str_addr = 0;
}

void sc_mem_free(struct sc_snapshot *s)
{
	sc_mem_reset(s);
	free(s->r);
	s->r = NULL;
	s->cap = 0;
}

static struct sc_region *add_region(struct fetch *f, uint64_t addr, size_t len)
{
	struct sc_snapshot *s = &f->c->mem;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->r = xrealloc(s->r, s->cap * sizeof(*s->r));
	}
	struct sc_region *r = &s->r[s->n++];
	*r = (struct sc_region){ .addr = addr, .when = (unsigned char)f->when, .data = xmalloc(len) };
	return r;
}

/* Copy len bytes at addr; keeps what was readable. Returns bytes held. */
static size_t grab(struct fetch *f, uint64_t addr, size_t len)
{
	if (!addr || !len)
		return 0;
	struct sc_region *r = add_region(f, addr, len);
	long n = f->read(f->ctx, addr, r->data, len);
	if (n < 0)
		n = 0;
	r->len = (uint32_t)n;
	r->short_read = (size_t)n < len;
	f->c->mem.bytes += (size_t)n;
	return (size_t)n;
}

/* A string whose first bytes were readable but not its end. */
static void note_cut_str(struct fetch *f, uint64_t addr, size_t got, size_t want, int err)
{
	struct sc_snapshot *s = &f->c->mem;
	if (!got || s->cut_str_addr)
		return;
	s->cut_str_addr = addr;
	s->cut_str_got = (uint32_t)got;
	s->cut_str_want = (uint32_t)want;
	s->cut_str_errno = err;
}

/* Copy a NUL-terminated string of at most max bytes, page by page. */
static void grab_str(struct fetch *f, uint64_t addr, size_t max)
{
	if (!addr)
		return;
	struct sc_region *r = add_region(f, addr, max + 1);
	size_t got = 0;
	while (got < max + 1) {
		size_t chunk = PAGE - ((addr + got) % PAGE);
		if (chunk > max + 1 - got)
			chunk = max + 1 - got;
		long n = f->read(f->ctx, addr + got, r->data + got, chunk);
		if (n <= 0) {
			note_cut_str(f, addr, got, max + 1, n < 0 ? errno : EFAULT);
			break;
		}
		void *nul = memchr(r->data + got, 0, (size_t)n);
		got += (size_t)n;
		if (nul) {
			got = (size_t)((unsigned char *)nul - r->data) + 1;
			break;
		}
		if ((size_t)n < chunk)
			break;
	}
	r->len = (uint32_t)got;
	r->short_read = got == 0;
	f->c->mem.bytes += got;
}

static size_t strsize(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

/* The length a spec asks for, in bytes (or elements for arrays and vectors). */
static size_t spec_len(struct fetch *f, const struct sc_mem_spec *s)
{
	struct sc_call *c = f->c;
	switch (s->len_src) {
	case SC_LEN_FIXED:
		return s->size;
	case SC_LEN_ARG:
		return (size_t)c->args[s->len_arg];
	case SC_LEN_RET:
		return c->ret > 0 ? (size_t)c->ret : 0;
	case SC_LEN_ARGPTR: {
		int n = 0;
		uint64_t p = c->args[s->len_arg];
		if (!p || f->read(f->ctx, p, &n, sizeof(n)) != sizeof(n) || n < 0)
			return 0;
		/* The decoder prints the length too: keep it in the snapshot. */
		grab(f, p, sizeof(n));
		return (size_t)n;
	}
	case SC_LEN_PATH:
		return PATH_CAP;
	case SC_LEN_STRSIZE:
		return strsize(c);
	case SC_LEN_FN:
		return s->len_fn ? s->len_fn(c) : 0;
	}
	return 0;
}

static size_t cap(size_t v, size_t max)
{
	return v < max ? v : max;
}

static void grab_iov(struct fetch *f, uint64_t addr, size_t cnt)
{
	cnt = cap(cnt, IOV_CAP);
	struct iovec iov[64];
	for (size_t done = 0; done < cnt;) {
		size_t k = cap(cnt - done, 64);
		uint64_t at = addr + done * sizeof(struct iovec);
		size_t got = grab(f, at, k * sizeof(struct iovec));
		size_t held = got / sizeof(struct iovec);	/* the elements before unreadable memory */
		memcpy(iov, f->c->mem.r[f->c->mem.n - 1].data, held * sizeof(struct iovec));
		for (size_t i = 0; i < held; i++)
			grab(f, (uint64_t)(uintptr_t)iov[i].iov_base, cap(iov[i].iov_len, strsize(f->c) + 1));
		if (held < k)
			return;
		done += k;
	}
}

static void grab_msghdr(struct fetch *f, uint64_t addr)
{
	struct msghdr m;
	if (grab(f, addr, sizeof(m)) < sizeof(m))
		return;
	memcpy(&m, f->c->mem.r[f->c->mem.n - 1].data, sizeof(m));
	grab(f, (uint64_t)(uintptr_t)m.msg_name, cap(m.msg_namelen, 128));
	grab_iov(f, (uint64_t)(uintptr_t)m.msg_iov, m.msg_iovlen);
	grab(f, (uint64_t)(uintptr_t)m.msg_control, cap(m.msg_controllen, CTRL_CAP));
}

/* io_submit's iocb pointers, each iocb, and what a write or vector iocb points at. */
static void grab_iocbv(struct fetch *f, uint64_t addr, size_t cnt)
{
	cnt = cap(cnt, IOV_CAP);
	for (size_t i = 0; i < cnt; i++) {
		uint64_t p = 0;
		struct iocb cb;
		if (grab(f, addr + i * sizeof(p), sizeof(p)) < sizeof(p))
			return;
		memcpy(&p, f->c->mem.r[f->c->mem.n - 1].data, sizeof(p));
		if (!p || grab(f, p, sizeof(cb)) < sizeof(cb))
			continue;
		memcpy(&cb, f->c->mem.r[f->c->mem.n - 1].data, sizeof(cb));
		if (cb.aio_lio_opcode == IOCB_CMD_PWRITE)
			grab(f, cb.aio_buf, cap(cb.aio_nbytes, strsize(f->c)));
		else if (cb.aio_lio_opcode == IOCB_CMD_PREADV || cb.aio_lio_opcode == IOCB_CMD_PWRITEV)
			grab_iov(f, cb.aio_buf, cb.aio_nbytes);
	}
}

static void grab_strv(struct fetch *f, uint64_t addr)
{
	for (unsigned i = 0; i < STRV_CAP; i++) {
		uint64_t p = 0;
		if (grab(f, addr + i * sizeof(p), sizeof(p)) < sizeof(p))
			return;
		memcpy(&p, f->c->mem.r[f->c->mem.n - 1].data, sizeof(p));
		if (!p)
			return;
		grab_str(f, p, strsize(f->c));
	}
}

struct sc_walk {
	struct fetch *f;
};

size_t sc_walk_grab(struct sc_walk *w, uint64_t addr, size_t len, const unsigned char **p)
{
	size_t n = grab(w->f, addr, len);
	*p = n ? w->f->c->mem.r[w->f->c->mem.n - 1].data : NULL;
	return n;
}

static void fetch_one(struct fetch *f, const struct sc_mem_spec *s)
{
	uint64_t addr = (s->arg == SC_ARG_SP ? f->c->sp : f->c->args[s->arg]) + s->off;
	if (!addr)
		return;
	size_t n = spec_len(f, s);
	switch (s->kind) {
	case SC_MEM_STR:
		grab_str(f, addr, n);
		break;
	case SC_MEM_BUF:
		/* .size caps a variable length; uncapped buffers print as strings, up to -s
		 * (and one byte more, which strace requires to be readable too). */
		if (s->len_src != SC_LEN_FIXED)
			n = cap(n, s->size ? s->size : s->len_src == SC_LEN_FN ? ARRAY_CAP : strsize(f->c) + 1);
		grab(f, addr, n);
		break;
	case SC_MEM_ARRAY:
		grab(f, addr, cap(n * s->size, ARRAY_CAP));
		break;
	case SC_MEM_IOVEC:
		grab_iov(f, addr, n);
		break;
	case SC_MEM_MSGHDR:
		grab_msghdr(f, addr);
		break;
	case SC_MEM_MMSGHDR:
		n = cap(n, IOV_CAP);
		for (size_t i = 0; i < n; i++)
			grab_msghdr(f, addr + i * sizeof(struct mmsghdr));
		/* msg_len of each entry follows its msghdr */
		grab(f, addr, n * sizeof(struct mmsghdr));
		break;
	case SC_MEM_STRV:
		grab_strv(f, addr);
		break;
	case SC_MEM_IOCBV:
		grab_iocbv(f, addr, n);
		break;
	case SC_MEM_WALK: {
		struct sc_walk w = { f };
		if (s->walk_fn)
			s->walk_fn(&w, f->c);
		break;
	}
	case SC_MEM_DEREF: {
		/* Only the target is kept: the struct holding the pointer has a spec of its own. */
		uint64_t p = 0;
		/* SC_LEN_FN: the decoder says how much, 0 for nothing (ioctl requests) */
		size_t len = s->len_src == SC_LEN_FN ? cap(n, s->size) : s->size;
		if (len && f->read(f->ctx, addr, &p, sizeof(p)) == (long)sizeof(p) && p)
			grab(f, p, len);
		break;
	}
	}
}

/*
 * Strings and data buffers, which strace prints whatever -e verbose= says;
 * the rest (structures, arrays, vectors) it shows as addresses when the call
 * is not verbose.
 */
static bool is_text(const struct sc_mem_spec *s)
{
	return s->kind == SC_MEM_STR ||
	       (s->kind == SC_MEM_BUF && !s->size &&
		(s->len_src == SC_LEN_ARG || s->len_src == SC_LEN_RET || s->len_src == SC_LEN_STRSIZE));
}

void sc_mem_fetch(struct sc_call *c, unsigned when, sc_read_fn read, void *ctx)
{
	if (!c->ent || !c->ent->dec)
		return;
	/*
	 * A failed call may still have written (nanosleep's remaining time on
	 * EINTR): copy anyway, decoders decide what a failure shows.
	 */
	struct fetch f = { c, when, read, ctx };
	for (const struct sc_mem_spec *s = c->ent->dec->mem; s->kind; s++)
		if ((s->when & when) && !(c->fmt && c->fmt->by_addr && !is_text(s)))
			fetch_one(&f, s);
}

long sc_mem_peek(struct sc_call *c, uint64_t addr, size_t len, const unsigned char **p)
{
	unsigned now = c->entering ? SC_AT_ENTRY : SC_AT_EXIT;
	const struct sc_region *best = NULL;
	size_t best_avail = 0;
	/*
	 * Memory as it is now first: at exit, what the kernel wrote.  Two copies
	 * can overlap (an iovec's 3 bytes inside a write's 9): a region holding
	 * all len bytes wins, else the one holding most.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = c->mem.n; i-- > 0;) {
			const struct sc_region *r = &c->mem.r[i];
			if ((r->when == now) != (pass == 0))
				continue;
			if (addr < r->addr || addr >= r->addr + r->len)
				continue;
			size_t avail = (size_t)(r->addr + r->len - addr);
			if (avail >= len) {
				*p = r->data + (addr - r->addr);
				return (long)len;
			}
			if (!best || avail > best_avail) {
				best = r;
				best_avail = avail;
			}
		}
	}
	if (best) {
		*p = best->data + (addr - best->addr);
		return (long)best_avail;
	}
	c->mem.misses++;
	return -1;
}

void sc_mem_uncut(struct sc_call *c, bool keep_page_ends)
{
	for (size_t i = 0; i < c->mem.n; i++) {
		struct sc_region *r = &c->mem.r[i];
		/* Stopped at a page's end: at unmapped memory, as a process_vm_readv that came short. */
		if (keep_page_ends && r->short_read && r->len && (r->addr + r->len) % PAGE == 0)
			continue;
		r->short_read = false;
	}
}

bool sc_mem_cut(struct sc_call *c, uint64_t addr)
{
	const unsigned char *p;
	if (sc_mem_peek(c, addr, 1, &p) < 0)
		return true;
	for (size_t i = c->mem.n; i-- > 0;) {
		const struct sc_region *r = &c->mem.r[i];
		if (addr >= r->addr && addr < r->addr + r->len && p == r->data + (addr - r->addr))
			return r->short_read;
	}
	return false;
}

int sc_mem_read(struct sc_call *c, uint64_t addr, void *buf, size_t len)
{
	const unsigned char *p;
	long n = sc_mem_peek(c, addr, len, &p);
	if (n < 0 || (size_t)n < len)
		return -1;
	memcpy(buf, p, len);
	return 0;
}
