/*
 * AF_SMC sock_diag replies: the SMC_DIAG_* attributes after a
 * struct smc_diag_msg (connection cursors, link group, SMC-D DMB,
 * the fallback reason).
 */
#include <string.h>
#include <linux/smc_diag.h>

#include "netlink.h"
#include "syscalls/xlat.h"

static void p_cursor(struct sc_call *c, const char *name, const struct smc_diag_cursor *k)
{
	out(c, "%s={reserved=%u, wrap=%u, count=%u}", name, k->reserved, k->wrap, k->count);
}

static bool p_conninfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct smc_diag_conninfo i;
	(void)arg;
	if (len < sizeof(i))
		return false;
	if (!nl_read(c, addr, &i, sizeof(i))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{token=%u, sndbuf_size=%u, rmbe_size=%u, peer_rmbe_size=%u, ", i.token,
	    i.sndbuf_size, i.rmbe_size, i.peer_rmbe_size);
	p_cursor(c, "rx_prod", &i.rx_prod);
	p_cursor(c, ", rx_cons", &i.rx_cons);
	p_cursor(c, ", tx_prod", &i.tx_prod);
	p_cursor(c, ", tx_cons", &i.tx_cons);
	out(c, ", rx_prod_flags=%#x, rx_conn_state_flags=%#x, tx_prod_flags=%#x"
	    ", tx_conn_state_flags=%#x, ", i.rx_prod_flags, i.rx_conn_state_flags,
	    i.tx_prod_flags, i.tx_conn_state_flags);
	p_cursor(c, "tx_prep", &i.tx_prep);
	p_cursor(c, ", tx_sent", &i.tx_sent);
	p_cursor(c, ", tx_fin", &i.tx_fin);
	out(c, "}");
	return true;
}

/* A fixed-size name field, as a string up to its NUL. */
static void p_name(struct sc_call *c, const char *name, const uint8_t *s, size_t size)
{
	const uint8_t *nul = memchr(s, 0, size);
	out(c, "%s=", name);
	p_quoted(c, s, nul ? (size_t)(nul - s) : size, false);
}

static bool p_lgrinfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct smc_diag_lgrinfo g;
	const struct smc_diag_linkinfo *l = &g.lnk[0];
	(void)arg;
	if (len < sizeof(g))
		return false;
	if (!nl_read(c, addr, &g, sizeof(g))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{lnk=[{link_id=%u, ", l->link_id);
	p_name(c, "ibname", l->ibname, sizeof(l->ibname));
	out(c, ", ibport=%u, ", l->ibport);
	p_name(c, "gid", l->gid, sizeof(l->gid));
	p_name(c, ", peer_gid", l->peer_gid, sizeof(l->peer_gid));
	out(c, "}], role=");
	p_xval(c, &xlat_smc_link_group_roles, g.role, "SMC_???");
	out(c, "}");
	return true;
}

static bool p_dmbinfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct smcd_diag_dmbinfo d;
	(void)arg;
	if (len < sizeof(d))
		return false;
	if (!nl_read(c, addr, &d, sizeof(d))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{linkid=%u, peer_gid=%#llx, my_gid=%#llx, token=%#llx, peer_token=%#llx}",
	    d.linkid, (unsigned long long)d.peer_gid, (unsigned long long)d.my_gid,
	    (unsigned long long)d.token, (unsigned long long)d.peer_token);
	return true;
}

/* A decline code: strace shows its number with the name as a comment. */
static void p_decl(struct sc_call *c, uint32_t v)
{
	enum xlat_style saved = xlat_style;
	if (xlat_style == XLAT_STYLE_ABBREV)
		xlat_style = XLAT_STYLE_VERBOSE;
	p_xval(c, &xlat_smc_decl_codes, v, "SMC_CLC_DECL_???");
	xlat_style = saved;
}

static bool p_fallback(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct smc_diag_fallback f;
	(void)arg;
	if (len < sizeof(f))
		return false;
	if (!nl_read(c, addr, &f, sizeof(f))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{reason=");
	p_decl(c, f.reason);
	out(c, ", peer_diagnosis=");
	p_decl(c, f.peer_diagnosis);
	out(c, "}");
	return true;
}

static const struct nla_policy smc_pol[] = {
	[SMC_DIAG_CONNINFO] = { p_conninfo, NULL },
	[SMC_DIAG_LGRINFO] = { p_lgrinfo, NULL },
	[SMC_DIAG_SHUTDOWN] = { nla_flags8, &(const struct nla_xlat){ &xlat_sock_shutdown_flags,
								      "???_SHUTDOWN" } },
	[SMC_DIAG_DMBINFO] = { p_dmbinfo, NULL },
	[SMC_DIAG_FALLBACK] = { p_fallback, NULL },
};
const struct nla_table nl_smc_diag_attrs = {
	&xlat_smc_diag_attrs, "SMC_DIAG_???", smc_pol, sizeof(smc_pol) / sizeof(smc_pol[0])
};
