/*
 * TEE requests (<linux/tee.h>): what the client asks of the trusted
 * execution environment, shown at entry.  What the driver writes back
 * (session ids, return codes, TEE_IOC_VERSION's data) is not decoded.
 */
#include <inttypes.h>
#include <string.h>
#include <linux/tee.h>

#include "ioctl.h"

/* A request some vendor kernels have, decoded by strace though unnamed. */
struct tee_shm_register_fd_data {
	int64_t fd;
	uint64_t size;
	uint32_t flags;
	uint8_t pad1[4];
	uint32_t id;
	uint8_t pad2[4];
} __attribute__((aligned(8)));
#define TEE_IOC_SHM_REGISTER_FD _IOWR(TEE_IOC_MAGIC, TEE_IOC_BASE + 8, \
				      struct tee_shm_register_fd_data)

/* Bytes followed behind buf_ptr: the largest header and 64 parameters. */
#define TEE_BUF_CAP (sizeof(struct tee_ioctl_open_session_arg) + 64 * sizeof(struct tee_ioctl_param))

static void p_param(struct sc_call *c, const struct tee_ioctl_param *p)
{
	uint64_t attr = p->attr, a = p->a, b = p->b, v = p->c;
	uint64_t type = attr & TEE_IOCTL_PARAM_ATTR_TYPE_MASK;
	out(c, "{attr=");
	p_xval(c, &xlat_tee_param_types, type, "TEE_IOCTL_PARAM_ATTR_TYPE_???");
	if (attr & TEE_IOCTL_PARAM_ATTR_META)
		out(c, "|TEE_IOCTL_PARAM_ATTR_META");
	if (attr & ~(uint64_t)TEE_IOCTL_PARAM_ATTR_MASK)
		out(c, "|%#" PRIx64, attr & ~(uint64_t)TEE_IOCTL_PARAM_ATTR_MASK);
	switch (type) {
	case TEE_IOCTL_PARAM_ATTR_TYPE_NONE:
		break;
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT:
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_OUTPUT:
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT:
		out(c, ", shm_offs=%#" PRIx64 ", size=%#" PRIx64 ", shm_id=%" PRIu64, a, b, v);
		break;
	default:
		out(c, ", a=%#" PRIx64 ", b=%#" PRIx64 ", c=%#" PRIx64, a, b, v);
		break;
	}
	out(c, "}");
}

static void p_params(struct sc_call *c, const unsigned char *at, uint32_t n)
{
	out(c, "num_params=%u, params=[", n);
	for (uint32_t i = 0; i < n; i++) {
		struct tee_ioctl_param p;
		memcpy(&p, at + i * sizeof(p), sizeof(p));
		out(c, i ? ", " : "");
		p_param(c, &p);
	}
	out(c, "]");
}

static void p_uuid(struct sc_call *c, const uint8_t *u)
{
	for (int i = 0; i < TEE_IOCTL_UUID_LEN; i++)
		out(c, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

/* Who the client is, by login class: a group id, nothing, or the raw bytes. */
static void p_clnt_uuid(struct sc_call *c, uint32_t login, const uint8_t *u)
{
	switch (login) {
	case TEE_IOCTL_LOGIN_PUBLIC:
	case TEE_IOCTL_LOGIN_USER:
	case TEE_IOCTL_LOGIN_APPLICATION:
	case TEE_IOCTL_LOGIN_USER_APPLICATION:
		return;
	case TEE_IOCTL_LOGIN_GROUP:
	case TEE_IOCTL_LOGIN_GROUP_APPLICATION: {
		uint32_t gid;
		memcpy(&gid, u, sizeof(gid));
		out(c, ", clnt_uuid=%u", gid);
		return;
	}
	}
	out(c, ", clnt_uuid=[");
	for (int i = 0; i < TEE_IOCTL_UUID_LEN; i++)
		out(c, i ? ", %#x" : "%#x", u[i]);
	out(c, "]");
}

/* The header of each struct behind buf_ptr; false for requests without one. */
static bool buf_header(unsigned req, size_t *size)
{
	switch (req) {
	case TEE_IOC_INVOKE:
		*size = sizeof(struct tee_ioctl_invoke_arg);
		return true;
	case TEE_IOC_OPEN_SESSION:
		*size = sizeof(struct tee_ioctl_open_session_arg);
		return true;
	case TEE_IOC_SUPPL_RECV:
		*size = sizeof(struct tee_iocl_supp_recv_arg);
		return true;
	case TEE_IOC_SUPPL_SEND:
		*size = sizeof(struct tee_iocl_supp_send_arg);
		return true;
	}
	return false;
}

/* The struct behind buf_ptr when buf_len is exactly its size with its parameters. */
static bool p_buf_struct(struct sc_call *c, unsigned req, const struct tee_ioctl_buf_data *b)
{
	size_t hdr = 0;
	const unsigned char *p;
	buf_header(req, &hdr);
	if (!b->buf_ptr || b->buf_len < hdr || b->buf_len > TEE_BUF_CAP ||
	    sc_mem_peek(c, b->buf_ptr, b->buf_len, &p) < (long)b->buf_len)
		return false;
	uint32_t n;
	memcpy(&n, p + hdr - sizeof(n), sizeof(n));	/* num_params ends each header */
	if (b->buf_len != hdr + (uint64_t)n * sizeof(struct tee_ioctl_param))
		return false;
	out(c, "{");
	if (req == TEE_IOC_INVOKE) {
		struct tee_ioctl_invoke_arg a;
		memcpy(&a, p, sizeof(a));
		out(c, "func=%u, session=%#x, cancel_id=%u, ", a.func, a.session, a.cancel_id);
	} else if (req == TEE_IOC_OPEN_SESSION) {
		struct tee_ioctl_open_session_arg a;
		memcpy(&a, p, sizeof(a));
		out(c, "uuid=");
		p_uuid(c, a.uuid);
		out(c, ", clnt_login=");
		p_xval(c, &xlat_tee_logins, a.clnt_login, "TEE_IOCTL_LOGIN_???");
		p_clnt_uuid(c, a.clnt_login, a.clnt_uuid);
		out(c, ", cancel_id=%u, ", a.cancel_id);
	} else if (req == TEE_IOC_SUPPL_RECV) {
		struct tee_iocl_supp_recv_arg a;
		memcpy(&a, p, sizeof(a));
		out(c, "func=%u, ", a.func);
	}
	p_params(c, p + hdr, n);
	out(c, "}");
	return true;
}

static int tee_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	union {
		struct tee_ioctl_cancel_arg cancel;
		struct tee_ioctl_close_session_arg close;
		struct tee_ioctl_shm_alloc_data alloc;
		struct tee_ioctl_shm_register_data reg;
		struct tee_shm_register_fd_data reg_fd;
		struct tee_ioctl_buf_data buf;
	} u;
	size_t hdr;
	switch (req) {
	case TEE_IOC_VERSION:
		if (c->entering)
			return 0;
		p_sep(c);
		p_addr(c, arg);
		return 0;
	case TEE_IOC_CANCEL:
	case TEE_IOC_CLOSE_SESSION:
	case TEE_IOC_SHM_ALLOC:
	case TEE_IOC_SHM_REGISTER:
	case TEE_IOC_SHM_REGISTER_FD:
		break;
	default:
		if (!buf_header(req, &hdr))
			return IOCTL_UNDECODED;
		p_sep(c);
		if (p_fetch(c, arg, &u.buf, sizeof(u.buf)) < 0)
			return SC_DONE;
		out(c, "{buf_len=%" PRIu64 ", buf_ptr=", (uint64_t)u.buf.buf_len);
		if (!p_buf_struct(c, req, &u.buf))
			out(c, "%#" PRIx64, (uint64_t)u.buf.buf_ptr);
		out(c, "}");
		return SC_DONE;
	}
	p_sep(c);
	if (p_fetch(c, arg, &u, _IOC_SIZE(req)) < 0)
		return SC_DONE;
	switch (req) {
	case TEE_IOC_CANCEL:
		out(c, "{cancel_id=%u, session=%#x}", u.cancel.cancel_id, u.cancel.session);
		break;
	case TEE_IOC_CLOSE_SESSION:
		out(c, "{session=%#x}", u.close.session);
		break;
	case TEE_IOC_SHM_ALLOC:
		out(c, "{size=%#" PRIx64 ", flags=", (uint64_t)u.alloc.size);
		p_flags(c, &xlat_tee_shm_flags, u.alloc.flags, NULL);
		out(c, "}");
		break;
	case TEE_IOC_SHM_REGISTER:
		out(c, "{addr=%#" PRIx64 ", length=%#" PRIx64 ", flags=", (uint64_t)u.reg.addr,
		    (uint64_t)u.reg.length);
		p_flags(c, &xlat_tee_shm_flags, u.reg.flags, NULL);
		out(c, "}");
		break;
	default:
		out(c, "{fd=%" PRId64 ", flags=", u.reg_fd.fd);
		p_flags(c, &xlat_tee_shm_flags, u.reg_fd.flags, NULL);
		out(c, "}");
		break;
	}
	return SC_DONE;
}

static size_t tee_len(const struct sc_call *c, unsigned req)
{
	size_t hdr;
	(void)c;
	switch (req) {
	case TEE_IOC_CANCEL:
	case TEE_IOC_CLOSE_SESSION:
	case TEE_IOC_SHM_ALLOC:
	case TEE_IOC_SHM_REGISTER:
	case TEE_IOC_SHM_REGISTER_FD:
		return _IOC_SIZE(req);
	}
	return buf_header(req, &hdr) ? sizeof(struct tee_ioctl_buf_data) : 0;
}

/* struct tee_ioctl_buf_data's buf_ptr comes first. */
static size_t tee_ptr_len(const struct sc_call *c, unsigned req, unsigned off)
{
	size_t hdr;
	(void)c;
	return off == 0 && buf_header(req, &hdr) ? TEE_BUF_CAP : 0;
}

const struct ioctl_family ioctl_tee = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_tee, .decode = tee_decode, .arg_len = tee_len, .ptr_len = tee_ptr_len,
};
