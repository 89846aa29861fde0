/*
 * Linux native AIO: io_setup, io_destroy, io_submit (each iocb with its
 * buffer or iovec), io_cancel, io_getevents and io_pgetevents (the events
 * the kernel returned, the timeout, the signal mask).
 */
#include <inttypes.h>
#include <linux/aio_abi.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "decoder.h"
#include "ioprio.h"
#include "print_signal.h"

/* What follows the header of an iocb, by opcode. */
enum { SUB_NONE, SUB_COMMON, SUB_VECTOR };

static int iocb_sub(unsigned op)
{
	switch (op) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
		return SUB_COMMON;
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		return SUB_VECTOR;
	}
	return SUB_NONE;
}

static void p_iocb_header(struct sc_call *c, const struct iocb *cb)
{
	out(c, cb->aio_data ? "{aio_data=%#" PRIx64 : "{aio_data=%" PRIu64, (uint64_t)cb->aio_data);
	if (cb->aio_key)
		out(c, ", aio_key=%u", cb->aio_key);
	if (cb->aio_rw_flags) {
		out(c, ", aio_rw_flags=");
		p_flags(c, &xlat_rwf_flags, (unsigned)cb->aio_rw_flags, "RWF_???");
	}
	out(c, ", aio_lio_opcode=");
	sb_xlat_d(c->out, &xlat_aio_cmds, cb->aio_lio_opcode, "IOCB_CMD_???");
	if (cb->aio_reqprio) {
		out(c, ", aio_reqprio=");
		if (cb->aio_flags & IOCB_FLAG_IOPRIO)
			sb_xparts_how(c->out, (uint16_t)cb->aio_reqprio,
				      SB_XP_DEC | SB_XP_KEEP_STYLE, sb_ioprio, NULL);
		else
			out(c, "%d", cb->aio_reqprio);
	}
	out(c, ", aio_fildes=%d", (int)cb->aio_fildes);
}

/* The buffer and length make sense to the kernel (strace's iocb_is_valid). */
static bool iocb_valid(const struct iocb *cb)
{
	return (int64_t)cb->aio_nbytes >= 0;
}

static void p_iocb(struct sc_call *c, const struct iocb *cb)
{
	int sub = iocb_sub(cb->aio_lio_opcode);
	bool write = cb->aio_lio_opcode == IOCB_CMD_PWRITE || cb->aio_lio_opcode == IOCB_CMD_PWRITEV;
	p_iocb_header(c, cb);
	if (sub == SUB_COMMON) {
		out(c, ", aio_buf=");
		if (!iocb_valid(cb))
			out(c, "%#" PRIx64, (uint64_t)cb->aio_buf);
		else if (write)
			p_buf(c, cb->aio_buf, (int64_t)cb->aio_nbytes);
		else
			p_addr(c, cb->aio_buf);
		out(c, ", aio_nbytes=%" PRIu64 ", aio_offset=%" PRId64, (uint64_t)cb->aio_nbytes,
		    (int64_t)cb->aio_offset);
	} else if (sub == SUB_VECTOR) {
		if (iocb_valid(cb)) {
			out(c, ", aio_buf=");
			p_iov(c, cb->aio_buf, cb->aio_nbytes, write ? -1 : SC_IOV_ADDR_ONLY);
		} else {
			out(c, ", aio_buf=%#" PRIx64 ", aio_nbytes=%" PRIu64, (uint64_t)cb->aio_buf,
			    (uint64_t)cb->aio_nbytes);
		}
		out(c, ", aio_offset=%" PRId64, (int64_t)cb->aio_offset);
	}
	if (cb->aio_flags) {
		out(c, ", aio_flags=");
		p_flags(c, &xlat_aio_iocb_flags, cb->aio_flags, "IOCB_FLAG_???");
	}
	if (cb->aio_flags & IOCB_FLAG_RESFD)
		out(c, ", aio_resfd=%d", (int)cb->aio_resfd);
	out(c, "}");
}

static void p_ctx(struct sc_call *c, uint64_t ctx)
{
	out(c, ctx ? "%#" PRIx64 : "%" PRIu64, ctx);
}

SC_DECODER(io_setup, MEM_STRUCT_OUT(1, uint64_t))
{
	uint64_t ctx;
	if (c->entering) {
		out(c, "%u, ", (unsigned)c->args[0]);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else if (p_fetch(c, c->args[1], &ctx, sizeof(ctx)) == 0)
		out(c, "[%#" PRIx64 "]", ctx);
	return 0;
}

SC_DECODER(io_destroy)
{
	p_ctx(c, c->args[0]);
	return SC_DONE;
}

SC_DECODER(io_submit, { .arg = 2, .kind = SC_MEM_IOCBV, .when = SC_AT_ENTRY,
			.len_src = SC_LEN_ARG, .len_arg = 1 })
{
	int64_t nr = (int64_t)c->args[1];
	uint64_t addr = c->args[2];
	p_ctx(c, c->args[0]);
	out(c, ", %" PRId64 ", ", nr);
	uint64_t p;
	if (nr < 0 || !addr || (nr > 0 && sc_mem_read(c, addr, &p, sizeof(p)) < 0)) {
		p_addr(c, addr);
		return SC_DONE;
	}
	out(c, "[");
	for (int64_t i = 0; i < nr; i++) {
		struct iocb cb;
		if (i)
			out(c, ", ");
		if (sc_mem_read(c, addr + (uint64_t)i * sizeof(p), &p, sizeof(p)) < 0) {
			out(c, "... /* %#" PRIx64 " */", addr + (uint64_t)i * sizeof(p));
			break;
		}
		if ((!c->fmt || !c->fmt->verbose) && (uint64_t)i >= (c->fmt ? c->fmt->strsize : 32)) {
			out(c, "...");
			break;
		}
		if (!p)
			out(c, "NULL");
		else if (sc_mem_read(c, p, &cb, sizeof(cb)) < 0)
			p_addr(c, p);
		else
			p_iocb(c, &cb);
	}
	out(c, "]");
	return SC_DONE;
}

static void p_io_event(struct sc_call *c, const struct io_event *e)
{
	out(c, e->data ? "{data=%#" PRIx64 : "{data=%" PRIu64, (uint64_t)e->data);
	out(c, ", obj=");
	p_addr(c, e->obj);
	out(c, ", res=%" PRId64 ", res2=%" PRId64 "}", (int64_t)e->res, (int64_t)e->res2);
}

SC_DECODER(io_cancel, MEM_STRUCT_IN(1, struct iocb), MEM_STRUCT_OUT(2, struct io_event))
{
	struct iocb cb;
	struct io_event e;
	if (c->entering) {
		p_ctx(c, c->args[0]);
		p_sep(c);
		if (p_fetch(c, c->args[1], &cb, sizeof(cb)) == 0) {
			p_iocb_header(c, &cb);
			out(c, "}");
		}
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[2]);
	else if (p_fetch(c, c->args[2], &e, sizeof(e)) == 0)
		p_io_event(c, &e);
	return 0;
}

/* The events the kernel returned and the timeout, at exit (shared by both getevents). */
static void p_getevents_exit(struct sc_call *c)
{
	uint64_t addr = c->args[3];
	if (sc_failed(c) || !addr) {
		p_addr(c, addr);
	} else {
		struct io_event e;
		out(c, "[");
		for (int64_t i = 0; i < c->ret; i++) {
			if (i)
				out(c, ", ");
			if (sc_mem_read(c, addr + (uint64_t)i * sizeof(e), &e, sizeof(e)) < 0) {
				out(c, "... /* %#" PRIx64 " */", addr + (uint64_t)i * sizeof(e));
				break;
			}
			p_io_event(c, &e);
		}
		out(c, "]");
	}
	p_sep(c);
	p_timespec(c, c->args[4]);
}

static void p_getevents_entry(struct sc_call *c)
{
	p_ctx(c, c->args[0]);
	out(c, ", %" PRId64 ", %" PRId64 ", ", (int64_t)c->args[1], (int64_t)c->args[2]);
}

SC_DECODER(io_getevents, MEM_ARRAY_OUT_RET(3, struct io_event), MEM_STRUCT_IN(4, struct timespec))
{
	if (c->entering) {
		p_getevents_entry(c);
		return 0;
	}
	p_getevents_exit(c);
	return 0;
}

SC_DECODER(io_pgetevents, MEM_ARRAY_OUT_RET(3, struct io_event), MEM_STRUCT_IN(4, struct timespec),
	   MEM_BYTES_IN(5, 2 * sizeof(uint64_t)), MEM_DEREF_IN(5, 0, sizeof(uint64_t)))
{
	uint64_t us[2];	/* struct __aio_sigset: sigmask, sigsetsize */
	if (c->entering) {
		p_getevents_entry(c);
		return 0;
	}
	p_getevents_exit(c);
	p_sep(c);
	if (p_fetch(c, c->args[5], us, sizeof(us)) == 0) {
		out(c, "{sigmask=");
		p_sigset(c, us[0], us[1]);
		out(c, ", sigsetsize=%" PRIu64 "}", us[1]);
	}
	return 0;
}
