/*
 * userfaultfd ioctls (linux/userfaultfd.h).  The kernel writes back into
 * the same struct it reads: what it adds prints at exit (the supported
 * ioctls, the bytes copied), features after " => " only when they changed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <linux/userfaultfd.h>

#include "family.h"

/* A hex field as strace prints one: 0, else 0x... */
static void p_x(struct sc_call *c, const char *name, uint64_t v)
{
	out(c, v ? "%s=%#" PRIx64 : "%s=%" PRIu64, name, v);
}

static void p_range(struct sc_call *c, const struct uffdio_range *r)
{
	out(c, "{");
	p_x(c, "start", r->start);
	out(c, ", ");
	p_x(c, "len", r->len);
	out(c, "}");
}

static int uffd_api(struct sc_call *c, uint64_t arg)
{
	struct uffdio_api a;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) < 0)
			return SC_DONE;
		p_x(c, "{api", a.api);
		out(c, ", features=");
		p_flags(c, &xlat_uffdio_features, a.features, "UFFD_FEATURE_???");
		uint64_t *asked = malloc(sizeof(*asked));
		if (asked) {
			*asked = a.features;
			c->priv = asked;
		}
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &a, sizeof(a)) == 0) {
		const uint64_t *asked = c->priv;
		if (!asked || *asked != a.features) {
			out(c, IOCTL_CHANGED "features=");
			p_flags(c, &xlat_uffdio_features, a.features, "UFFD_FEATURE_???");
		}
		out(c, ", ioctls=");
		p_flags(c, &xlat_uffdio_api_ioctls, a.ioctls, "_UFFDIO_???");
	}
	out(c, "}");
	return 0;
}

static int uffd_register(struct sc_call *c, uint64_t arg)
{
	struct uffdio_register r;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &r, sizeof(r)) < 0)
			return SC_DONE;
		out(c, "{range=");
		p_range(c, &r.range);
		out(c, ", mode=");
		p_flags(c, &xlat_uffdio_register_modes, r.mode, "UFFDIO_REGISTER_MODE_???");
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &r, sizeof(r)) == 0) {
		out(c, ", ioctls=");
		p_flags(c, &xlat_uffdio_range_ioctls, r.ioctls, "UFFDIO_???");
	}
	out(c, "}");
	return 0;
}

static int uffd_copy(struct sc_call *c, uint64_t arg)
{
	struct uffdio_copy u;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &u, sizeof(u)) < 0)
			return SC_DONE;
		p_x(c, "{dst", u.dst);
		p_x(c, ", src", u.src);
		p_x(c, ", len", u.len);
		out(c, ", mode=");
		p_flags(c, &xlat_uffdio_copy_modes, u.mode, "UFFDIO_COPY_???");
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &u, sizeof(u)) == 0)
		p_x(c, ", copy", (uint64_t)u.copy);
	out(c, "}");
	return 0;
}

static int uffd_zeropage(struct sc_call *c, uint64_t arg)
{
	struct uffdio_zeropage z;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &z, sizeof(z)) < 0)
			return SC_DONE;
		out(c, "{range=");
		p_range(c, &z.range);
		out(c, ", mode=");
		p_flags(c, &xlat_uffdio_zeropage_modes, z.mode, "UFFDIO_ZEROPAGE_???");
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &z, sizeof(z)) == 0)
		p_x(c, ", zeropage", (uint64_t)z.zeropage);
	out(c, "}");
	return 0;
}

static int uffdio_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct uffdio_range r;
	switch (req) {
	case UFFDIO_API:
		return uffd_api(c, arg);
	case UFFDIO_REGISTER:
		return uffd_register(c, arg);
	case UFFDIO_COPY:
		return uffd_copy(c, arg);
	case UFFDIO_ZEROPAGE:
		return uffd_zeropage(c, arg);
	case UFFDIO_UNREGISTER:
	case UFFDIO_WAKE:
		p_sep(c);
		if (p_fetch(c, arg, &r, sizeof(r)) == 0)
			p_range(c, &r);
		return SC_DONE;
	}
	return IOCTL_UNDECODED;
}

static size_t uffdio_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return xlat_str(&xlat_uffdio_ioctls, req) ? _IOC_SIZE(req) : 0;
}

const struct ioctl_family ioctl_uffdio = {
	.type = UFFDIO,
	.names = &xlat_uffdio_ioctls,
	.decode = uffdio_decode,
	.arg_len = uffdio_arg_len,
};
