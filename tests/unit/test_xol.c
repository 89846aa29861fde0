/*
 * Out-of-line copies (src/probe/ptrace/xol.c): lengths, the slot layouts,
 * rip-relative rewrites and refusals.  Every layout is checked by decoding
 * the slot back with capstone and comparing what it reaches with what the
 * original instruction reaches.
 */
#include <capstone/capstone.h>
#include <stdint.h>
#include <string.h>

#include "probe/ptrace/xol.h"
#include "tk_test.h"

#define A 0x555555554000ull	/* where the original instruction is */
#define S (A + 0x100000)	/* a slot 1 MB away */

static csh cs;

/* Decode the slot instruction at offset off: its text, length, and rip-relative target. */
static unsigned dis(const struct xol_slot *s, uint64_t slot, unsigned off, char *text, size_t len,
		    uint64_t *riptarget)
{
	cs_insn *insn;
	unsigned size = 0;
	*riptarget = 0;
	text[0] = 0;
	if (cs_disasm(cs, s->code + off, s->size - off, slot + off, 1, &insn) == 1) {
		snprintf(text, len, "%s %s", insn->mnemonic, insn->op_str);
		const cs_x86 *x = &insn->detail->x86;
		for (unsigned i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP)
				*riptarget = slot + off + insn->size + (uint64_t)x->disp;
		size = insn->size;
		cs_free(insn, 1);
	}
	return size;
}

static uint64_t quad_at(const struct xol_slot *s, uint64_t slot, uint64_t addr)
{
	uint64_t v = 0;
	memcpy(&v, s->code + (addr - slot), 8);
	return v;
}

static int build(const uint8_t *code, size_t n, uint64_t addr, uint64_t slot, struct xol_insn *in,
		 struct xol_slot *s, char *why)
{
	if (xol_decode(code, n, addr, in, why, 200) < 0)
		return -1;
	return xol_build(in, code, addr, slot, s, why, 200);
}

static void test_lengths_match_capstone(void)
{
	static const struct {
		uint8_t b[15];
		unsigned len;
	} t[] = {
		{ { 0x55 }, 1 },					/* push rbp */
		{ { 0x48, 0x89, 0xe5 }, 3 },				/* mov rbp, rsp */
		{ { 0xf3, 0x0f, 0x1e, 0xfa }, 4 },			/* endbr64 */
		{ { 0x48, 0x81, 0xec, 0x00, 0x10, 0, 0 }, 7 },		/* sub rsp, 0x1000 */
		{ { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 10 },		/* movabs rax, imm64 */
		{ { 0x66, 0x0f, 0x1f, 0x44, 0, 0 }, 6 },		/* nop word [rax+rax] */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xol_insn in;
		char why[200];
		CHECK_INT(xol_decode(t[i].b, sizeof(t[i].b), A, &in, why, sizeof(why)), 0);
		CHECK_INT(in.len, t[i].len);
		CHECK_INT(in.kind, XOL_PLAIN);
	}
}

static void test_plain_copy_jumps_back(void)
{
	static const uint8_t b[] = { 0x48, 0x89, 0xe5 };
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK(memcmp(s.code, b, 3) == 0);
	CHECK_INT(dis(&s, S, 3, text, sizeof(text), &rip), 6);
	CHECK_STR(text, "jmp qword ptr [rip]");
	CHECK_INT(quad_at(&s, S, S + 9), A + 3);
	CHECK_INT(s.nexit, 1);
	CHECK_INT(s.exit[0].off, 3);
	CHECK_INT(s.exit[0].dest, A + 3);
}

static void test_riprel_load_reaches_same_address(void)
{
	/* mov rax, qword ptr [rip + 0x2010] */
	static const uint8_t b[] = { 0x48, 0x8b, 0x05, 0x10, 0x20, 0, 0 };
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_RIPREL);
	CHECK_INT(in.len, 7);
	CHECK_INT(dis(&s, S, 0, text, sizeof(text), &rip), 7);
	CHECK_INT(rip, A + 7 + 0x2010);
	/* the same instruction placed below the code */
	CHECK_INT(build(b, sizeof(b), A, A - 0x40000000ull + 0x1000, &in, &s, why), 0);
	dis(&s, A - 0x40000000ull + 0x1000, 0, text, sizeof(text), &rip);
	CHECK_INT(rip, A + 7 + 0x2010);
}

static void test_riprel_with_immediate_keeps_immediate(void)
{
	/* cmp dword ptr [rip + 0x100], 5: the disp32 sits before the imm8 */
	static const uint8_t b[] = { 0x83, 0x3d, 0x00, 0x01, 0, 0, 0x05 };
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.disp_off, 2);
	dis(&s, S, 0, text, sizeof(text), &rip);
	CHECK_INT(rip, A + 7 + 0x100);
	CHECK_INT(s.code[6], 5);
}

static void test_riprel_lea_out_of_reach_is_refused(void)
{
	/* lea rdi, [rip + 0x7ffff000]: a slot 3 GB away cannot reach it */
	static const uint8_t b[] = { 0x48, 0x8d, 0x3d, 0x00, 0xf0, 0xff, 0x7f };
	struct xol_insn in;
	struct xol_slot s;
	char why[200];
	CHECK_INT(build(b, sizeof(b), A, A - 0xc0000000ull, &in, &s, why), -1);
	CHECK(strstr(why, "cannot reach") != NULL);
	CHECK(xol_near(A, S));
	CHECK(!xol_near(A, A - 0xc0000000ull));
}

static void test_jcc_rel8_has_two_exits(void)
{
	static const uint8_t b[] = { 0x74, 0x10 };	/* je +0x10 */
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_JCC);
	CHECK_INT(dis(&s, S, 0, text, sizeof(text), &rip), 2);
	char want[64];
	snprintf(want, sizeof(want), "je 0x%llx", (unsigned long long)(S + 16));
	CHECK_STR(text, want);
	CHECK_INT(s.nexit, 2);
	CHECK_INT(s.exit[0].off, 2);
	CHECK_INT(s.exit[0].dest, A + 2);
	CHECK_INT(s.exit[1].off, 16);
	CHECK_INT(s.exit[1].dest, A + 2 + 0x10);
	CHECK_INT(quad_at(&s, S, S + 16 + 6), A + 0x12);
}

static void test_jcc_rel32_becomes_rel8(void)
{
	static const uint8_t b[] = { 0x0f, 0x85, 0x00, 0x02, 0, 0 };	/* jne +0x200 */
	struct xol_insn in;
	struct xol_slot s;
	char why[200];
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(s.code[0], 0x75);
	CHECK_INT(s.exit[1].dest, A + 6 + 0x200);
	CHECK_INT(s.exit[0].dest, A + 6);
}

static void test_loop_keeps_address_size_prefix(void)
{
	static const uint8_t b[] = { 0x67, 0xe3, 0x05 };	/* jecxz +5 */
	struct xol_insn in;
	struct xol_slot s;
	char why[200];
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_JCC);
	CHECK_INT(s.code[0], 0x67);
	CHECK_INT(s.code[1], 0xe3);
	CHECK_INT(s.code[2], XOL_JMPABS_LEN);
	CHECK_INT(s.exit[1].dest, A + 3 + 5);
}

static void test_jmp_rel32_goes_to_target(void)
{
	static const uint8_t b[] = { 0xe9, 0x00, 0x10, 0, 0 };
	struct xol_insn in;
	struct xol_slot s;
	char why[200];
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_JMP);
	CHECK_INT(s.nexit, 1);
	CHECK_INT(s.exit[0].off, 0);
	CHECK_INT(s.exit[0].dest, A + 5 + 0x1000);
}

static void test_call_rel32_pushes_original_return(void)
{
	static const uint8_t b[] = { 0xe8, 0x00, 0x01, 0, 0 };	/* call +0x100 */
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_CALL);
	CHECK_INT(dis(&s, S, 0, text, sizeof(text), &rip), 6);
	CHECK(strncmp(text, "push qword ptr [rip", 19) == 0);
	CHECK_INT(quad_at(&s, S, rip), A + 5);
	CHECK_INT(s.exit[0].dest, A + 5 + 0x100);
}

static void test_call_indirect_becomes_push_and_jmp(void)
{
	/* call qword ptr [rip + 0x300] */
	static const uint8_t b[] = { 0xff, 0x15, 0x00, 0x03, 0, 0 };
	struct xol_insn in;
	struct xol_slot s;
	char why[200], text[200];
	uint64_t rip;
	CHECK_INT(build(b, sizeof(b), A, S, &in, &s, why), 0);
	CHECK_INT(in.kind, XOL_CALL_IND);
	dis(&s, S, 0, text, sizeof(text), &rip);
	CHECK_INT(quad_at(&s, S, rip), A + 6);
	CHECK_INT(dis(&s, S, 6, text, sizeof(text), &rip), 6);
	CHECK(strncmp(text, "jmp qword ptr [rip", 18) == 0);
	CHECK_INT(rip, A + 6 + 0x300);
	CHECK_INT(s.nexit, 0);

	static const uint8_t r[] = { 0xff, 0xd0 };	/* call rax */
	CHECK_INT(build(r, sizeof(r), A, S, &in, &s, why), 0);
	dis(&s, S, 6, text, sizeof(text), &rip);
	CHECK_STR(text, "jmp rax");
}

static void test_refusals_name_the_instruction(void)
{
	static const struct {
		uint8_t b[8];
		const char *want;
	} t[] = {
		{ { 0xcc }, "an int3 is already there" },
		{ { 0x0f, 0x05 }, "syscall: syscall leaves" },
		{ { 0xcd, 0x80 }, "int 0x80: int traps" },
		{ { 0x0f, 0x0b }, "ud2: ud2 always traps" },
		{ { 0xc7, 0xf8, 0, 0, 0, 0 }, "xbegin" },
		{ { 0x0f, 0xff, 0xff, 0xff }, "ud0" },
		{ { 0xff, 0x54, 0x24, 0x08 }, "call qword ptr [rsp + 8]: a call through the stack pointer" },
		{ { 0x06 }, "do not decode" },	/* push es: not in 64-bit mode */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xol_insn in;
		char why[200] = "";
		CHECK_INT(xol_decode(t[i].b, sizeof(t[i].b), A, &in, why, sizeof(why)), -1);
		if (!strstr(why, t[i].want))
			fprintf(stderr, "refusal %zu: '%s'\n", i, why);
		CHECK(strstr(why, t[i].want) != NULL);
	}
}

static void test_boundary_inside_instruction_is_refused(void)
{
	/* push rbp; mov rbp, rsp; sub rsp, 0x10; ret */
	static const uint8_t f[] = { 0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10, 0xc3 };
	char why[200] = "";
	CHECK_INT(xol_boundary(f, sizeof(f), A, 0, why, sizeof(why)), 1);
	CHECK_INT(xol_boundary(f, sizeof(f), A, 1, why, sizeof(why)), 1);
	CHECK_INT(xol_boundary(f, sizeof(f), A, 4, why, sizeof(why)), 1);
	CHECK_INT(xol_boundary(f, sizeof(f), A, 8, why, sizeof(why)), 1);
	CHECK_INT(xol_boundary(f, sizeof(f), A, 2, why, sizeof(why)), 0);
	CHECK_STR(why, "+0x2 is inside 'mov rbp, rsp' at +0x1");
	CHECK_INT(xol_boundary(f, sizeof(f), A, 6, why, sizeof(why)), 0);
	CHECK_INT(xol_boundary(f, 3, A, 4, why, sizeof(why)), -1);
}

static void setup(void)
{
	cs_open(CS_ARCH_X86, CS_MODE_64, &cs);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
}

int main(void)
{
	static const struct tk_case cases[] = {
		TK_CASE(test_lengths_match_capstone),
		TK_CASE(test_plain_copy_jumps_back),
		TK_CASE(test_riprel_load_reaches_same_address),
		TK_CASE(test_riprel_with_immediate_keeps_immediate),
		TK_CASE(test_riprel_lea_out_of_reach_is_refused),
		TK_CASE(test_jcc_rel8_has_two_exits),
		TK_CASE(test_jcc_rel32_becomes_rel8),
		TK_CASE(test_loop_keeps_address_size_prefix),
		TK_CASE(test_jmp_rel32_goes_to_target),
		TK_CASE(test_call_rel32_pushes_original_return),
		TK_CASE(test_call_indirect_becomes_push_and_jmp),
		TK_CASE(test_refusals_name_the_instruction),
		TK_CASE(test_boundary_inside_instruction_is_refused),
	};
	setup();
	int rc = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	cs_close(&cs);
	return rc;
}
