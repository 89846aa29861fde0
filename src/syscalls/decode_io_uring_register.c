/*
 * io_uring_register: the opcode and, per opcode, what its argument points
 * to (iovecs, descriptor arrays, the probe the kernel fills, restrictions,
 * the resource register/update structs and the arrays they point to, the
 * io-wq CPU mask and worker limits, ring fd updates, buffer rings), printed
 * as strace prints them.  The memory is found by following the argument
 * (a walk), which the --kernel mode does not do yet: there these print as
 * addresses.
 */
#include <inttypes.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "decoder.h"

#define UR_ELEMS_MAX (SC_VEC_MAX + 1)	/* array elements copied at most */
#define UR_PROBE_OPS_MAX 256u		/* the kernel's limit; more prints the address */
#define UR_AFF_MAX 1024u		/* CPU mask bytes copied at most */
#define UR_RSRC_SIZE 32u		/* io_uring_rsrc_register / io_uring_rsrc_update2 */

/* ---- what to copy ------------------------------------------------------- */

static void grab_array(struct sc_walk *w, uint64_t addr, uint64_t n, size_t size)
{
	const unsigned char *p;
	if (addr && n)
		sc_walk_grab(w, addr, (n < UR_ELEMS_MAX ? n : UR_ELEMS_MAX) * size, &p);
}

static void grab_rsrc(struct sc_walk *w, uint64_t addr, unsigned size, unsigned op)
{
	const unsigned char *p;
	if (size < UR_RSRC_SIZE)
		return;
	size_t len = size < SC_STRUCT_TAIL_MAX ? size : SC_STRUCT_TAIL_MAX;
	if (sc_walk_grab(w, addr, len, &p) < UR_RSRC_SIZE)
		return;
	bool reg = op == IORING_REGISTER_FILES2 || op == IORING_REGISTER_BUFFERS2;
	bool files = op == IORING_REGISTER_FILES2 || op == IORING_REGISTER_FILES_UPDATE2;
	uint32_t nr;
	uint64_t data, tags;
	if (reg) {
		const struct io_uring_rsrc_register *r = (const void *)p;
		nr = r->nr, data = r->data, tags = r->tags;
	} else {
		const struct io_uring_rsrc_update2 *u = (const void *)p;
		nr = u->nr, data = u->data, tags = u->tags;
	}
	grab_array(w, data, nr, files ? sizeof(int) : sizeof(struct iovec));
	grab_array(w, tags, nr, sizeof(uint64_t));
}

static void ur_walk_entry(struct sc_walk *w, const struct sc_call *c)
{
	uint64_t arg = c->args[2];
	unsigned op = (unsigned)c->args[1], n = (unsigned)c->args[3];
	const unsigned char *p;
	if (!arg)
		return;
	switch (op) {
	case IORING_REGISTER_BUFFERS:
		grab_array(w, arg, n, sizeof(struct iovec));
		break;
	case IORING_REGISTER_FILES:
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
	case IORING_REGISTER_IOWQ_MAX_WORKERS:
		grab_array(w, arg, n, sizeof(int));
		break;
	case IORING_REGISTER_FILES_UPDATE:
		if (sc_walk_grab(w, arg, sizeof(struct io_uring_files_update), &p) ==
		    sizeof(struct io_uring_files_update))
			grab_array(w, ((const struct io_uring_files_update *)(const void *)p)->fds,
				   n, sizeof(int));
		break;
	case IORING_REGISTER_PROBE:
		if (n <= UR_PROBE_OPS_MAX)
			sc_walk_grab(w, arg, sizeof(struct io_uring_probe) +
				     n * sizeof(struct io_uring_probe_op), &p);
		break;
	case IORING_REGISTER_RESTRICTIONS:
		grab_array(w, arg, n, sizeof(struct io_uring_restriction));
		break;
	case IORING_REGISTER_FILES2:
	case IORING_REGISTER_BUFFERS2:
	case IORING_REGISTER_FILES_UPDATE2:
	case IORING_REGISTER_BUFFERS_UPDATE:
		grab_rsrc(w, arg, n, op);
		break;
	case IORING_REGISTER_IOWQ_AFF:
		if (n)
			sc_walk_grab(w, arg, n < UR_AFF_MAX ? n : UR_AFF_MAX, &p);
		break;
	case IORING_REGISTER_RING_FDS:
	case IORING_UNREGISTER_RING_FDS:
		grab_array(w, arg, n, sizeof(struct io_uring_rsrc_update));
		break;
	case IORING_REGISTER_PBUF_RING:
	case IORING_UNREGISTER_PBUF_RING:
		sc_walk_grab(w, arg, sizeof(struct io_uring_buf_reg), &p);
		break;
	}
}

/* The two operations whose argument the kernel writes back. */
static void ur_walk_exit(struct sc_walk *w, const struct sc_call *c)
{
	unsigned op = (unsigned)c->args[1];
	if (op == IORING_REGISTER_PROBE || op == IORING_REGISTER_IOWQ_MAX_WORKERS)
		ur_walk_entry(w, c);
}

/* ---- printing ------------------------------------------------------------ */

typedef void (*ur_elem_fn)(struct sc_call *c, const void *elem, unsigned op);

static bool abbreviated(const struct sc_call *c, uint64_t i)
{
	return (c->fmt && !c->fmt->verbose && i >= c->fmt->strsize) || i >= SC_VEC_MAX ||
	       p_line_full(c);
}

/*
 * n elements of size bytes at addr, as strace's print_array: NULL, [] when
 * empty, the address when the first is unreadable, "... /\* addr *\/" where
 * the memory ends, "..." past -s elements.  Returns true when elements printed.
 */
static bool ur_array(struct sc_call *c, uint64_t addr, uint64_t n, size_t size,
		     ur_elem_fn elem, unsigned op)
{
	unsigned char buf[32];
	if (!addr) {
		out(c, "NULL");
		return false;
	}
	if (!n) {
		out(c, "[]");
		return false;
	}
	if (sc_mem_read(c, addr, buf, size) < 0) {
		p_addr(c, addr);
		return false;
	}
	out(c, "[");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = addr + i * size;
		if (i)
			p_sep(c);
		if (sc_mem_read(c, at, buf, size) < 0) {
			out(c, "... /* %#" PRIx64 " */", at);
			break;
		}
		if (abbreviated(c, i)) {
			out(c, "...");
			break;
		}
		elem(c, buf, op);
	}
	out(c, "]");
	return true;
}

static void p_xints(struct sc_call *c, const uint32_t *v, size_t n)
{
	out(c, "[");
	for (size_t i = 0; i < n; i++)
		out(c, v[i] ? "%s%#x" : "%s%u", i ? ", " : "", v[i]);
	out(c, "]");
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static void e_fd(struct sc_call *c, const void *elem, unsigned op)
{
	int fd;
	memcpy(&fd, elem, sizeof(fd));
	if (fd < -1 && (op == IORING_REGISTER_FILES_UPDATE || op == IORING_REGISTER_FILES_UPDATE2))
		sb_xlat_d(c->out, &xlat_uring_files_update_fds, fd, NULL);
	else
		p_fd(c, (uint64_t)(int64_t)fd);
}

static void e_xint64(struct sc_call *c, const void *elem, unsigned op)
{
	uint64_t v;
	(void)op;
	memcpy(&v, elem, sizeof(v));
	out(c, v ? "%#" PRIx64 : "%" PRIu64, v);
}

static void e_iowq(struct sc_call *c, const void *elem, unsigned idx)
{
	uint32_t v;
	memcpy(&v, elem, sizeof(v));
	out(c, "[");
	sb_xlat_d(c->out, &xlat_uring_iowq_acct, idx, "IO_WQ_???");
	out(c, "]=%u", v);
}

/* [[IO_WQ_BOUND]=0, [IO_WQ_UNBOUND]=1]: indexed, so not through ur_array. */
static bool p_iowq_max(struct sc_call *c, uint64_t addr, unsigned n)
{
	uint32_t v;
	if (!addr || !n || sc_mem_read(c, addr, &v, sizeof(v)) < 0) {
		if (n || !addr)
			p_addr(c, addr);
		else
			out(c, "[]");
		return false;
	}
	out(c, "[");
	for (unsigned i = 0; i < n; i++) {
		uint64_t at = addr + (uint64_t)i * sizeof(v);
		if (i)
			p_sep(c);
		if (sc_mem_read(c, at, &v, sizeof(v)) < 0) {
			/* as strace: cut short by unreadable memory, nothing shown at exit */
			out(c, "... /* %#" PRIx64 " */]", at);
			return false;
		}
		if (abbreviated(c, i)) {
			out(c, "...");
			break;
		}
		e_iowq(c, &v, i);
	}
	out(c, "]");
	return true;
}

static void e_restriction(struct sc_call *c, const void *elem, unsigned op)
{
	struct io_uring_restriction r;
	(void)op;
	memcpy(&r, elem, sizeof(r));
	out(c, "{opcode=");
	p_xval(c, &xlat_uring_restriction_opcodes, r.opcode, "IORING_RESTRICTION_???");
	switch (r.opcode) {
	case IORING_RESTRICTION_REGISTER_OP:
		out(c, ", register_op=");
		p_xval(c, &xlat_uring_register_opcodes, r.register_op, "IORING_REGISTER_???");
		break;
	case IORING_RESTRICTION_SQE_OP:
		out(c, ", sqe_op=");
		p_xval(c, &xlat_uring_ops, r.sqe_op, "IORING_OP_???");
		break;
	case IORING_RESTRICTION_SQE_FLAGS_ALLOWED:
	case IORING_RESTRICTION_SQE_FLAGS_REQUIRED:
		out(c, ", sqe_flags=");
		p_flags(c, &xlat_uring_sqe_flags, r.sqe_flags, "IOSQE_???");
		break;
	default:
		out(c, r.register_op ? " /* op: %#x */" : " /* op: %u */", r.register_op);
	}
	if (r.resv)
		out(c, ", resv=%#x", r.resv);
	if (!all_zero(r.resv2, sizeof(r.resv2))) {
		out(c, ", resv2=");
		p_xints(c, r.resv2, 3);
	}
	out(c, "}");
}

static void e_probe_op(struct sc_call *c, const void *elem, unsigned op_)
{
	struct io_uring_probe_op op;
	(void)op_;
	memcpy(&op, elem, sizeof(op));
	out(c, "{op=");
	sb_xlat_d(c->out, &xlat_uring_ops, op.op, "IORING_OP_???");
	if (op.resv)
		out(c, ", resv=%#x", op.resv);
	out(c, ", flags=");
	p_flags(c, &xlat_uring_op_flags, op.flags, "IO_URING_OP_???");
	if (op.resv2)
		out(c, ", resv2=%#x", op.resv2);
	out(c, "}");
}

static void e_ringfd(struct sc_call *c, const void *elem, unsigned op)
{
	struct io_uring_rsrc_update u;
	memcpy(&u, elem, sizeof(u));
	bool reg = op == IORING_REGISTER_RING_FDS;
	if (reg && u.offset == UINT32_MAX)
		out(c, "{offset=-1");
	else
		out(c, "{offset=%u", u.offset);
	if (u.resv)
		out(c, ", resv=%#x", u.resv);
	if (reg) {
		out(c, ", data=");
		p_fd(c, (uint64_t)(int64_t)(int)u.data);
	} else if (u.data) {
		out(c, ", data=%#llx", (unsigned long long)u.data);
	}
	out(c, "}");
}

enum { PROBE_ADDR, PROBE_STRUCT, PROBE_ZERO };

/* The probe: printed at entry unless all zero (what the kernel requires), then what it filled. */
static int p_probe(struct sc_call *c, uint64_t addr, unsigned n)
{
	size_t len = sizeof(struct io_uring_probe) + (size_t)n * sizeof(struct io_uring_probe_op);
	const unsigned char *p;
	struct io_uring_probe pr;
	if (!addr || n > UR_PROBE_OPS_MAX || sc_mem_peek(c, addr, len, &p) != (long)len) {
		p_addr(c, addr);
		return PROBE_ADDR;
	}
	if (c->entering && all_zero(p, len))
		return PROBE_ZERO;
	memcpy(&pr, p, sizeof(pr));
	out(c, "{last_op=");
	sb_xlat_d(c->out, &xlat_uring_ops, pr.last_op, "IORING_OP_???");
	out(c, ", ops_len=%u", pr.ops_len);
	if (pr.resv)
		out(c, ", resv=%#x", pr.resv);
	if (!all_zero(pr.resv2, sizeof(pr.resv2))) {
		out(c, ", resv2=");
		p_xints(c, pr.resv2, 3);
	}
	out(c, ", ops=[");
	unsigned cnt = c->entering || pr.ops_len > n ? n : pr.ops_len;
	bool more = !c->entering && n < pr.ops_len;
	unsigned i;
	for (i = 0; i < cnt; i++) {
		if (i)
			p_sep(c);
		if (abbreviated(c, i)) {
			out(c, "...");
			break;
		}
		e_probe_op(c, p + sizeof(pr) + i * sizeof(struct io_uring_probe_op), 0);
	}
	if (more && i == cnt)
		out(c, "%s...", cnt ? ", " : "");
	out(c, "]}");
	return PROBE_STRUCT;
}

static void p_rsrc(struct sc_call *c, uint64_t addr, unsigned size, unsigned op)
{
	unsigned char b[UR_RSRC_SIZE];
	if (size < UR_RSRC_SIZE || p_fetch(c, addr, b, sizeof(b)) < 0) {
		if (size < UR_RSRC_SIZE)
			p_addr(c, addr);
		return;
	}
	bool reg = op == IORING_REGISTER_FILES2 || op == IORING_REGISTER_BUFFERS2;
	bool files = op == IORING_REGISTER_FILES2 || op == IORING_REGISTER_FILES_UPDATE2;
	uint32_t nr;
	uint64_t data, tags;
	if (reg) {
		struct io_uring_rsrc_register r;
		memcpy(&r, b, sizeof(r));
		nr = r.nr, data = r.data, tags = r.tags;
		out(c, "{nr=%u, flags=", r.nr);
		p_flags(c, &xlat_uring_rsrc_register_flags, r.flags, "IORING_RSRC_REGISTER_???");
		if (r.resv2)
			out(c, ", resv2=%#llx", (unsigned long long)r.resv2);
	} else {
		struct io_uring_rsrc_update2 u;
		memcpy(&u, b, sizeof(u));
		nr = u.nr, data = u.data, tags = u.tags;
		out(c, "{offset=%u", u.offset);
		if (u.resv)
			out(c, ", resv=%#x", u.resv);
	}
	out(c, ", data=");
	if (files)
		ur_array(c, data, nr, sizeof(int), e_fd, op);
	else
		p_iov(c, data, nr, SC_IOV_ADDR_ONLY);
	out(c, ", tags=");
	ur_array(c, tags, nr, sizeof(uint64_t), e_xint64, op);
	if (!reg) {
		struct io_uring_rsrc_update2 u;
		memcpy(&u, b, sizeof(u));
		out(c, ", nr=%u", u.nr);
		if (u.resv2)
			out(c, ", resv2=%#x", u.resv2);
	}
	p_struct_tail(c, addr, UR_RSRC_SIZE, size);
	out(c, "}");
}

static void p_files_update(struct sc_call *c, uint64_t addr, unsigned n)
{
	struct io_uring_files_update u;
	if (p_fetch(c, addr, &u, sizeof(u)) < 0)
		return;
	out(c, "{offset=%u", u.offset);
	if (u.resv)
		out(c, ", resv=%#x", u.resv);
	out(c, ", fds=");
	ur_array(c, u.fds, n, sizeof(int), e_fd, IORING_REGISTER_FILES_UPDATE);
	out(c, "}");
}

static void p_buf_reg(struct sc_call *c, uint64_t addr)
{
	struct io_uring_buf_reg r;
	if (p_fetch(c, addr, &r, sizeof(r)) < 0)
		return;
	out(c, "{ring_addr=");
	p_addr(c, r.ring_addr);
	out(c, ", ring_entries=%u, bgid=%u", r.ring_entries, r.bgid);
	if (r.pad)
		out(c, ", pad=%#x", r.pad);
	if (!all_zero(r.resv, sizeof(r.resv))) {
		out(c, ", resv=[");
		for (size_t i = 0; i < 3; i++) {
			if (i)
				p_sep(c);
			e_xint64(c, &r.resv[i], 0);
		}
		out(c, "]");
	}
	out(c, "}");
}

/* [0 1 5]: the CPUs whose bits are set in the n bytes at addr. */
static void p_aff(struct sc_call *c, uint64_t addr, unsigned n)
{
	const unsigned char *m;
	if (addr && !n) {
		out(c, "[]");
		return;
	}
	if (!addr || n > UR_AFF_MAX || sc_mem_peek(c, addr, n, &m) != (long)n) {
		p_addr(c, addr);
		return;
	}
	char sep = '[';
	for (uint64_t i = 0; i < (uint64_t)n * 8; i++) {
		if (m[i / 8] & (1u << (i % 8))) {
			out(c, "%c%" PRIu64, sep, i);
			sep = ' ';
		}
	}
	out(c, sep == '[' ? "[]" : "]");
}

struct ur_state {
	bool printed;	/* the entry printed the argument (probe, worker limits) */
};

static int ur_entry(struct sc_call *c, unsigned op, uint64_t arg, unsigned n)
{
	switch (op) {
	case IORING_REGISTER_BUFFERS:
		p_iov(c, arg, n, SC_IOV_ADDR_ONLY);
		break;
	case IORING_REGISTER_FILES:
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
		ur_array(c, arg, n, sizeof(int), e_fd, op);
		break;
	case IORING_REGISTER_FILES_UPDATE:
		p_files_update(c, arg, n);
		break;
	case IORING_REGISTER_PROBE:
	case IORING_REGISTER_IOWQ_MAX_WORKERS: {
		struct ur_state *st = calloc(1, sizeof(*st));
		if (!st)
			break;
		free(c->priv);
		c->priv = st;
		if (op == IORING_REGISTER_PROBE) {
			int r = p_probe(c, arg, n);
			st->printed = r == PROBE_STRUCT;
			if (r == PROBE_ADDR)
				break;
			return 0;
		}
		st->printed = p_iowq_max(c, arg, n);
		if (!st->printed)
			break;
		out(c, " => ");
		return 0;
	}
	case IORING_REGISTER_RESTRICTIONS:
		ur_array(c, arg, n, sizeof(struct io_uring_restriction), e_restriction, op);
		break;
	case IORING_REGISTER_FILES2:
	case IORING_REGISTER_BUFFERS2:
	case IORING_REGISTER_FILES_UPDATE2:
	case IORING_REGISTER_BUFFERS_UPDATE:
		p_rsrc(c, arg, n, op);
		break;
	case IORING_REGISTER_IOWQ_AFF:
		p_aff(c, arg, n);
		break;
	case IORING_REGISTER_RING_FDS:
	case IORING_UNREGISTER_RING_FDS:
		ur_array(c, arg, n, sizeof(struct io_uring_rsrc_update), e_ringfd, op);
		break;
	case IORING_REGISTER_PBUF_RING:
	case IORING_UNREGISTER_PBUF_RING:
		p_buf_reg(c, arg);
		break;
	default:
		p_addr(c, arg);
	}
	out(c, ", %u", n);
	return SC_DONE;
}

static void ur_exit(struct sc_call *c, unsigned op, uint64_t arg, unsigned n)
{
	struct ur_state *st = c->priv;
	bool printed = st && st->printed;
	if (op == IORING_REGISTER_IOWQ_MAX_WORKERS) {
		/* the entry printed the limits and " => " */
		if (sc_failed(c))
			p_addr(c, arg);
		else
			p_iowq_max(c, arg, n);
	} else if (sc_failed(c)) {
		/* a failed probe: what the entry showed, or the address */
		if (!printed)
			p_addr(c, arg);
	} else {
		if (printed)
			out(c, " => ");
		p_probe(c, arg, n);
	}
	out(c, ", %u", n);
}

SC_DECODER(io_uring_register,
	   /* .size: the largest element of the arrays the walk reads at the argument. */
	   { .arg = 2, .kind = SC_MEM_WALK, .when = SC_AT_ENTRY, .size = sizeof(struct io_uring_rsrc_update),
	     .walk_fn = ur_walk_entry },
	   { .arg = 2, .kind = SC_MEM_WALK, .when = SC_AT_EXIT, .walk_fn = ur_walk_exit })
{
	unsigned op = (unsigned)c->args[1], n = (unsigned)c->args[3];
	if (!c->entering) {
		ur_exit(c, op, c->args[2], n);
		return 0;
	}
	p_fd(c, (uint64_t)(int64_t)(int)c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_uring_register_opcodes, op, "IORING_REGISTER_???");
	p_sep(c);
	return ur_entry(c, op, c->args[2], n);
}
