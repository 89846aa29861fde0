/* Classic BPF instructions: see print_bpf.h. */
#include <linux/filter.h>
#include <stdint.h>
#include <string.h>

#include "print_bpf.h"
#include "print_net.h"

/* BPF_LD|BPF_B|BPF_ABS: the class, then the fields that class has. */
static void p_code(struct sc_call *c, uint16_t code)
{
	unsigned rest = code & ~BPF_CLASS(code);
	p_xval(c, &xlat_bpf_class, BPF_CLASS(code), "BPF_???");
	switch (BPF_CLASS(code)) {
	case BPF_LD:
	case BPF_LDX:
		out(c, "|");
		p_xval(c, &xlat_bpf_size, BPF_SIZE(code), "BPF_???");
		out(c, "|");
		p_xval(c, &xlat_bpf_mode, BPF_MODE(code), "BPF_???");
		return;
	case BPF_ALU:
	case BPF_JMP:
		out(c, "|");
		p_xval(c, &xlat_bpf_src, BPF_SRC(code), "BPF_???");
		out(c, "|");
		p_xval(c, BPF_CLASS(code) == BPF_ALU ? &xlat_bpf_op_alu : &xlat_bpf_op_jmp,
		       BPF_OP(code), "BPF_???");
		return;
	case BPF_MISC:
		out(c, "|");
		p_xval(c, &xlat_bpf_miscop, BPF_MISCOP(code), "BPF_???");
		rest &= ~BPF_MISCOP(code);
		break;
	case BPF_RET:
		out(c, "|");
		p_xval(c, &xlat_bpf_rval, BPF_RVAL(code), "BPF_???");
		rest &= ~BPF_RVAL(code);
		break;
	}
	if (rest)
		out(c, "|%#x /* BPF_??? */", rest);
}

/* A BPF_STMT's k as the program's user reads it: see the two below. */
typedef void (*bpf_k_fn)(struct sc_call *c, const struct sock_filter *f);

/* An absolute load's offset: SKF_AD_OFF+SKF_AD_PROTOCOL, SKF_NET_OFF+8, or plain hex. */
static void p_sock_k(struct sc_call *c, const struct sock_filter *f)
{
	static const uint32_t bases[] = { 0xfffff000u, 0xfff00000u, 0xffe00000u };
	if (BPF_CLASS(f->code) == BPF_LD && BPF_MODE(f->code) == BPF_ABS)
		for (unsigned i = 0; i < 3; i++) {
			if (f->k < bases[i])
				continue;
			p_xval(c, &xlat_skf_off, bases[i], NULL);
			out(c, "+");
			if (i == 0)
				p_xval(c, &xlat_skf_ad, f->k - bases[i], "SKF_AD_???");
			else
				out(c, "%u", f->k - bases[i]);
			return;
		}
	out(c, "%#x", f->k);
}

/* A seccomp filter's verdict: the action, then its data (SECCOMP_RET_ERRNO|0x1). */
static void p_seccomp_k(struct sc_call *c, const struct sock_filter *f)
{
	if (BPF_CLASS(f->code) != BPF_RET) {
		out(c, "%#x", f->k);
		return;
	}
	uint32_t action = f->k & 0xffff0000u, data = f->k & 0xffffu;	/* SECCOMP_RET_ACTION_FULL */
	p_xval(c, &xlat_seccomp_ret_action, action, "SECCOMP_RET_???");
	if (data)
		out(c, "|%#x", data);
}


static bool p_insn(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct sock_filter f;
	bpf_k_fn p_k = *(bpf_k_fn *)data;
	(void)size;
	memcpy(&f, elem, sizeof(f));
	if (f.jt || f.jf) {
		out(c, "BPF_JUMP(");
		p_code(c, f.code);
		out(c, ", %#x, %#x, %#x)", f.k, f.jt, f.jf);
	} else {
		out(c, "BPF_STMT(");
		p_code(c, f.code);
		out(c, ", ");
		p_k(c, &f);
		out(c, ")");
	}
	return true;
}

static void pn_filters(struct sc_call *c, uint64_t addr, uint64_t count, bpf_k_fn p_k)
{
	if (!c->fmt || !c->fmt->verbose) {
		p_addr(c, addr);
		return;
	}
	/*
	 * The kernel refuses longer programs: strace shows BPF_MAXINSNS of them
	 * and "...", without reading the rest.
	 */
	if (!pn_array(c, addr, count > BPF_MAX_INSNS ? BPF_MAX_INSNS : count, BPF_INSN_SIZE,
		      p_insn, &p_k) || count <= BPF_MAX_INSNS)
		return;
	if (c->out->len >= 4 && !memcmp(c->out->buf + c->out->len - 4, "...]", 4))
		return;	/* already cut short (-s, the line's limit) */
	sb_truncate(c->out, c->out->len - 1);	/* the closing ] */
	out(c, ", ...]");
}

void pn_sock_filters(struct sc_call *c, uint64_t addr, uint64_t count)
{
	pn_filters(c, addr, count, p_sock_k);
}

void p_seccomp_fprog(struct sc_call *c, uint64_t addr)
{
	struct {
		uint16_t len;
		uint64_t filter;
	} fp;
	if (p_fetch(c, addr, &fp, sizeof(fp)) < 0)
		return;
	out(c, "{len=%u, filter=", fp.len);
	pn_filters(c, fp.filter, fp.len, p_seccomp_k);
	out(c, "}");
}
