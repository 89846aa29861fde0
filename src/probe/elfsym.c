/*
 * elfsym: one ELF file's symbols, PT_LOAD segments and .note.stapsdt notes
 * (see elfsym.h).  Everything is read once at open; lookups are over sorted
 * arrays.  The file stays open for es_read() (instruction bytes).
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/elfsym.h"
#include "util/die.h"
#include "util/editdist.h"
#include "util/strbuf.h"

#define DEBUG_BUILD_ID_DIR "/usr/lib/debug/.build-id"
#define NT_STAPSDT 3

/* From libstdc++ (the Itanium C++ ABI's demangler), so C++ names read as written. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

struct segment {
	uint64_t vaddr, offset, filesz;
};

struct es_file {
	char *path;
	char *debug_path;
	int fd;
	bool dyn;
	struct segment *segs;
	size_t nsegs;
	struct es_sym *syms;
	size_t nsyms;
	struct es_usdt *usdt;
	size_t nusdt;
};

int es_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void add_sym(struct es_file *f, const char *name, const GElf_Sym *s)
{
	f->syms = xrealloc(f->syms, (f->nsyms + 1) * sizeof(*f->syms));
	struct es_sym *e = &f->syms[f->nsyms++];
	e->name = xstrdup(name);
	e->value = s->st_value;
	e->size = s->st_size;
	int type = GELF_ST_TYPE(s->st_info);
	e->func = type == STT_FUNC || type == STT_GNU_IFUNC;
	e->demangled = NULL;
	if (name[0] == '_' && name[1] == 'Z') {
		int status = -1;
		char *d = __cxa_demangle(name, NULL, NULL, &status);
		if (status == 0)
			e->demangled = d;
		else
			free(d);
	}
}

static void read_symtab(struct es_file *f, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || sh->sh_entsize == 0)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		int type = GELF_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE ||
		    type == STT_TLS)
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (name && *name)
			add_sym(f, name, &s);
	}
}

/* "provider\0name\0args\0" after three addresses: one sys/sdt.h note (version 3). */
static void add_usdt(struct es_file *f, const char *desc, size_t len, uint64_t base_actual)
{
	if (len < 3 * 8 + 3)
		return;
	uint64_t pc, base, sem;
	memcpy(&pc, desc, 8);
	memcpy(&base, desc + 8, 8);
	memcpy(&sem, desc + 16, 8);
	const char *prov = desc + 24, *end = desc + len;
	const char *name = memchr(prov, '\0', (size_t)(end - prov));
	if (!name++ || name >= end)
		return;
	const char *args = memchr(name, '\0', (size_t)(end - name));
	if (!args++ || args >= end || !memchr(args, '\0', (size_t)(end - args)))
		return;
	f->usdt = xrealloc(f->usdt, (f->nusdt + 1) * sizeof(*f->usdt));
	struct es_usdt *u = &f->usdt[f->nusdt++];
	/* Prelink may move the file; the .stapsdt.base section says by how much. */
	int64_t adjust = base_actual && base ? (int64_t)(base_actual - base) : 0;
	u->pc = pc + (uint64_t)adjust;
	u->semaphore = sem ? sem + (uint64_t)adjust : 0;
	u->provider = xstrdup(prov);
	u->name = xstrdup(name);
	u->args = xstrdup(args);
}

static void read_notes(struct es_file *f, Elf_Scn *scn, uint64_t stapsdt_base, char *build_id,
		       size_t idlen)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data)
		return;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		const char *desc = (const char *)data->d_buf + desc_off;
		if (nh.n_namesz == 8 && !memcmp(name, "stapsdt", 8) && nh.n_type == NT_STAPSDT)
			add_usdt(f, desc, nh.n_descsz, stapsdt_base);
		else if (nh.n_namesz == 4 && !memcmp(name, "GNU", 4) && nh.n_type == NT_GNU_BUILD_ID &&
			 nh.n_descsz * 2 + 1 <= idlen) {
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(build_id + 2 * i, "%02x", (unsigned char)desc[i]);
		}
	}
}

/* Only sections of one type (SHT_SYMTAB, SHT_DYNSYM) of one ELF into f. */
static bool read_symbols(struct es_file *f, Elf *elf, Elf64_Word type)
{
	size_t shstrndx;
	bool found = false;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type) {
			read_symtab(f, elf, scn, &sh);
			found = true;
		}
	}
	return found;
}

/* The separate debug file of a stripped binary, by build-id, for its .symtab. */
static void read_debug_file(struct es_file *f, const char *build_id)
{
	if (strlen(build_id) < 4)
		return;
	char path[512];
	snprintf(path, sizeof(path), DEBUG_BUILD_ID_DIR "/%.2s/%s.debug", build_id, build_id + 2);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && read_symbols(f, elf, SHT_SYMTAB))
		f->debug_path = xstrdup(path);
	if (elf)
		elf_end(elf);
	close(fd);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct es_sym *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->func != y->func)
		return x->func ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sort by address and drop the .dynsym copies of .symtab entries. */
static void sort_syms(struct es_file *f)
{
	qsort(f->syms, f->nsyms, sizeof(*f->syms), cmp_sym);
	size_t kept = 0;
	for (size_t i = 0; i < f->nsyms; i++) {
		if (kept && f->syms[kept - 1].value == f->syms[i].value &&
		    !strcmp(f->syms[kept - 1].name, f->syms[i].name)) {
			free(f->syms[i].name);
			free(f->syms[i].demangled);
			continue;
		}
		f->syms[kept++] = f->syms[i];
	}
	f->nsyms = kept;
}

static int read_segments(struct es_file *f, Elf *elf)
{
	size_t n;
	if (elf_getphdrnum(elf, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->segs = xrealloc(f->segs, (f->nsegs + 1) * sizeof(*f->segs));
		f->segs[f->nsegs++] = (struct segment){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
	return 0;
}

static void read_sections(struct es_file *f, Elf *elf)
{
	size_t shstrndx;
	uint64_t stapsdt_base = 0;
	char build_id[129] = "";
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".stapsdt.base"))
			stapsdt_base = sh.sh_addr;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			read_notes(f, scn, stapsdt_base, build_id, sizeof(build_id));
	}
	bool have_symtab = read_symbols(f, elf, SHT_SYMTAB);
	read_symbols(f, elf, SHT_DYNSYM);
	if (!have_symtab)
		read_debug_file(f, build_id);
	sort_syms(f);
}

struct es_file *es_open(const char *path, char *err, size_t errlen)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		es_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		es_fail(err, errlen, "%s is not an ELF file (give the program or library itself, "
		     "not a script)", path);
		goto bad;
	}
	if (eh.e_machine != EM_X86_64 || gelf_getclass(elf) != ELFCLASS64) {
		es_fail(err, errlen, "%s is not an x86_64 ELF file (only x86_64 is supported)", path);
		goto bad;
	}
	struct es_file *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->fd = fd;
	f->dyn = eh.e_type == ET_DYN;
	read_segments(f, elf);
	read_sections(f, elf);
	elf_end(elf);
	return f;
bad:
	if (elf)
		elf_end(elf);
	close(fd);
	return NULL;
}

void es_close(struct es_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nsyms; i++) {
		free(f->syms[i].name);
		free(f->syms[i].demangled);
	}
	for (size_t i = 0; i < f->nusdt; i++) {
		free(f->usdt[i].provider);
		free(f->usdt[i].name);
		free(f->usdt[i].args);
	}
	free(f->syms);
	free(f->usdt);
	free(f->segs);
	free(f->path);
	free(f->debug_path);
	close(f->fd);
	free(f);
}

const char *es_path(const struct es_file *f) { return f->path; }
const char *es_debug_path(const struct es_file *f) { return f->debug_path; }
bool es_is_dyn(const struct es_file *f) { return f->dyn; }
size_t es_nsyms(const struct es_file *f) { return f->nsyms; }
const struct es_sym *es_sym(const struct es_file *f, size_t i) { return &f->syms[i]; }
size_t es_nusdt(const struct es_file *f) { return f->nusdt; }
const struct es_usdt *es_usdt(const struct es_file *f, size_t i) { return &f->usdt[i]; }

/* "ns::parse(char const*)" matches "ns::parse" too. */
static bool demangled_matches(const char *demangled, const char *name)
{
	size_t n = strlen(name);
	return !strcmp(demangled, name) || (!strncmp(demangled, name, n) && demangled[n] == '(');
}

const struct es_sym *es_lookup(const struct es_file *f, const char *name, char *err, size_t errlen)
{
	const struct es_sym *best = NULL;
	for (int pass = 0; pass < 2 && !best; pass++)
		for (size_t i = 0; i < f->nsyms; i++) {
			const struct es_sym *s = &f->syms[i];
			bool hit = pass == 0 ? !strcmp(s->name, name)
					     : s->demangled && demangled_matches(s->demangled, name);
			if (hit && (!best || (s->func && !best->func)))
				best = s;
		}
	if (best)
		return best;
	struct closest c;
	char near[512];
	size_t nlen = strlen(name);
	closest_init(&c, nlen / 3 + 2);
	for (size_t i = 0; i < f->nsyms; i++)
		closest_offer(&c, name, nlen, f->syms[i].demangled ? f->syms[i].demangled
								   : f->syms[i].name);
	closest_join(&c, near, sizeof(near));
	closest_free(&c);
	if (!f->nsyms)
		es_fail(err, errlen, "symbol '%s' not found: %s has no symbols (stripped, and no debug "
		     "file under " DEBUG_BUILD_ID_DIR "; give PATH:OFFSET)", name, f->path);
	else if (near[0])
		es_fail(err, errlen, "symbol '%s' not found in %s (did you mean %s?)", name, f->path, near);
	else
		es_fail(err, errlen, "symbol '%s' not found in %s (see tracekit probe list --symbols %s)",
		     name, f->path, f->path);
	return NULL;
}

const struct es_sym *es_sym_at(const struct es_file *f, uint64_t vaddr)
{
	const struct es_sym *hit = NULL;
	for (size_t i = 0; i < f->nsyms && f->syms[i].value <= vaddr; i++) {
		const struct es_sym *s = &f->syms[i];
		if (s->func && vaddr < s->value + (s->size ? s->size : 1))
			hit = s;
	}
	return hit;
}

int es_vaddr_to_offset(const struct es_file *f, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct segment *s = &f->segs[i];
		if (vaddr >= s->vaddr && vaddr < s->vaddr + s->filesz) {
			*off = vaddr - s->vaddr + s->offset;
			return 0;
		}
	}
	return -1;
}

int es_offset_to_vaddr(const struct es_file *f, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct segment *s = &f->segs[i];
		if (off >= s->offset && off < s->offset + s->filesz) {
			*vaddr = off - s->offset + s->vaddr;
			return 0;
		}
	}
	return -1;
}

int es_read(const struct es_file *f, uint64_t vaddr, void *buf, size_t len)
{
	uint64_t off, last;
	if (!len || es_vaddr_to_offset(f, vaddr, &off) < 0 ||
	    es_vaddr_to_offset(f, vaddr + len - 1, &last) < 0 || last - off != len - 1)
		return -1;
	return pread(f->fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

int es_check_boundary(const struct es_file *f, const struct es_sym *sym, uint64_t vaddr,
		      char *err, size_t errlen)
{
	if (vaddr == sym->value)
		return 0;
	size_t len = (size_t)(vaddr - sym->value) + 16;
	if (sym->size && len > sym->size)
		len = sym->size;
	if (vaddr >= sym->value + (sym->size ? sym->size : len))
		return es_fail(err, errlen, "%s+0x%" PRIx64 " is past the end of %s (size 0x%" PRIx64 ")",
			    sym->name, vaddr - sym->value, sym->name, sym->size);
	uint8_t *code = xmalloc(len);
	if (es_read(f, sym->value, code, len) < 0) {
		free(code);
		return es_fail(err, errlen, "cannot read the code of %s in %s", sym->name, f->path);
	}
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		free(code);
		return es_fail(err, errlen, "capstone cannot decode x86_64 here");
	}
	cs_insn *insn = cs_malloc(cs);
	const uint8_t *p = code;
	size_t left = len;
	uint64_t at = sym->value, prev = sym->value;
	int rc = -1;
	while (at < vaddr && cs_disasm_iter(cs, &p, &left, &at, insn))
		prev = insn->address;
	if (at == vaddr)
		rc = 0;
	else if (at > vaddr)
		es_fail(err, errlen, "%s+0x%" PRIx64 " is not an instruction boundary: it is inside "
		     "the instruction at +0x%" PRIx64 " (boundaries around it: +0x%" PRIx64
		     ", +0x%" PRIx64 ")", sym->name, vaddr - sym->value, prev - sym->value,
		     prev - sym->value, at - sym->value);
	else
		es_fail(err, errlen, "%s+0x%" PRIx64 ": the code before it does not decode as x86_64 "
		     "instructions (data in code?)", sym->name, vaddr - sym->value);
	cs_free(insn, 1);
	cs_close(&cs);
	free(code);
	return rc;
}

int es_symbolize(const struct es_file *f, uint64_t vaddr, struct strbuf *out)
{
	const struct es_sym *s = es_sym_at(f, vaddr);
	if (!s)
		return -1;
	sb_printf(out, "%s+0x%" PRIx64 "/0x%" PRIx64, s->demangled ? s->demangled : s->name,
		  vaddr - s->value, s->size);
	return 0;
}
