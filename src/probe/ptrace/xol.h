/*
 * xol: execute one instruction out of line, the kprobe/uprobe way.
 *
 * A probe's int3 replaces the first byte of an instruction; the instruction
 * itself runs from a copy in a scratch page of the tracee.  This module
 * decodes the instruction (capstone), refuses what cannot run elsewhere, and
 * lays out the copy ("slot") for a given slot address: rip-relative operands
 * get a displacement that reaches the same target from the slot, relative
 * branches become absolute jumps, calls push the original return address,
 * and every way out of the slot that falls back into the program is an
 * absolute jump whose destination the tracer also knows (so a single-step
 * that lands on one can take it in the tracer).  Pure: no ptrace here.
 */
#ifndef TRACEKIT_PROBE_PTRACE_XOL_H
#define TRACEKIT_PROBE_PTRACE_XOL_H

#include <stddef.h>
#include <stdint.h>

#define XOL_INSN_MAX 15
#define XOL_SLOT_SIZE 64	/* bytes per slot in a scratch page */
#define XOL_JMPABS_LEN 14	/* jmp *0(%rip); .quad dest */

enum xol_kind {
	XOL_PLAIN,	/* copied as is (and falls through) */
	XOL_RIPREL,	/* copied with its rip-relative displacement moved */
	XOL_JMP,	/* jmp rel8/rel32: only the destination matters */
	XOL_JCC,	/* jcc, jrcxz, loop*: two ways out */
	XOL_CALL,	/* call rel32 */
	XOL_CALL_IND,	/* call r/m: becomes push of the return address + jmp r/m */
	XOL_NOFALL,	/* ret, jmp r/m: never falls through; copied (rip operand moved) */
};

struct xol_insn {
	unsigned len;
	enum xol_kind kind;
	uint64_t target;	/* relative branches: the destination */
	unsigned disp_off;	/* rip-relative operand: offset of its disp32 in the bytes (0: none) */
	int32_t disp;
	char text[192];	/* "mov rax, qword ptr [rip + 0x10]", for messages */
};

struct xol_exit {
	unsigned off;		/* slot offset of an absolute jump back into the program */
	uint64_t dest;
};

struct xol_slot {
	uint8_t code[XOL_SLOT_SIZE];
	unsigned size;
	unsigned nexit;
	struct xol_exit exit[2];
};

/*
 * Decode the instruction at addr from code[0..n).  0, or -1 with the reason
 * in why when it cannot be executed out of line (an int3 already there,
 * syscall, int, iret, far transfers, xbegin, undecodable bytes, ...).
 */
int xol_decode(const uint8_t *code, size_t n, uint64_t addr, struct xol_insn *in, char *why,
	       size_t whylen);

/*
 * Lay out the copy of the decoded instruction (its bytes in code) taken from
 * addr, to run at slot.  -1 with why when a rip-relative operand cannot
 * reach its target from there (more than 2 GB away).
 */
int xol_build(const struct xol_insn *in, const uint8_t *code, uint64_t addr, uint64_t slot,
	      struct xol_slot *out, char *why, size_t whylen);

/* True when a slot at slot can hold the copy of an instruction at addr (±2 GB, with margin). */
int xol_near(uint64_t addr, uint64_t slot);

/*
 * Is off an instruction boundary in the function whose bytes are
 * code[0..n) at address start?  1 yes, 0 it falls inside an instruction
 * (why names it), -1 the bytes before it do not decode.
 */
int xol_boundary(const uint8_t *code, size_t n, uint64_t start, uint64_t off, char *why,
		 size_t whylen);

#endif
