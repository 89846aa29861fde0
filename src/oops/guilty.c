/*
 * The guilty frame: the first function in the report that is not a helper
 * the bug merely passed through — sanitizers that detect it, WARN/BUG and
 * dump_stack machinery, locking and scheduling primitives, list and
 * refcount debugging, string and user-copy routines.  Candidates are the
 * faulting function, then the call trace's reliable frames in order; "?"
 * frames are never candidates.  The table is prefix-matched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"

static const char *const helpers[] = {
	/* KASAN, KCSAN, UBSAN, KFENCE, KMSAN: the detectors */
	"kasan_", "__kasan_", "__asan_", "asan_", "check_memory_region", "kcsan_", "__kcsan_",
	"__tsan_", "ubsan_", "__ubsan_", "kfence_", "__kfence_", "kmsan_", "__msan_",
	"print_address_description", "print_report", "__report_bug", "report_bug",
	/* printing the report */
	"dump_stack", "__dump_stack", "show_stack", "show_regs", "show_trace_log_lvl",
	"__warn", "warn_slowpath", "__warn_printk", "handle_bug", "exc_invalid_op",
	"asm_exc_", "do_error_trap", "do_trap", "fixup_exception", "die_", "oops_end",
	"__die", "panic", "nmi_cpu_backtrace", "nmi_trigger_cpumask_backtrace",
	"__might_resched", "__might_sleep", "__might_fault", "___might_sleep",
	"__schedule_bug", "lockdep_", "__lock_acquire", "lock_acquire", "lock_release",
	"check_noncircular", "print_circular_bug", "validate_chain",
	/* locking and scheduling primitives */
	"_raw_spin_", "_raw_read_", "_raw_write_", "__raw_spin_", "do_raw_spin_",
	"queued_spin_lock_slowpath", "native_queued_spin_lock_slowpath",
	"queued_read_lock_slowpath", "queued_write_lock_slowpath", "spin_lock", "spin_unlock",
	"mutex_lock", "__mutex_lock", "mutex_unlock", "__mutex_unlock", "down_read", "down_write",
	"rwsem_down_", "__down", "up_read", "up_write", "rt_mutex_", "__rt_mutex_",
	"schedule", "__schedule", "preempt_schedule", "io_schedule", "wait_for_completion",
	"__wait_for_common", "wait_for_common", "do_wait_for_common", "__wait_", "wait_woken",
	"bit_wait", "out_of_line_wait_on_bit", "folio_wait_", "wait_on_page_bit",
	"rcu_read_lock", "rcu_read_unlock", "__rcu_read_",
	/* list, refcount and usercopy debugging */
	"__list_add_valid", "__list_del_entry_valid", "__list_valid_slowpath", "list_add",
	"list_del", "refcount_warn_saturate", "__refcount_", "refcount_", "__check_object_size",
	"check_heap_object", "usercopy_abort", "__fortify_", "fortify_panic",
	/* strings, memory and user copies */
	"memcpy", "__memcpy", "memmove", "__memmove", "memset", "__memset", "memcmp", "strlen",
	"strnlen", "strcpy", "strncpy", "strscpy", "strcmp", "strncmp", "copy_user_",
	"_copy_to_user", "_copy_from_user", "copy_to_user", "copy_from_user", "__copy_user",
	"rep_movs_alternative", "__get_user_", "__put_user_", "strncpy_from_user",
	/* entry code and function-entry padding */
	"__pfx_", "asm_sysvec_", "sysvec_", "asm_common_interrupt", "common_interrupt",
	"__stack_chk_fail",
};

bool oops_is_helper(const char *function)
{
	if (!function)
		return true;
	for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (!strncmp(function, helpers[i], strlen(helpers[i])))
			return true;
	return false;
}

/* Syscall entry names as syzkaller titles them: __se_sys_mremap -> mremap. */
static const char *const syscall_prefixes[] = {
	"__do_sys_", "__se_sys_", "__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__do_compat_sys_",
	"__se_compat_sys_", "__x64_compat_sys_", "__ia32_compat_sys_", "__arm64_compat_sys_",
	"ksys_", "sys_",
};

/* A function name for a title: no syscall wrappers, no compiler suffixes (.constprop.0). */
static char *title_name(const char *fn)
{
	for (size_t i = 0; i < sizeof(syscall_prefixes) / sizeof(syscall_prefixes[0]); i++) {
		size_t n = strlen(syscall_prefixes[i]);
		if (!strncmp(fn, syscall_prefixes[i], n) && fn[n]) {
			fn += n;
			break;
		}
	}
	char *t = xstrdup(fn);
	char *dot = strchr(t, '.');
	if (dot && dot != t)
		*dot = '\0';
	return t;
}

static void set_guilty(struct oops_report *r, const char *fn, const char *mod)
{
	r->guilty = xstrdup(fn);
	r->guilty_module = mod ? xstrdup(mod) : NULL;
}

void oops_choose_guilty(struct oops_report *r)
{
	if (r->has_where && r->where.function && !oops_is_helper(r->where.function)) {
		set_guilty(r, r->where.function, r->where.module);
	} else {
		const struct oops_stack *st = oops_main_stack(r);
		for (size_t i = 0; st && i < st->nframes && !r->guilty; i++) {
			const struct oops_frame *f = &st->frames[i];
			if (f->reliable && f->sym.function && !oops_is_helper(f->sym.function))
				set_guilty(r, f->sym.function, f->sym.module);
		}
	}

	const struct oops_kind_info *k = oops_kind_info(r->kind);
	struct strbuf t = STRBUF_INIT;
	switch (r->kind) {
	case OK_KASAN:
	case OK_KFENCE:
		sb_printf(&t, "%s: %s", k->title, r->detail ? r->detail : "bug");
		if (r->kasan_access)
			sb_printf(&t, " %s", r->kasan_access);
		break;
	case OK_KCSAN:
	case OK_UBSAN:
		sb_printf(&t, "%s: %s", k->title, r->detail ? r->detail : "report");
		break;
	case OK_LOCKDEP:
		sb_printf(&t, "%s", r->detail ? r->detail : "lockdep report");
		break;
	case OK_PANIC:
		sb_printf(&t, "kernel panic: %s", r->panic_msg ? r->panic_msg : "unknown reason");
		break;
	default:
		sb_add(&t, k->title);
	}
	if (r->guilty && r->kind != OK_PANIC) {
		char *n = title_name(r->guilty);
		sb_printf(&t, " in %s", n);
		free(n);
	}
	r->title = oops_demangle_names(sb_str(&t));
	sb_free(&t);
}
