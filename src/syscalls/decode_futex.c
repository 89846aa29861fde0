/*
 * futex(2): which arguments mean something depends on the operation, so the
 * operation decides the shape of the line, as in strace.  futex_waitv and the
 * futex2 calls print raw.
 */
#include <linux/futex.h>
#include <string.h>
#include <time.h>

#include "print_net.h"
#include "print_time.h"

/* A name, or the bare number: the caller adds strace's comment after the shift. */
static void p_xval_bare(struct sc_call *c, const struct xlat *x, unsigned v)
{
	const char *s = xlat_str(x, v);
	if (s)
		out(c, "%s", s);
	else
		out(c, "%#x", v);
}

/* FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1: the packed FUTEX_WAKE_OP operation. */
static void p_wake_op(struct sc_call *c, unsigned v)
{
	if ((v >> 28) & FUTEX_OP_OPARG_SHIFT)
		out(c, "FUTEX_OP_OPARG_SHIFT<<28|");
	p_xval_bare(c, &xlat_futexwakeops, (v >> 28) & 7);
	out(c, "<<28");
	if (!xlat_str(&xlat_futexwakeops, (v >> 28) & 7))
		out(c, " /* FUTEX_OP_??? */");
	out(c, "|%#x<<12|", (v >> 12) & 0xfff);
	p_xval_bare(c, &xlat_futexwakecmps, (v >> 24) & 0xf);
	out(c, "<<24");
	if (!xlat_str(&xlat_futexwakecmps, (v >> 24) & 0xf))
		out(c, " /* FUTEX_OP_CMP_??? */");
	out(c, "|%#x", v & 0xfff);
}

static void p_u(struct sc_call *c, uint64_t v)
{
	out(c, ", %u", (unsigned)v);
}

static void p_bitset(struct sc_call *c, uint64_t v)
{
	p_sep(c);
	p_xval(c, &xlat_futexbitset, (unsigned)v, NULL);
}

/* The timeout argument is a pointer only for the waiting operations. */
SC_DECODER(futex, MEM_STRUCT_IN(3, struct timespec))
{
	uint64_t *a = c->args;
	int op = (int)a[1];
	p_addr(c, a[0]);
	p_sep(c);
	p_xval(c, &xlat_futexops, (unsigned)op, "FUTEX_???");
	switch (op & 127) {
	case FUTEX_WAIT:
		p_u(c, a[2]);
		p_sep(c);
		p_timespec(c, a[3]);
		break;
	case FUTEX_LOCK_PI:
	case 13:	/* FUTEX_LOCK_PI2 */
		p_sep(c);
		p_timespec(c, a[3]);
		break;
	case FUTEX_WAIT_BITSET:
		p_u(c, a[2]);
		p_sep(c);
		p_timespec(c, a[3]);
		p_bitset(c, a[5]);
		break;
	case FUTEX_WAKE_BITSET:
		p_u(c, a[2]);
		p_bitset(c, a[5]);
		break;
	case FUTEX_REQUEUE:
		p_u(c, a[2]);
		p_u(c, a[3]);
		p_sep(c);
		p_addr(c, a[4]);
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		p_u(c, a[2]);
		p_u(c, a[3]);
		p_sep(c);
		p_addr(c, a[4]);
		p_u(c, a[5]);
		break;
	case FUTEX_WAKE_OP:
		p_u(c, a[2]);
		p_u(c, a[3]);
		p_sep(c);
		p_addr(c, a[4]);
		p_sep(c);
		p_wake_op(c, (unsigned)a[5]);
		break;
	case FUTEX_WAIT_REQUEUE_PI:
		p_u(c, a[2]);
		p_sep(c);
		p_timespec(c, a[3]);
		p_sep(c);
		p_addr(c, a[4]);
		break;
	case FUTEX_FD:
	case FUTEX_WAKE:
		p_u(c, a[2]);
		break;
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
		break;
	default:
		p_u(c, a[2]);
		p_sep(c);
		p_addr(c, a[3]);
		p_sep(c);
		p_addr(c, a[4]);
		out(c, ", %#x", (unsigned)a[5]);
		break;
	}
	return SC_DONE;
}

/* ---- futex_waitv: an array of waiters ------------------------------------- */

#define FUTEX_WAITV_MAX_ 128

struct futex_waitv_ {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

static bool p_waiter(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct futex_waitv_ w;
	unsigned *count = data;
	(void)size;
	if ((*count)++ >= FUTEX_WAITV_MAX_) {
		out(c, "...");
		return false;
	}
	memcpy(&w, elem, sizeof(w));
	out(c, "{val=%#llx, uaddr=", (unsigned long long)w.val);
	p_addr(c, w.uaddr);
	out(c, ", flags=");
	p_flags(c, &xlat_futex_waiter_flags, w.flags, "FUTEX_???");
	if (w.reserved)
		out(c, ", __reserved=%#x", w.reserved);
	out(c, "}");
	return true;
}

/* The array as an array of args[1] waiters: the kernel mode copies it by that count too. */
SC_DECODER(futex_waitv, MEM_ARRAY_IN(0, struct futex_waitv_, 1), MEM_STRUCT_IN(3, struct timespec))
{
	unsigned n = (unsigned)c->args[1], count = 0;
	pn_array(c, c->args[0], n, sizeof(struct futex_waitv_), p_waiter, &count);
	out(c, ", %u, %#x, ", n, (unsigned)c->args[2]);
	p_timespec(c, c->args[3]);
	p_sep(c);
	p_xval(c, &xlat_clocknames, (unsigned)c->args[4], "CLOCK_???");
	return SC_DONE;
}
