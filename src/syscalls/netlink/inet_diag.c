/*
 * INET_DIAG_* attributes of inet sock_diag replies: memory, congestion
 * control state, socket memory counters, marks and ids, and the local
 * and peer addresses of SCTP associations.
 */
#include <string.h>
#include <netinet/in.h>	/* before linux/mptcp.h, whose linux/in.h then steps aside */
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/mptcp.h>
#include <linux/tls.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "route.h"
#include "syscalls/print_net.h"
#include "syscalls/xlat.h"

#define STRUCT(T, ...) { nla_struct, &(const struct nla_struct)NLA_STRUCT(T, __VA_ARGS__) }
#define F(T, f) NLA_F(T, f, NF_U)
#define FX(T, f) NLA_F(T, f, NF_X)

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

/*
 * An attribute that is an array of size-byte structs, each printed by one:
 * [A, B, ...]; unreadable at once, its address; later, where it stopped.
 */
static bool p_array(struct sc_call *c, uint64_t addr, unsigned len, size_t size,
		    void (*one)(struct sc_call *c, const void *elem))
{
	union {
		struct sockaddr_storage ss;
		struct tcp_diag_md5sig md5;
	} elem;	/* aligned for either */
	unsigned n = len / size;
	if (!n || size > sizeof(elem))
		return false;
	for (unsigned i = 0; i < n; i++) {
		uint64_t at = addr + (uint64_t)i * size;
		if (i && nl_abbrev_stop(c, i)) {
			out(c, ", ...");
			break;
		}
		if (!nl_read(c, at, &elem, size)) {
			if (!i) {
				p_addr(c, addr);
				return true;
			}
			out(c, ", ... /* %#llx */", (unsigned long long)at);
			break;
		}
		out(c, i ? ", " : "[");
		one(c, &elem);
	}
	out(c, "]");
	return true;
}

static void p_sockaddr_one(struct sc_call *c, const void *elem)
{
	pn_sockaddr_data(c, elem, (int)sizeof(struct sockaddr_storage));
}

/* An array of struct sockaddr_storage (SCTP's local and peer addresses). */
static bool p_sockaddrs(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	return p_array(c, addr, len, sizeof(struct sockaddr_storage), p_sockaddr_one);
}

/* struct inet_diag_sockopt: the bits that are set, then any bytes past it. */
static bool p_sockopt(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	static const char *const bits[] = {
		"recverr", "is_icsk", "freebind", "hdrincl", "mc_loop", "transparent", "mc_all",
		"nodefrag", "bind_address_no_port", "recverr_rfc4884", "defer_connect",
	};
	uint8_t b[2];
	const char *sep = "";
	(void)arg;
	if (len < sizeof(b))
		return false;
	if (!nl_read(c, addr, b, sizeof(b))) {
		p_addr(c, addr);
		return true;
	}
	unsigned v = b[0] | (unsigned)b[1] << 8;
	out(c, "{");
	for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (v & (1u << i)) {
			out(c, "%s%s=1", sep, bits[i]);
			sep = ", ";
		}
	}
	if (v >> 11)
		out(c, "%sunused=%#x /* bits 3..8 */", sep, v >> 11);
	out(c, "}");
	p_struct_tail(c, addr, sizeof(b), len);
	return true;
}

/* One struct tcp_diag_md5sig: the address by its family, the key's keylen bytes. */
static void p_md5sig_one(struct sc_call *c, const void *elem)
{
	const struct tcp_diag_md5sig *m = elem;
	unsigned keylen = m->tcpm_keylen < sizeof(m->tcpm_key) ? m->tcpm_keylen : sizeof(m->tcpm_key);
	out(c, "{tcpm_family=");
	p_xval(c, &xlat_addrfams, m->tcpm_family, "AF_???");
	out(c, ", tcpm_prefixlen=%u, tcpm_keylen=%u, ", m->tcpm_prefixlen, m->tcpm_keylen);
	if (m->tcpm_family == AF_INET) {
		pn_inet_addr(c, AF_INET, m->tcpm_addr, "tcpm_addr");
	} else if (m->tcpm_family == AF_INET6) {
		pn_inet_addr(c, AF_INET6, m->tcpm_addr, "tcpm_addr");
	} else {
		out(c, "tcpm_addr=");
		nl_hex_bytes(c, (const uint8_t *)m->tcpm_addr, sizeof(m->tcpm_addr));
	}
	out(c, ", tcpm_key=");
	nl_hex_bytes(c, m->tcpm_key, keylen);
	out(c, "}");
}

static bool p_md5sig(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	return p_array(c, addr, len, sizeof(struct tcp_diag_md5sig), p_md5sig_one);
}

/* A map value of 1, 2, 4 or 8 bytes as a hex number, other sizes in hex bytes. */
static bool p_map_value(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	switch (len) {
	case 1: return nla_x8(c, addr, len, arg);
	case 2: return nla_x16(c, addr, len, arg);
	case 4: return nla_x32(c, addr, len, arg);
	case 8: return nla_x64(c, addr, len, arg);
	default: return false;
	}
}

static const struct nla_policy bpf_storage_pol[] = {
	[SK_DIAG_BPF_STORAGE_MAP_ID] = { nla_u32, NULL },
	[SK_DIAG_BPF_STORAGE_MAP_VALUE] = { p_map_value, NULL },
};
static const struct nla_table bpf_storage_attrs = {
	&xlat_sk_diag_bpf_storage_attrs, "SK_DIAG_BPF_STORAGE_???", bpf_storage_pol,
	sizeof(bpf_storage_pol) / sizeof(bpf_storage_pol[0])
};
static const struct nla_policy bpf_storages_pol[] = {
	[SK_DIAG_BPF_STORAGE] = { nla_nested, &bpf_storage_attrs },
};
static const struct nla_table bpf_storages_attrs = {
	&xlat_sk_diag_bpf_storage_rep_attrs, "SK_DIAG_BPF_STORAGE_???", bpf_storages_pol,
	sizeof(bpf_storages_pol) / sizeof(bpf_storages_pol[0])
};

#define XV16(x, d) { nla_xval16, &(const struct nla_xlat){ &x, d } }
static const struct nla_policy tls_pol[] = {
	[TLS_INFO_VERSION] = XV16(xlat_tls_versions, "TLS_???_VERSION"),
	[TLS_INFO_CIPHER] = XV16(xlat_tls_ciphers, "TLS_CIPHER_???"),
	[TLS_INFO_TXCONF] = XV16(xlat_tls_conf, "TLS_CONF_???"),
	[TLS_INFO_RXCONF] = XV16(xlat_tls_conf, "TLS_CONF_???"),
};
static const struct nla_table tls_attrs = {
	&xlat_tls_info_attrs, "TLS_INFO_???", tls_pol, sizeof(tls_pol) / sizeof(tls_pol[0])
};

static const struct nla_policy mptcp_pol[] = {
	[MPTCP_SUBFLOW_ATTR_TOKEN_REM] = { nla_x32, NULL },
	[MPTCP_SUBFLOW_ATTR_TOKEN_LOC] = { nla_x32, NULL },
	[MPTCP_SUBFLOW_ATTR_RELWRITE_SEQ] = { nla_u32, NULL },
	[MPTCP_SUBFLOW_ATTR_MAP_SEQ] = { nla_u64, NULL },
	[MPTCP_SUBFLOW_ATTR_MAP_SFSEQ] = { nla_u32, NULL },
	[MPTCP_SUBFLOW_ATTR_SSN_OFFSET] = { nla_u32, NULL },
	[MPTCP_SUBFLOW_ATTR_MAP_DATALEN] = { nla_u16, NULL },
	[MPTCP_SUBFLOW_ATTR_FLAGS] = { nla_flags32, &(const struct nla_xlat){
		&xlat_mptcp_subflow_flags, "MPTCP_SUBFLOW_FLAG_???" } },
	[MPTCP_SUBFLOW_ATTR_ID_REM] = { nla_u8, NULL },
	[MPTCP_SUBFLOW_ATTR_ID_LOC] = { nla_u8, NULL },
};
static const struct nla_table mptcp_attrs = {
	&xlat_mptcp_subflow_attrs, "MPTCP_SUBFLOW_ATTR_???", mptcp_pol,
	sizeof(mptcp_pol) / sizeof(mptcp_pol[0])
};

static const struct nla_policy ulp_pol[] = {
	[INET_ULP_INFO_NAME] = { nla_str, NULL },
	[INET_ULP_INFO_TLS] = { nla_nested, &tls_attrs },
	[INET_ULP_INFO_MPTCP] = { nla_nested, &mptcp_attrs },
};
static const struct nla_table ulp_attrs = {
	&xlat_inet_ulp_info_attrs, "INET_ULP_INFO_???", ulp_pol, sizeof(ulp_pol) / sizeof(ulp_pol[0])
};

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
	[INET_DIAG_SKMEMINFO] = { nla_meminfo, "=" },
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
	[INET_DIAG_MD5SIG] = { p_md5sig, NULL },
	[INET_DIAG_SOCKOPT] = { p_sockopt, NULL },
	[INET_DIAG_ULP_INFO] = { nla_nested, &ulp_attrs },
	[INET_DIAG_SK_BPF_STORAGES] = { nla_nested, &bpf_storages_attrs },
};
const struct nla_table nl_inet_diag_attrs = {
	&xlat_inet_diag_attrs, "INET_DIAG_???", inet_pol, sizeof(inet_pol) / sizeof(inet_pol[0])
};
