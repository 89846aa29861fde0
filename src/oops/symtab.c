/*
 * Symbol sources (see symtab.h).  An ELF is opened with libdwfl's offline
 * reporting: an ET_EXEC vmlinux keeps its link addresses, an ET_REL .ko gets
 * its sections laid out and its DWARF relocated by libdwfl, so that symbol
 * value + offset is an address its line table and scopes understand.  The
 * oops text names frames by symbol+offset, so symbols are looked up by name.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/symtab.h"
#include "util/die.h"

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static int by_name(const void *a, const void *b)
{
	const struct oops_ment *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (!x->module || !y->module)
		return (x->module != NULL) - (y->module != NULL);
	return strcmp(x->module, y->module);
}

static int by_addr(const void *a, const void *b)
{
	const struct oops_ment *x = *(struct oops_ment *const *)a, *y = *(struct oops_ment *const *)b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void index_entries(struct oops_symsrc *s)
{
	qsort(s->by_name, s->n, sizeof(*s->by_name), by_name);
	s->by_addr = xcalloc(s->n + 1, sizeof(*s->by_addr));
	for (size_t i = 0; i < s->n; i++)
		s->by_addr[i] = &s->by_name[i];
	qsort(s->by_addr, s->n, sizeof(*s->by_addr), by_addr);
}

static void add_entry(struct oops_symsrc *s, size_t *cap, const char *name, const char *module,
		      uint64_t addr, uint64_t size)
{
	if (s->n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		s->by_name = xrealloc(s->by_name, *cap * sizeof(*s->by_name));
	}
	struct oops_ment *e = &s->by_name[s->n++];
	e->name = xstrdup(name);
	e->module = module ? xstrdup(module) : NULL;
	e->addr = addr;
	e->size = size;
}

size_t oops_symsrc_bytes(const struct oops_symsrc *s, uint64_t addr, const uint8_t **bytes)
{
	if (!s->mod)
		return 0;
	Dwarf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(s->mod, &a, &bias);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_buf || a >= d->d_size)
		return 0;
	*bytes = (const uint8_t *)d->d_buf + a;
	return d->d_size - a;
}

/*
 * What says which kernel an ELF is: its build id, and for a vmlinux the
 * linux_banner string the kernel prints at boot ("Linux version 6.4.0-rc3+
 * (user@host) (gcc ...) #49 SMP ..."), which the log's release and build
 * number can be held against.
 */
static void read_identity(struct oops_symsrc *s)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(s->mod, &id, &vaddr);
	if (n > 0) {
		s->build_id = xmalloc(2 * (size_t)n + 1);
		for (int i = 0; i < n; i++)
			snprintf(s->build_id + 2 * i, 3, "%02x", id[i]);
	}
	const struct oops_ment *e = oops_symsrc_find(s, "linux_banner", NULL, 0);
	const uint8_t *b;
	size_t len = e ? oops_symsrc_bytes(s, e->addr, &b) : 0;
	static const char prefix[] = "Linux version ";
	if (len > sizeof(prefix) && !memcmp(b, prefix, sizeof(prefix) - 1)) {
		size_t k = 0;
		while (k < len && k < 512 && b[k] && b[k] != '\n')
			k++;
		s->banner = strndup((const char *)b, k);
	}
}

int oops_symsrc_elf(struct oops_symsrc *s, const char *path, const char *module,
		    char *err, size_t errsz)
{
	memset(s, 0, sizeof(*s));
	s->dwfl = dwfl_begin(&offline_callbacks);
	if (!s->dwfl) {
		snprintf(err, errsz, "libdwfl: %s", dwfl_errmsg(-1));
		return -1;
	}
	s->mod = dwfl_report_offline(s->dwfl, module ? module : "kernel", path, -1);
	if (!s->mod) {
		snprintf(err, errsz, "%s: %s", path, dwfl_errmsg(-1));
		dwfl_end(s->dwfl);
		s->dwfl = NULL;
		return -1;
	}
	dwfl_report_end(s->dwfl, NULL, NULL);
	s->path = xstrdup(path);
	s->module = module ? xstrdup(module) : NULL;
	s->exact_sizes = true;
	size_t cap = 0;
	int n = dwfl_module_getsymtab(s->mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(s->mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
			continue;
		add_entry(s, &cap, name, NULL, addr, sym.st_size);
	}
	if (!s->n) {
		snprintf(err, errsz, "%s: no symbol table (give an unstripped vmlinux or .ko)", path);
		oops_symsrc_free(s);
		return -1;
	}
	index_entries(s);
	read_identity(s);
	return 0;
}

/* "ffffffff81000000 T _stext" (System.map) or "... T name\t[module]" (kallsyms). */
int oops_symsrc_map(struct oops_symsrc *s, const char *path, bool runtime, char *err, size_t errsz)
{
	memset(s, 0, sizeof(*s));
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 0;
	char line[1024];
	bool all_zero = true;
	while (fgets(line, sizeof(line), f)) {
		char type, name[512], mod[256] = "";
		unsigned long long addr;
		int k = sscanf(line, "%llx %c %511s [%255[^]]]", &addr, &type, name, mod);
		if (k < 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;	/* only code: frames are in functions */
		all_zero = all_zero && addr == 0;
		add_entry(s, &cap, name, mod[0] ? mod : NULL, addr, 0);
	}
	fclose(f);
	if (!s->n || all_zero) {
		snprintf(err, errsz, "%s: %s", path, !s->n ? "no function symbols (not a System.map "
			 "or kallsyms file)" : "all addresses are 0 (kernel.kptr_restrict hides them: "
			 "run as root)");
		oops_symsrc_free(s);
		return -1;
	}
	s->path = xstrdup(path);
	s->runtime = runtime;
	index_entries(s);
	/* A map has no sizes: a symbol runs to the next one. */
	for (size_t i = 0; i + 1 < s->n; i++)
		s->by_addr[i]->size = s->by_addr[i + 1]->addr - s->by_addr[i]->addr;
	return 0;
}

void oops_symsrc_free(struct oops_symsrc *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->by_name[i].name);
		free(s->by_name[i].module);
	}
	free(s->by_name);
	free(s->by_addr);
	free(s->path);
	free(s->module);
	free(s->build_id);
	free(s->banner);
	if (s->dwfl)
		dwfl_end(s->dwfl);
	memset(s, 0, sizeof(*s));
}

const struct oops_ment *oops_symsrc_find(const struct oops_symsrc *s, const char *name,
					 const char *module, uint64_t size)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {	/* the first entry with this name */
		size_t mid = (lo + hi) / 2;
		if (strcmp(s->by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct oops_ment *best = NULL;
	for (size_t i = lo; i < s->n && !strcmp(s->by_name[i].name, name); i++) {
		const struct oops_ment *e = &s->by_name[i];
		bool mod_ok = !e->module ? !module || s->module : module && !strcmp(e->module, module);
		if (!mod_ok)
			continue;
		if (!best || (size && e->size == size && best->size != size))
			best = e;
	}
	return best;
}

const struct oops_ment *oops_symsrc_at(const struct oops_symsrc *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->by_addr[mid]->addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct oops_ment *e = s->by_addr[lo - 1];
	return addr - e->addr < (e->size ? e->size : 1) ? e : NULL;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return n ? n : "??";
}

/* Paths relative to the compilation directory, as the kernel's tree shows them. */
static char *rel_path(const char *file, const char *comp_dir)
{
	size_t n = comp_dir ? strlen(comp_dir) : 0;
	if (n && !strncmp(file, comp_dir, n) && file[n] == '/')
		return xstrdup(file + n + 1);
	return xstrdup(file);
}

int oops_symsrc_lines(const struct oops_symsrc *s, uint64_t addr, char **file, int *line,
		      struct oops_loc **inlined, size_t *ninlined)
{
	*file = NULL;
	*inlined = NULL;
	*ninlined = 0;
	if (!s->mod)
		return -1;
	Dwfl_Line *l = dwfl_module_getsrc(s->mod, addr);
	int lineno = 0;
	const char *src = l ? dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!src)
		return -1;
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(s->mod, addr, &bias);
	Dwarf_Attribute a;
	const char *comp_dir = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a)) : NULL;
	char *cur_file = rel_path(src, comp_dir);
	int cur_line = lineno;

	Dwarf_Die *scopes = NULL;
	int n = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : 0;
	if (n > 0) {
		/*
		 * dwarf_getscopes follows an inlined function's abstract definition;
		 * the chain of calls is the innermost scope's parents in the concrete tree.
		 */
		Dwarf_Die inner = scopes[0];
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	if (n > 0 && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		files = NULL;
	struct oops_loc *v = NULL;
	size_t nv = 0;
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		/* This inlined function is at cur_file:cur_line; its call site is in the next scope. */
		v = xrealloc(v, (nv + 1) * sizeof(*v));
		v[nv].function = xstrdup(die_name(&scopes[i]));
		v[nv].file = cur_file;
		v[nv].line = cur_line;
		nv++;
		Dwarf_Word idx = 0, cl = 0;
		const char *cf = NULL;
		if (files && dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &idx) == 0)
			cf = dwarf_filesrc(files, idx, NULL, NULL);
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &cl);
		cur_file = rel_path(cf ? cf : "??", comp_dir);
		cur_line = (int)cl;
	}
	free(scopes);
	*file = cur_file;
	*line = cur_line;
	*inlined = v;
	*ninlined = nv;
	return 0;
}
