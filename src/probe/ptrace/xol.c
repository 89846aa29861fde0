/*
 * Out-of-line copies of one instruction; see xol.h for the model.
 *
 * Slot layouts (J = jmp *0(%rip) + 8-byte destination, 14 bytes):
 *   plain, rip-relative   INSN' J(next)
 *   jmp rel               J(target)
 *   jcc/jrcxz/loop rel    Jcc8 +14, J(next), J(target)
 *   call rel32            push 14(%rip), J(target), .quad next
 *   call r/m              push LEN(%rip), jmp r/m', .quad next
 *   ret, jmp r/m          INSN'
 * where INSN' is the instruction with its rip-relative displacement moved so
 * it reaches the same address from the slot.  The push-then-jump form of a
 * call leaves the program's return address on the stack, as the call would.
 */
#include "xol.h"

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static csh handle(void)
{
	static csh h;
	static int state;	/* 0 not opened, 1 ready, -1 failed */
	if (!state) {
		state = -1;
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) == CS_ERR_OK &&
		    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON) == CS_ERR_OK)
			state = 1;
	}
	return state == 1 ? h : 0;
}

/* Instructions that cannot run from another address, and why. */
static const struct {
	unsigned id;
	const char *why;
} refused[] = {
	{ X86_INS_INT3, "an int3 is already there (another debugger's breakpoint?)" },
	{ X86_INS_INT, "int traps into the kernel with the slot's address" },
	{ X86_INS_INTO, "into traps into the kernel with the slot's address" },
	{ X86_INS_INT1, "int1 is a debug trap" },
	{ X86_INS_SYSCALL, "syscall leaves the slot's address in rcx and restarts from it" },
	{ X86_INS_SYSENTER, "sysenter cannot run out of line" },
	{ X86_INS_SYSEXIT, "sysexit is privileged" },
	{ X86_INS_SYSRET, "sysret is privileged" },
	{ X86_INS_IRET, "iret cannot run out of line" },
	{ X86_INS_IRETD, "iretd cannot run out of line" },
	{ X86_INS_IRETQ, "iretq cannot run out of line" },
	{ X86_INS_LJMP, "far jumps cannot be relocated" },
	{ X86_INS_LCALL, "far calls cannot be relocated" },
	{ X86_INS_RETF, "far returns cannot be relocated" },
	{ X86_INS_RETFQ, "far returns cannot be relocated" },
	{ X86_INS_XBEGIN, "xbegin's abort address cannot be relocated" },
	{ X86_INS_XABORT, "xabort belongs to a transaction" },
	{ X86_INS_HLT, "hlt is privileged" },
	{ X86_INS_UD0, "ud0 always traps" },
	{ X86_INS_UD2, "ud2 always traps" },
	{ X86_INS_UD2B, "ud2 always traps" },
	{ X86_INS_VMCALL, "vmcall traps to the hypervisor" },
	{ X86_INS_ENCLU, "enclu enters an enclave" },
};

/* The opcode byte(s) after legacy and REX prefixes. */
static const uint8_t *opcode(const uint8_t *code, unsigned len)
{
	unsigned i = 0;
	while (i < len) {
		uint8_t b = code[i];
		if (b == 0x66 || b == 0x67 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x3e ||
		    b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65 || (b & 0xf0) == 0x40)
			i++;
		else
			break;
	}
	return code + i;
}

static bool in_group(const cs_insn *insn, unsigned g)
{
	for (unsigned i = 0; i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == g)
			return true;
	return false;
}

static bool uses_rsp(const cs_x86_op *op)
{
	if (op->type == X86_OP_REG)
		return op->reg == X86_REG_RSP;
	return op->type == X86_OP_MEM && (op->mem.base == X86_REG_RSP || op->mem.index == X86_REG_RSP);
}

static int refuse(char *why, size_t whylen, const char *fmt, const char *a, const char *b)
{
	snprintf(why, whylen, fmt, a, b);
	return -1;
}

/* Sort a decoded instruction into the layouts above; -1 when none fits. */
static int classify(const cs_insn *insn, struct xol_insn *in, char *why, size_t whylen)
{
	const cs_x86 *x = &insn->detail->x86;
	const cs_x86_op *op0 = x->op_count ? &x->operands[0] : NULL;
	bool imm = op0 && op0->type == X86_OP_IMM;

	for (unsigned i = 0; i < x->op_count; i++) {
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP) {
			in->disp_off = x->encoding.disp_offset;
			in->disp = (int32_t)x->disp;
			if (!in->disp_off || x->encoding.disp_size != 4)
				return refuse(why, whylen, "%s: its rip-relative operand has no disp32%s",
					      in->text, "");
		}
	}
	in->kind = in->disp_off ? XOL_RIPREL : XOL_PLAIN;
	if (insn->id == X86_INS_CALL) {
		if (imm) {
			in->kind = XOL_CALL;
			in->target = (uint64_t)op0->imm;
		} else if (op0 && uses_rsp(op0)) {
			return refuse(why, whylen, "%s: a call through the stack pointer%s", in->text,
				      " cannot be relocated");
		} else {
			in->kind = XOL_CALL_IND;
		}
	} else if (insn->id == X86_INS_JMP) {
		in->kind = imm ? XOL_JMP : XOL_NOFALL;
		if (imm)
			in->target = (uint64_t)op0->imm;
	} else if (insn->id == X86_INS_RET) {
		in->kind = XOL_NOFALL;
	} else if (imm && (in_group(insn, X86_GRP_JUMP) || in_group(insn, X86_GRP_BRANCH_RELATIVE))) {
		in->kind = XOL_JCC;
		in->target = (uint64_t)op0->imm;
	}
	return 0;
}

int xol_decode(const uint8_t *code, size_t n, uint64_t addr, struct xol_insn *in, char *why,
	       size_t whylen)
{
	memset(in, 0, sizeof(*in));
	if (n && code[0] == 0xcc)
		return refuse(why, whylen, "%s%s", refused[0].why, "");
	csh h = handle();
	if (!h)
		return refuse(why, whylen, "%s%s", "capstone cannot decode x86-64 here", "");
	cs_insn *insn = NULL;
	if (cs_disasm(h, code, n, addr, 1, &insn) != 1) {
		snprintf(why, whylen, "bytes %02x %02x %02x do not decode as an instruction",
			 n > 0 ? code[0] : 0, n > 1 ? code[1] : 0, n > 2 ? code[2] : 0);
		return -1;
	}
	in->len = insn->size;
	snprintf(in->text, sizeof(in->text), "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "",
		 insn->op_str);
	int rc = 0;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (refused[i].id == insn->id) {
			rc = refuse(why, whylen, "%s: %s", in->text, refused[i].why);
			break;
		}
	}
	if (!rc)
		rc = classify(insn, in, why, whylen);
	cs_free(insn, 1);
	return rc;
}

int xol_near(uint64_t addr, uint64_t slot)
{
	int64_t d = (int64_t)(slot - addr);
	return d > -(1LL << 30) && d < (1LL << 30);
}

static unsigned put_jmpabs(uint8_t *p, uint64_t dest)
{
	static const uint8_t jmp[6] = { 0xff, 0x25, 0, 0, 0, 0 };
	memcpy(p, jmp, sizeof(jmp));
	memcpy(p + 6, &dest, 8);
	return XOL_JMPABS_LEN;
}

/* push qword ptr [rip + d], with d counted from the end of the 6-byte push. */
static unsigned put_push_riprel(uint8_t *p, int32_t d)
{
	p[0] = 0xff;
	p[1] = 0x35;
	memcpy(p + 2, &d, 4);
	return 6;
}

/* Copy the instruction to run at `at`, moving a rip-relative displacement. */
static int put_moved(const struct xol_insn *in, const uint8_t *code, uint64_t addr, uint64_t at,
		     uint8_t *p, char *why, size_t whylen)
{
	memcpy(p, code, in->len);
	if (!in->disp_off)
		return 0;
	int64_t d = (int64_t)in->disp + (int64_t)(addr - at);
	if (d < INT32_MIN || d > INT32_MAX) {
		snprintf(why, whylen, "%s: its rip-relative operand cannot reach %#llx from %#llx",
			 in->text, (unsigned long long)(addr + in->len + in->disp),
			 (unsigned long long)at);
		return -1;
	}
	int32_t d32 = (int32_t)d;
	memcpy(p + in->disp_off, &d32, 4);
	return 0;
}

static void add_exit(struct xol_slot *s, unsigned off, uint64_t dest)
{
	s->exit[s->nexit].off = off;
	s->exit[s->nexit].dest = dest;
	s->nexit++;
}

int xol_build(const struct xol_insn *in, const uint8_t *code, uint64_t addr, uint64_t slot,
	      struct xol_slot *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	memset(out->code, 0xcc, sizeof(out->code));	/* anything unused traps */
	uint8_t *p = out->code;
	uint64_t next = addr + in->len;
	unsigned n = 0;

	switch (in->kind) {
	case XOL_PLAIN:
	case XOL_RIPREL:
		if (put_moved(in, code, addr, slot, p, why, whylen) < 0)
			return -1;
		n = in->len;
		add_exit(out, n, next);
		n += put_jmpabs(p + n, next);
		break;
	case XOL_JMP:
		add_exit(out, 0, in->target);
		n = put_jmpabs(p, in->target);
		break;
	case XOL_JCC: {
		const uint8_t *op = opcode(code, in->len);
		if (op[0] >= 0x70 && op[0] <= 0x7f) {
			p[n++] = op[0];
		} else if (op[0] == 0x0f && op[1] >= 0x80 && op[1] <= 0x8f) {
			p[n++] = (uint8_t)(0x70 | (op[1] & 0x0f));
		} else {
			/* jrcxz/loop*: rel8 only; keep an address-size prefix (ecx vs rcx). */
			if (memchr(code, 0x67, (size_t)(op - code)))
				p[n++] = 0x67;
			p[n++] = op[0];
		}
		p[n++] = XOL_JMPABS_LEN;
		add_exit(out, n, next);
		n += put_jmpabs(p + n, next);
		add_exit(out, n, in->target);
		n += put_jmpabs(p + n, in->target);
		break;
	}
	case XOL_CALL:
		n = put_push_riprel(p, XOL_JMPABS_LEN);
		add_exit(out, n, in->target);
		n += put_jmpabs(p + n, in->target);
		memcpy(p + n, &next, 8);
		n += 8;
		break;
	case XOL_CALL_IND: {
		n = put_push_riprel(p, (int32_t)in->len);
		if (put_moved(in, code, addr, slot + n, p + n, why, whylen) < 0)
			return -1;
		/* ff /2 (call r/m) -> ff /4 (jmp r/m): the ModRM reg field. */
		uint8_t *modrm = p + n + (unsigned)(opcode(code, in->len) - code) + 1;
		*modrm = (uint8_t)((*modrm & ~0x38) | (4 << 3));
		n += in->len;
		memcpy(p + n, &next, 8);
		n += 8;
		break;
	}
	case XOL_NOFALL:
		if (put_moved(in, code, addr, slot, p, why, whylen) < 0)
			return -1;
		n = in->len;
		break;
	}
	out->size = n;
	return 0;
}

int xol_boundary(const uint8_t *code, size_t n, uint64_t start, uint64_t off, char *why,
		 size_t whylen)
{
	csh h = handle();
	if (!h)
		return -1;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_OFF);
	cs_insn *insn = cs_malloc(h);
	const uint8_t *p = code;
	size_t left = n;
	uint64_t at = start;
	int rc = -1;
	while (at - start < off && cs_disasm_iter(h, &p, &left, &at, insn)) {
		if (at - start > off) {
			snprintf(why, whylen, "+%#llx is inside '%s %s' at +%#llx",
				 (unsigned long long)off, insn->mnemonic, insn->op_str,
				 (unsigned long long)(insn->address - start));
			rc = 0;
			break;
		}
	}
	if (rc && at - start == off)
		rc = 1;
	else if (rc)
		snprintf(why, whylen, "the bytes before +%#llx do not decode",
			 (unsigned long long)off);
	cs_free(insn, 1);
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	return rc;
}
