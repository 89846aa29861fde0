/*
 * Symbol sources for the oops symbolizer: an ELF with DWARF (vmlinux or a
 * .ko, through libdwfl, which also relocates a .ko's sections) or a symbol
 * list (System.map, kallsyms) with addresses only.  Both give name -> address
 * and address -> name; only an ELF gives file:line and inlined frames.
 */
#ifndef TRACEKIT_OOPS_SYMTAB_H
#define TRACEKIT_OOPS_SYMTAB_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>

#include "oops/oops.h"

struct oops_ment {
	char *name;
	char *module;		/* kallsyms' [module] column, NULL for vmlinux */
	uint64_t addr, size;
};

struct oops_symsrc {
	char *path;		/* for notes */
	char *module;		/* the module this ELF is, NULL for vmlinux (or a map of all) */
	Dwfl *dwfl;		/* NULL for System.map / kallsyms */
	Dwfl_Module *mod;
	struct oops_ment *by_name;	/* sorted by name */
	struct oops_ment **by_addr;	/* sorted by address */
	size_t n;
	char *build_id;		/* the ELF's GNU build id (hex), NULL if none or a map */
	char *banner;		/* a vmlinux's linux_banner, "Linux version R (...) #N ...", or NULL */
	bool exact_sizes;	/* ELF st_size; a map's sizes are gaps to the next symbol */
	bool runtime;		/* addresses are the running kernel's (kallsyms) */
};

/* symtab.c */
int oops_symsrc_elf(struct oops_symsrc *s, const char *path, const char *module,
		    char *err, size_t errsz);
int oops_symsrc_map(struct oops_symsrc *s, const char *path, bool runtime, char *err, size_t errsz);
void oops_symsrc_free(struct oops_symsrc *s);
/* The entry for name (in module, for maps that hold several); the one of size `size` if several. */
const struct oops_ment *oops_symsrc_find(const struct oops_symsrc *s, const char *name,
					 const char *module, uint64_t size);
const struct oops_ment *oops_symsrc_at(const struct oops_symsrc *s, uint64_t addr);
/* The file's bytes at addr (an ELF's section contents); 0 when addr is in none. */
size_t oops_symsrc_bytes(const struct oops_symsrc *s, uint64_t addr, const uint8_t **bytes);
/* file:line and inlined functions at addr (ELF with DWARF only); 0 when found. */
int oops_symsrc_lines(const struct oops_symsrc *s, uint64_t addr, char **file, int *line,
		      struct oops_loc **inlined, size_t *ninlined);

/* member.c: name the struct member behind r's NULL + offset from s's DWARF at link (the fault). */
void oops_name_null_member(struct oops_report *r, const struct oops_symsrc *s, uint64_t link);

/* locate.c: where the symbols are when nobody said. */
char *oops_find_vmlinux(const char *release, const char *debug_dir);
char *oops_find_module(const char *dir, const char *name);
char *oops_find_by_build_id(const char *build_id, const char *debug_dir);
/* The running kernel's build id (hex) from /sys/kernel/notes, NULL if none. */
char *oops_running_build_id(void);

#endif
