/*
 * Netlink attributes: {nla_len, nla_type} headers walked like messages,
 * each value printed by its table's printer, in hex when it has none or
 * when the value has not the printer's shape.
 */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <endian.h>
#include <linux/netlink.h>
#include <string.h>
#include <unistd.h>

#include "netlink.h"
#include "syscalls/print_net.h"

static void p_nla_hdr(struct sc_call *c, const struct nlattr *a, const struct nla_table *t)
{
	out(c, "{nla_len=%u, nla_type=", a->nla_len);
	if (a->nla_type & NLA_F_NESTED) {
		p_xval(c, &xlat_nla_type_flags, NLA_F_NESTED, NULL);
		out(c, "|");
	}
	if (a->nla_type & NLA_F_NET_BYTEORDER) {
		p_xval(c, &xlat_nla_type_flags, NLA_F_NET_BYTEORDER, NULL);
		out(c, "|");
	}
	if (t->names)
		p_xval(c, t->names, a->nla_type & NLA_TYPE_MASK, t->dflt);
	else
		out(c, "%#x", a->nla_type & NLA_TYPE_MASK);
	out(c, "}");
}

static void p_nla(struct sc_call *c, const struct nlattr *a, uint64_t addr, unsigned len,
		  const struct nla_table *t)
{
	unsigned nla_len = a->nla_len < len ? a->nla_len : len;
	unsigned type = a->nla_type & NLA_TYPE_MASK;
	if (nla_len <= NLA_HDRLEN) {
		p_nla_hdr(c, a, t);
		return;
	}
	out(c, "[");
	p_nla_hdr(c, a, t);
	out(c, ", ");
	const struct nla_policy *p = t->pol && type < t->npol ? &t->pol[type] : NULL;
	if (!p || !p->fn || !p->fn(c, addr + NLA_HDRLEN, nla_len - NLA_HDRLEN, p->arg))
		nl_hex(c, addr + NLA_HDRLEN, nla_len - NLA_HDRLEN);
	out(c, "]");
}

void nl_attrs(struct sc_call *c, uint64_t addr, unsigned len, const struct nla_table *t)
{
	bool array = false;
	for (unsigned i = 0;; i++) {
		struct nlattr a;
		if (!nl_walk_head(c, addr, len, &a, sizeof(a), i, array))
			break;
		uint64_t next = nl_walk_next(c, addr, len, a.nla_len, NLA_HDRLEN, &array);
		p_nla(c, &a, addr, len, t);
		if (!next)
			break;
		out(c, ", ");
		len -= (unsigned)(next - addr);
		addr = next;
	}
	if (array)
		out(c, "]");
}

/* Read an integer of size bytes into v (the first bytes of a longer value); false: too short. */
static bool get_int(struct sc_call *c, uint64_t addr, unsigned len, size_t size, void *v)
{
	if (len < size)
		return false;
	if (!nl_read(c, addr, v, size)) {
		p_addr(c, addr);
		return false;
	}
	return true;
}

/* The integer printers: false (hex) when shorter than the type; the address when not held. */
#define NLA_INT(name, type, fmt, cast)							\
	bool nla_##name(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)	\
	{										\
		type v;									\
		(void)arg;								\
		if (len < sizeof(v))							\
			return false;							\
		if (get_int(c, addr, len, sizeof(v), &v))				\
			out(c, fmt, (cast)v);						\
		return true;								\
	}
NLA_INT(u8, uint8_t, "%u", unsigned)
NLA_INT(u16, uint16_t, "%u", unsigned)
NLA_INT(u32, uint32_t, "%u", unsigned)
NLA_INT(u64, uint64_t, "%llu", unsigned long long)
NLA_INT(s8, int8_t, "%d", int)
NLA_INT(s16, int16_t, "%d", int)
NLA_INT(s32, int32_t, "%d", int)
NLA_INT(s64, int64_t, "%lld", long long)
NLA_INT(x8, uint8_t, "%#x", unsigned)
NLA_INT(x16, uint16_t, "%#x", unsigned)
NLA_INT(x32, uint32_t, "%#x", unsigned)
NLA_INT(x64, uint64_t, "%#llx", unsigned long long)

bool nla_be16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint16_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (get_int(c, addr, len, sizeof(v), &v))
		out(c, "htons(%u)", ntohs(v));
	return true;
}

bool nla_be64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint64_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (get_int(c, addr, len, sizeof(v), &v))
		out(c, "htobe64(%llu)", (unsigned long long)be64toh(v));
	return true;
}

bool nla_ifindex(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint32_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (get_int(c, addr, len, sizeof(v), &v))
		pn_ifindex(c, v);
	return true;
}

/*
 * A string the kernel expects NUL-terminated: the final NUL is not shown,
 * and its absence shows as "..." (strace's QUOTE_EXPECT_TRAILING_0).
 */
bool nla_str(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	const unsigned char *p;
	(void)arg;
	unsigned max = c->fmt ? c->fmt->strsize : 32;
	unsigned want = len < max ? len : max;
	long n = sc_mem_peek(c, addr, len <= max ? len : want, &p);
	if (n < (long)want) {
		p_addr(c, addr);
		return true;
	}
	if (len <= max) {
		bool nul = len && p[len - 1] == 0;
		p_quoted(c, p, nul ? len - 1 : len, !nul);
	} else {
		p_quoted(c, p, want, true);
	}
	return true;
}

bool nla_strn(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	p_str_max(c, addr, len);
	return true;
}

bool nla_flag(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)c;
	(void)addr;
	(void)arg;
	return len == 0;
}

/*
 * A value of len (1 to 8) bytes, as a host-order integer: 1, or 0 when
 * not held (the address printed), or -1 for a longer one.
 */
static int get_uint(struct sc_call *c, uint64_t addr, unsigned len, uint64_t *v)
{
	uint8_t b[8] = { 0 };
	if (!len || len > 8)
		return -1;
	if (!nl_read(c, addr, b, len)) {
		p_addr(c, addr);
		return 0;
	}
	*v = 0;
	for (unsigned i = len; i-- > 0;)
		*v = *v << 8 | b[i];	/* little-endian hosts only, as the decoders are */
	return 1;
}

static bool nla_xval_sized(struct sc_call *c, uint64_t addr, unsigned len, const void *arg,
			   unsigned size, bool flags)
{
	const struct nla_xlat *x = arg;
	uint64_t v;
	if (len > 8 || len < size)
		return false;
	if (size)
		len = size;
	int got = get_uint(c, addr, len, &v);
	if (got <= 0)
		return got == 0;
	if (flags)
		p_flags(c, x->x, v, x->dflt);
	else
		p_xval(c, x->x, v, x->dflt);
	return true;
}

bool nla_xval(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 0, false);
}

bool nla_xval8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 1, false);
}

bool nla_xval16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 2, false);
}

bool nla_xval32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 4, false);
}

bool nla_flags8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 1, true);
}

bool nla_flags16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 2, true);
}

bool nla_flags32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	return nla_xval_sized(c, addr, len, arg, 4, true);
}

bool nla_nested(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	nl_attrs(c, addr, len, arg);
	return true;
}

/*
 * SK_MEMINFO_*: [[SK_MEMINFO_RMEM_ALLOC] = 1, ...]; arg: another separator than " = "
 * (strace prints inet_diag's as "]=1").
 */
bool nla_meminfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned n = len / 4;
	const char *eq = arg ? arg : " = ";
	if (!n)
		return false;
	out(c, "[");
	for (unsigned i = 0; i < n; i++) {
		uint32_t v;
		if (i)
			out(c, ", ");
		if (nl_abbrev_stop(c, i)) {
			out(c, "...");
			break;
		}
		if (!nl_read(c, addr + i * 4, &v, 4)) {
			if (i)
				out(c, "... /* %#llx */", (unsigned long long)(addr + i * 4));
			else
				p_addr(c, addr);
			break;
		}
		out(c, "[");
		pn_xval_dec(c, &xlat_sk_meminfo, i, "SK_MEMINFO_???");
		out(c, "]%s%u", eq, v);
	}
	out(c, "]");
	return true;
}

/* An address as its text (-X abbrev), its bytes (raw), or both (verbose). */
static void p_addr_xstyle(struct sc_call *c, const unsigned char *a, size_t n, const char *fmt,
			  const char *text)
{
	if (xlat_style != XLAT_STYLE_ABBREV) {
		struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
		const struct sc_fmt *saved = c->fmt;
		hex.xflag = 2;
		hex.strsize = (unsigned)n;
		c->fmt = &hex;
		p_quoted(c, a, n, false);
		c->fmt = saved;
		if (xlat_style == XLAT_STYLE_RAW)
			return;
		out(c, " /* ");
	}
	out(c, fmt, text);
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " */");
}

bool nla_in_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned char a[4];
	(void)arg;
	if (len < sizeof(a))
		return false;
	if (!nl_read(c, addr, a, sizeof(a))) {
		p_addr(c, addr);
		return true;
	}
	char buf[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, a, buf, sizeof(buf));
	p_addr_xstyle(c, a, sizeof(a), "inet_addr(\"%s\")", buf);
	return true;
}

bool nla_in6_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned char a[16];
	(void)arg;
	if (len < sizeof(a))
		return false;
	if (!nl_read(c, addr, a, sizeof(a))) {
		p_addr(c, addr);
		return true;
	}
	char buf[INET6_ADDRSTRLEN];
	inet_ntop(AF_INET6, a, buf, sizeof(buf));
	p_addr_xstyle(c, a, sizeof(a), "inet_pton(AF_INET6, \"%s\")", buf);
	return true;
}

bool nla_inet_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	switch (nl_family()) {
	case AF_INET:
		return nla_in_addr(c, addr, len, arg);
	case AF_INET6:
		return nla_in6_addr(c, addr, len, arg);
	}
	return false;
}

void nl_mac(struct sc_call *c, const unsigned char *a, size_t n)
{
	if (xlat_style != XLAT_STYLE_ABBREV) {
		out(c, "\"");
		for (size_t i = 0; i < n; i++)
			out(c, "\\x%02x", a[i]);
		out(c, "\"");
		if (xlat_style == XLAT_STYLE_RAW)
			return;
		out(c, " /* ");
	}
	for (size_t i = 0; i < n; i++)
		out(c, "%s%02x", i ? ":" : "", a[i]);
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " */");
}

bool nla_hwaddr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned char a[32];
	(void)arg;
	if (len > sizeof(a))
		return false;
	if (!nl_read(c, addr, a, len)) {
		p_addr(c, addr);
		return true;
	}
	nl_mac(c, a, len);
	return true;
}

void nl_field(struct sc_call *c, const void *buf, const struct nla_field *f)
{
	const unsigned char *p = (const unsigned char *)buf + f->off;
	uint64_t v = 0;
	int64_t sv = 0;
	switch (f->size) {
	case 1: { uint8_t x; memcpy(&x, p, 1); v = x; sv = (int8_t)x; break; }
	case 2: { uint16_t x; memcpy(&x, p, 2); v = x; sv = (int16_t)x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); v = x; sv = (int32_t)x; break; }
	default: memcpy(&v, p, 8); sv = (int64_t)v;
	}
	out(c, "%s=", f->name);
	switch (f->kind) {
	case NF_X: out(c, "%#llx", (unsigned long long)v); break;
	case NF_S: out(c, "%lld", (long long)sv); break;
	case NF_IFINDEX: pn_ifindex(c, (unsigned)v); break;
	case NF_XVAL: p_xval(c, f->x, v, f->dflt); break;
	case NF_FLAGS: p_flags(c, f->x, v, f->dflt); break;
	default: out(c, "%llu", (unsigned long long)v);
	}
}

bool nla_struct(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	const struct nla_struct *st = arg;
	unsigned char buf[512];
	if (len < st->size || st->size > sizeof(buf))
		return false;
	if (!nl_read(c, addr, buf, st->size)) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{");
	for (unsigned i = 0; i < st->n; i++) {
		if (i)
			out(c, ", ");
		nl_field(c, buf, &st->f[i]);
	}
	out(c, "}");
	return true;
}

/* Clock ticks, with the seconds they make as a comment (USER_HZ ticks). */
bool nla_clock_t(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	static long hz;
	uint64_t v;
	(void)arg;
	if (len > 8)
		return false;
	int got = get_uint(c, addr, len, &v);
	if (got <= 0)
		return got == 0;
	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	out(c, "%llu", (unsigned long long)v);
	if (v && hz > 0 && xlat_style != XLAT_STYLE_RAW) {
		int width = 0;
		for (long h = hz - 1; h > 0; h /= 10)
			width++;
		out(c, " /* %llu.%0*llu s */", (unsigned long long)(v / (uint64_t)hz), width,
		    (unsigned long long)(v % (uint64_t)hz));
	}
	return true;
}
