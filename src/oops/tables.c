/*
 * The kernel's own tables, as data: taint letters (Documentation/admin-guide/
 * tainted-kernels.rst), the x86 page-fault error code bits, the arm64 ESR
 * exception classes and fault status codes, and the addresses whose value
 * alone says what went wrong (NULL plus a small offset, poison patterns,
 * error codes used as pointers).
 */
#include <stdio.h>
#include <string.h>

#include "oops/oops.h"

static const struct {
	char letter;
	const char *meaning;
} taints[] = {
	{ 'P', "a proprietary module was loaded" },
	{ 'G', "only GPL-compatible modules were loaded (not a taint)" },
	{ 'F', "a module was force-loaded" },
	{ 'S', "the kernel runs on an out-of-specification system (or SMP with unsafe CPUs)" },
	{ 'R', "a module was force-unloaded" },
	{ 'M', "a machine check exception happened" },
	{ 'B', "a bad page was referenced, or a page had unexpected flags" },
	{ 'U', "a user (or user space) asked for the taint" },
	{ 'D', "the kernel died recently (an earlier oops or BUG)" },
	{ 'A', "an ACPI table was overridden by the user" },
	{ 'W', "the kernel issued a warning earlier" },
	{ 'C', "a staging driver was loaded" },
	{ 'I', "a workaround for a platform firmware bug was applied" },
	{ 'O', "an externally built (out-of-tree) module was loaded" },
	{ 'E', "an unsigned module was loaded" },
	{ 'L', "a soft lockup happened earlier" },
	{ 'K', "the kernel has been live patched" },
	{ 'X', "an auxiliary taint (set by distributions)" },
	{ 'T', "the kernel was built with the struct randomization plugin" },
	{ 'N', "an in-kernel test was run" },
	{ 'J', "user space used a mutating debug operation (fwctl)" },
};

const char *oops_taint_meaning(char letter)
{
	for (size_t i = 0; i < sizeof(taints) / sizeof(taints[0]); i++)
		if (taints[i].letter == letter)
			return taints[i].meaning;
	return "unknown taint letter";
}

/* x86 #PF error code bits (arch/x86/include/asm/trap_pf.h). */
static const struct {
	uint64_t bit;
	const char *set, *clear;
} pf_bits[] = {
	{ 1u << 0, "protection violation on a present page", "not-present page" },
	{ 1u << 1, "write", "read" },
	{ 1u << 2, "user mode", "kernel mode" },
	{ 1u << 3, "reserved bit set in a page table entry", NULL },
	{ 1u << 4, "instruction fetch", NULL },
	{ 1u << 5, "protection keys violation", NULL },
	{ 1u << 6, "shadow stack access", NULL },
	{ 1u << 15, "SGX violation", NULL },
};

void oops_pf_explain(uint64_t code, struct strbuf *sb)
{
	const char *sep = "";
	for (size_t i = 0; i < sizeof(pf_bits) / sizeof(pf_bits[0]); i++) {
		const char *t = (code & pf_bits[i].bit) ? pf_bits[i].set : pf_bits[i].clear;
		if (!t)
			continue;
		sb_printf(sb, "%s%s", sep, t);
		sep = ", ";
	}
}

/* arm64 exception classes (ESR_ELx.EC) a kernel report shows. */
static const struct {
	unsigned ec;
	const char *name, *meaning;
} esr_classes[] = {
	{ 0x00, "UNKNOWN", "unknown reason (often an undefined instruction)" },
	{ 0x15, "SVC64", "system call" },
	{ 0x18, "SYS64", "trapped system register access" },
	{ 0x20, "IABT (lower EL)", "instruction abort from user space" },
	{ 0x21, "IABT (current EL)", "instruction abort in the kernel" },
	{ 0x22, "PC_ALIGN", "misaligned pc" },
	{ 0x24, "DABT (lower EL)", "data abort from user space" },
	{ 0x25, "DABT (current EL)", "data abort in the kernel" },
	{ 0x26, "SP_ALIGN", "misaligned stack pointer" },
	{ 0x2f, "SERROR", "system error" },
	{ 0x3c, "BRK64", "BRK instruction (BUG() or WARN())" },
};

/* Data/instruction fault status codes (ISS.DFSC), by group. */
static const struct {
	unsigned lo, hi;
	const char *meaning;
} fsc_codes[] = {
	{ 0x00, 0x03, "address size fault" },
	{ 0x04, 0x07, "translation fault (no mapping)" },
	{ 0x08, 0x0b, "access flag fault" },
	{ 0x0c, 0x0f, "permission fault" },
	{ 0x10, 0x10, "synchronous external abort" },
	{ 0x21, 0x21, "alignment fault" },
	{ 0x30, 0x30, "TLB conflict abort" },
};

void oops_esr_explain(uint64_t esr, struct strbuf *sb)
{
	unsigned ec = (unsigned)(esr >> 26) & 0x3f;
	const char *name = "EC", *meaning = "an exception class tracekit does not know";
	for (size_t i = 0; i < sizeof(esr_classes) / sizeof(esr_classes[0]); i++)
		if (esr_classes[i].ec == ec) {
			name = esr_classes[i].name;
			meaning = esr_classes[i].meaning;
		}
	sb_printf(sb, "EC 0x%02x %s: %s", ec, name, meaning);
	if (ec != 0x20 && ec != 0x21 && ec != 0x24 && ec != 0x25)
		return;
	unsigned fsc = (unsigned)esr & 0x3f;
	for (size_t i = 0; i < sizeof(fsc_codes) / sizeof(fsc_codes[0]); i++)
		if (fsc >= fsc_codes[i].lo && fsc <= fsc_codes[i].hi) {
			sb_printf(sb, "; FSC 0x%02x %s", fsc, fsc_codes[i].meaning);
			if (fsc_codes[i].lo != fsc_codes[i].hi)
				sb_printf(sb, ", level %u", fsc - fsc_codes[i].lo);
		}
	if (ec == 0x24 || ec == 0x25)
		sb_add(sb, (esr & (1u << 6)) ? "; write (WnR 1)" : "; read (WnR 0)");
}

/* Values that are never real pointers (include/linux/poison.h and friends). */
static const struct {
	uint64_t value;
	const char *meaning;
} poisons[] = {
	{ 0xdead000000000100ull, "LIST_POISON1: the next pointer of a deleted list entry (list_del) was followed" },
	{ 0xdead000000000122ull, "LIST_POISON2: the prev pointer of a deleted list entry (list_del) was followed" },
	{ 0x6b6b6b6b6b6b6b6bull, "slab POISON_FREE (0x6b): a pointer read from freed memory (use after free)" },
	{ 0x5a5a5a5a5a5a5a5aull, "POISON_INUSE (0x5a): a pointer read from allocated but uninitialised slab memory" },
	{ 0xa5a5a5a5a5a5a5a5ull, "slab redzone/end poison (0xa5): memory outside an object" },
	{ 0xcccccccccccccccc, "0xcc fill: uninitialised stack memory (CONFIG_INIT_STACK_ALL_PATTERN)" },
};

void oops_address_explain(const struct oops_report *r, struct strbuf *sb)
{
	if (r->has_range && r->range_lo < 0x10000) {
		sb_printf(sb, "KASAN: NULL + 0x%llx..0x%llx: a member of a struct reached through a NULL pointer",
			  (unsigned long long)r->range_lo, (unsigned long long)r->range_hi);
		return;
	}
	if (!r->has_address)
		return;
	uint64_t a = r->address;
	const struct oops_null_member *m = r->null_member;
	if (a < 0x10000 && m) {
		sb_printf(sb, "NULL + 0x%llx: ", (unsigned long long)a);
		if (m->reg)
			sb_printf(sb, "probably %s.%s (a %s * that was NULL, in variable %s, register %s)",
				  m->type, m->member, m->type, m->variable, m->reg);
		else
			sb_printf(sb, "possibly %s.%s (if variable %s, a %s *, was NULL; a guess from the "
				  "offset alone: no variable is known to be in the faulting register)",
				  m->type, m->member, m->variable, m->type);
		for (size_t i = 0; i < m->nothers; i++)
			sb_printf(sb, "; or %s", m->others[i]);
		return;
	}
	if (a == 0) {
		sb_add(sb, "NULL itself: a NULL pointer was dereferenced (or called)");
		return;
	}
	if (a < 0x10000) {
		sb_printf(sb, "NULL + 0x%llx: likely a member at offset 0x%llx of a struct reached through a NULL pointer",
			  (unsigned long long)a, (unsigned long long)a);
		return;
	}
	if (a >= (uint64_t)-4095) {
		sb_printf(sb, "ERR_PTR(%lld) used as a pointer: an error return was not checked with IS_ERR()",
			  (long long)a);
		return;
	}
	if (a > (uint64_t)-0x10000) {
		sb_printf(sb, "a small negative value (%lld) used as a pointer: an error code or a "
			  "negative offset from NULL", (long long)a);
		return;
	}
	/* The exact value first, then the value plus a member's offset. */
	for (int near = 0; near < 2; near++)
		for (size_t i = 0; i < sizeof(poisons) / sizeof(poisons[0]); i++)
			if (near ? (a & ~0xffffull) == (poisons[i].value & ~0xffffull)
				 : a == poisons[i].value) {
				sb_add(sb, poisons[i].meaning);
				return;
			}
	if ((a >> 47) != 0 && (a >> 47) != 0x1ffff && r->arch && !strcmp(r->arch, "x86_64")) {
		if ((a & 0xffffff0000000000ull) == 0xdffffc0000000000ull)
			sb_add(sb, "a KASAN shadow address: a pointer checked by KASAN was wild or NULL");
		else
			sb_add(sb, "a non-canonical address: a corrupted or uninitialised pointer");
	}
}
