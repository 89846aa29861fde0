/*
 * The netlink message walk: nlmsghdr after nlmsghdr, each with its type
 * and flags named by the protocol, its payload handed to the protocol's
 * decoder; NLMSG_ERROR and NLMSG_DONE are the same in every protocol.
 */
#include <linux/netlink.h>
#include <string.h>

#include "netlink.h"
#include "syscalls/print_pid.h"

#ifndef NLM_F_BULK
#define NLM_F_BULK 0x200
#endif

bool nl_read(struct sc_call *c, uint64_t addr, void *buf, size_t len)
{
	return sc_mem_read(c, addr, buf, len) == 0;
}

int nla_read(struct sc_call *c, uint64_t addr, unsigned len, void *buf, size_t size)
{
	if (len < size)
		return -1;
	if (!nl_read(c, addr, buf, size)) {
		p_addr(c, addr);
		return 0;
	}
	return 1;
}

bool nl_walk_head(struct sc_call *c, uint64_t addr, uint64_t len, void *hdr, size_t size,
		  unsigned i, bool array)
{
	if (len < size) {
		nl_hex(c, addr, len);
		return false;
	}
	if (!nl_read(c, addr, hdr, size)) {
		if (array)
			out(c, "... /* %#llx */", (unsigned long long)addr);
		else
			p_addr(c, addr);
		return false;
	}
	if (nl_abbrev_stop(c, i)) {
		out(c, "...");
		return false;
	}
	return true;
}

uint64_t nl_walk_next(struct sc_call *c, uint64_t addr, uint64_t len, uint32_t rec_len,
		      unsigned hdr_len, bool *array)
{
	uint64_t step = NLMSG_ALIGN(rec_len), next = 0;
	if (rec_len >= hdr_len && len > step && addr + step > addr)
		next = addr + step;
	if (!*array && next) {
		out(c, "[");
		*array = true;
	}
	return next;
}

void nl_hex(struct sc_call *c, uint64_t addr, uint64_t len)
{
	struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
	const struct sc_fmt *saved = c->fmt;
	hex.xflag = 2;
	c->fmt = &hex;
	p_buf(c, addr, (int64_t)len);
	c->fmt = saved;
}

/* NLM_F_REQUEST|NLM_F_DUMP: the common bits, then those of the type's kind. */
static void p_nlmsg_flags(struct sc_call *c, uint16_t flags, const struct xlat *kind)
{
	struct xlat_entry e[32];
	size_t n = 0;
	for (size_t i = 0; i < xlat_nl_flags.n && n < 32; i++)
		e[n++] = xlat_nl_flags.e[i];
	for (size_t i = 0; kind && i < kind->n && n < 32; i++)
		e[n++] = kind->e[i];
	const struct xlat both = { "nl_flags", e, n };
	p_flags(c, &both, flags, "NLM_F_???");
}

static void p_nlmsg_type(struct sc_call *c, const struct nl_proto_desc *d, uint16_t type)
{
	if (type < NLMSG_MIN_TYPE || !d)
		p_xval(c, &xlat_nl_types, type, "NLMSG_???");
	else if (d->print_type)
		d->print_type(c, type);
	else
		p_xval(c, d->types, type, d->dflt);
}

static void p_nlmsghdr(struct sc_call *c, const struct nl_proto_desc *d, const struct nlmsghdr *h)
{
	const struct xlat *kind = NULL;
	if (h->nlmsg_type == NLMSG_ERROR)
		kind = &xlat_nl_ack_flags;
	else if (h->nlmsg_type >= NLMSG_MIN_TYPE && d && d->flags_of)
		kind = d->flags_of(h->nlmsg_type);
	out(c, "{nlmsg_len=%u, nlmsg_type=", h->nlmsg_len);
	p_nlmsg_type(c, d, h->nlmsg_type);
	out(c, ", nlmsg_flags=");
	p_nlmsg_flags(c, h->nlmsg_flags, kind);
	out(c, ", nlmsg_seq=%u, nlmsg_pid=", h->nlmsg_seq);
	p_pid(c, (int)h->nlmsg_pid, SC_PT_TGID);
	out(c, "}");
}

static void p_msg(struct sc_call *c, const struct nl_proto_desc *d, const struct nlmsghdr *h,
		  uint64_t addr, uint64_t len);

static bool p_cookie(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	out(c, "[");
	for (unsigned i = 0; i < len; i++) {
		uint8_t b;
		if (i)
			out(c, ", ");
		if (nl_abbrev_stop(c, i)) {
			out(c, "...");
			break;
		}
		if (!nl_read(c, addr + i, &b, 1)) {
			out(c, "... /* %#llx */", (unsigned long long)(addr + i));
			break;
		}
		out(c, "%u", b);
	}
	out(c, "]");
	return true;
}

static const struct nla_policy nlmsgerr_pol[] = {
	[NLMSGERR_ATTR_MSG] = { nla_str, NULL },
	[NLMSGERR_ATTR_OFFS] = { nla_u32, NULL },
	[NLMSGERR_ATTR_COOKIE] = { p_cookie, NULL },
};

static const struct nla_table nlmsgerr_attrs = {
	&xlat_nlmsgerr_attrs, "NLMSGERR_ATTR_???", nlmsgerr_pol,
	sizeof(nlmsgerr_pol) / sizeof(nlmsgerr_pol[0])
};

static void p_errno_field(struct sc_call *c, int err)
{
	const char *name = err < 0 ? sc_errname(-err) : NULL;
	if (name)
		out(c, "-%s", name);
	else
		out(c, "%d", err);
}

/* An ack: the error, the request it answers (capped: its header only), extended-ack attributes. */
static void p_nlmsgerr(struct sc_call *c, const struct nl_proto_desc *d, uint64_t addr,
		       unsigned len, bool capped)
{
	struct nlmsgerr err;
	if (len < sizeof(err)) {
		nl_hex(c, addr, len);
		return;
	}
	if (!nl_read(c, addr, &err, sizeof(err))) {
		p_addr(c, addr);
		return;
	}
	addr += offsetof(struct nlmsgerr, msg);
	len -= offsetof(struct nlmsgerr, msg);
	unsigned msg_len = err.msg.nlmsg_len > sizeof(err.msg) ? err.msg.nlmsg_len : sizeof(err.msg);
	unsigned payload = capped ? sizeof(err.msg) : msg_len;
	if (payload > len)
		payload = len;
	if (len > payload)
		out(c, "[");
	out(c, "{error=");
	p_errno_field(c, err.error);
	out(c, ", msg=");
	p_msg(c, d, &err.msg, addr, payload);
	out(c, "}");
	if (len > payload) {
		out(c, ", ");
		nl_attrs(c, addr + payload, len - payload, &nlmsgerr_attrs);
		out(c, "]");
	}
}

static void p_payload(struct sc_call *c, const struct nl_proto_desc *d, const struct nlmsghdr *h,
		      uint64_t addr, unsigned len)
{
	if (h->nlmsg_type == NLMSG_ERROR) {
		p_nlmsgerr(c, d, addr, len, h->nlmsg_flags & NLM_F_CAPPED);
		return;
	}
	if ((h->nlmsg_type >= NLMSG_MIN_TYPE || h->nlmsg_type == NLMSG_DONE) && d && d->payload &&
	    d->payload(c, h->nlmsg_type, h->nlmsg_flags, addr, len))
		return;
	if (h->nlmsg_type == NLMSG_DONE && len == sizeof(int)) {
		int v;
		if (nl_read(c, addr, &v, sizeof(v)))
			out(c, "%d", v);
		else
			p_addr(c, addr);
		return;
	}
	nl_hex(c, addr, len);
}

/* One message: its header, and [header, payload] when it has one. */
static void p_msg(struct sc_call *c, const struct nl_proto_desc *d, const struct nlmsghdr *h,
		  uint64_t addr, uint64_t len)
{
	uint64_t msg_len = h->nlmsg_len < len ? h->nlmsg_len : len;
	bool payload = msg_len > NLMSG_HDRLEN;
	if (payload)
		out(c, "[");
	p_nlmsghdr(c, d, h);
	if (payload) {
		out(c, ", ");
		p_payload(c, d, h, addr + NLMSG_HDRLEN, (unsigned)(msg_len - NLMSG_HDRLEN));
		out(c, "]");
	}
}

void nl_decode(struct sc_call *c, int proto, uint64_t addr, uint64_t len)
{
	const struct nl_proto_desc *d = nl_proto_desc(proto);
	bool array = false;

	if (proto == NETLINK_KOBJECT_UEVENT) {
		nl_kobject_uevent(c, addr, len);
		return;
	}
	for (unsigned i = 0;; i++) {
		struct nlmsghdr h;
		if (!nl_walk_head(c, addr, len, &h, sizeof(h), i, array))
			break;
		uint64_t next = nl_walk_next(c, addr, len, h.nlmsg_len, NLMSG_HDRLEN, &array);
		p_msg(c, d, &h, addr, len);
		if (!next)
			break;
		out(c, ", ");
		len -= next - addr;
		addr = next;
	}
	if (array)
		out(c, "]");
}
