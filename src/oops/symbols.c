/*
 * The symbolizer: each frame's function+offset becomes an address in the
 * symbol file (vmlinux, the module's .ko, or a System.map/kallsyms), then,
 * with DWARF, file:line and the inlined functions there.  A caller frame's
 * address is a return address, so its line is looked up at address - 1 (the
 * call instruction); the faulting instruction is looked up exactly.  A symbol
 * whose size differs from the size the log printed means the file is not the
 * kernel that crashed: that is flagged, never trusted silently.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <gelf.h>

#include "oops/symtab.h"
#include "util/die.h"

struct modsrc {
	char *name;
	struct oops_symsrc src;
	bool ok;
};

struct symctx {
	const struct oops_symopts *o;
	struct oops_symsrc vmlinux, map;
	bool have_vmlinux, have_map;
	struct modsrc *mods;
	size_t nmods;
	const char *modules_dir;
	char modules_auto[4096];
	struct strbuf used;		/* what was used, for the notes */
	char *mismatch;			/* the first mismatch seen */
};

static const char *debug_dir(const struct oops_symopts *o)
{
	return o->debug_dir ? o->debug_dir : "/usr/lib/debug";
}

static const struct oops_symsrc *module_src(struct symctx *c, const char *name, const char *build_id)
{
	for (size_t i = 0; i < c->nmods; i++)
		if (!strcmp(c->mods[i].name, name))
			return c->mods[i].ok ? &c->mods[i].src : NULL;
	c->mods = xrealloc(c->mods, (c->nmods + 1) * sizeof(*c->mods));
	struct modsrc *m = &c->mods[c->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	char *path = NULL;
	if (c->modules_dir)
		path = oops_find_module(c->modules_dir, name);
	if (!path && build_id && (c->o->auto_find || c->o->debug_dir))
		path = oops_find_by_build_id(build_id, debug_dir(c->o));
	if (path) {
		char err[512];
		m->ok = oops_symsrc_elf(&m->src, path, name, err, sizeof(err)) == 0;
		if (m->ok)
			sb_printf(&c->used, "%s%s", c->used.len ? ", " : "", path);
		else if (!c->o->quiet)
			warnmsg("%s", err);
		free(path);
	}
	return m->ok ? &m->src : NULL;
}

static void note_mismatch(struct symctx *c, const struct oops_symsrc *s, const struct oops_sym *sym,
			  const struct oops_ment *e)
{
	if (c->mismatch)
		return;
	struct strbuf sb = STRBUF_INIT;
	if (e)
		sb_printf(&sb, "%s does not match the log: %s is 0x%" PRIx64 " bytes in the log, 0x%"
			  PRIx64 " in the file", s->path, sym->function, sym->size, e->size);
	else
		sb_printf(&sb, "%s does not match the log: it has no symbol %s", s->path, sym->function);
	c->mismatch = xstrdup(sb_str(&sb));
	sb_free(&sb);
}

/*
 * A module's init function is printed with the room up to the next symbol or
 * the end of the module's init area, not its own size: my_oops_init+0x1c/0x1000
 * for a 0x2b-byte function alone in .init.text.  Not a mismatch when the
 * file's function lies in an init section and fits in what the log printed.
 */
static bool init_room(const struct oops_symsrc *s, const struct oops_sym *sym,
		      const struct oops_ment *e)
{
	GElf_Addr bias, a = e->addr;
	GElf_Shdr shdr;
	size_t shstrndx;
	if (!s->module || !s->mod || e->size > sym->size || sym->offset >= e->size)
		return false;
	Elf_Scn *scn = dwfl_module_address_section(s->mod, &a, &bias);
	Elf *elf = dwfl_module_getelf(s->mod, &bias);
	if (!scn || !elf || !gelf_getshdr(scn, &shdr) || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	const char *name = elf_strptr(elf, shstrndx, shdr.sh_name);
	return name && !strncmp(name, ".init.", 6);
}

/* Resolve one symbol reference; exact for the faulting instruction, -1 for return addresses. */
static bool resolve(struct symctx *c, struct oops_report *r, struct oops_sym *sym, bool exact,
		    char **file, int *line, struct oops_loc **inl, size_t *ninl, uint64_t *link,
		    bool *mismatch)
{
	const struct oops_symsrc *s = NULL;
	if (sym->function) {
		s = sym->module ? module_src(c, sym->module, sym->build_id)
				: (c->have_vmlinux ? &c->vmlinux : NULL);
		const struct oops_ment *e = s ? oops_symsrc_find(s, sym->function, NULL, sym->size) : NULL;
		if (s && (!e || (sym->has_offset && e->size && e->size != sym->size &&
				 !init_room(s, sym, e)))) {
			*mismatch = true;
			note_mismatch(c, s, sym, e);
		}
		/* CONFIG_STACKTRACE_BUILD_ID prints the module's build id: the .ko must have it. */
		if (s && e && sym->build_id && s->build_id && strcmp(sym->build_id, s->build_id)) {
			*mismatch = true;
			if (!c->mismatch) {
				struct strbuf sb = STRBUF_INIT;
				sb_printf(&sb, "%s does not match the log: its build id is %s, the log's %s is %s",
					  s->path, s->build_id, sym->module, sym->build_id);
				c->mismatch = xstrdup(sb_str(&sb));
				sb_free(&sb);
			}
		}
		if (!e && c->have_map) {
			s = &c->map;
			e = oops_symsrc_find(s, sym->function, sym->module, 0);
		}
		if (!e)
			return false;
		*link = e->addr + sym->offset;
	} else if (sym->has_addr) {
		/* An address without a name: the link address is the runtime one minus KASLR. */
		uint64_t a = sym->addr - (r->has_kaslr ? r->kaslr_offset : 0);
		s = c->have_vmlinux ? &c->vmlinux : c->have_map ? &c->map : NULL;
		const struct oops_ment *e = s ? oops_symsrc_at(s, s->runtime ? sym->addr : a) : NULL;
		if (!e)
			return false;
		*link = s->runtime ? sym->addr : a;
		sym->function = xstrdup(e->name);
		sym->offset = *link - e->addr;
		sym->size = e->size;
		sym->has_offset = true;
	} else {
		return false;
	}
	if (s->dwfl)
		oops_symsrc_lines(s, exact || !*link ? *link : *link - 1, file, line, inl, ninl);
	return true;
}

/*
 * The vmlinux's linux_banner against the log's release and build number
 * ("6.4.0-rc3+ #49"): a vmlinux of another kernel gives wrong lines even
 * when the symbols' sizes happen to agree.  Appends why to sb when not.
 */
static bool banner_mismatch(const struct symctx *c, const struct oops_report *r, struct strbuf *sb)
{
	const char *b = c->have_vmlinux ? c->vmlinux.banner : NULL;
	if (!b || !r->kernel)
		return false;
	const char *rel = b + strlen("Linux version ");
	size_t rl = strcspn(rel, " ");
	if (rl != strlen(r->kernel) || strncmp(rel, r->kernel, rl) != 0) {
		sb_printf(sb, "%s is Linux %.*s (its linux_banner), the log's kernel is %s",
			  c->vmlinux.path, (int)rl, rel, r->kernel);
		return true;
	}
	if (!r->kernel_build || r->kernel_build[0] != '#')
		return false;
	size_t nl = strcspn(r->kernel_build, " ");
	for (const char *p = strstr(b, " #"); p; p = strstr(p + 1, " #"))
		if (!strncmp(p + 1, r->kernel_build, nl) && (p[1 + nl] == ' ' || !p[1 + nl]))
			return false;
	sb_printf(sb, "%s is not build %.*s of %s (its linux_banner: %s)", c->vmlinux.path, (int)nl,
		  r->kernel_build, r->kernel, b);
	return true;
}

/*
 * No Code: bytes in the log ("Unable to access opcode bytes": a module's init
 * function, freed by the time the oops printed): the symbol file's bytes of the
 * faulting function, from its start (an instruction boundary) to a few past the fault.
 */
#define CODE_BEFORE_MAX 64	/* farther into a long function, start at the fault */
#define CODE_AFTER 16
static void code_from_file(struct oops_report *r, const struct oops_symsrc *s, uint64_t link)
{
	const struct oops_sym *w = &r->where;
	uint64_t before = w->offset <= CODE_BEFORE_MAX ? w->offset : 0;
	const uint8_t *b;
	size_t n = oops_symsrc_bytes(s, link - before, &b);
	if (n <= before)
		return;
	size_t want = before + CODE_AFTER;
	if (w->size > w->offset && w->size - w->offset < CODE_AFTER)
		want = before + (w->size - w->offset);
	if (n > want)
		n = want;
	r->code.bytes = xmalloc(n);
	memcpy(r->code.bytes, b, n);
	r->code.nbytes = n;
	r->code.marker = before;
	r->code.has_marker = true;
	r->code.arm64 = r->arch && !strcmp(r->arch, "arm64");
	r->has_code = true;
	r->code_from = xstrdup(s->path);
}

static void resolve_report(struct symctx *c, struct oops_report *r)
{
	struct strbuf why = STRBUF_INIT;
	bool other_kernel = banner_mismatch(c, r, &why);
	bool mm = false;
	if (r->has_where) {
		uint64_t link = 0;
		if (resolve(c, r, &r->where, true, &r->where_file, &r->where_line, &r->where_inlined,
			    &r->where_ninlined, &link, &mm)) {
			r->where_link_addr = link;
			r->has_where_link_addr = true;
			/* Only from the file the fault resolved in, and only when it matches. */
			const struct oops_symsrc *s = r->where.module
				? module_src(c, r->where.module, r->where.build_id)
				: c->have_vmlinux ? &c->vmlinux : NULL;
			if (s && s->dwfl && !mm && !other_kernel)
				oops_name_null_member(r, s, link);
			if (s && s->dwfl && !mm && !other_kernel && !r->has_code && r->where.has_offset)
				code_from_file(r, s, link);
		}
	}
	for (size_t s = 0; s < r->nstacks; s++) {
		struct oops_stack *st = &r->stacks[s];
		for (size_t i = 0; i < st->nframes; i++) {
			struct oops_frame *f = &st->frames[i];
			if (f->file)	/* printed already decoded */
				continue;
			/* arm64's first entry is pc itself, not a return address. */
			bool exact = s == 0 && i == 0 && r->has_where && r->where.function &&
				     f->sym.function && !strcmp(f->sym.function, r->where.function) &&
				     f->sym.offset == r->where.offset;
			uint64_t link = 0;
			bool fm = false;
			if (resolve(c, r, &f->sym, exact, &f->file, &f->line, &f->inlined, &f->ninlined,
				    &link, &fm)) {
				f->link_addr = link;
				f->has_link_addr = true;
				/* KASLR from a frame whose runtime address the log printed. */
				if (f->sym.has_addr && !r->has_kaslr && !f->sym.module && c->have_vmlinux &&
				    f->sym.addr >= link) {
					r->kaslr_offset = f->sym.addr - link;
					r->has_kaslr = r->kaslr_offset != 0;
				}
			}
			f->size_mismatch = fm;
			mm = mm || fm;
		}
	}
	struct strbuf note = STRBUF_INIT;
	if (mm && c->mismatch)
		sb_printf(&why, "%s%s", why.len ? "; " : "", c->mismatch);
	if (why.len) {
		r->symbols_mismatch = true;
		sb_printf(&note, "MISMATCH: %s; file:line below may be wrong", sb_str(&why));
	} else if (c->used.len) {
		sb_add(&note, sb_str(&c->used));
	}
	if (note.len) {
		free(r->symbols_note);
		r->symbols_note = xstrdup(sb_str(&note));
	}
	sb_free(&note);
	sb_free(&why);
}

static int load_explicit(struct symctx *c, char *err, size_t errsz)
{
	const struct oops_symopts *o = c->o;
	char e[1024];
	if (o->vmlinux) {
		if (oops_symsrc_elf(&c->vmlinux, o->vmlinux, NULL, e, sizeof(e)) < 0) {
			snprintf(err, errsz, "--vmlinux %s", e);
			return -1;
		}
		c->have_vmlinux = true;
		sb_printf(&c->used, "%s", o->vmlinux);
	}
	const char *map = o->system_map ? o->system_map : o->kallsyms;
	if (map) {
		if (oops_symsrc_map(&c->map, map, o->kallsyms != NULL, e, sizeof(e)) < 0) {
			snprintf(err, errsz, "%s %s", o->system_map ? "--system-map" : "--kallsyms", e);
			return -1;
		}
		c->have_map = true;
		sb_printf(&c->used, "%s%s (symbols only)", c->used.len ? ", " : "", map);
	}
	return 0;
}

/*
 * Nothing given: when the log's kernel is the running one, its symbols are
 * on this machine (a debug vmlinux, the build id's debug file, /proc/kallsyms).
 */
static void load_auto(struct symctx *c, const char *release, struct strbuf *why)
{
	struct utsname u;
	if (!release || uname(&u) < 0 || strcmp(release, u.release) != 0) {
		sb_printf(why, "none given (the log's kernel %s is not the running one; use --vmlinux, "
			  "--modules or --system-map for file:line)", release ? release : "is unknown and");
		return;
	}
	char e[1024];
	char *path = oops_find_vmlinux(release, debug_dir(c->o));
	if (!path) {
		char *id = oops_running_build_id();
		if (id)
			path = oops_find_by_build_id(id, debug_dir(c->o));
		free(id);
	}
	if (path && oops_symsrc_elf(&c->vmlinux, path, NULL, e, sizeof(e)) == 0) {
		c->have_vmlinux = true;
		sb_printf(&c->used, "%s", path);
	}
	free(path);
	if (oops_symsrc_map(&c->map, "/proc/kallsyms", true, e, sizeof(e)) == 0) {
		c->have_map = true;
		sb_printf(&c->used, "%s/proc/kallsyms (running kernel, symbols only)",
			  c->used.len ? ", " : "");
	}
	if (!c->modules_dir) {
		snprintf(c->modules_auto, sizeof(c->modules_auto), "/lib/modules/%s", release);
		c->modules_dir = c->modules_auto;
	}
	if (!c->used.len)
		sb_printf(why, "none found for the running kernel %s (no debug vmlinux, no readable "
			  "/proc/kallsyms)", release);
}

int oops_symbolize(struct oops_reports *rs, const struct oops_symopts *o, char *err, size_t errsz)
{
	struct symctx c = { .o = o, .modules_dir = o->modules_dir };
	int rc = load_explicit(&c, err, errsz);
	struct strbuf why = STRBUF_INIT;
	bool told = o->vmlinux || o->system_map || o->kallsyms;
	if (rc == 0 && !told && o->auto_find && rs->n)
		load_auto(&c, rs->v[0].kernel, &why);
	for (size_t i = 0; rc == 0 && i < rs->n; i++) {
		resolve_report(&c, &rs->v[i]);
		if (!rs->v[i].symbols_note && why.len)
			rs->v[i].symbols_note = xstrdup(sb_str(&why));
	}
	if (c.have_vmlinux)
		oops_symsrc_free(&c.vmlinux);
	if (c.have_map)
		oops_symsrc_free(&c.map);
	for (size_t i = 0; i < c.nmods; i++) {
		if (c.mods[i].ok)
			oops_symsrc_free(&c.mods[i].src);
		free(c.mods[i].name);
	}
	free(c.mods);
	free(c.mismatch);
	sb_free(&c.used);
	sb_free(&why);
	return rc;
}
