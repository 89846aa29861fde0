/*
 * elfsym: the symbols, load segments and USDT notes of one ELF file, for
 * turning "PATH:SYMBOL+OFFS" into what uprobes want (a file offset) and back
 * (a run-time address into "sym+0xoff/0xsize").
 *
 * Symbols come from .symtab and .dynsym; a stripped file (Debian strips its
 * packages) gets its .symtab from the separate debug file found by build-id
 * under /usr/lib/debug/.build-id/.  C++ names are demangled for matching and
 * printing.  Built on libelf.
 */
#ifndef TRACEKIT_PROBE_ELFSYM_H
#define TRACEKIT_PROBE_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct es_file;

struct es_sym {
	char *name;		/* as in the file (mangled) */
	char *demangled;	/* C++ name, or NULL */
	uint64_t value;		/* link-time virtual address */
	uint64_t size;
	bool func;		/* STT_FUNC / STT_GNU_IFUNC */
};

struct es_usdt {
	char *provider;
	char *name;
	char *args;		/* "-4@%eax 8@-16(%rbp)" */
	uint64_t pc;		/* link-time address of the probe point (base-adjusted) */
	uint64_t semaphore;	/* link-time address of the semaphore, 0 if none */
};

/* NULL with one line in err: "cannot open /x: No such file", "/x is not an ELF file". */
struct es_file *es_open(const char *path, char *err, size_t errlen);
void es_close(struct es_file *f);

const char *es_path(const struct es_file *f);
/* The separate debug file the symbols came from, or NULL. */
const char *es_debug_path(const struct es_file *f);
/* ET_DYN: PIE or shared library (addresses are relative to the load base). */
bool es_is_dyn(const struct es_file *f);

size_t es_nsyms(const struct es_file *f);
const struct es_sym *es_sym(const struct es_file *f, size_t i);	/* sorted by address */

/*
 * The symbol named name: exact (mangled) name, or its demangled form, or the
 * demangled form without parameters ("ns::parse" for "ns::parse(char const*)").
 * Functions are preferred.  NULL with "symbol 'x' not found in PATH (did you
 * mean a, b or c?)" in err.
 */
const struct es_sym *es_lookup(const struct es_file *f, const char *name, char *err, size_t errlen);
/* The function symbol holding vaddr, NULL if none. */
const struct es_sym *es_sym_at(const struct es_file *f, uint64_t vaddr);

/* Link-time vaddr <-> file offset through the PT_LOAD segments; -1 outside them. */
int es_vaddr_to_offset(const struct es_file *f, uint64_t vaddr, uint64_t *off);
int es_offset_to_vaddr(const struct es_file *f, uint64_t off, uint64_t *vaddr);
/* Bytes of the file at vaddr (from its segment's file image); -1 outside. */
int es_read(const struct es_file *f, uint64_t vaddr, void *buf, size_t len);

/*
 * 0 when vaddr is the start of an instruction of the function sym (decoded
 * with capstone from its start), else -1 with the reason in err ("... is
 * inside the instruction at parse_line+0x4 (nearest boundaries +0x4, +0x8)").
 */
int es_check_boundary(const struct es_file *f, const struct es_sym *sym, uint64_t vaddr,
		      char *err, size_t errlen);

size_t es_nusdt(const struct es_file *f);
const struct es_usdt *es_usdt(const struct es_file *f, size_t i);

/* The message into err; returns -1 (for "return es_fail(err, errlen, ...)"). */
int es_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "name+0xoff/0xsize" for a link-time vaddr; -1 when in no symbol. */
struct strbuf;
int es_symbolize(const struct es_file *f, uint64_t vaddr, struct strbuf *out);

#endif
