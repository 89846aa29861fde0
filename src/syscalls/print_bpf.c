/* Classic BPF instructions: see print_bpf.h. */
#include <linux/filter.h>
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

/* An absolute load's offset: SKF_AD_OFF+SKF_AD_PROTOCOL, SKF_NET_OFF+8, or plain hex. */
static void p_k(struct sc_call *c, const struct sock_filter *f)
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

static bool p_insn(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct sock_filter f;
	unsigned *n = data;
	(void)size;
	if ((*n)++ >= BPF_MAX_INSNS) {
		out(c, "...");
		return false;
	}
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

void pn_sock_filters(struct sc_call *c, uint64_t addr, uint64_t count)
{
	unsigned n = 0;
	if (!c->fmt || !c->fmt->verbose) {
		p_addr(c, addr);
		return;
	}
	pn_array(c, addr, count, BPF_INSN_SIZE, p_insn, &n);
}
