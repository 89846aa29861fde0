/*
 * Socket addresses, message headers and control messages, printed as
 * strace prints them, plus the array printer the socket, poll, epoll and
 * IPC decoders share.  Everything reads the call's snapshot only.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <linux/errqueue.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "print_pid.h"
#include "print_net.h"
#include "print_sockaddr.h"
#include "print_time.h"

#define SOCKADDR_MAX 128	/* sizeof(struct sockaddr_storage) */
#define CMSG_HDR_SIZE sizeof(struct cmsghdr)
#define CONTROL_MAX (128u * 1024)	/* msg_control bytes decoded: the kernel's optmem_max, as strace */

static bool abbrev(const struct sc_call *c)
{
	return !c->fmt || !c->fmt->verbose;
}

static unsigned max_elems(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

bool pn_array(struct sc_call *c, uint64_t addr, uint64_t n, size_t size, pn_elem_fn fn,
	      void *data)
{
	unsigned char elem[256];

	if (!addr) {
		out(c, "NULL");
		return false;
	}
	if (!n) {
		out(c, "[]");
		return false;
	}
	/* A count the address space cannot hold: strace prints the address. */
	if (size > sizeof(elem) || n > UINT64_MAX / size || addr + n * size <= addr) {
		p_addr(c, addr);
		return false;
	}
	uint64_t i;
	for (i = 0; i < n; i++) {
		uint64_t cur = addr + i * size;
		if (i)
			out(c, ", ");
		if (sc_mem_read(c, cur, elem, size) < 0) {
			if (!i) {
				p_addr(c, cur);
				return false;
			}
			out(c, "... /* %#" PRIx64 " */", cur);
			break;
		}
		if (!i)
			out(c, "[");
		if ((abbrev(c) && i >= max_elems(c)) || p_line_full(c)) {
			out(c, "...");
			i = n;
			break;
		}
		if (!fn(c, elem, size, data)) {
			i = n;
			break;
		}
	}
	out(c, "]");
	return i >= n;
}

void pn_save_int(struct sc_call *c, int v)
{
	free(c->priv);
	c->priv = malloc(sizeof(int));
	if (c->priv)
		*(int *)c->priv = v;
}

int pn_saved_int(const struct sc_call *c)
{
	return c->priv ? *(const int *)c->priv : 0;
}

void pn_capture(struct sc_call *c, char *dst, size_t size,
		void (*fn)(struct sc_call *c, uint64_t addr), uint64_t addr)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf *saved = c->out;
	c->out = &sb;
	fn(c, addr);
	c->out = saved;
	snprintf(dst, size, "%s", sb_str(&sb));
	sb_free(&sb);
}

void pn_sock_type(struct sc_call *c, uint64_t type)
{
	unsigned t = (unsigned)type;
	const char *s = xlat_str(&xlat_socktypes, t & 0xf);
	if (s) {
		out(c, "%s", s);
		t &= ~0xfu;
		if (!t)
			return;
		out(c, "|");
	}
	p_flags(c, &xlat_sock_type_flags, t, "SOCK_???");
}

/* ---- addresses ---------------------------------------------------------- */

/* if_nametoindex("lo") when the index names an interface here, else the number. */
void pn_ifindex(struct sc_call *c, unsigned idx)
{
	char name[IF_NAMESIZE];
	if (!idx || !if_indextoname(idx, name) || xlat_style == XLAT_STYLE_RAW)
		out(c, "%u", idx);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%u /* if_nametoindex(\"%s\") */", idx, name);
	else
		out(c, "if_nametoindex(\"%s\")", name);
}

/* The bytes of a network-order field as -X raw shows them: "\x30\x39". */
static void p_hex_bytes(struct sc_call *c, const void *p, size_t n)
{
	const unsigned char *b = p;
	out(c, "\"");
	for (size_t i = 0; i < n; i++)
		out(c, "\\x%02x", b[i]);
	out(c, "\"");
}

void pn_net_field(struct sc_call *c, const char *name, const void *p, size_t n,
		  const char *fmt, ...)
{
	char text[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	out(c, "%s=", name);
	if (xlat_style == XLAT_STYLE_ABBREV) {
		out(c, "%s", text);
		return;
	}
	p_hex_bytes(c, p, n);
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* %s */", text);
}

void pn_inet_addr(struct sc_call *c, int af, const void *addr, const char *name)
{
	char buf[INET6_ADDRSTRLEN];
	size_t n = af == AF_INET ? 4 : 16;
	if (!inet_ntop(af, addr, buf, sizeof(buf))) {
		out(c, "%s=", name);
		p_quoted(c, addr, n, false);
		return;
	}
	if (af == AF_INET)
		pn_net_field(c, name, addr, n, "inet_addr(\"%s\")", buf);
	else if (xlat_style == XLAT_STYLE_ABBREV)
		out(c, "inet_pton(AF_INET6, \"%s\", &%s)", buf, name);
	else
		pn_net_field(c, name, addr, n, "inet_pton(AF_INET6, \"%s\")", buf);
}

static void sa_un(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_un *un = (const void *)buf;
	int ulen = len > (int)sizeof(*un) ? (int)sizeof(*un) : len;
	int path_len = ulen - (int)sizeof(un->sun_family);

	out(c, "sun_path=");
	if (un->sun_path[0]) {
		/* buf is zero-padded past len: the path always ends. */
		size_t n = strnlen(un->sun_path, (size_t)path_len);
		p_quoted(c, (const unsigned char *)un->sun_path, n, false);
		return;
	}
	out(c, "@");
	p_quoted(c, (const unsigned char *)un->sun_path + 1, (size_t)(path_len - 1), false);
}

static void sa_in(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_in *in = (const void *)buf;
	(void)len;
	pn_net_field(c, "sin_port", &in->sin_port, 2, "htons(%u)", ntohs(in->sin_port));
	out(c, ", ");
	pn_inet_addr(c, AF_INET, &in->sin_addr, "sin_addr");
}

_Static_assert(SIN6_MIN_LEN == offsetof(struct sockaddr_in6, sin6_scope_id), "sin6");

static void sa_in6(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_in6 *in6 = (const void *)buf;
	pn_net_field(c, "sin6_port", &in6->sin6_port, 2, "htons(%u)", ntohs(in6->sin6_port));
	out(c, ", ");
	pn_net_field(c, "sin6_flowinfo", &in6->sin6_flowinfo, 4, "htonl(%u)",
		     ntohl(in6->sin6_flowinfo));
	out(c, ", ");
	pn_inet_addr(c, AF_INET6, &in6->sin6_addr, "sin6_addr");
	if (len <= SIN6_MIN_LEN)
		return;
	out(c, ", sin6_scope_id=");
	if (IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr) || IN6_IS_ADDR_MC_LINKLOCAL(&in6->sin6_addr))
		pn_ifindex(c, in6->sin6_scope_id);
	else
		out(c, "%u", in6->sin6_scope_id);
}

static void sa_nl(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_nl *nl = (const void *)buf;
	(void)len;
	if (nl->nl_pad)
		out(c, "nl_pad=%#x, ", nl->nl_pad);
	/* strace's 0x-prefixed, zero-padded 8 digits: 00000000 for 0. */
	out(c, "nl_pid=");
	p_pid(c, (int)nl->nl_pid, SC_PT_TGID);
	out(c, ", nl_groups=%#08x", nl->nl_groups);
}

static void sa_ll(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_ll *ll = (const void *)buf;
	/* -X verbose's comment holds the abbreviated form: print that aside. */
	struct strbuf sb = STRBUF_INIT, *saved = c->out;
	enum xlat_style style = xlat_style;
	c->out = &sb;
	xlat_style = XLAT_STYLE_ABBREV;
	p_xval(c, &xlat_ethernet_protocols, ntohs(ll->sll_protocol), "ETH_P_???");
	xlat_style = style;
	c->out = saved;
	pn_net_field(c, "sll_protocol", &ll->sll_protocol, 2, "htons(%s)", sb_str(&sb));
	sb_free(&sb);
	out(c, ", sll_ifindex=");
	pn_ifindex(c, (unsigned)ll->sll_ifindex);
	out(c, ", sll_hatype=");
	p_xval(c, &xlat_arp_hardware_types, ll->sll_hatype, "ARPHRD_???");
	out(c, ", sll_pkttype=");
	p_xval(c, &xlat_af_packet_types, ll->sll_pkttype, "PACKET_???");
	out(c, ", sll_halen=%u", ll->sll_halen);
	if (!ll->sll_halen)
		return;
	unsigned in_buf = (unsigned)len - offsetof(struct sockaddr_ll, sll_addr);
	out(c, ", sll_addr=[");
	for (unsigned i = 0; i < ll->sll_halen; i++) {
		if (i)
			out(c, ", ");
		if (i >= in_buf || i >= sizeof(ll->sll_addr)) {
			out(c, "...");
			break;
		}
		out(c, "%#02x", ll->sll_addr[i]);
	}
	out(c, "]");
}

void pn_sockaddr_raw(struct sc_call *c, const unsigned char *buf, int len)
{
	out(c, "sa_data=");
	p_quoted(c, buf + sizeof(sa_family_t), (size_t)len - sizeof(sa_family_t), false);
}

static const struct {
	int family;
	int min_len;
	void (*print)(struct sc_call *c, const unsigned char *buf, int len);
} sa_printers[] = {
	{ AF_UNIX, sizeof(sa_family_t) + 1, sa_un },
	{ AF_INET, sizeof(struct sockaddr_in), sa_in },
	{ AF_INET6, SIN6_MIN_LEN, sa_in6 },
	{ AF_NETLINK, sizeof(struct sockaddr_nl), sa_nl },
	{ AF_PACKET, sizeof(struct sockaddr_ll), sa_ll },
	{ AF_IPX, SA_IPX_LEN, sa_ipx },
	{ AF_AX25, SA_AX25_LEN, sa_ax25 },
	{ AF_X25, SA_X25_LEN, sa_x25 },
	{ AF_BLUETOOTH, SA_BLUETOOTH_MIN_LEN, sa_bluetooth },
	{ AF_VSOCK, SA_VSOCK_LEN, sa_vsock },
	{ AF_QIPCRTR, SA_QRTR_LEN, sa_qrtr },
	{ AF_XDP, SA_XDP_LEN, sa_xdp },
	{ AF_MCTP, SA_MCTP_LEN, sa_mctp },
	{ AF_RXRPC, SA_RXRPC_LEN, sa_rxrpc },
	{ AF_IEEE802154, SA_IEEE802154_LEN, sa_ieee802154 },
	{ AF_ALG, SA_ALG_MIN_LEN, sa_alg },
	{ AF_NFC, SA_NFC_LEN, sa_nfc },
};

void pn_sockaddr_family(struct sc_call *c, const unsigned char *buf, int len)
{
	sa_family_t fam;
	memcpy(&fam, buf, sizeof(fam));
	for (size_t i = 0; i < sizeof(sa_printers) / sizeof(sa_printers[0]); i++)
		if (sa_printers[i].family == fam && len >= sa_printers[i].min_len) {
			sa_printers[i].print(c, buf, len);
			return;
		}
	pn_sockaddr_raw(c, buf, len);
}

void pn_sockaddr_data(struct sc_call *c, const void *data, int len)
{
	/* Zero past len, so printers may read a whole struct of any family. */
	unsigned char buf[SOCKADDR_MAX + 1] = { 0 };
	if (len > SOCKADDR_MAX)
		len = SOCKADDR_MAX;
	memcpy(buf, data, (size_t)len);
	sa_family_t fam;
	memcpy(&fam, buf, sizeof(fam));

	out(c, "{sa_family=");
	p_xval(c, &xlat_addrfams, fam, "AF_???");
	if (len > (int)sizeof(fam)) {
		out(c, ", ");
		pn_sockaddr_family(c, buf, len);
	}
	out(c, "}");
}

void p_sockaddr(struct sc_call *c, uint64_t addr, int64_t len)
{
	unsigned char buf[SOCKADDR_MAX];
	if (len < 2) {
		p_addr(c, addr);
		return;
	}
	if (len > SOCKADDR_MAX)
		len = SOCKADDR_MAX;
	if (p_fetch(c, addr, buf, (size_t)len) < 0)
		return;
	pn_sockaddr_data(c, buf, (int)len);
}

/* ---- control messages --------------------------------------------------- */

static void cmsg_fds(struct sc_call *c, const unsigned char *d, size_t len)
{
	size_t n = len / sizeof(int);
	out(c, "[");
	for (size_t i = 0; i < n; i++) {
		int fd;
		if (i)
			out(c, ", ");
		if ((abbrev(c) && i >= max_elems(c)) || p_line_full(c)) {
			out(c, "...");
			break;
		}
		memcpy(&fd, d + i * sizeof(fd), sizeof(fd));
		p_fd(c, (uint64_t)(int64_t)fd);
	}
	out(c, "]");
}

/* uid/gid: -1 stays -1, the rest unsigned. */
static void p_id(struct sc_call *c, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		out(c, "%s=-1", name);
	else
		out(c, "%s=%u", name, id);
}

static void cmsg_creds(struct sc_call *c, const unsigned char *d, size_t len)
{
	struct ucred uc;
	(void)len;
	memcpy(&uc, d, sizeof(uc));
	out(c, "{pid=");
	p_pid(c, uc.pid, SC_PT_TGID);
	out(c, ", ");
	p_id(c, "uid", uc.uid);
	out(c, ", ");
	p_id(c, "gid", uc.gid);
	out(c, "}");
}

static void cmsg_string(struct sc_call *c, const unsigned char *d, size_t len)
{
	p_quoted(c, d, len, false);
}

static void cmsg_timeval(struct sc_call *c, const unsigned char *d, size_t len)
{
	struct timeval tv;
	(void)len;
	memcpy(&tv, d, sizeof(tv));
	p_timeval_val(c, &tv);
}

static void cmsg_timespec(struct sc_call *c, const unsigned char *d, size_t len)
{
	struct timespec ts;
	(void)len;
	memcpy(&ts, d, sizeof(ts));
	p_timespec_val(c, &ts);
}

/* SO_TIMESTAMPING: three timestamps (software, deprecated, hardware). */
static void cmsg_timestamping(struct sc_call *c, const unsigned char *d, size_t len)
{
	(void)len;
	out(c, "[");
	for (int i = 0; i < 3; i++) {
		if (i)
			out(c, ", ");
		cmsg_timespec(c, d + i * sizeof(struct timespec), sizeof(struct timespec));
	}
	out(c, "]");
}

/* IP_RECVERR: struct sock_extended_err, then the offender's address. */
static void cmsg_recverr(struct sc_call *c, const unsigned char *d, size_t len)
{
	struct sock_extended_err e;
	memcpy(&e, d, sizeof(e));
	out(c, "{ee_errno=%u, ee_origin=%u, ee_type=%u, ee_code=%u, ee_info=%u, ee_data=%u, "
	    "offender=", e.ee_errno, e.ee_origin, e.ee_type, e.ee_code, e.ee_info, e.ee_data);
	pn_sockaddr_data(c, d + sizeof(e), (int)(len - sizeof(e) > SOCKADDR_MAX ? SOCKADDR_MAX
										: len - sizeof(e)));
	out(c, "}");
}

static void cmsg_pktinfo(struct sc_call *c, const unsigned char *d, size_t len)
{
	struct in_pktinfo pi;
	(void)len;
	memcpy(&pi, d, sizeof(pi));
	out(c, "{ipi_ifindex=");
	pn_ifindex(c, (unsigned)pi.ipi_ifindex);
	out(c, ", ");
	pn_inet_addr(c, AF_INET, &pi.ipi_spec_dst, "ipi_spec_dst");
	out(c, ", ");
	pn_inet_addr(c, AF_INET, &pi.ipi_addr, "ipi_addr");
	out(c, "}");
}

static void cmsg_uints(struct sc_call *c, const unsigned char *d, size_t len)
{
	out(c, "[");
	for (size_t i = 0; i < len / 4; i++) {
		unsigned v;
		if (i)
			out(c, ", ");
		if ((abbrev(c) && i >= max_elems(c)) || p_line_full(c)) {
			out(c, "...");
			break;
		}
		memcpy(&v, d + i * 4, 4);
		out(c, "%u", v);
	}
	out(c, "]");
}

static void cmsg_bytes(struct sc_call *c, const unsigned char *d, size_t len)
{
	out(c, "[");
	for (size_t i = 0; i < len; i++) {
		if (i)
			out(c, ", ");
		if ((abbrev(c) && i >= max_elems(c)) || p_line_full(c)) {
			out(c, "...");
			break;
		}
		out(c, "%#x", d[i]);
	}
	out(c, "]");
}

static void cmsg_sockaddr(struct sc_call *c, const unsigned char *d, size_t len)
{
	pn_sockaddr_data(c, d, (int)(len > SOCKADDR_MAX ? SOCKADDR_MAX : len));
}

struct cmsg_printer {
	int level;
	int type;
	size_t min_len;
	void (*print)(struct sc_call *c, const unsigned char *d, size_t len);
};

static const struct cmsg_printer cmsg_printers[] = {
	{ SOL_SOCKET, SCM_RIGHTS, sizeof(int), cmsg_fds },
	{ SOL_SOCKET, SCM_CREDENTIALS, sizeof(struct ucred), cmsg_creds },
	{ SOL_SOCKET, 3 /* SCM_SECURITY */, 1, cmsg_string },
	{ SOL_SOCKET, 29 /* SO_TIMESTAMP_OLD */, sizeof(struct timeval), cmsg_timeval },
	{ SOL_SOCKET, 35 /* SO_TIMESTAMPNS_OLD */, sizeof(struct timespec), cmsg_timespec },
	{ SOL_SOCKET, 37 /* SO_TIMESTAMPING_OLD */, 3 * sizeof(struct timespec), cmsg_timestamping },
	/* The _NEW ones hold 64-bit fields: on x86_64 the same layout as the _OLD ones. */
	{ SOL_SOCKET, 63 /* SO_TIMESTAMP_NEW */, sizeof(struct timeval), cmsg_timeval },
	{ SOL_SOCKET, 64 /* SO_TIMESTAMPNS_NEW */, sizeof(struct timespec), cmsg_timespec },
	{ SOL_SOCKET, 65 /* SO_TIMESTAMPING_NEW */, 3 * sizeof(struct timespec), cmsg_timestamping },
	{ SOL_IP, IP_RECVERR, sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in),
	  cmsg_recverr },
	{ SOL_IP, IP_PKTINFO, sizeof(struct in_pktinfo), cmsg_pktinfo },
	{ SOL_IP, IP_TTL, sizeof(unsigned), cmsg_uints },
	{ SOL_IP, IP_TOS, 1, cmsg_bytes },
	{ SOL_IP, IP_RECVOPTS, 1, cmsg_bytes },
	{ SOL_IP, IP_RETOPTS, 1, cmsg_bytes },
	{ SOL_IP, IP_ORIGDSTADDR, sizeof(struct sockaddr_in), cmsg_sockaddr },
	{ SOL_IP, IP_CHECKSUM, sizeof(unsigned), cmsg_uints },
	{ SOL_IP, 3 /* SCM_SECURITY */, 1, cmsg_string },
};

static void cmsg_type_data(struct sc_call *c, int level, int type, const unsigned char *d,
			   size_t len)
{
	if (level == SOL_SOCKET)
		p_xval(c, &xlat_scmvals, (unsigned)type, "SCM_???");
	else if (level == SOL_IP)
		p_xval(c, &xlat_ip_cmsg_types, (unsigned)type, "IP_???");
	else
		out(c, type ? "%#x" : "%d", (unsigned)type);
	for (size_t i = 0; i < sizeof(cmsg_printers) / sizeof(cmsg_printers[0]); i++) {
		const struct cmsg_printer *p = &cmsg_printers[i];
		if (p->level != level || p->type != type)
			continue;
		if (len >= p->min_len) {
			out(c, ", cmsg_data=");
			p->print(c, d, len);
		} else if (len && (p->print == cmsg_timeval || p->print == cmsg_timespec ||
				   p->print == cmsg_timestamping)) {
			out(c, ", cmsg_data=???");	/* strace's mark for a short timestamp */
		}
		return;
	}
}

static void p_msg_control(struct sc_call *c, uint64_t addr, uint64_t in_len)
{
	const unsigned char *buf;
	size_t ctl_len = in_len > CONTROL_MAX ? CONTROL_MAX : (size_t)in_len;

	out(c, ", msg_control=");
	if (ctl_len < CMSG_HDR_SIZE || !addr ||
	    sc_mem_peek(c, addr, ctl_len, &buf) != (long)ctl_len) {
		p_addr(c, addr);
		return;
	}
	size_t left = ctl_len;
	const unsigned char *p = buf;
	bool cut = false;
	out(c, "[");
	while (left >= CMSG_HDR_SIZE) {
		struct cmsghdr h;
		memcpy(&h, p, sizeof(h));
		if (p != buf)
			out(c, ", ");
		if (p != buf && p_line_full(c)) {
			out(c, "...");
			cut = true;
			break;
		}
		out(c, "{cmsg_len=%" PRIu64 ", cmsg_level=", (uint64_t)h.cmsg_len);
		p_xval(c, &xlat_socketlayers, (unsigned)h.cmsg_level, "SOL_???");
		out(c, ", cmsg_type=");
		uint64_t len = h.cmsg_len > left ? left : h.cmsg_len;
		cmsg_type_data(c, h.cmsg_level, h.cmsg_type, p + CMSG_HDR_SIZE,
			       len > CMSG_HDR_SIZE ? len - CMSG_HDR_SIZE : 0);
		out(c, "}");
		if (len < CMSG_HDR_SIZE) {
			left -= CMSG_HDR_SIZE;
			break;
		}
		/*
		 * Aligned from the clamped length: a cmsg_len near 2^64 would wrap to 0
		 * and print the same header forever (what the fuzzer's 2 GB line was).
		 */
		len = (len + sizeof(long) - 1) & ~(uint64_t)(sizeof(long) - 1);
		if (len >= left) {
			left = 0;
			break;
		}
		p += len;
		left -= len;
	}
	if (left && !cut)
		out(c, ", ... /* %#" PRIx64 " */", addr + (ctl_len - left));
	else if (ctl_len < in_len && !cut)
		out(c, ", ...");
	out(c, "]");
}

/* ---- msghdr ------------------------------------------------------------- */

void pn_msghdr(struct sc_call *c, uint64_t addr, int64_t data_len, const int *user_namelen)
{
	struct msghdr m;
	if (p_fetch(c, addr, &m, sizeof(m)) < 0)
		return;
	int namelen = (int)m.msg_namelen;
	if (user_namelen && namelen > *user_namelen)
		namelen = *user_namelen;

	out(c, "{msg_name=");
	p_sockaddr(c, (uint64_t)(uintptr_t)m.msg_name, namelen);
	out(c, ", msg_namelen=");
	if (user_namelen && *user_namelen != (int)m.msg_namelen)
		out(c, "%d => ", *user_namelen);
	out(c, "%d, msg_iov=", (int)m.msg_namelen);
	p_iov(c, (uint64_t)(uintptr_t)m.msg_iov, m.msg_iovlen, data_len);
	out(c, ", msg_iovlen=%" PRIu64, (uint64_t)m.msg_iovlen);
	if (m.msg_controllen)
		p_msg_control(c, (uint64_t)(uintptr_t)m.msg_control, m.msg_controllen);
	out(c, ", msg_controllen=%" PRIu64 ", msg_flags=", (uint64_t)m.msg_controllen);
	p_flags(c, &xlat_msg_flags, (unsigned)m.msg_flags, "MSG_???");
	out(c, "}");
}

void p_msghdr(struct sc_call *c, uint64_t addr, int64_t data_len)
{
	pn_msghdr(c, addr, data_len, NULL);
}

void pn_xval_dec(struct sc_call *c, const struct xlat *x, int64_t v, const char *dflt)
{
	const char *s = xlat_str(x, (uint64_t)v);
	if (xlat_style == XLAT_STYLE_RAW || (!s && !dflt))
		out(c, "%lld", (long long)v);
	else if (!s)
		out(c, "%lld /* %s */", (long long)v, dflt);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%lld /* %s */", (long long)v, s);
	else
		out(c, "%s", s);
}
