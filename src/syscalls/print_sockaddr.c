/*
 * Socket addresses of the less common families (IPX, AX.25, X.25,
 * Bluetooth), printed as strace prints them.  print_net.c's family table
 * points here; each printer gets the address zero-padded past its length.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <netax25/ax25.h>
#include <netipx/ipx.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/x25.h>

#include "print_net.h"
#include "print_sockaddr.h"

static void p_bytes_hex(struct sc_call *c, const unsigned char *b, size_t n)
{
	out(c, "[");
	for (size_t i = 0; i < n; i++)
		out(c, "%s%#02x", i ? ", " : "", b[i]);
	out(c, "]");
}

void sa_ipx(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_ipx *ipx = (const void *)buf;
	(void)len;
	pn_net_field(c, "sipx_port", &ipx->sipx_port, 2, "htons(%u)", ntohs(ipx->sipx_port));
	out(c, ", sipx_network=htonl(%#x), sipx_node=", ntohl(ipx->sipx_network));
	p_bytes_hex(c, ipx->sipx_node, sizeof(ipx->sipx_node));
	out(c, ", sipx_type=%#02x", ipx->sipx_type);
	if (ipx->sipx_zero)
		out(c, ", sipx_zero=%#02x", ipx->sipx_zero);
}

/* ---- AX.25 -------------------------------------------------------------- */

#define AX25_CALL_LEN 6
#define AX25_SSID_MASK 0x1e	/* the SSID sits in bits 1-4 of the 7th byte */

/*
 * An AX.25 call is six ASCII characters shifted left by one, space padded,
 * and an SSID byte.  "CALL-SSID" when it is that and nothing else; the
 * all-space, SSID-0 address is the kernel's null address, "*".  Anything
 * else prints raw, with the decoded text in a comment while that text is
 * printable and cannot close the comment early.
 */
static void p_ax25_call(struct sc_call *c, const unsigned char *a)
{
	char text[AX25_CALL_LEN + 1];
	bool clean = !(a[AX25_CALL_LEN] & ~AX25_SSID_MASK), printable = true;
	size_t end = 0;
	unsigned ssid = (a[AX25_CALL_LEN] >> 1) & 0xf;

	for (size_t i = 0; i < AX25_CALL_LEN; i++) {
		unsigned char ch = a[i] >> 1;
		text[i] = (char)ch;
		if (a[i] & 1)
			clean = false;
		if (!isprint(ch))
			printable = false;
		if (ch != ' ')
			end = i + 1;
		if (ch != ' ' && !isupper(ch) && !isdigit(ch))
			clean = false;
	}
	text[end] = '\0';
	/* Only trailing spaces pad a call: one before its end spoils it. */
	for (size_t i = 0; i < end; i++)
		if (text[i] == ' ')
			clean = false;
	/* A clean call is the readable form: -X raw/verbose show its bytes too. */
	if (clean && end && xlat_style == XLAT_STYLE_ABBREV) {
		out(c, "%s-%u", text, ssid);
		return;
	}
	if (!end && !a[AX25_CALL_LEN] && clean) {
		out(c, "*");
		return;
	}
	out(c, "{ax25_call=\"");
	for (size_t i = 0; i <= AX25_CALL_LEN; i++)
		out(c, "\\x%02x", a[i]);
	out(c, "\"}");
	if (printable && !strstr(text, "*/") && !(clean && end && xlat_style == XLAT_STYLE_RAW))
		out(c, " /* %s-%u */", text, ssid);
}

void sa_ax25(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct full_sockaddr_ax25 *sax = (const void *)buf;
	const size_t head = sizeof(sax->fsa_ax25), digi = sizeof(sax->fsa_digipeater[0]);
	size_t ulen = (size_t)len;
	int ndigis = sax->fsa_ax25.sax25_ndigis;
	bool full = ndigis || ulen > head;

	out(c, "%ssax25_call=", full ? "fsa_ax25={" : "");
	p_ax25_call(c, (const unsigned char *)&sax->fsa_ax25.sax25_call);
	out(c, ", sax25_ndigis=%d", ndigis);
	if (!full)
		return;
	out(c, "}");

	size_t has = (ulen - head) / digi, want = ndigis > 0 ? (size_t)ndigis : 0;
	if (has > AX25_MAX_DIGIS)
		has = AX25_MAX_DIGIS;
	if (want > AX25_MAX_DIGIS)
		want = AX25_MAX_DIGIS;
	if (want) {
		size_t n = has < want ? has : want;
		out(c, ", fsa_digipeater=[");
		for (size_t i = 0; i < n; i++) {
			if (i)
				out(c, ", ");
			p_ax25_call(c, (const unsigned char *)&sax->fsa_digipeater[i]);
		}
		if (want > has)
			out(c, "%s...", n ? ", " : "");
		out(c, "]");
	}
	if (ulen > head + has * digi)
		out(c, ", ...");
}

/* ---- X.25 --------------------------------------------------------------- */

void sa_x25(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_x25 *x25 = (const void *)buf;
	const size_t max = sizeof(x25->sx25_addr.x25_addr);
	size_t n = strnlen(x25->sx25_addr.x25_addr, max);
	(void)len;
	out(c, "sx25_addr={x25_addr=");
	/* A string that fills the field unterminated: strace shows max-1 and "...". */
	p_quoted(c, (const unsigned char *)x25->sx25_addr.x25_addr, n < max ? n : max - 1,
		 n >= max);
	out(c, "}");
}

/* ---- Bluetooth ----------------------------------------------------------- */

/*
 * The BlueZ address structures (bluetooth/bluetooth.h and friends): not in
 * the kernel's uapi and not on every build machine, so declared here.
 * Multi-byte fields are little-endian on the wire ("htobs").
 */
struct bt_bdaddr {
	uint8_t b[6];
} __attribute__((packed));

struct bt_sockaddr_hci {
	sa_family_t family;
	uint16_t dev;
	uint16_t channel;
};

struct bt_sockaddr_sco {
	sa_family_t family;
	struct bt_bdaddr bdaddr;
};

struct bt_sockaddr_rc {
	sa_family_t family;
	struct bt_bdaddr bdaddr;
	uint8_t channel;
};

struct bt_sockaddr_l2 {
	sa_family_t family;
	uint16_t psm;
	struct bt_bdaddr bdaddr;
	uint16_t cid;
	uint8_t bdaddr_type;
};

#define L2CAP_PSM_LE_DYN_START 0x0080
#define L2CAP_PSM_LE_DYN_END 0x00ff
#define L2CAP_PSM_DYN_START 0x1001
#define L2CAP_CID_DYN_START 0x0040

static void p_bdaddr(struct sc_call *c, const char *name, const struct bt_bdaddr *a)
{
	pn_net_field(c, name, a->b, sizeof(a->b), "%02x:%02x:%02x:%02x:%02x:%02x", a->b[0],
		     a->b[1], a->b[2], a->b[3], a->b[4], a->b[5]);
}

/*
 * A PSM or CID: its name, or START+offset inside a dynamic range, else hex
 * with a "???" comment; -X raw and -X verbose show the hex value as usual.
 */
static void p_l2_num(struct sc_call *c, const struct xlat *x, unsigned v, const char *unknown,
		     const char *range, unsigned start, unsigned end)
{
	const char *name = xlat_str(x, v);
	bool in_range = !name && range && v >= start && v <= end;
	bool known = name || in_range;

	if (xlat_style != XLAT_STYLE_ABBREV || !known)
		out(c, "%#x", v);
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	if (xlat_style == XLAT_STYLE_VERBOSE || !known)
		out(c, " /* ");
	if (name)
		out(c, "%s", name);
	else if (in_range)
		out(c, "%s+%u", range, v - start);
	else
		out(c, "%s", unknown);
	if (xlat_style == XLAT_STYLE_VERBOSE || !known)
		out(c, " */");
}

static void p_l2_psm(struct sc_call *c, unsigned psm)
{
	if (psm >= L2CAP_PSM_LE_DYN_START && psm <= L2CAP_PSM_LE_DYN_END)
		p_l2_num(c, &xlat_l2cap_psm, psm, "L2CAP_PSM_???", "L2CAP_PSM_LE_DYN_START",
			 L2CAP_PSM_LE_DYN_START, L2CAP_PSM_LE_DYN_END);
	else
		p_l2_num(c, &xlat_l2cap_psm, psm, "L2CAP_PSM_???", "L2CAP_PSM_DYN_START",
			 L2CAP_PSM_DYN_START, 0xffff);
}

void sa_bluetooth(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct bt_sockaddr_hci *hci = (const void *)buf;
	const struct bt_sockaddr_sco *sco = (const void *)buf;
	const struct bt_sockaddr_rc *rc = (const void *)buf;
	const struct bt_sockaddr_l2 *l2 = (const void *)buf;

	/* The family does not say which protocol: the length does. */
	switch (len) {
	case offsetof(struct bt_sockaddr_hci, channel):
	case sizeof(struct bt_sockaddr_hci):
		out(c, "hci_dev=htobs(%u)", le16toh(hci->dev));
		if (len == sizeof(*hci)) {
			out(c, ", hci_channel=");
			p_xval(c, &xlat_hci_channels, le16toh(hci->channel), "HCI_CHANNEL_???");
		}
		return;
	case sizeof(struct bt_sockaddr_sco):
		p_bdaddr(c, "sco_bdaddr", &sco->bdaddr);
		return;
	case sizeof(struct bt_sockaddr_rc):
		p_bdaddr(c, "rc_bdaddr", &rc->bdaddr);
		out(c, ", rc_channel=%u", rc->channel);
		return;
	case offsetof(struct bt_sockaddr_l2, bdaddr_type):
	case sizeof(struct bt_sockaddr_l2):
		out(c, "l2_psm=htobs(");
		p_l2_psm(c, le16toh(l2->psm));
		out(c, "), ");
		p_bdaddr(c, "l2_bdaddr", &l2->bdaddr);
		out(c, ", l2_cid=htobs(");
		p_l2_num(c, &xlat_l2cap_cid, le16toh(l2->cid), "L2CAP_CID_???",
			 "L2CAP_CID_DYN_START", L2CAP_CID_DYN_START, 0xffff);
		out(c, ")");
		if (len == sizeof(*l2)) {
			out(c, ", l2_bdaddr_type=");
			p_xval(c, &xlat_bdaddr_types, l2->bdaddr_type, "BDADDR_???");
		}
		return;
	}
	pn_sockaddr_raw(c, buf, len);
}
