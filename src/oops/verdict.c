/*
 * The verdict: did the kernel panic, kill a task and go on (oops), only warn,
 * or print a report?  A "Kernel panic - not syncing" line decides; without one
 * the kernel's own rules (x86 oops_end(), make_task_dead()) do: an oops in
 * interrupt context, in the idle task (PID 0) or in init (PID 1) always
 * panics.  panic_on_oops/panic_on_warn cannot be seen in a log, so they are
 * named as the condition that would change the outcome.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"

/* What the kernel's panic messages mean. */
static const struct {
	const char *msg;
	const char *why;
} panic_reasons[] = {
	{ "Fatal exception in interrupt", "an oops in interrupt context: there is no task to kill" },
	{ "Fatal exception", "an oops with panic_on_oops set (or a task that must not die)" },
	{ "Attempted to kill the idle task", "the oops hit the idle task (PID 0)" },
	{ "Attempted to kill init", "init (PID 1) died" },
	{ "panic_on_warn set", "panic_on_warn is set: the report became a panic" },
	{ "softlockup: hung tasks", "softlockup_panic is set" },
	{ "hung_task: blocked tasks", "hung_task_panic is set" },
	{ "Hard LOCKUP", "hardlockup_panic is set" },
	{ "RCU Stall", "panic_on_rcu_stall is set" },
	{ "VFS: Unable to mount root fs", "the root file system could not be mounted" },
	{ "No working init found", "no init program could be started" },
	{ "Out of memory", "out of memory with panic_on_oom set, or no process left to kill" },
};

static void set(struct oops_report *r, const char *verdict, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct oops_report *r, const char *verdict, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	r->verdict = xstrdup(verdict);
	r->verdict_reason = xstrdup(sb_str(&sb));
	sb_free(&sb);
}

static bool in_interrupt(const struct oops_report *r)
{
	const struct oops_stack *st = oops_main_stack(r);
	if (!st)
		return false;
	/* The fault is on top: the first section marker before any frame tells its context. */
	for (size_t i = 0; i < st->nframes; i++) {
		enum oops_section s = st->frames[i].section;
		if (s == OS_TASK)
			return false;
		if (s == OS_IRQ || s == OS_NMI || s == OS_SOFTIRQ)
			return true;
	}
	return false;
}

static const char *kdump_note(const struct oops_report *r)
{
	return r->kdump_loaded ? "; Kdump is loaded, so the capture kernel starts (no panic line is printed)"
			       : "";
}

void oops_decide_verdict(struct oops_report *r)
{
	const struct oops_kind_info *k = oops_kind_info(r->kind);
	if (r->panic_msg) {
		const char *why = "the kernel panicked";
		for (size_t i = 0; i < sizeof(panic_reasons) / sizeof(panic_reasons[0]); i++)
			if (strstr(r->panic_msg, panic_reasons[i].msg)) {
				why = panic_reasons[i].why;
				break;
			}
		set(r, "panic", "\"%s\": %s", r->panic_msg, why);
		return;
	}
	switch (k->cls) {
	case OC_OOPS:
		if (in_interrupt(r))
			set(r, "panic", "\"Fatal exception in interrupt\": the oops happened in interrupt "
			    "context, where no task can be killed%s", kdump_note(r));
		else if (r->pid == 0)
			set(r, "panic", "\"Attempted to kill the idle task!\": the oops hit the idle task "
			    "(PID 0)%s", kdump_note(r));
		else if (r->pid == 1)
			set(r, "panic", "\"Attempted to kill init!\": the oops killed init (PID 1)%s",
			    kdump_note(r));
		else if (r->pid > 0)
			set(r, "oops", "the task (PID %d%s%s) was killed; the kernel goes on, tainted D "
			    "(with panic_on_oops set it panics: \"Fatal exception\")", r->pid,
			    r->comm ? ", " : "", r->comm ? r->comm : "");
		else
			set(r, "oops", "the current task was killed; the kernel goes on, tainted D "
			    "(with panic_on_oops set it panics: \"Fatal exception\")");
		return;
	case OC_WARNING:
		set(r, "warning", "a warning only: the kernel goes on, tainted W "
		    "(with panic_on_warn set it panics)");
		return;
	case OC_PANIC:
		set(r, "panic", "the kernel panicked");
		return;
	case OC_REPORT:
		set(r, "report", "%s report: the kernel goes on%s", k->name,
		    r->kind == OK_SOFT_LOCKUP ? " (softlockup_panic would make it panic)" :
		    r->kind == OK_HARD_LOCKUP ? " (hardlockup_panic would make it panic)" :
		    r->kind == OK_HUNG_TASK ? " (hung_task_panic would make it panic)" :
		    r->kind == OK_RCU_STALL ? " (panic_on_rcu_stall would make it panic)" :
		    " (panic_on_warn would make it panic)");
		return;
	}
}

/*
 * A report earlier in a log whose kernel panicked later (panic_on_warn after a
 * KASAN report, an oops in interrupt after a warning): the kernel did not go
 * on, whichever report made it stop.
 */
void oops_verdict_panicked_later(struct oops_report *r, const struct oops_report *p)
{
	if (r->verdict && !strcmp(r->verdict, "panic"))
		return;
	char *verdict = r->verdict, *reason = r->verdict_reason;
	set(r, "panic", "the kernel panicked later in this log (\"%s\", after \"%s\"); this report "
	    "alone: %s, %s", p->panic_msg, p->title ? p->title : p->headline, verdict ? verdict : "-",
	    reason ? reason : "-");
	free(verdict);
	free(reason);
}
