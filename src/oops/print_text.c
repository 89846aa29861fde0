/*
 * The text a person reads: a summary block (title, kind, where, guilty frame,
 * task, kernel, taint letters one by one, address, verdict), then the call
 * trace as the kernel printed it — sections kept, "?" frames kept and marked —
 * with file:line and inlined functions when symbols resolved them, then the
 * Code: listing with the trapping instruction marked.
 */
#include <inttypes.h>
#include <string.h>

#include "oops/oops.h"

static void sym_text(struct strbuf *sb, const struct oops_sym *s)
{
	if (s->function)
		sb_add(sb, s->function);
	else if (s->has_addr)
		sb_printf(sb, "0x%" PRIx64, s->addr);
	if (s->function && s->has_offset)
		sb_printf(sb, "+0x%" PRIx64 "/0x%" PRIx64, s->offset, s->size);
	if (s->module)
		sb_printf(sb, " [%s]", s->module);
}

static void field(FILE *f, const char *name, const char *value)
{
	fprintf(f, "  %-10s %s\n", name, value);
}

static void loc_lines(FILE *f, const char *indent, const struct oops_loc *in, size_t n,
		      const char *fn, const char *file, int line)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%-28s %s:%d (inlined)\n", indent, in[i].function ? in[i].function : "(inlined)",
			in[i].file ? in[i].file : "??", in[i].line);
	if (file)
		fprintf(f, "%s%-28s %s:%d\n", indent, fn ? fn : "?", file, line);
}

static void summary(FILE *f, const struct oops_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	fprintf(f, "%s\n", r->title);
	sb_printf(&sb, "%s: %s", oops_kind_info(r->kind)->name, r->headline);
	field(f, "kind:", sb_str(&sb));
	if (r->detail && r->kind != OK_LOCKDEP && r->kind != OK_RCU_STALL) {
		sb_reset(&sb);
		field(f, "detail:", r->detail);
	}
	for (size_t i = 0; i < r->nmessage; i++)
		field(f, i ? "" : "message:", r->message[i]);
	if (r->has_where) {
		sb_reset(&sb);
		sym_text(&sb, &r->where);
		if (r->where_file)
			sb_printf(&sb, "  %s:%d", r->where_file, r->where_line);
		field(f, "where:", sb_str(&sb));
	}
	if (r->src_file) {
		sb_reset(&sb);
		sb_printf(&sb, "%s:%d", r->src_file, r->src_line);
		field(f, "at:", sb_str(&sb));
	}
	sb_reset(&sb);
	if (r->guilty)
		sb_printf(&sb, "%s%s%s%s", r->guilty, r->guilty_module ? " [" : "",
			  r->guilty_module ? r->guilty_module : "", r->guilty_module ? "]" : "");
	field(f, "guilty:", r->guilty ? sb_str(&sb) : "(no frame outside the helpers)");
	sb_reset(&sb);
	if (r->cpu >= 0)
		sb_printf(&sb, "CPU %d", r->cpu);
	if (r->pid >= 0)
		sb_printf(&sb, "%sPID %d", sb.len ? ", " : "", r->pid);
	if (r->comm)
		sb_printf(&sb, "%scomm %s", sb.len ? ", " : "", r->comm);
	field(f, "task:", sb.len ? sb_str(&sb) : "(not in the log)");
	if (r->workqueue)
		field(f, "workqueue:", r->workqueue);
	sb_reset(&sb);
	if (r->kernel)
		sb_printf(&sb, "%s%s%s", r->kernel, r->kernel_build ? " " : "",
			  r->kernel_build ? r->kernel_build : "");
	field(f, "kernel:", r->kernel ? sb_str(&sb) : "(not in the log)");
	if (r->hardware)
		field(f, "hardware:", r->hardware);
	if (!r->taint)
		field(f, "taint:", "(not in the log)");
	else if (!r->taint[0])
		field(f, "taint:", "not tainted");
	for (const char *p = r->taint; p && *p; p++) {
		sb_reset(&sb);
		sb_printf(&sb, "%c  %s", *p, oops_taint_meaning(*p));
		field(f, p == r->taint ? "taint:" : "", sb_str(&sb));
	}
	if (r->has_address) {
		sb_reset(&sb);
		sb_printf(&sb, "0x%" PRIx64, r->address);
		struct strbuf hint = STRBUF_INIT;
		oops_address_explain(r, &hint);
		if (hint.len)
			sb_printf(&sb, ": %s", sb_str(&hint));
		sb_free(&hint);
		field(f, "address:", sb_str(&sb));
	} else if (r->has_range) {
		sb_reset(&sb);
		oops_address_explain(r, &sb);
		field(f, "address:", sb_str(&sb));
	}
	if (r->kasan_access) {
		sb_reset(&sb);
		sb_printf(&sb, "%s of size %" PRIu64, r->kasan_access, r->kasan_size);
		field(f, "access:", sb_str(&sb));
	}
	if (r->has_pf_code) {
		sb_reset(&sb);
		sb_printf(&sb, "error code 0x%04" PRIx64 ": ", r->pf_code);
		oops_pf_explain(r->pf_code, &sb);
		field(f, "#PF:", sb_str(&sb));
	}
	if (r->has_esr) {
		sb_reset(&sb);
		sb_printf(&sb, "0x%08" PRIx64 ": ", r->esr);
		oops_esr_explain(r->esr, &sb);
		field(f, "ESR:", sb_str(&sb));
	}
	if (r->has_kaslr) {
		sb_reset(&sb);
		sb_printf(&sb, "0x%" PRIx64, r->kaslr_offset);
		field(f, "KASLR:", sb_str(&sb));
	}
	sb_reset(&sb);
	sb_printf(&sb, "%s: %s", r->verdict, r->verdict_reason);
	field(f, "verdict:", sb_str(&sb));
	if (r->symbols_note)
		field(f, "symbols:", r->symbols_note);
	sb_free(&sb);
}

static void stack(FILE *f, const struct oops_stack *st)
{
	fprintf(f, "%s:\n", st->name);
	enum oops_section cur = OS_NONE;
	for (size_t i = 0; i < st->nframes; i++) {
		const struct oops_frame *fr = &st->frames[i];
		if (fr->section != cur) {
			if (cur != OS_NONE && cur != OS_TASK)
				fprintf(f, "  </%s>\n", oops_section_name(cur));
			if (fr->section != OS_NONE)
				fprintf(f, "  <%s>\n", oops_section_name(fr->section));
			cur = fr->section;
		}
		struct strbuf sb = STRBUF_INIT;
		sym_text(&sb, &fr->sym);
		fprintf(f, "   %s%s", fr->reliable ? "" : "? ", sb_str(&sb));
		if (fr->size_mismatch)
			fputs("  (size differs from the symbol file's)", f);
		if (fr->file && !fr->ninlined)
			fprintf(f, "  %s:%d\n", fr->file, fr->line);
		else
			fputc('\n', f);
		if (fr->ninlined)
			loc_lines(f, "       ", fr->inlined, fr->ninlined, fr->sym.function, fr->file,
				  fr->line);
		sb_free(&sb);
	}
	if (cur != OS_NONE)
		fprintf(f, "  </%s>\n", oops_section_name(cur));
}

void oops_print_text(const struct oops_reports *rs, FILE *f)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct oops_report *r = &rs->v[i];
		if (rs->n > 1)
			fprintf(f, "%s== report %zu of %zu ==\n", i ? "\n" : "", i + 1, rs->n);
		summary(f, r);
		if (r->where_ninlined) {
			fputs("Fault location:\n", f);
			loc_lines(f, "   ", r->where_inlined, r->where_ninlined, r->where.function,
				  r->where_file, r->where_line);
		}
		for (size_t s = 0; s < r->nstacks; s++)
			stack(f, &r->stacks[s]);
		if (!r->nstacks)
			fputs("Call Trace: (none in the log)\n", f);
		/* Disassembled once: oops_disassemble appends to code. */
		struct strbuf code = STRBUF_INIT;
		bool listed = r->has_code && oops_disassemble(r, &code) == 0;
		if (listed && r->code_from)
			fprintf(f, "Code: (none in the log; from %s)\n%s", r->code_from, sb_str(&code));
		else if (listed)
			fprintf(f, "Code:\n%s", sb_str(&code));
		else
			fputs("Code: (none in the log, no disassembly)\n", f);
		sb_free(&code);
	}
}
