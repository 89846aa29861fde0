/* eBPF instructions: the opcode by its parts, registers by name. */
#include <inttypes.h>
#include <linux/bpf.h>
#include <string.h>

#include "print_ebpf.h"
#include "xlat.h"

/* class|size|mode for loads and stores, class|source|operation otherwise. */
static void p_ebpf_code(struct sc_call *c, uint8_t code)
{
	uint8_t cls = BPF_CLASS(code);
	p_xval(c, &xlat_ebpf_class, cls, "BPF_???");
	out(c, "|");
	switch (cls) {
	case BPF_LD: case BPF_LDX: case BPF_ST: case BPF_STX:
		p_xval(c, &xlat_ebpf_size, BPF_SIZE(code), "BPF_???");
		out(c, "|");
		p_xval(c, &xlat_ebpf_mode, BPF_MODE(code), "BPF_???");
		break;
	default:
		p_xval(c, &xlat_bpf_src, BPF_SRC(code), "BPF_???");
		out(c, "|");
		p_xval(c, cls == BPF_ALU || cls == BPF_ALU64 ? &xlat_ebpf_op_alu : &xlat_ebpf_op_jmp,
		       BPF_OP(code), "BPF_???");
		break;
	}
}

static void p_ebpf_insn(struct sc_call *c, const struct bpf_insn *in)
{
	out(c, "{code=");
	p_ebpf_code(c, in->code);
	out(c, ", dst_reg=");
	p_xval(c, &xlat_ebpf_regs, in->dst_reg, "BPF_REG_???");
	out(c, ", src_reg=");
	p_xval(c, &xlat_ebpf_regs, in->src_reg, "BPF_REG_???");
	out(c, ", off=%d, imm=%#" PRIx32 "}", in->off, (uint32_t)in->imm);
}

void pn_ebpf_insns(struct sc_call *c, uint64_t addr, uint64_t count)
{
	struct bpf_insn in;
	if (!c->fmt || !c->fmt->verbose || !addr || sc_mem_read(c, addr, &in, sizeof(in)) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (uint64_t i = 0; i < count; i++) {
		if (i)
			out(c, ", ");
		if (i >= EBPF_MAX_INSNS) {
			out(c, "...");
			break;
		}
		if (sc_mem_read(c, addr + i * EBPF_INSN_SIZE, &in, sizeof(in)) < 0) {
			out(c, "... /* ");
			p_addr(c, addr + i * EBPF_INSN_SIZE);
			out(c, " */");
			break;
		}
		p_ebpf_insn(c, &in);
	}
	out(c, "]");
}
