/* Symbols to file offsets with libelf; see elfsym.h. */
#include "elfsym.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A link-time address to its file offset, through the PT_LOAD that holds it. */
static bool vaddr_to_off(Elf *e, uint64_t v, uint64_t *off)
{
	size_t n;
	if (elf_getphdrnum(e, &n) < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (v >= ph.p_vaddr && v < ph.p_vaddr + ph.p_filesz) {
			*off = v - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

typedef bool (*sym_fn)(Elf *e, const char *name, const GElf_Sym *sym, void *arg);

/* Call fn on each defined function symbol, .symtab before .dynsym; stops when fn says so. */
static void each_func(Elf *e, sym_fn fn, void *arg)
{
	for (int want = SHT_SYMTAB; ; want = SHT_DYNSYM) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != (unsigned)want || !sh.sh_entsize)
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t count = d ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; i < count; i++) {
				GElf_Sym sym;
				if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
					continue;
				int type = GELF_ST_TYPE(sym.st_info);
				if (type != STT_FUNC && type != STT_GNU_IFUNC)
					continue;
				const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
				if (name && fn(e, name, &sym, arg))
					return;
			}
		}
		if (want == SHT_DYNSYM)
			return;
	}
}

static Elf *open_elf(const char *path, int *fd)
{
	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	Elf *e = elf_begin(*fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		errno = ENOEXEC;
		return NULL;
	}
	return e;
}

struct by_name {
	const char *want;
	GElf_Sym sym;
	bool found;
};

static bool match_name(Elf *e, const char *name, const GElf_Sym *sym, void *arg)
{
	(void)e;
	struct by_name *b = arg;
	/* "malloc" also finds a versioned "malloc@@GLIBC_2.2.5" */
	size_t n = strlen(b->want);
	if (strncmp(name, b->want, n) || (name[n] && name[n] != '@'))
		return false;
	b->sym = *sym;
	b->found = true;
	return true;
}

int elfsym_resolve(const char *path, const char *symbol, uint64_t off, struct elfsym_loc *loc,
		   char *err, size_t errlen)
{
	int fd;
	Elf *e = open_elf(path, &fd);
	if (!e) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == ENOEXEC ? "not an ELF file" : strerror(errno));
		return -1;
	}
	struct by_name b = { .want = symbol };
	each_func(e, match_name, &b);
	int rc = -1;
	memset(loc, 0, sizeof(*loc));
	if (!b.found) {
		snprintf(err, errlen, "%s: no function '%s' (its symbol table and .dynsym lack it)", path,
			 symbol);
	} else if (!vaddr_to_off(e, b.sym.st_value, &loc->func_off)) {
		snprintf(err, errlen, "%s: '%s' is in no loaded segment", path, symbol);
	} else if (b.sym.st_size && off >= b.sym.st_size) {
		snprintf(err, errlen, "%s: %s+%#llx is past the function's end (size %#llx)", path,
			 symbol, (unsigned long long)off, (unsigned long long)b.sym.st_size);
	} else {
		loc->func_size = b.sym.st_size;
		loc->file_off = loc->func_off + off;
		snprintf(loc->name, sizeof(loc->name), "%s", symbol);
		rc = 0;
	}
	elf_end(e);
	close(fd);
	return rc;
}

struct by_off {
	uint64_t fo;
	struct elfsym_loc *loc;
	bool found;
};

static bool match_off(Elf *e, const char *name, const GElf_Sym *sym, void *arg)
{
	struct by_off *b = arg;
	uint64_t start;
	if (!sym->st_size || !vaddr_to_off(e, sym->st_value, &start))
		return false;
	if (b->fo < start || b->fo >= start + sym->st_size)
		return false;
	b->loc->func_off = start;
	b->loc->func_size = sym->st_size;
	b->loc->file_off = b->fo;
	snprintf(b->loc->name, sizeof(b->loc->name), "%.*s", (int)strcspn(name, "@"), name);
	b->found = true;
	return true;
}

int elfsym_containing(const char *path, uint64_t fo, struct elfsym_loc *loc)
{
	int fd;
	Elf *e = open_elf(path, &fd);
	if (!e)
		return -1;
	memset(loc, 0, sizeof(*loc));
	struct by_off b = { .fo = fo, .loc = loc };
	each_func(e, match_off, &b);
	elf_end(e);
	close(fd);
	return b.found ? 0 : -1;
}
