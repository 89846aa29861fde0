/*
 * --json: a list with one object per report.  Every field is always present
 * (null when the report lacks it), so programs need no existence checks.
 * cpu, pid, offsets, sizes and lines are numbers; addresses are hex strings,
 * because kernel addresses exceed what a JSON number holds exactly (2^53).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/json.h"

static void key(struct strbuf *sb, const char *k)
{
	if (sb->len && sb->buf[sb->len - 1] != '{' && sb->buf[sb->len - 1] != '[')
		sb_addc(sb, ',');
	json_str(sb, k);
	sb_addc(sb, ':');
}

static void kstr(struct strbuf *sb, const char *k, const char *v)
{
	key(sb, k);
	if (v)
		json_str(sb, v);
	else
		sb_add(sb, "null");
}

static void kint(struct strbuf *sb, const char *k, long long v, bool have)
{
	key(sb, k);
	if (have)
		sb_printf(sb, "%lld", v);
	else
		sb_add(sb, "null");
}

static void khex(struct strbuf *sb, const char *k, uint64_t v, bool have)
{
	key(sb, k);
	if (have)
		sb_printf(sb, "\"0x%" PRIx64 "\"", v);
	else
		sb_add(sb, "null");
}

static void kbool(struct strbuf *sb, const char *k, bool v)
{
	key(sb, k);
	sb_add(sb, v ? "true" : "false");
}

static void locs(struct strbuf *sb, const struct oops_loc *l, size_t n)
{
	sb_addc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		sb_add(sb, i ? ",{" : "{");
		kstr(sb, "function", l[i].function);
		kstr(sb, "file", l[i].file);
		kint(sb, "line", l[i].line, l[i].line > 0);
		sb_addc(sb, '}');
	}
	sb_addc(sb, ']');
}

static void sym_fields(struct strbuf *sb, const struct oops_sym *s, bool have)
{
	kstr(sb, "function", have ? s->function : NULL);
	kint(sb, "offset", (long long)s->offset, have && s->has_offset);
	kint(sb, "size", (long long)s->size, have && s->has_offset);
	kstr(sb, "module", have ? s->module : NULL);
}

static void frame(struct strbuf *sb, const struct oops_frame *f)
{
	sb_addc(sb, '{');
	sym_fields(sb, &f->sym, true);
	kstr(sb, "build_id", f->sym.build_id);
	khex(sb, "address", f->sym.addr, f->sym.has_addr);
	kbool(sb, "reliable", f->reliable);
	kstr(sb, "section", f->section ? oops_section_name(f->section) : NULL);
	kstr(sb, "file", f->file);
	kint(sb, "line", f->line, f->file && f->line > 0);
	key(sb, "inlined");
	locs(sb, f->inlined, f->ninlined);
	khex(sb, "link_address", f->link_addr, f->has_link_addr);
	kbool(sb, "size_mismatch", f->size_mismatch);
	sb_addc(sb, '}');
}

static void frames(struct strbuf *sb, const struct oops_stack *st)
{
	sb_addc(sb, '[');
	for (size_t i = 0; st && i < st->nframes; i++) {
		if (i)
			sb_addc(sb, ',');
		frame(sb, &st->frames[i]);
	}
	sb_addc(sb, ']');
}

static void strv(struct strbuf *sb, char *const *v, size_t n)
{
	sb_addc(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_addc(sb, ',');
		json_str(sb, v[i]);
	}
	sb_addc(sb, ']');
}

static void taint(struct strbuf *sb, const char *t)
{
	key(sb, "taint");
	if (!t) {
		sb_add(sb, "null");
		return;
	}
	sb_addc(sb, '[');
	for (const char *p = t; *p; p++) {
		sb_add(sb, p == t ? "{" : ",{");
		char l[2] = { *p, 0 };
		kstr(sb, "letter", l);
		kstr(sb, "meaning", oops_taint_meaning(*p));
		sb_addc(sb, '}');
	}
	sb_addc(sb, ']');
}

static void code(struct strbuf *sb, const struct oops_report *r)
{
	key(sb, "code");
	if (!r->has_code) {
		sb_add(sb, "null");
		return;
	}
	struct strbuf hex = STRBUF_INIT, list = STRBUF_INIT;
	for (size_t i = 0; i < r->code.nbytes; i++)
		sb_printf(&hex, "%s%02x", i ? " " : "", r->code.bytes[i]);
	sb_addc(sb, '{');
	kstr(sb, "bytes", sb_str(&hex));
	kint(sb, "marker", (long long)r->code.marker, true);
	kstr(sb, "from_file", r->code_from);	/* null: the log's own Code: line */
	char insn[160];
	kstr(sb, "faulting_instruction", oops_code_fault_insn(r, insn, sizeof(insn)) == 0 ? insn : NULL);
	key(sb, "listing");
	sb_addc(sb, '[');
	if (oops_disassemble(r, &list) == 0) {
		char *text = list.buf, *save = NULL;
		bool first = true;
		for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
			if (!first)
				sb_addc(sb, ',');
			json_str(sb, l);
			first = false;
		}
	}
	sb_add(sb, "]}");
	sb_free(&hex);
	sb_free(&list);
}

static void null_member(struct strbuf *sb, const struct oops_null_member *m)
{
	key(sb, "null_member");
	if (!m) {
		sb_add(sb, "null");
		return;
	}
	sb_addc(sb, '{');
	kstr(sb, "struct", m->type);
	kstr(sb, "member", m->member);
	kstr(sb, "variable", m->variable);
	kstr(sb, "register", m->reg);
	kstr(sb, "basis", m->reg ? "register" : "offset");
	key(sb, "others");
	strv(sb, m->others, m->nothers);
	sb_addc(sb, '}');
}

static void report(struct strbuf *sb, const struct oops_report *r)
{
	struct strbuf tmp = STRBUF_INIT;
	sb_addc(sb, '{');
	kstr(sb, "title", r->title);
	kstr(sb, "kind", oops_kind_info(r->kind)->name);
	kstr(sb, "headline", r->headline);
	kstr(sb, "detail", r->detail);
	kstr(sb, "arch", r->arch);
	sym_fields(sb, &r->where, r->has_where);
	khex(sb, "fault_address", r->where.addr, r->has_where && r->where.has_addr);
	kstr(sb, "file", r->where_file);
	kint(sb, "line", r->where_line, r->where_file && r->where_line > 0);
	key(sb, "inlined");
	locs(sb, r->where_inlined, r->where_ninlined);
	kstr(sb, "source_file", r->src_file);
	kint(sb, "source_line", r->src_line, r->src_file != NULL);
	kint(sb, "cpu", r->cpu, r->cpu >= 0);
	kint(sb, "pid", r->pid, r->pid >= 0);
	kstr(sb, "comm", r->comm);
	kstr(sb, "kernel", r->kernel);
	kstr(sb, "kernel_build", r->kernel_build);
	kstr(sb, "hardware", r->hardware);
	taint(sb, r->taint);
	kstr(sb, "workqueue", r->workqueue);
	kstr(sb, "oops", r->oops_line);
	kbool(sb, "kdump_loaded", r->kdump_loaded);
	kstr(sb, "verdict", r->verdict);
	kstr(sb, "verdict_reason", r->verdict_reason);
	kstr(sb, "panic_message", r->panic_msg);
	kstr(sb, "guilty_frame", r->guilty);
	kstr(sb, "guilty_module", r->guilty_module);
	khex(sb, "address", r->address, r->has_address);
	oops_address_explain(r, &tmp);
	kstr(sb, "address_hint", tmp.len ? sb_str(&tmp) : NULL);
	null_member(sb, r->null_member);
	sb_reset(&tmp);
	khex(sb, "pf_error_code", r->pf_code, r->has_pf_code);
	if (r->has_pf_code)
		oops_pf_explain(r->pf_code, &tmp);
	kstr(sb, "pf_error", r->has_pf_code ? sb_str(&tmp) : NULL);
	sb_reset(&tmp);
	khex(sb, "esr", r->esr, r->has_esr);
	if (r->has_esr)
		oops_esr_explain(r->esr, &tmp);
	kstr(sb, "esr_explained", r->has_esr ? sb_str(&tmp) : NULL);
	kstr(sb, "kasan_access", r->kasan_access);
	kint(sb, "kasan_size", (long long)r->kasan_size, r->kasan_access != NULL);
	khex(sb, "kaslr_offset", r->kaslr_offset, r->has_kaslr);
	key(sb, "registers");
	sb_addc(sb, '{');
	for (size_t i = 0; i < r->nregs; i++)
		khex(sb, r->regs[i].name, r->regs[i].value, true);
	sb_addc(sb, '}');
	code(sb, r);
	key(sb, "frames");
	frames(sb, oops_main_stack(r));
	key(sb, "stacks");
	sb_addc(sb, '[');
	for (size_t i = 1; i < r->nstacks; i++) {
		sb_add(sb, i > 1 ? ",{" : "{");
		kstr(sb, "name", r->stacks[i].name);
		key(sb, "frames");
		frames(sb, &r->stacks[i]);
		sb_addc(sb, '}');
	}
	sb_addc(sb, ']');
	key(sb, "modules");
	strv(sb, r->modules, r->nmodules);
	key(sb, "message");
	strv(sb, r->message, r->nmessage);
	kbool(sb, "symbols_mismatch", r->symbols_mismatch);
	kstr(sb, "symbols_note", r->symbols_note);
	sb_addc(sb, '}');
	sb_free(&tmp);
}

void oops_print_json(const struct oops_reports *rs, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '[');
	for (size_t i = 0; i < rs->n; i++) {
		if (i)
			sb_addc(&sb, ',');
		report(&sb, &rs->v[i]);
	}
	sb_add(&sb, "]\n");
	fputs(sb_str(&sb), f);
	sb_free(&sb);
}
