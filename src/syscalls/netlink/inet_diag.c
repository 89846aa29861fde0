/*
 * INET_DIAG_* attributes of inet sock_diag replies: memory, congestion
 * control state, socket memory counters, marks and ids, and the local
 * and peer addresses of SCTP associations.
 */
#include <string.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>

#include "netlink.h"
#include "../print_net.h"
#include "../xlat.h"

#define STRUCT(T, ...) { nla_struct, &(const struct nla_struct)NLA_STRUCT(T, __VA_ARGS__) }
#define F(T, f) NLA_F(T, f, NF_U)
#define FX(T, f) NLA_F(T, f, NF_X)

/* [[SK_MEMINFO_RMEM_ALLOC]=1, ...]: the u32 counters of a socket's memory. */
static bool p_skmeminfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned n = len / 4;
	(void)arg;
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
		out(c, "]=%u", v);
	}
	out(c, "]");
	return true;
}

/* sk_shutdown bits: strace shows the number with the names as a comment. */
static bool p_shutdown(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint8_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v))) {
		p_addr(c, addr);
		return true;
	}
	enum xlat_style saved = xlat_style;
	if (xlat_style == XLAT_STYLE_ABBREV)
		xlat_style = XLAT_STYLE_VERBOSE;
	p_flags(c, &xlat_sock_shutdown_flags, v, "???_SHUTDOWN");
	xlat_style = saved;
	return true;
}

/* An array of struct sockaddr_storage (SCTP's local and peer addresses). */
static bool p_sockaddrs(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	unsigned n = len / sizeof(struct sockaddr_storage);
	(void)arg;
	if (!n)
		return false;
	out(c, "[");
	for (unsigned i = 0; i < n; i++) {
		struct sockaddr_storage ss;
		uint64_t at = addr + (uint64_t)i * sizeof(ss);
		if (i)
			out(c, ", ");
		if (nl_abbrev_stop(c, i)) {
			out(c, "...");
			break;
		}
		if (!nl_read(c, at, &ss, sizeof(ss))) {
			if (i)
				out(c, "... /* %#llx */", (unsigned long long)at);
			else
				p_addr(c, addr);
			break;
		}
		pn_sockaddr_data(c, &ss, (int)sizeof(ss));
	}
	out(c, "]");
	return true;
}

static const struct nla_policy inet_pol[] = {
	[INET_DIAG_MEMINFO] = STRUCT(struct inet_diag_meminfo, F(struct inet_diag_meminfo, idiag_rmem),
				     F(struct inet_diag_meminfo, idiag_wmem),
				     F(struct inet_diag_meminfo, idiag_fmem),
				     F(struct inet_diag_meminfo, idiag_tmem)),
	[INET_DIAG_VEGASINFO] = STRUCT(struct tcpvegas_info, F(struct tcpvegas_info, tcpv_enabled),
				       F(struct tcpvegas_info, tcpv_rttcnt),
				       F(struct tcpvegas_info, tcpv_rtt),
				       F(struct tcpvegas_info, tcpv_minrtt)),
	[INET_DIAG_CONG] = { nla_str, NULL },
	[INET_DIAG_TOS] = { nla_u8, NULL },
	[INET_DIAG_TCLASS] = { nla_u8, NULL },
	[INET_DIAG_SKMEMINFO] = { p_skmeminfo, NULL },
	[INET_DIAG_SHUTDOWN] = { p_shutdown, NULL },
	[INET_DIAG_DCTCPINFO] = STRUCT(struct tcp_dctcp_info, F(struct tcp_dctcp_info, dctcp_enabled),
				       F(struct tcp_dctcp_info, dctcp_ce_state),
				       F(struct tcp_dctcp_info, dctcp_alpha),
				       F(struct tcp_dctcp_info, dctcp_ab_ecn),
				       F(struct tcp_dctcp_info, dctcp_ab_tot)),
	[INET_DIAG_PROTOCOL] = { nla_xval8, &(const struct nla_xlat){ &xlat_inet_protocols,
								      "IPPROTO_???" } },
	[INET_DIAG_SKV6ONLY] = { nla_u8, NULL },
	[INET_DIAG_LOCALS] = { p_sockaddrs, NULL },
	[INET_DIAG_PEERS] = { p_sockaddrs, NULL },
	[INET_DIAG_MARK] = { nla_u32, NULL },
	[INET_DIAG_BBRINFO] = STRUCT(struct tcp_bbr_info, FX(struct tcp_bbr_info, bbr_bw_lo),
				     FX(struct tcp_bbr_info, bbr_bw_hi),
				     F(struct tcp_bbr_info, bbr_min_rtt),
				     F(struct tcp_bbr_info, bbr_pacing_gain),
				     F(struct tcp_bbr_info, bbr_cwnd_gain)),
	[INET_DIAG_CLASS_ID] = { nla_u32, NULL },
	[INET_DIAG_CGROUP_ID] = { nla_u64, NULL },
};
const struct nla_table nl_inet_diag_attrs = {
	&xlat_inet_diag_attrs, "INET_DIAG_???", inet_pol, sizeof(inet_pol) / sizeof(inet_pol[0])
};
