/*
 * Socket ioctls (linux/sockios.h): owner and process group, interface
 * requests on struct ifreq (the name, then the field the request is
 * about), bridge requests.  The rest of the SIOC requests print their
 * argument as an address, as strace does.  SIOCGIFCONF's ifc_buf array is
 * behind a pointer: sock_walk copies it (ptrace mode; --kernel prints its
 * address).
 */
#include <inttypes.h>
#include <net/if.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>

#include "family.h"
#include "syscalls/print_net.h"

/* Address bytes per hardware type (the rest of sa_data is padding). */
static size_t hwaddr_len(unsigned type)
{
	switch (type) {
	case 1:		/* ARPHRD_ETHER */
	case 6:		/* ARPHRD_IEEE802 */
	case 772:	/* ARPHRD_LOOPBACK */
	case 774:	/* ARPHRD_FDDI */
	case 801:	/* ARPHRD_IEEE80211 */
		return 6;
	}
	return sizeof(((struct sockaddr *)0)->sa_data);
}

static void p_hwaddr(struct sc_call *c, const struct sockaddr *sa)
{
	const unsigned char *b = (const unsigned char *)sa->sa_data;
	size_t n = hwaddr_len(sa->sa_family);
	out(c, "{sa_family=");
	p_xval(c, &xlat_arp_hardware_types, sa->sa_family, "ARPHRD_???");
	out(c, ", sa_data=");
	if (xlat_style != XLAT_STYLE_ABBREV) {
		out(c, "\"");
		for (size_t i = 0; i < sizeof(sa->sa_data); i++)
			out(c, "\\x%02x", b[i]);
		out(c, "\"");
	}
	if (xlat_style == XLAT_STYLE_RAW) {
		out(c, "}");
		return;
	}
	out(c, xlat_style == XLAT_STYLE_VERBOSE ? " /* " : "");
	for (size_t i = 0; i < n; i++)
		out(c, "%s%02x", i ? ":" : "", b[i]);
	out(c, xlat_style == XLAT_STYLE_VERBOSE ? " */}" : "}");
}

static void p_map(struct sc_call *c, const struct ifmap *m)
{
	out(c, "{mem_start=%#lx, mem_end=%#lx, base_addr=%#x, irq=%#x, dma=%#x, port=%#x}",
	    m->mem_start, m->mem_end, m->base_addr, m->irq, m->dma, m->port);
}

static void p_field_sockaddr(struct sc_call *c, const char *name, uint64_t arg, size_t off)
{
	out(c, "%s=", name);
	p_sockaddr(c, arg + off, sizeof(struct sockaddr));
}

/* The field of struct ifreq req is about, ", " first. */
static void p_ifreq_field(struct sc_call *c, unsigned req, uint64_t arg, const struct ifreq *r)
{
	out(c, ", ");
	switch (req) {
	case SIOCSIFADDR:
	case SIOCGIFADDR:
		p_field_sockaddr(c, "ifr_addr", arg, offsetof(struct ifreq, ifr_addr));
		break;
	case SIOCSIFDSTADDR:
	case SIOCGIFDSTADDR:
		p_field_sockaddr(c, "ifr_dstaddr", arg, offsetof(struct ifreq, ifr_dstaddr));
		break;
	case SIOCSIFBRDADDR:
	case SIOCGIFBRDADDR:
		p_field_sockaddr(c, "ifr_broadaddr", arg, offsetof(struct ifreq, ifr_broadaddr));
		break;
	case SIOCSIFNETMASK:
	case SIOCGIFNETMASK:
		p_field_sockaddr(c, "ifr_netmask", arg, offsetof(struct ifreq, ifr_netmask));
		break;
	case SIOCADDMULTI:
	case SIOCDELMULTI:
	case SIOCGIFHWADDR:
	case SIOCSIFHWADDR:
	case SIOCSIFHWBROADCAST:
		out(c, "ifr_hwaddr=");
		p_hwaddr(c, &r->ifr_hwaddr);
		break;
	case SIOCSIFFLAGS:
	case SIOCGIFFLAGS:
		out(c, "ifr_flags=");
		p_flags(c, &xlat_iff_flags, (unsigned short)r->ifr_flags, "IFF_???");
		break;
	case SIOCGIFINDEX:
		out(c, "ifr_ifindex=%d", r->ifr_ifindex);
		break;
	case SIOCSIFMETRIC:
	case SIOCGIFMETRIC:
		out(c, "ifr_metric=%d", r->ifr_metric);
		break;
	case SIOCSIFMTU:
	case SIOCGIFMTU:
		out(c, "ifr_mtu=%d", r->ifr_mtu);
		break;
	case SIOCSIFSLAVE:
	case SIOCGIFSLAVE:
		out(c, "ifr_slave=");
		ioctl_p_cstring(c, r->ifr_slave, sizeof(r->ifr_slave));
		break;
	case SIOCSIFNAME:
		out(c, "ifr_newname=");
		ioctl_p_cstring(c, r->ifr_newname, sizeof(r->ifr_newname));
		break;
	case SIOCGIFNAME:
		out(c, "ifr_name=");
		ioctl_p_cstring(c, r->ifr_name, sizeof(r->ifr_name));
		break;
	case SIOCSIFTXQLEN:
	case SIOCGIFTXQLEN:
		out(c, "ifr_qlen=%d", r->ifr_qlen);
		break;
	case SIOCSIFMAP:
	case SIOCGIFMAP:
		out(c, "ifr_map=");
		p_map(c, &r->ifr_map);
		break;
	}
}

static const unsigned ifreq_setters[] = {
	SIOCADDMULTI, SIOCDELMULTI, SIOCSIFADDR, SIOCSIFBRDADDR, SIOCSIFDSTADDR, SIOCSIFFLAGS,
	SIOCSIFHWADDR, SIOCSIFHWBROADCAST, SIOCSIFMAP, SIOCSIFMETRIC, SIOCSIFMTU, SIOCSIFNAME,
	SIOCSIFNETMASK, SIOCSIFSLAVE, SIOCSIFTXQLEN,
};

static const unsigned ifreq_getters[] = {
	SIOCGIFADDR, SIOCGIFBRDADDR, SIOCGIFDSTADDR, SIOCGIFFLAGS, SIOCGIFHWADDR, SIOCGIFINDEX,
	SIOCGIFMAP, SIOCGIFMETRIC, SIOCGIFMTU, SIOCGIFNAME, SIOCGIFNETMASK, SIOCGIFSLAVE,
	SIOCGIFTXQLEN,
};

static bool in(const unsigned *set, size_t n, unsigned req)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == req)
			return true;
	return false;
}

#define IN(set, req) in(set, sizeof(set) / sizeof(set[0]), req)

static int ifreq_setter(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct ifreq r;
	p_sep(c);
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return SC_DONE;
	out(c, "{ifr_name=");
	ioctl_p_cstring(c, r.ifr_name, sizeof(r.ifr_name));
	p_ifreq_field(c, req, arg, &r);
	out(c, "}");
	return SC_DONE;
}

/* The interface asked about at entry (its name, or SIOCGIFNAME's index); the answer at exit. */
static int ifreq_getter(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct ifreq r;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &r, sizeof(r)) < 0)
			return SC_DONE;
		if (req == SIOCGIFNAME) {
			out(c, "{ifr_ifindex=%d", r.ifr_ifindex);
		} else {
			out(c, "{ifr_name=");
			ioctl_p_cstring(c, r.ifr_name, sizeof(r.ifr_name));
		}
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &r, sizeof(r)) == 0)
		p_ifreq_field(c, req, arg, &r);
	out(c, "}");
	return 0;
}

static void p_int_val(struct sc_call *c, uint64_t arg)
{
	int v;
	if (p_fetch(c, arg, &v, sizeof(v)) == 0)
		out(c, "[%d]", v);
}

/*
 * SIOCGIFCONF: ifc_len at entry when a buffer is given (" => " and the new
 * length at exit if it changed), then the interfaces the kernel wrote to
 * ifc_buf (its address when the call failed or gave none).
 */
static void p_ifc_len(struct sc_call *c, int len)
{
	out(c, "%d", len);
	unsigned n = (unsigned)len / sizeof(struct ifreq);
	if (len > 0 && n * sizeof(struct ifreq) == (unsigned)len)
		out(c, " /* %u * sizeof(struct ifreq) */", n);
}

static void p_ifconf_ifreq(struct sc_call *c, const void *elem, uint64_t addr)
{
	struct ifreq r;
	memcpy(&r, elem, sizeof(r));
	out(c, "{ifr_name=");
	ioctl_p_cstring(c, r.ifr_name, sizeof(r.ifr_name));
	out(c, ", ifr_addr=");
	p_sockaddr(c, addr + offsetof(struct ifreq, ifr_addr), sizeof(struct sockaddr));
	out(c, "}");
}

static int ifconf(struct sc_call *c, uint64_t arg)
{
	struct ifconf ifc;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &ifc, sizeof(ifc)) < 0)
			return SC_DONE;
		struct ifconf *asked = malloc(sizeof(*asked));
		if (!asked)
			return SC_DONE;
		*asked = ifc;
		c->priv = asked;
		out(c, "{ifc_len=");
		if (ifc.ifc_buf)
			p_ifc_len(c, ifc.ifc_len);
		return 0;
	}
	const struct ifconf *asked = c->priv;
	if (!asked)
		return 0;
	bool got = sc_mem_read(c, arg, &ifc, sizeof(ifc)) == 0;
	if (!got)
		ifc = *asked;
	if (asked->ifc_buf && asked->ifc_len != ifc.ifc_len)
		out(c, IOCTL_CHANGED);
	if (!asked->ifc_buf || asked->ifc_len != ifc.ifc_len)
		p_ifc_len(c, ifc.ifc_len);
	out(c, ", ifc_buf=");
	if (!asked->ifc_buf || sc_failed(c))
		p_addr(c, (uintptr_t)asked->ifc_buf);
	else
		ioctl_p_array(c, (uintptr_t)ifc.ifc_buf, (unsigned)ifc.ifc_len / sizeof(struct ifreq),
			      sizeof(struct ifreq), p_ifconf_ifreq);
	out(c, "}");
	return 0;
}

/* The interfaces the kernel wrote to ifc_buf (what the exit copy holds is printed). */
static void sock_walk(struct sc_walk *w, const struct sc_call *c, unsigned req)
{
	struct ifconf ifc;
	if (req != SIOCGIFCONF || ioctl_walk_read(w, c->args[2], &ifc, sizeof(ifc)) < 0 ||
	    ifc.ifc_len <= 0)
		return;
	ioctl_keep_array(w, c, (uintptr_t)ifc.ifc_buf, (unsigned)ifc.ifc_len / sizeof(struct ifreq),
			 sizeof(struct ifreq));
}

/* Requests strace shows with the argument as an address. */
static const unsigned address_only[] = {
	SIOCADDDLCI, SIOCADDRT, SIOCBONDCHANGEACTIVE, SIOCBONDENSLAVE, SIOCBONDINFOQUERY,
	SIOCBONDRELEASE, SIOCBONDSETHWADDR, SIOCBONDSLAVEINFOQUERY, SIOCDARP, SIOCDELDLCI,
	SIOCDELRT, SIOCDIFADDR, SIOCDRARP, SIOCETHTOOL, SIOCGARP, SIOCGHWTSTAMP, SIOCGIFBR,
	SIOCGIFCOUNT, SIOCGIFMEM, SIOCGIFPFLAGS, SIOCGIFVLAN, SIOCGMIIPHY, SIOCGMIIREG, SIOCGRARP,
	SIOCGSKNS, SIOCGSTAMP_OLD, SIOCGSTAMP_NEW, SIOCGSTAMPNS_OLD, SIOCGSTAMPNS_NEW, SIOCRTMSG,
	SIOCSARP, SIOCSHWTSTAMP, SIOCSIFBR, SIOCSIFLINK, SIOCSIFMEM, SIOCSIFPFLAGS, SIOCSIFVLAN,
	SIOCSMIIREG, SIOCSRARP, SIOCWANDEV,
};

static int sock_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct ifreq r;
	switch (req) {
	case SIOCGIFCONF:
		return ifconf(c, arg);
	case SIOCBRADDBR:
	case SIOCBRDELBR:
		p_sep(c);
		p_str_max(c, arg, IFNAMSIZ);
		return SC_DONE;
	case FIOGETOWN:
	case SIOCATMARK:
	case SIOCGIFENCAP:
	case SIOCGPGRP:
	case SIOCOUTQNSD:
		return ioctl_getter(c, arg, p_int_val);
	case FIOSETOWN:
	case SIOCSIFENCAP:
	case SIOCSPGRP:
		return ioctl_setter(c, arg, p_int_val);
	case SIOCBRADDIF:
	case SIOCBRDELIF:
		p_sep(c);
		if (p_fetch(c, arg, &r, sizeof(r)) == 0) {
			out(c, "{ifr_ifindex=");
			pn_ifindex(c, (unsigned)r.ifr_ifindex);
			out(c, "}");
		}
		return SC_DONE;
	}
	if (IN(ifreq_setters, req))
		return ifreq_setter(c, req, arg);
	if (IN(ifreq_getters, req))
		return ifreq_getter(c, req, arg);
	if (IN(address_only, req)) {
		return ioctl_setter(c, arg, p_addr);
	}
	return IOCTL_UNDECODED;
}

static size_t sock_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	if (req == SIOCGIFCONF)
		return sizeof(struct ifconf);
	if (req == SIOCBRADDBR || req == SIOCBRDELBR)
		return IFNAMSIZ + 1;
	if (IN(ifreq_setters, req) || IN(ifreq_getters, req) || req == SIOCBRADDIF ||
	    req == SIOCBRDELIF)
		return sizeof(struct ifreq);
	if (xlat_str(&xlat_sock_ioctls, req))
		return sizeof(int);
	return 0;
}

const struct ioctl_family ioctl_sock = {
	.type = 0x89,	/* SOCK_IOC_TYPE */
	.names = &xlat_sock_ioctls,
	.decode = sock_decode,
	.arg_len = sock_arg_len,
	.walk = sock_walk,
};
