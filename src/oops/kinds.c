/*
 * The kinds of kernel report and the lines that announce them.  Two tables:
 * what each kind is called (JSON name, syzkaller-style title, what it leads
 * to), and the headline texts that start a report.  Most headlines are at the
 * start of a line; a few come after a subsystem's prefix ("watchdog: ",
 * "rcu: ", "NMI watchdog: ") and are matched anywhere.
 */
#include <string.h>

#include "oops/oops.h"

static const struct oops_kind_info kinds[] = {
	{ OK_NONE, "none", "report", OC_REPORT },
	{ OK_NULL_DEREF, "null-ptr-deref", "BUG: unable to handle kernel NULL pointer dereference",
	  OC_OOPS },
	{ OK_PAGE_FAULT, "page-fault", "BUG: unable to handle kernel paging request", OC_OOPS },
	{ OK_GPF, "general-protection-fault", "general protection fault", OC_OOPS },
	{ OK_BUG, "bug", "kernel BUG", OC_OOPS },
	{ OK_INVALID_OPCODE, "invalid-opcode", "invalid opcode", OC_OOPS },
	{ OK_DIVIDE, "divide-error", "divide error", OC_OOPS },
	{ OK_OOPS, "oops", "Oops", OC_OOPS },
	{ OK_WARNING, "warning", "WARNING", OC_WARNING },
	{ OK_KASAN, "kasan", "KASAN", OC_REPORT },
	{ OK_KCSAN, "kcsan", "KCSAN", OC_REPORT },
	{ OK_UBSAN, "ubsan", "UBSAN", OC_REPORT },
	{ OK_KFENCE, "kfence", "KFENCE", OC_REPORT },
	{ OK_LOCKDEP, "lockdep", "WARNING", OC_REPORT },
	{ OK_SOFT_LOCKUP, "soft-lockup", "BUG: soft lockup", OC_REPORT },
	{ OK_HARD_LOCKUP, "hard-lockup", "BUG: hard lockup", OC_REPORT },
	{ OK_RCU_STALL, "rcu-stall", "INFO: rcu detected stall", OC_REPORT },
	{ OK_HUNG_TASK, "hung-task", "INFO: task hung", OC_REPORT },
	{ OK_MIGHT_SLEEP, "might-sleep", "BUG: sleeping function called from invalid context",
	  OC_REPORT },
	{ OK_ATOMIC_SLEEP, "scheduling-while-atomic", "BUG: scheduling while atomic", OC_REPORT },
	{ OK_PANIC, "panic", "kernel panic", OC_PANIC },
	{ OK_MEMLEAK, "memory-leak", "memory leak", OC_REPORT },
	{ OK_OTHER, "other", "report", OC_REPORT },
};

const struct oops_kind_info *oops_kind_info(enum oops_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return &kinds[i];
	return &kinds[0];
}

static const struct headline {
	const char *text;
	enum oops_kind kind;
	bool anywhere;
} headlines[] = {
	{ "BUG: kernel NULL pointer dereference", OK_NULL_DEREF, false },
	{ "BUG: unable to handle kernel NULL pointer dereference", OK_NULL_DEREF, false },
	{ "Unable to handle kernel NULL pointer dereference", OK_NULL_DEREF, false },
	{ "BUG: unable to handle page fault", OK_PAGE_FAULT, false },
	{ "BUG: unable to handle kernel paging request", OK_PAGE_FAULT, false },
	{ "Unable to handle kernel paging request", OK_PAGE_FAULT, false },
	{ "Unable to handle kernel access to user memory", OK_PAGE_FAULT, false },
	{ "Unable to handle kernel execute from non-executable memory", OK_PAGE_FAULT, false },
	{ "general protection fault", OK_GPF, false },
	{ "kernel BUG at ", OK_BUG, false },
	{ "Internal error: Oops - BUG", OK_BUG, false },
	{ "invalid opcode:", OK_INVALID_OPCODE, false },
	{ "divide error:", OK_DIVIDE, false },
	{ "Internal error: ", OK_OOPS, false },
	{ "BUG: KASAN: ", OK_KASAN, false },
	{ "BUG: KCSAN: ", OK_KCSAN, false },
	{ "BUG: KFENCE: ", OK_KFENCE, false },
	{ "UBSAN: ", OK_UBSAN, false },
	{ "WARNING: ", OK_WARNING, false },
	{ "BUG: soft lockup", OK_SOFT_LOCKUP, true },
	{ "Watchdog detected hard LOCKUP", OK_HARD_LOCKUP, true },
	{ "self-detected stall on CPU", OK_RCU_STALL, true },
	{ "detected stalls on CPUs/tasks", OK_RCU_STALL, true },
	{ "detected stall on CPU", OK_RCU_STALL, true },
	{ "INFO: task ", OK_HUNG_TASK, false },
	{ "BUG: sleeping function called from invalid context", OK_MIGHT_SLEEP, false },
	{ "BUG: scheduling while atomic", OK_ATOMIC_SLEEP, false },
	{ "Kernel panic - not syncing", OK_PANIC, false },
	{ "Oops: ", OK_OOPS, false },
	{ "Oops - ", OK_OOPS, false },
	{ "BUG: ", OK_BUG, false },
};

/* "WARNING: CPU: ..." / "WARNING: at ..." / "WARNING: file:line at ..." is WARN(); the rest lockdep's. */
static enum oops_kind warning_kind(const char *rest)
{
	if (!strncmp(rest, "CPU:", 4) || !strncmp(rest, "at ", 3))
		return OK_WARNING;
	const char *at = strstr(rest, " at ");
	const char *colon = strchr(rest, ':');
	if (at && colon && colon < at && strchr(rest, ' ') == at)
		return OK_WARNING;
	return OK_LOCKDEP;
}

enum oops_kind oops_match_headline(const char *line, bool *follower)
{
	while (*line == ' ' || *line == '\t')
		line++;
	*follower = false;
	/* "Oops: general protection fault ..." names its cause after "Oops: ". */
	if (!strncmp(line, "Oops: ", 6)) {
		bool f;
		enum oops_kind k = oops_match_headline(line + 6, &f);
		/* 6.12+: "Oops: invalid opcode: 0000 [#1]" still follows "kernel BUG at". */
		if (k != OK_NONE && k != OK_BUG) {
			*follower = f;
			return k;
		}
		*follower = true;
		return OK_OOPS;
	}
	for (size_t i = 0; i < sizeof(headlines) / sizeof(headlines[0]); i++) {
		const struct headline *h = &headlines[i];
		bool hit = h->anywhere ? strstr(line, h->text) != NULL
				       : !strncmp(line, h->text, strlen(h->text));
		if (!hit)
			continue;
		if (h->kind == OK_WARNING)
			return warning_kind(line + strlen(h->text));
		if (h->kind == OK_HUNG_TASK && !strstr(line, " blocked for more than "))
			continue;
		*follower = h->kind == OK_OOPS || h->kind == OK_INVALID_OPCODE ||
			    h->kind == OK_PANIC || (h->kind == OK_BUG && line[0] == 'I');
		return h->kind;
	}
	return OK_NONE;
}
