/*
 * USDT argument specs, as gcc writes them into .note.stapsdt through the
 * sys/sdt.h asm operands: "SIZE@OPERAND" separated by spaces, SIZE negative
 * for signed values, OPERAND in AT&T syntax (%reg, $imm, off(%reg),
 * sym(%rip)).  Each becomes one fetch arg of our grammar, so USDT probes go
 * through the same parser, translation and evaluator as any other.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/usdt.h"
#include "util/strbuf.h"

/* Every AT&T name of a general register, with the 64-bit register it lives in. */
static const struct {
	const char *att;
	const char *reg;
} usdt_regs[] = {
	{ "rax", "ax" }, { "eax", "ax" }, { "ax", "ax" }, { "al", "ax" },
	{ "rbx", "bx" }, { "ebx", "bx" }, { "bx", "bx" }, { "bl", "bx" },
	{ "rcx", "cx" }, { "ecx", "cx" }, { "cx", "cx" }, { "cl", "cx" },
	{ "rdx", "dx" }, { "edx", "dx" }, { "dx", "dx" }, { "dl", "dx" },
	{ "rsi", "si" }, { "esi", "si" }, { "si", "si" }, { "sil", "si" },
	{ "rdi", "di" }, { "edi", "di" }, { "di", "di" }, { "dil", "di" },
	{ "rbp", "bp" }, { "ebp", "bp" }, { "bp", "bp" }, { "bpl", "bp" },
	{ "rsp", "sp" }, { "esp", "sp" }, { "sp", "sp" }, { "spl", "sp" },
	{ "rip", "ip" },
};

/* %r8..%r15 and their d/w/b forms. */
static const char *reg64(const char *att, size_t n)
{
	static char rn[4];
	for (size_t i = 0; i < sizeof(usdt_regs) / sizeof(usdt_regs[0]); i++)
		if (strlen(usdt_regs[i].att) == n && !memcmp(usdt_regs[i].att, att, n))
			return usdt_regs[i].reg;
	if (n >= 2 && att[0] == 'r' && isdigit((unsigned char)att[1])) {
		int num = atoi(att + 1);
		size_t digits = num >= 10 ? 3 : 2;
		if (num < 8 || num > 15 || (n != digits && !(n == digits + 1 && strchr("dwb", att[digits]))))
			return NULL;
		snprintf(rn, sizeof(rn), "r%d", num);
		return rn;
	}
	return NULL;
}

static int one_arg(const char *a, size_t n, int index, struct strbuf *out, char *err, size_t errlen)
{
	const char *at = memchr(a, '@', n);
	int size = 0;
	if (at)
		size = atoi(a);
	int bytes = abs(size);
	if (!at || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
		goto bad;
	const char *op = at + 1, *end = a + n;
	sb_printf(out, "%sarg%d=", index > 1 ? " " : "", index);
	if (*op == '%') {
		const char *r = reg64(op + 1, (size_t)(end - op - 1));
		if (!r)
			goto bad;
		sb_printf(out, "%%%s", r);
	} else if (*op == '$') {
		sb_printf(out, "\\%.*s", (int)(end - op - 1), op + 1);
	} else {
		const char *paren = memchr(op, '(', (size_t)(end - op));
		if (!paren || end[-1] != ')')
			goto bad;
		const char *r = reg64(paren + 2, (size_t)(end - paren - 3));
		if (paren[1] != '%' || !r)
			goto bad;
		if (!strcmp(r, "ip")) {
			/* sym(%rip) / sym+8(%rip): the symbol's memory */
			if (paren == op)
				goto bad;
			sb_printf(out, "@%.*s", (int)(paren - op), op);
		} else {
			long off = paren == op ? 0 : strtol(op, NULL, 0);
			sb_printf(out, "%s%ld(%%%s)", off < 0 ? "-" : "+", labs(off), r);
		}
	}
	sb_printf(out, ":%c%d", size < 0 ? 's' : 'u', bytes * 8);
	return 0;
bad:
	snprintf(err, errlen, "USDT argument %d '%.*s' is not a form tracekit reads "
		 "(SIZE@%%REG, SIZE@$IMM, SIZE@OFF(%%REG), SIZE@SYM(%%rip))", index, (int)n, a);
	return -1;
}

int usdt_args_to_fetchargs(const char *args, struct strbuf *out, char *err, size_t errlen)
{
	int index = 0;
	const char *p = args;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		const char *e = p;
		while (*e && !isspace((unsigned char)*e))
			e++;
		if (one_arg(p, (size_t)(e - p), ++index, out, err, errlen) < 0)
			return -1;
		p = e;
	}
}
