/*
 * Socket addresses of RxRPC, IEEE 802.15.4, AF_ALG and NFC, printed as
 * strace prints them.
 */
#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_alg.h>
#include <linux/nfc.h>
#include <linux/rxrpc.h>

#include "print_net.h"
#include "print_sockaddr.h"

_Static_assert(sizeof(struct sockaddr_rxrpc) == SA_RXRPC_LEN, "sockaddr_rxrpc");
_Static_assert(sizeof(struct sockaddr_nfc) == SA_NFC_LEN, "sockaddr_nfc");
_Static_assert(sizeof(struct sockaddr_alg) == SA_ALG_LEN, "sockaddr_alg");

/*
 * strace shows some fields' names even in -X abbrev, as "0x1 /\* NAME *\/":
 * print those in the verbose style unless -X raw asked for numbers only.
 */
static void p_xval_commented(struct sc_call *c, const struct xlat *x, uint64_t v,
			     const char *dflt, bool flags)
{
	enum xlat_style style = xlat_style;
	if (style == XLAT_STYLE_ABBREV)
		xlat_style = XLAT_STYLE_VERBOSE;
	if (flags)
		p_flags(c, x, v, dflt);
	else
		p_xval(c, x, v, dflt);
	xlat_style = style;
}

/* A char array of avail bytes: up to its NUL, else all but one byte and "...". */
static void p_char_field(struct sc_call *c, const char *name, const void *p, size_t avail)
{
	size_t n = strnlen(p, avail);
	out(c, "%s=", name);
	if (n < avail)
		p_quoted(c, p, n, false);
	else
		p_quoted(c, p, avail ? avail - 1 : 0, true);
}

/* ---- RxRPC -------------------------------------------------------------- */

static void rxrpc_transport(struct sc_call *c, const struct sockaddr_rxrpc *rx)
{
	const unsigned char *t = (const unsigned char *)&rx->transport;
	size_t tlen = rx->transport_len, max = sizeof(rx->transport);
	sa_family_t fam = rx->transport.family;
	const char *inner = fam == AF_INET ? "sin" : fam == AF_INET6 ? "sin6" : NULL;
	size_t full = fam == AF_INET ? sizeof(struct sockaddr_in) : SIN6_MIN_LEN;

	if (tlen > max)
		tlen = max;
	out(c, "transport={");
	if (inner)
		out(c, "%s={%s_family=", inner, inner);
	else
		out(c, "family=");
	p_xval(c, &xlat_addrfams, fam, "AF_???");
	if (inner && tlen >= full) {
		out(c, ", ");
		pn_sockaddr_family(c, t, (int)tlen);
	} else if (tlen > sizeof(fam)) {
		out(c, ", ");
		p_quoted(c, t + sizeof(fam), tlen - sizeof(fam), false);
	}
	out(c, inner ? "}}" : "}");
}

void sa_rxrpc(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_rxrpc *rx = (const void *)buf;
	(void)len;
	out(c, "srx_service=");
	p_xval_commented(c, &xlat_rxrpc_services, rx->srx_service, "???_SERVICE", false);
	out(c, ", transport_type=");
	p_xval(c, &xlat_socktypes, rx->transport_type, "SOCK_???");
	out(c, ", transport_len=%u, ", rx->transport_len);
	rxrpc_transport(c, rx);
}

/* ---- IEEE 802.15.4 ------------------------------------------------------ */

/*
 * include/net/af_ieee802154.h: the kernel does not export it to user
 * space, so the layout is declared here.
 */
struct ieee802154_addr_sa {
	int addr_type;
	uint16_t pan_id;
	union {
		uint8_t hwaddr[8];
		uint16_t short_addr;
	};
};

struct sockaddr_ieee802154 {
	sa_family_t family;
	struct ieee802154_addr_sa addr;
};

_Static_assert(sizeof(struct sockaddr_ieee802154) == SA_IEEE802154_LEN, "sockaddr_ieee802154");

#define IEEE802154_ADDR_NONE 0
#define IEEE802154_ADDR_SHORT 2

void sa_ieee802154(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct ieee802154_addr_sa *a = &((const struct sockaddr_ieee802154 *)buf)->addr;
	const uint8_t *hw = a->hwaddr;
	(void)len;
	out(c, "addr={addr_type=");
	p_xval_commented(c, &xlat_ieee802154_addr_types, (unsigned)a->addr_type,
			 "IEEE802154_ADDR_???", false);
	out(c, ", pan_id=");
	p_xval_commented(c, &xlat_ieee802154_pan_ids, a->pan_id, NULL, false);
	if (a->addr_type == IEEE802154_ADDR_SHORT) {
		out(c, ", short_addr=");
		p_xval_commented(c, &xlat_ieee802154_short_addrs, a->short_addr, NULL, false);
	} else if (a->addr_type != IEEE802154_ADDR_NONE) {
		out(c, ", ");
		pn_net_field(c, "hwaddr", hw, 8, "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x", hw[0],
			     hw[1], hw[2], hw[3], hw[4], hw[5], hw[6], hw[7]);
	}
	out(c, "}");
}

/* ---- AF_ALG ------------------------------------------------------------- */

void sa_alg(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_alg *alg = (const void *)buf;
	size_t name_avail = (size_t)len - offsetof(struct sockaddr_alg, salg_name);
	if (name_avail > sizeof(alg->salg_name))
		name_avail = sizeof(alg->salg_name);
	p_char_field(c, "salg_type", alg->salg_type, sizeof(alg->salg_type));
	out(c, ", salg_feat=");
	p_xval_commented(c, &xlat_alg_sockaddr_flags, alg->salg_feat, "CRYPTO_ALG_???", true);
	out(c, ", salg_mask=");
	p_xval_commented(c, &xlat_alg_sockaddr_flags, alg->salg_mask, "CRYPTO_ALG_???", true);
	out(c, ", ");
	p_char_field(c, "salg_name", alg->salg_name, name_avail);
}

/* ---- NFC ---------------------------------------------------------------- */

void sa_nfc(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_nfc_llcp *nfc = (const void *)buf;
	out(c, "dev_idx=");
	pn_ifindex(c, nfc->dev_idx);
	out(c, ", target_idx=%#x, nfc_protocol=", nfc->target_idx);
	p_xval(c, &xlat_nfc_protocols, nfc->nfc_protocol, "NFC_PROTO_???");
	if (len == SA_NFC_LEN)
		return;
	/* Only the LLCP form is longer; a length between the two is cut short. */
	if (len < (int)sizeof(*nfc)) {
		out(c, ", ...");
		return;
	}
	out(c, ", dsap=");
	p_xval_commented(c, &xlat_nfc_saps, nfc->dsap, NULL, false);
	out(c, ", ssap=");
	p_xval_commented(c, &xlat_nfc_saps, nfc->ssap, NULL, false);
	size_t n = nfc->service_name_len;
	if (n > sizeof(nfc->service_name))
		n = sizeof(nfc->service_name);
	out(c, ", service_name=");
	p_quoted(c, (const unsigned char *)nfc->service_name, n, false);
	out(c, ", service_name_len=%zu", (size_t)nfc->service_name_len);
}
