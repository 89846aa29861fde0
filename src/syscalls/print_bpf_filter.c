/*
 * Classic BPF instructions, decoded from their code byte the way strace
 * prints them: BPF_STMT(BPF_LD|BPF_W|BPF_ABS, 0x4), BPF_JUMP(BPF_JMP|BPF_K|
 * BPF_JEQ, 0x3, 0, 0x1).  The names are the fields of the code (linux/filter.h
 * BPF_CLASS, BPF_SIZE, BPF_MODE, BPF_OP, BPF_SRC, BPF_RVAL, BPF_MISCOP).
 */
#include <inttypes.h>
#include <linux/filter.h>
#include <string.h>

#include "print_bpf_filter.h"

static const char *const classes[8] = { "BPF_LD", "BPF_LDX", "BPF_ST", "BPF_STX",
					"BPF_ALU", "BPF_JMP", "BPF_RET", "BPF_MISC" };
static const char *const sizes[4] = { "BPF_W", "BPF_H", "BPF_B", NULL };
static const char *const modes[8] = { "BPF_IMM", "BPF_ABS", "BPF_IND", "BPF_MEM",
				      "BPF_LEN", "BPF_MSH", NULL, NULL };
static const char *const alu_ops[16] = { "BPF_ADD", "BPF_SUB", "BPF_MUL", "BPF_DIV", "BPF_OR",
					 "BPF_AND", "BPF_LSH", "BPF_RSH", "BPF_NEG", "BPF_MOD",
					 "BPF_XOR" };
static const char *const jmp_ops[16] = { "BPF_JA", "BPF_JEQ", "BPF_JGT", "BPF_JGE", "BPF_JSET" };
static const char *const rvals[4] = { "BPF_K", "BPF_X", "BPF_A", NULL };

/* "|NAME", or "|0xBITS" for a field value without a name. */
static void part(struct sc_call *c, const char *name, unsigned bits)
{
	if (name)
		out(c, "|%s", name);
	else if (bits)
		out(c, "|%#x", bits);
}

static void p_code(struct sc_call *c, unsigned code)
{
	unsigned cls = BPF_CLASS(code);
	out(c, "%s", classes[cls]);
	switch (cls) {
	case BPF_LD:
	case BPF_LDX:
		part(c, sizes[BPF_SIZE(code) >> 3], BPF_SIZE(code));
		part(c, modes[BPF_MODE(code) >> 5], BPF_MODE(code));
		break;
	case BPF_ALU:
	case BPF_JMP:
		out(c, "|%s", BPF_SRC(code) ? "BPF_X" : "BPF_K");
		part(c, (cls == BPF_ALU ? alu_ops : jmp_ops)[BPF_OP(code) >> 4], BPF_OP(code));
		break;
	case BPF_RET:
		part(c, rvals[BPF_RVAL(code) >> 3], BPF_RVAL(code));
		break;
	case BPF_MISC:
		out(c, "|%s", BPF_MISCOP(code) ? "BPF_TXA" : "BPF_TAX");
		break;
	}
}

/* A seccomp filter's verdict: the action, then its data. */
static void p_seccomp_ret(struct sc_call *c, uint32_t k)
{
	uint32_t action = k & 0xffff0000u, data = k & 0xffffu;	/* SECCOMP_RET_ACTION_FULL, _DATA */
	p_xval(c, &xlat_seccomp_ret_action, action, "SECCOMP_RET_???");
	if (data)
		out(c, "|%#x", data);
}

static void p_insn(struct sc_call *c, const struct sock_filter *f)
{
	unsigned cls = BPF_CLASS(f->code);
	bool jump = cls == BPF_JMP && BPF_OP(f->code) != BPF_JA;
	out(c, jump ? "BPF_JUMP(" : "BPF_STMT(");
	p_code(c, f->code);
	out(c, ", ");
	if (cls == BPF_RET && BPF_RVAL(f->code) == BPF_K)
		p_seccomp_ret(c, f->k);
	else
		out(c, "%#x", f->k);
	if (jump)
		out(c, ", %#x, %#x", f->jt, f->jf);
	out(c, ")");
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
	if (!(c->fmt && c->fmt->verbose) || !fp.filter) {
		p_addr(c, fp.filter);
		out(c, "}");
		return;
	}
	out(c, "[");
	for (unsigned i = 0; i < fp.len; i++) {
		struct sock_filter f;
		uint64_t at = fp.filter + (uint64_t)i * sizeof(f);
		if (i)
			out(c, ", ");
		if (sc_mem_read(c, at, &f, sizeof(f)) < 0) {
			out(c, "... /* %#" PRIx64 " */", at);
			break;
		}
		if (p_line_full(c)) {
			out(c, "...");
			break;
		}
		p_insn(c, &f);
	}
	out(c, "]}");
}
