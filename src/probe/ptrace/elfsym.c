/*
 * The engine's two questions about an ELF file, answered by the probe
 * grammar's resolver (src/probe/elfsym.h: .symtab, .dynsym, the build-id
 * debug file of a stripped file, demangled C++ names); see elfsym.h.
 */
#include "elfsym.h"

#include <stdio.h>
#include <string.h>

#include "probe/elfsym.h"

static void fill(struct elfsym_loc *loc, const struct es_sym *s, uint64_t func_off,
		 uint64_t file_off)
{
	loc->func_off = func_off;
	loc->func_size = s->size;
	loc->file_off = file_off;
	snprintf(loc->name, sizeof(loc->name), "%s", s->demangled ? s->demangled : s->name);
}

int elfsym_resolve(const char *path, const char *symbol, uint64_t off, struct elfsym_loc *loc,
		   char *err, size_t errlen)
{
	struct es_file *f = es_open(path, err, errlen);
	if (!f)
		return -1;
	memset(loc, 0, sizeof(*loc));
	const struct es_sym *s = es_lookup(f, symbol, err, errlen);
	uint64_t func_off;
	int rc = -1;
	if (!s) {
		/* err says so, with the closest names */
	} else if (es_vaddr_to_offset(f, s->value, &func_off) < 0) {
		snprintf(err, errlen, "%s: '%s' is in no loaded segment", path, symbol);
	} else if (s->size && off >= s->size) {
		snprintf(err, errlen, "%s: %s+%#llx is past the function's end (size %#llx)", path,
			 symbol, (unsigned long long)off, (unsigned long long)s->size);
	} else {
		fill(loc, s, func_off, func_off + off);
		rc = 0;
	}
	es_close(f);
	return rc;
}

int elfsym_containing(const char *path, uint64_t fo, struct elfsym_loc *loc)
{
	char err[256];
	struct es_file *f = es_open(path, err, sizeof(err));
	if (!f)
		return -1;
	memset(loc, 0, sizeof(*loc));
	uint64_t v, func_off;
	const struct es_sym *s = es_offset_to_vaddr(f, fo, &v) == 0 ? es_sym_at(f, v) : NULL;
	/* a sized function only: without a size there is nothing to check a boundary against */
	int rc = s && s->size && es_vaddr_to_offset(f, s->value, &func_off) == 0 ? 0 : -1;
	if (rc == 0)
		fill(loc, s, func_off, fo);
	es_close(f);
	return rc;
}
