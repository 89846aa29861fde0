/*
 * bpf: the command by name, then its union bpf_attr.  Only the fields that
 * fit in the size the caller passed print, as strace does.  Decoded so far:
 * BPF_PROG_LOAD; the other commands print their attr's address (see
 * docs/syscalls.md).
 */
#include <inttypes.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>

#include "decoder.h"

#define BPF_ATTR_CAP 4096u	/* bytes of the attr copied at most */

/* Field f of attr a is inside the size the caller gave. */
#define HAS(a, size, f) (offsetof(union bpf_attr, f) + sizeof((a)->f) <= (size))

static void p_u64ptr(struct sc_call *c, const char *name, uint64_t v)
{
	out(c, ", %s=", name);
	p_addr(c, v);
}

/* KERNEL_VERSION(5, 10, 0) */
static void sb_kver(struct strbuf *sb, uint64_t v, const void *unused)
{
	(void)unused;
	sb_printf(sb, "KERNEL_VERSION(%u, %u, %u)", (unsigned)(v >> 16) & 0xffff,
		  (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
}

/* A C string field of n bytes: up to its NUL, or all n quoted with "..." cut. */
static void p_name_field(struct sc_call *c, const char *name, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	out(c, ", %s=", name);
	p_quoted(c, (const unsigned char *)s, len, len == n);
}

static void p_prog_load(struct sc_call *c, const union bpf_attr *a, uint64_t size)
{
	out(c, "{prog_type=");
	p_xval(c, &xlat_bpf_prog_types, a->prog_type, "BPF_PROG_TYPE_???");
	out(c, ", insn_cnt=%u", a->insn_cnt);
	p_u64ptr(c, "insns", a->insns);
	out(c, ", license=");
	p_str(c, a->license);
	if (!HAS(a, size, log_buf))
		goto done;
	out(c, ", log_level=%u, log_size=%u", a->log_level, a->log_size);
	p_u64ptr(c, "log_buf", a->log_buf);
	if (!HAS(a, size, kern_version))
		goto done;
	out(c, ", kern_version=");
	sb_xparts(c->out, a->kern_version, sb_kver, NULL);
	if (!HAS(a, size, prog_flags))
		goto done;
	out(c, ", prog_flags=");
	p_flags(c, &xlat_bpf_prog_flags, a->prog_flags, "BPF_F_???");
	if (!HAS(a, size, prog_name))
		goto done;
	p_name_field(c, "prog_name", a->prog_name, sizeof(a->prog_name));
	if (!HAS(a, size, prog_ifindex))
		goto done;
	out(c, ", prog_ifindex=%u", a->prog_ifindex);
	if (!HAS(a, size, expected_attach_type))
		goto done;
	out(c, ", expected_attach_type=");
	p_xval(c, &xlat_bpf_attach_types, a->expected_attach_type, "BPF_???");
	if (!HAS(a, size, line_info_cnt))
		goto done;
	out(c, ", prog_btf_fd=");
	p_fd(c, a->prog_btf_fd);
	out(c, ", func_info_rec_size=%u", a->func_info_rec_size);
	p_u64ptr(c, "func_info", a->func_info);
	out(c, ", func_info_cnt=%u, line_info_rec_size=%u", a->func_info_cnt, a->line_info_rec_size);
	p_u64ptr(c, "line_info", a->line_info);
	out(c, ", line_info_cnt=%u", a->line_info_cnt);
	if (!HAS(a, size, attach_btf_id))
		goto done;
	out(c, ", attach_btf_id=%u", a->attach_btf_id);
	if (!HAS(a, size, attach_prog_fd))
		goto done;
	out(c, ", attach_prog_fd=");
	p_fd(c, a->attach_prog_fd);
	if (!HAS(a, size, fd_array))
		goto done;
	p_u64ptr(c, "fd_array", a->fd_array);
done:
	out(c, "}");
}

static size_t bpf_attr_len(const struct sc_call *c)
{
	return c->args[2] < BPF_ATTR_CAP ? (size_t)c->args[2] : BPF_ATTR_CAP;
}

/* Commands whose result is a new descriptor (-y prints it). */
static bool bpf_returns_fd(unsigned cmd)
{
	switch (cmd) {
	case BPF_MAP_CREATE: case BPF_PROG_LOAD: case BPF_OBJ_GET: case BPF_PROG_GET_FD_BY_ID:
	case BPF_MAP_GET_FD_BY_ID: case BPF_RAW_TRACEPOINT_OPEN: case BPF_BTF_LOAD:
	case BPF_BTF_GET_FD_BY_ID: case BPF_LINK_CREATE: case BPF_LINK_GET_FD_BY_ID:
	case BPF_ITER_CREATE:
		return true;
	}
	return false;
}

SC_DECODER(bpf, MEM_FN(1, SC_MEM_BUF, SC_AT_ENTRY, bpf_attr_len),
	   MEM_DEREF_IN(1, offsetof(union bpf_attr, license), 256))
{
	unsigned cmd = (unsigned)c->args[0];
	uint64_t addr = c->args[1], size = (unsigned)c->args[2];
	union bpf_attr a;
	p_xval(c, &xlat_bpf_cmds, cmd, "BPF_???");
	p_sep(c);
	memset(&a, 0, sizeof(a));
	size_t want = size < sizeof(a) ? (size_t)size : sizeof(a);
	/* Not decoded yet, or too short for the first fields: the address, as strace. */
	if (cmd != BPF_PROG_LOAD || !size || !addr) {
		p_addr(c, addr);
	} else if (sc_mem_read(c, addr, &a, want) < 0) {
		p_addr(c, addr);
	} else {
		p_prog_load(c, &a, size);
	}
	out(c, ", %u", (unsigned)size);
	if (bpf_returns_fd(cmd))
		c->rv = SC_RV_FD;
	return SC_DONE;
}
