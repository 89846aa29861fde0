/*
 * io_uring_setup and io_uring_enter: the setup parameters (what the caller
 * asks at entry, what the kernel answers at exit), the enter flags and the
 * signal mask.  io_uring_register is in decode_io_uring_register.c.
 */
#include <inttypes.h>
#include <linux/io_uring.h>

#include "decoder.h"
#include "print_signal.h"

static bool any_nonzero(const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return true;
	return false;
}

static void p_setup_in(struct sc_call *c, const struct io_uring_params *p)
{
	out(c, "{flags=");
	p_flags(c, &xlat_uring_setup_flags, p->flags, "IORING_SETUP_???");
	out(c, ", sq_thread_cpu=%#x, sq_thread_idle=%u", p->sq_thread_cpu, p->sq_thread_idle);
	if (p->flags & IORING_SETUP_ATTACH_WQ) {
		out(c, ", wq_fd=");
		p_fd(c, (uint64_t)(int64_t)(int)p->wq_fd);
	}
	if (any_nonzero(p->resv, sizeof(p->resv) / sizeof(p->resv[0]))) {
		out(c, ", resv=[");
		for (size_t i = 0; i < sizeof(p->resv) / sizeof(p->resv[0]); i++)
			out(c, "%s%#x", i ? ", " : "", p->resv[i]);
		out(c, "]");
	}
}

static void p_setup_out(struct sc_call *c, const struct io_uring_params *p)
{
	const struct io_sqring_offsets *s = &p->sq_off;
	const struct io_cqring_offsets *q = &p->cq_off;
	out(c, ", sq_entries=%u, cq_entries=%u, features=", p->sq_entries, p->cq_entries);
	p_flags(c, &xlat_uring_setup_features, p->features, "IORING_FEAT_???");
	out(c, ", sq_off={head=%u, tail=%u, ring_mask=%u, ring_entries=%u, flags=%u, dropped=%u, "
	    "array=%u", s->head, s->tail, s->ring_mask, s->ring_entries, s->flags, s->dropped,
	    s->array);
	if (s->resv1)
		out(c, ", resv1=%#x", s->resv1);
	if (s->resv2)
		out(c, ", resv2=%#" PRIx64, (uint64_t)s->resv2);
	out(c, "}, cq_off={head=%u, tail=%u, ring_mask=%u, ring_entries=%u, overflow=%u, cqes=%u, "
	    "flags=%u", q->head, q->tail, q->ring_mask, q->ring_entries, q->overflow, q->cqes,
	    q->flags);
	if (q->resv1)
		out(c, ", resv1=%#x", q->resv1);
	if (q->resv2)
		out(c, ", resv2=%#" PRIx64, (uint64_t)q->resv2);
	out(c, "}");
}

SC_DECODER(io_uring_setup, MEM_STRUCT_INOUT(1, struct io_uring_params))
{
	struct io_uring_params p;
	if (c->entering) {
		out(c, "%u, ", (unsigned)c->args[0]);
		if (p_fetch(c, c->args[1], &p, sizeof(p)) < 0)
			return SC_DONE;
		p_setup_in(c, &p);
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, c->args[1], &p, sizeof(p)) == 0)
		p_setup_out(c, &p);
	out(c, "}");
	c->rv = SC_RV_FD;
	return 0;
}

SC_DECODER(io_uring_enter, MEM_SIGSET_IN(4, 5))
{
	p_fd(c, c->args[0]);
	out(c, ", %u, %u, ", (unsigned)c->args[1], (unsigned)c->args[2]);
	p_flags(c, &xlat_uring_enter_flags, (unsigned)c->args[3], "IORING_ENTER_???");
	p_sep(c);
	p_sigset(c, c->args[4], c->args[5]);
	out(c, ", %" PRIu64, c->args[5]);
	return SC_DONE;
}
