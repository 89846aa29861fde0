/* Requests whose argument has a simple shape: see enum ioctl_shape. */
#include <inttypes.h>
#include <string.h>

#include "ioctl.h"

int ioctl_shape_of(const struct ioctl_shape_entry *t, size_t n, unsigned req)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].req == req)
			return t[i].shape;
	return 0;
}

size_t ioctl_shape_len(const struct ioctl_shape_entry *t, size_t n, unsigned req)
{
	switch (ioctl_shape_of(t, n, req)) {
	case IS_INT_IN:
	case IS_UINT_IN:
	case IS_INT_OUT:
	case IS_UINT_OUT:
		return sizeof(int);
	case IS_USHORT_OUT:
		return sizeof(unsigned short);
	case IS_LONG_OUT:
	case IS_ULONG_OUT:
		return sizeof(unsigned long);
	case IS_U64_IN:
	case IS_S64_IN:
	case IS_U64_OUT:
		return sizeof(uint64_t);
	case IS_U64_PAIR_IN:
		return 2 * sizeof(uint64_t);
	default:
		return 0;
	}
}

static void p_uint_ptr(struct sc_call *c, uint64_t addr)
{
	unsigned v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%u]", v);
}

static void p_u64_ptr_val(struct sc_call *c, uint64_t addr, size_t n)
{
	uint64_t v[2];
	if (p_fetch(c, addr, v, n * sizeof(v[0])) < 0)
		return;
	out(c, "[%" PRIu64, v[0]);
	for (size_t i = 1; i < n; i++)
		out(c, ", %" PRIu64, v[i]);
	out(c, "]");
}

/* What the kernel wrote, at exit: the address when the call failed. */
static void p_out(struct sc_call *c, int shape, uint64_t arg)
{
	p_sep(c);
	if (sc_failed(c)) {
		p_addr(c, arg);
		return;
	}
	switch (shape) {
	case IS_INT_OUT: {
		int v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%d]", v);
		break;
	}
	case IS_UINT_OUT:
		p_uint_ptr(c, arg);
		break;
	case IS_USHORT_OUT: {
		unsigned short v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%hu]", v);
		break;
	}
	case IS_LONG_OUT: {
		long v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%ld]", v);
		break;
	}
	case IS_ULONG_OUT: {
		unsigned long v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%lu]", v);
		break;
	}
	default:
		p_u64_ptr_val(c, arg, 1);
		break;
	}
}

int ioctl_shape_decode(struct sc_call *c, const struct ioctl_shape_entry *t, size_t n,
		       unsigned req, uint64_t arg)
{
	int shape = ioctl_shape_of(t, n, req);
	if (!shape)
		return IOCTL_UNDECODED;
	if (!c->entering) {
		p_out(c, shape, arg);
		return 0;
	}
	switch (shape) {
	case IS_NONE:
		return SC_DONE;
	case IS_INT_OUT:
	case IS_UINT_OUT:
	case IS_USHORT_OUT:
	case IS_LONG_OUT:
	case IS_ULONG_OUT:
	case IS_U64_OUT:
		return 0;
	}
	p_sep(c);
	switch (shape) {
	case IS_PTR:
		p_addr(c, arg);
		break;
	case IS_INT:
		out(c, "%d", (int)arg);
		break;
	case IS_UINT:
		out(c, "%u", (unsigned)arg);
		break;
	case IS_XINT:
		out(c, "%#x", (unsigned)arg);
		break;
	case IS_FD:
		p_fd(c, arg);
		break;
	case IS_ULONG:
		out(c, "%" PRIu64, arg);
		break;
	case IS_INT_IN: {
		int v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%d]", v);
		break;
	}
	case IS_UINT_IN:
		p_uint_ptr(c, arg);
		break;
	case IS_U64_IN:
		p_u64_ptr_val(c, arg, 1);
		break;
	case IS_U64_PAIR_IN:
		p_u64_ptr_val(c, arg, 2);
		break;
	case IS_S64_IN: {
		int64_t v;
		if (p_fetch(c, arg, &v, sizeof(v)) == 0)
			out(c, "[%" PRId64 "]", v);
		break;
	}
	default:
		out(c, "%#" PRIx64, arg);
		break;
	}
	return SC_DONE;
}

void ioctl_p_chars(struct sc_call *c, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	p_quoted(c, (const unsigned char *)s, len < n ? len : n - 1, len >= n);
}
