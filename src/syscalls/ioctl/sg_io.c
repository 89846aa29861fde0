/*
 * SG_IO: the SCSI generic v3 header ('S', <scsi/sg.h>) or the bsg v4 one
 * ('Q', <linux/bsg.h>), with the command, data and sense buffers they point
 * at.  The request half prints at entry, the response half at exit (also
 * when the call failed: the header is read again then).  The buffers are
 * followed in ptrace mode; --kernel prints their addresses.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/bsg.h>
#include <scsi/sg.h>

#include "ioctl.h"

#define IOV_SIZE 16		/* struct iovec */
#define IOV_FOLLOWED 64		/* iovec elements copied at most */

static size_t at_most(uint64_t len, size_t max)
{
	return len < max ? (size_t)len : max;
}

/* ---- copying -------------------------------------------------------------- */

/* A buffer of len bytes, or iovcnt iovecs carrying len bytes in all. */
static void walk_buf(struct sc_walk *w, const struct sc_call *c, uint64_t addr, uint64_t len,
		     uint64_t iovcnt)
{
	const unsigned char *p;
	if (!iovcnt) {
		sc_walk_grab(w, addr, at_most(len, ioctl_strsize(c) + 1), &p);
		return;
	}
	size_t n = sc_walk_grab(w, addr, at_most(iovcnt, IOV_FOLLOWED) * IOV_SIZE, &p) / IOV_SIZE;
	unsigned char iov[IOV_FOLLOWED * IOV_SIZE];
	memcpy(iov, p, n * IOV_SIZE);
	for (size_t i = 0; i < n && len; i++) {
		uint64_t base, ilen;
		memcpy(&base, iov + i * IOV_SIZE, 8);
		memcpy(&ilen, iov + i * IOV_SIZE + 8, 8);
		size_t take = at_most(ilen < len ? ilen : len, ioctl_strsize(c) + 1);
		sc_walk_grab(w, base, take, &p);
		len -= ilen < len ? ilen : len;
	}
}

static uint64_t din_len(uint32_t xfer_len, int32_t resid)
{
	return resid > 0 && (uint32_t)resid <= xfer_len ? xfer_len - (uint32_t)resid : xfer_len;
}

static void walk_v3(struct sc_walk *w, const struct sc_call *c, const struct sg_io_hdr *h)
{
	uint64_t data = (uint64_t)(uintptr_t)h->dxferp;
	if (c->entering) {
		sc_walk_grab(w, (uint64_t)(uintptr_t)h->cmdp, at_most(h->cmd_len, ioctl_strsize(c) + 1),
			     &(const unsigned char *){ NULL });
		walk_buf(w, c, data, h->dxfer_len, h->iovec_count);
		return;
	}
	walk_buf(w, c, data, din_len(h->dxfer_len, h->resid), h->iovec_count);
	sc_walk_grab(w, (uint64_t)(uintptr_t)h->sbp, at_most(h->sb_len_wr, ioctl_strsize(c) + 1),
		     &(const unsigned char *){ NULL });
}

static void walk_v4(struct sc_walk *w, const struct sc_call *c, const struct sg_io_v4 *h)
{
	if (c->entering) {
		walk_buf(w, c, h->request, h->request_len, 0);
		walk_buf(w, c, h->dout_xferp, h->dout_xfer_len, h->dout_iovec_count);
		return;
	}
	walk_buf(w, c, h->response, h->response_len, 0);
	walk_buf(w, c, h->din_xferp, din_len(h->din_xfer_len, h->din_resid), h->din_iovec_count);
}

static void sg_io_walk(struct sc_walk *w, const struct sc_call *c, unsigned req)
{
	const unsigned char *p;
	if (req != SG_IO)
		return;
	size_t n = sc_walk_grab(w, c->args[2], sizeof(struct sg_io_v4), &p);
	if (n >= sizeof(struct sg_io_hdr) && p[0] == 'S') {
		struct sg_io_hdr h;
		memcpy(&h, p, sizeof(h));
		walk_v3(w, c, &h);
	} else if (n >= sizeof(struct sg_io_v4) && p[0] == 'Q') {
		struct sg_io_v4 h;
		memcpy(&h, p, sizeof(h));
		walk_v4(w, c, &h);
	}
}

/* ---- printing ------------------------------------------------------------- */

/* len bytes in hex up to -s, or the iovecs carrying them; the address when unreadable. */
static void p_sg_buf(struct sc_call *c, uint64_t addr, uint64_t len, uint64_t iovcnt)
{
	if (iovcnt) {
		p_iov(c, addr, iovcnt, (int64_t)at_most(len, INT64_MAX));
		return;
	}
	const unsigned char *p;
	size_t max = ioctl_strsize(c), need = at_most(len, max);
	if (!addr || (need && sc_mem_peek(c, addr, need, &p) < (long)need)) {
		p_addr(c, addr);
		return;
	}
	out(c, "\"");
	for (size_t i = 0; i < need; i++)
		out(c, "\\x%02x", p[i]);
	out(c, "\"%s", len > max ? "..." : "");
}

/* SG_DXFER_TO_DEV, or the number in hex as strace shows it (0xfffffffe). */
static void p_direction(struct sc_call *c, int dir)
{
	const char *s = xlat_str(&xlat_sg_io_dxfer_directions, (uint64_t)(int64_t)dir);
	char num[16];
	snprintf(num, sizeof(num), "%#x", (unsigned)dir);
	if (!s)
		out(c, "%s%s", num, xlat_style == XLAT_STYLE_RAW ? "" : " /* SG_DXFER_??? */");
	else if (xlat_style == XLAT_STYLE_ABBREV)
		out(c, "%s", s);
	else if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%s", num);
	else
		out(c, "%s /* %s */", num, s);
}

static void p_v3_request(struct sc_call *c, const struct sg_io_hdr *h)
{
	out(c, "{interface_id='S', dxfer_direction=");
	p_direction(c, h->dxfer_direction);
	out(c, ", cmd_len=%u, cmdp=", h->cmd_len);
	p_sg_buf(c, (uint64_t)(uintptr_t)h->cmdp, h->cmd_len, 0);
	out(c, ", mx_sb_len=%u, iovec_count=%u, dxfer_len=%u, timeout=%u, flags=", h->mx_sb_len,
	    h->iovec_count, h->dxfer_len, h->timeout);
	p_flags(c, &xlat_sg_io_flags, h->flags, NULL);
	if (h->dxfer_direction == SG_DXFER_TO_DEV || h->dxfer_direction == SG_DXFER_TO_FROM_DEV) {
		out(c, ", dxferp=");
		p_sg_buf(c, (uint64_t)(uintptr_t)h->dxferp, h->dxfer_len, h->iovec_count);
	}
}

static void p_v3_response(struct sc_call *c, const struct sg_io_hdr *h)
{
	uint64_t din = din_len(h->dxfer_len, h->resid);
	const char *prefix = h->dxfer_direction == SG_DXFER_FROM_DEV ? ", " :
			     h->dxfer_direction == SG_DXFER_TO_FROM_DEV && din ? " => " : NULL;
	if (prefix) {
		out(c, "%sdxferp=", prefix);
		p_sg_buf(c, (uint64_t)(uintptr_t)h->dxferp, din, h->iovec_count);
	}
	out(c, ", status=%#x, masked_status=%#x, msg_status=%#x, sb_len_wr=%u, sbp=", h->status,
	    h->masked_status, h->msg_status, h->sb_len_wr);
	p_sg_buf(c, (uint64_t)(uintptr_t)h->sbp, h->sb_len_wr, 0);
	out(c, ", host_status=%#x, driver_status=%#x, resid=%d, duration=%u, info=", h->host_status,
	    h->driver_status, h->resid, h->duration);
	p_flags(c, &xlat_sg_io_info, h->info, NULL);
	out(c, "}");
}

static void p_v4_request(struct sc_call *c, const struct sg_io_v4 *h)
{
	out(c, "{guard='Q', protocol=");
	p_xval(c, &xlat_bsg_protocols, h->protocol, "BSG_PROTOCOL_???");
	out(c, ", subprotocol=");
	p_xval(c, &xlat_bsg_subprotocols, h->subprotocol, "BSG_SUB_PROTOCOL_???");
	out(c, ", request_len=%u, request=", h->request_len);
	p_sg_buf(c, h->request, h->request_len, 0);
	out(c, ", request_tag=%#" PRIx64 ", request_attr=%u, request_priority=%u"
	    ", request_extra=%u, max_response_len=%u, dout_iovec_count=%u, dout_xfer_len=%u"
	    ", din_iovec_count=%u, din_xfer_len=%u, dout_xferp=", (uint64_t)h->request_tag,
	    h->request_attr, h->request_priority, h->request_extra, h->max_response_len,
	    h->dout_iovec_count, h->dout_xfer_len, h->din_iovec_count, h->din_xfer_len);
	p_sg_buf(c, h->dout_xferp, h->dout_xfer_len, h->dout_iovec_count);
	out(c, ", timeout=%u, flags=", h->timeout);
	p_flags(c, &xlat_bsg_flags, h->flags, NULL);
	out(c, ", usr_ptr=%#" PRIx64, (uint64_t)h->usr_ptr);
}

static void p_v4_response(struct sc_call *c, const struct sg_io_v4 *h)
{
	out(c, ", response_len=%u, response=", h->response_len);
	p_sg_buf(c, h->response, h->response_len, 0);
	out(c, ", din_xferp=");
	p_sg_buf(c, h->din_xferp, din_len(h->din_xfer_len, h->din_resid), h->din_iovec_count);
	out(c, ", driver_status=%#x, transport_status=%#x, device_status=%#x, retry_delay=%u, info=",
	    h->driver_status, h->transport_status, h->device_status, h->retry_delay);
	p_flags(c, &xlat_sg_io_info, h->info, NULL);
	out(c, ", duration=%u, response_len=%u, din_resid=%d, dout_resid=%d, generated_tag=%#" PRIx64
	    "}", h->duration, h->response_len, h->din_resid, h->dout_resid,
	    (uint64_t)h->generated_tag);
}

/*
 * At entry: [id] for an unknown interface, {interface_id='S', ADDR} when the
 * rest is unreadable, else the request half.  At exit, the response half of
 * a header whose request half printed.
 */
static int sg_io_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	union {
		struct sg_io_hdr v3;
		struct sg_io_v4 v4;
	} h;
	int id;
	if (req != SG_IO)
		return IOCTL_UNDECODED;
	if (c->entering)
		p_sep(c);
	if (c->entering ? p_fetch(c, arg, &id, sizeof(id)) < 0 : sc_mem_read(c, arg, &id, sizeof(id)) < 0)
		return c->entering ? SC_DONE : 0;
	size_t size = id == 'S' ? sizeof(h.v3) : sizeof(h.v4);
	if (id != 'S' && id != 'Q') {
		out(c, "[%u]", (unsigned)id);
		return SC_DONE;
	}
	if (sc_mem_read(c, arg, &h, size) < 0) {
		if (c->entering) {
			out(c, id == 'S' ? "{interface_id='S', " : "{guard='Q', ");
			p_addr(c, arg + sizeof(id));
			out(c, "}");
		}
		return SC_DONE;
	}
	if (id == 'S')
		(c->entering ? p_v3_request : p_v3_response)(c, &h.v3);
	else
		(c->entering ? p_v4_request : p_v4_response)(c, &h.v4);
	return 0;
}

static size_t sg_io_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return req == SG_IO ? sizeof(struct sg_io_v4) : 0;
}

const struct ioctl_family ioctl_sg_io = {
	.type = IOCTL_ANY_TYPE,
	.decode = sg_io_decode, .arg_len = sg_io_len, .walk = sg_io_walk,
};
