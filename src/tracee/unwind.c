/*
 * Stack traces for -k, with elfutils' libdwfl; see unwind.h.
 *
 * libdwfl walks the frames (CFI from .eh_frame, registers and stack read
 * through ptrace).  What is printed follows strace 6.1 as Debian builds it
 * (with libunwind), so the two tools' -k output can be compared line by line:
 *
 *  - the file and the bracketed offset come from /proc/PID/maps: the offset
 *    is the address's offset in the mapped file, and an address outside any
 *    executable mapping ends the trace with "unexpected_backtracing_error";
 *  - the symbol is the nearest function symbol at or below the address,
 *    whatever its size, taken from the file itself (no separate debuginfo);
 *  - for a return address, the symbol is looked up one byte back (a call
 *    may be a function's last instruction) but the offset printed is the
 *    return address's.
 *
 * Costs are paid once: a process keeps its Dwfl (modules stay loaded across
 * invalidations when they did not move), each module its sorted function
 * table, and each address its printed frame, until the mappings change.
 */
#include "unwind.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/die.h"
#include "util/tidmap.h"

#define UW_MAX_FRAMES	256		/* strace's limit */
#define UW_MEMO_MAX	(1u << 16)	/* addresses remembered per process */

/* An executable mapping of /proc/PID/maps. */
struct uw_map {
	uint64_t start, end, offset;
	char *path;
};

/* A function symbol of a module, at its run-time address. */
struct uw_func {
	uint64_t addr;
	int ndx;		/* symbol table order: the first alias wins */
	const char *name;
};

/* Per module (in the Dwfl_Module's userdata): functions sorted by address. */
struct uw_funcs {
	struct uw_func *f;
	size_t n;
};

/* One address, resolved and ready to print. */
struct uw_frame {
	uint64_t key;		/* pc * 2 + activation; 0: free slot */
	const char *file;	/* NULL: not in an executable mapping */
	const char *sym;	/* NULL: no symbol */
	uint64_t sym_off;
	uint64_t file_off;
};

struct uw_proc {
	Dwfl *dwfl;
	bool stale;
	dev_t exe_dev;
	ino_t exe_ino;
	struct uw_map *map;
	size_t nmap;
	struct uw_frame *memo;	/* open addressing, memo_cap a power of two */
	size_t memo_cap, memo_n;
};

struct tr_unwinder {
	struct tidmap procs;	/* tgid -> struct uw_proc */
};

/* ---- /proc/PID/maps ------------------------------------------------------ */

static void maps_clear(struct uw_proc *p)
{
	for (size_t i = 0; i < p->nmap; i++)
		free(p->map[i].path);
	free(p->map);
	p->map = NULL;
	p->nmap = 0;
}

/* Keep the executable, file-backed mappings: only those have frames to name. */
static void maps_read(struct uw_proc *p, pid_t tgid)
{
	char name[64], line[4096 + 128];
	size_t cap = 0;

	maps_clear(p);
	snprintf(name, sizeof(name), "/proc/%d/maps", (int)tgid);
	FILE *f = fopen(name, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, off;
		char perms[8];
		int path_at = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n",
			   &start, &end, perms, &off, &path_at) < 4 || !path_at)
			continue;
		if (perms[2] != 'x' || line[path_at] == '\0' || line[path_at] == '\n')
			continue;
		line[strcspn(line + path_at, "\n") + path_at] = '\0';
		if (p->nmap == cap) {
			cap = cap ? cap * 2 : 32;
			p->map = xrealloc(p->map, cap * sizeof(*p->map));
		}
		p->map[p->nmap++] = (struct uw_map){ start, end, off, xstrdup(line + path_at) };
	}
	fclose(f);
}

/* The maps file lists mappings in address order. */
static const struct uw_map *maps_find(const struct uw_proc *p, uint64_t pc)
{
	size_t lo = 0, hi = p->nmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pc < p->map[mid].start)
			hi = mid;
		else if (pc >= p->map[mid].end)
			lo = mid + 1;
		else
			return &p->map[mid];
	}
	return NULL;
}

/* ---- function symbols of a module ----------------------------------------- */

static int func_cmp(const void *a, const void *b)
{
	const struct uw_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ndx - y->ndx;
}

static struct uw_funcs *funcs_build(Dwfl_Module *mod)
{
	struct uw_funcs *t = xcalloc(1, sizeof(*t));
	int n = dwfl_module_getsymtab(mod);

	if (n <= 0)
		return t;
	t->f = xmalloc((size_t)n * sizeof(*t->f));
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, NULL, NULL);

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || shndx == SHN_UNDEF)
			continue;
		t->f[t->n++] = (struct uw_func){ addr, i, name };
	}
	qsort(t->f, t->n, sizeof(*t->f), func_cmp);
	return t;
}

static struct uw_funcs *funcs_of(Dwfl_Module *mod)
{
	void **userdata;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!*userdata)
		*userdata = funcs_build(mod);
	return *userdata;
}

/* The nearest function at or below addr; the first of aliases. */
static const struct uw_func *funcs_find(const struct uw_funcs *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->f[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	while (lo > 1 && t->f[lo - 2].addr == t->f[lo - 1].addr)
		lo--;
	return &t->f[lo - 1];
}

static void funcs_free(struct uw_funcs *t)
{
	if (!t)
		return;
	free(t->f);
	free(t);
}

static int module_forget(Dwfl_Module *mod, void **userdata, const char *name,
			 Dwarf_Addr start, void *arg)
{
	(void)mod, (void)name, (void)start, (void)arg;
	funcs_free(*userdata);
	*userdata = NULL;
	return DWARF_CB_OK;
}

/*
 * libdwfl declares this argument void * but passes the address of the
 * module's userdata slot (MODCB_ARGS in dwfl_report_end), as for the other
 * module callbacks.
 */
static int module_removed(Dwfl_Module *mod, void *userdata, const char *name,
			  Dwarf_Addr start, void *arg)
{
	(void)mod, (void)name, (void)start, (void)arg;
	void **slot = userdata;
	funcs_free(*slot);
	*slot = NULL;
	return DWARF_CB_OK;
}

/* ---- the per-address memo ------------------------------------------------- */

static void memo_clear(struct uw_proc *p)
{
	free(p->memo);
	p->memo = NULL;
	p->memo_cap = p->memo_n = 0;
}

static size_t memo_home(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static struct uw_frame *memo_slot(struct uw_frame *memo, size_t cap, uint64_t key)
{
	size_t i = memo_home(key, cap);

	while (memo[i].key && memo[i].key != key)
		i = (i + 1) & (cap - 1);
	return &memo[i];
}

static void memo_grow(struct uw_proc *p)
{
	size_t cap = p->memo_cap ? p->memo_cap * 2 : 256;
	struct uw_frame *memo = xcalloc(cap, sizeof(*memo));

	for (size_t i = 0; i < p->memo_cap; i++)
		if (p->memo[i].key)
			*memo_slot(memo, cap, p->memo[i].key) = p->memo[i];
	free(p->memo);
	p->memo = memo;
	p->memo_cap = cap;
}

/* Resolve pc the way strace -k prints it. */
static void frame_resolve(struct uw_proc *p, uint64_t pc, bool activation, struct uw_frame *fr)
{
	const struct uw_map *m = maps_find(p, pc);

	if (!m)
		return;
	fr->file = m->path;
	fr->file_off = pc - m->start + m->offset;

	uint64_t at = activation ? pc : pc - 1;
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, at);
	if (!mod)
		return;
	const struct uw_func *f = funcs_find(funcs_of(mod), at);
	if (!f)
		return;
	fr->sym = f->name;
	fr->sym_off = pc - f->addr;
}

static const struct uw_frame *frame_lookup(struct uw_proc *p, uint64_t pc, bool activation)
{
	uint64_t key = pc * 2 + activation;

	if (!key)
		key = 1;	/* pc 0 is never mapped; keep 0 for free slots */
	if (p->memo_n >= UW_MEMO_MAX)
		memo_clear(p);
	if (p->memo_n * 4 >= p->memo_cap * 3)
		memo_grow(p);

	struct uw_frame *fr = memo_slot(p->memo, p->memo_cap, key);
	if (fr->key)
		return fr;
	*fr = (struct uw_frame){ .key = key };
	frame_resolve(p, pc, activation, fr);
	p->memo_n++;
	return fr;
}

/* ---- processes ------------------------------------------------------------ */

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name,
			const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;	/* symbols from the mapped file only, as strace -k shows them */
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = no_debuginfo,
};

static void proc_end_dwfl(struct uw_proc *p)
{
	if (!p->dwfl)
		return;
	dwfl_getmodules(p->dwfl, module_forget, NULL, 0);
	dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

static void proc_free(struct uw_proc *p)
{
	proc_end_dwfl(p);
	maps_clear(p);
	memo_clear(p);
	free(p);
}

/* (Re-)report tgid's modules; unchanged ones keep what they loaded. */
static int proc_report(struct uw_proc *p, pid_t tgid)
{
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, tgid) != 0) {
		dwfl_report_end(p->dwfl, module_removed, NULL);
		return -1;
	}
	return dwfl_report_end(p->dwfl, module_removed, NULL) == 0 ? 0 : -1;
}

/*
 * A new program (execve) needs a new Dwfl: the attached state holds the
 * architecture of the old one.  Other changes only need the modules again.
 */
static int proc_refresh(struct uw_proc *p, pid_t tgid)
{
	char exe[64];
	struct stat st;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)tgid);
	if (stat(exe, &st) < 0)
		return -1;
	memo_clear(p);
	if (p->dwfl && (st.st_dev != p->exe_dev || st.st_ino != p->exe_ino))
		proc_end_dwfl(p);
	p->exe_dev = st.st_dev;
	p->exe_ino = st.st_ino;
	maps_read(p, tgid);

	if (p->dwfl) {
		p->stale = false;
		return proc_report(p, tgid);
	}
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (!p->dwfl)
		return -1;
	if (proc_report(p, tgid) < 0 || dwfl_linux_proc_attach(p->dwfl, tgid, true) != 0) {
		proc_end_dwfl(p);
		return -1;
	}
	p->stale = false;
	return 0;
}

/* ---- walking -------------------------------------------------------------- */

struct uw_walk {
	struct uw_proc *p;
	struct strbuf *out;
	int frames;
};

/* From libstdc++ (the Itanium C++ ABI's demangler): C++ frames read as written, as strace -k. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static void frame_print(struct strbuf *out, const struct uw_frame *fr)
{
	if (fr->sym) {
		int status = -1;
		char *d = fr->sym[0] == '_' && fr->sym[1] == 'Z' ?
			  __cxa_demangle(fr->sym, NULL, NULL, &status) : NULL;
		sb_printf(out, " > %s(%s+0x%" PRIx64 ") [0x%" PRIx64 "]\n",
			  fr->file, status == 0 ? d : fr->sym, fr->sym_off, fr->file_off);
		free(d);
	} else
		sb_printf(out, " > %s() [0x%" PRIx64 "]\n", fr->file, fr->file_off);
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uw_walk *w = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (w->frames == UW_MAX_FRAMES) {
		sb_add(w->out, " > too many stack frames\n");
		return DWARF_CB_ABORT;
	}
	const struct uw_frame *fr = frame_lookup(w->p, pc, activation);
	if (!fr->file) {
		if (pc)
			sb_printf(w->out, " > unexpected_backtracing_error [0x%" PRIx64 "]\n",
				  (uint64_t)pc);
		return DWARF_CB_ABORT;
	}
	frame_print(w->out, fr);
	w->frames++;
	return DWARF_CB_OK;
}

static struct uw_proc *proc_get(struct tr_unwinder *u, pid_t tgid)
{
	struct uw_proc *p = tidmap_get(&u->procs, tgid);

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->stale = true;
	tidmap_put(&u->procs, tgid, p);
	return p;
}

int tr_unwind(struct tr_unwinder *u, pid_t tid, pid_t tgid, struct strbuf *out)
{
	struct uw_proc *p = proc_get(u, tgid);

	if ((p->stale || !p->dwfl) && proc_refresh(p, tgid) < 0)
		return -1;

	struct uw_walk w = { p, out, 0 };
	size_t len = out->len;
	int r = dwfl_getthread_frames(p->dwfl, tid, frame_cb, &w);
	/* A walk that stops early (no CFI further up) is what libunwind shows too. */
	if (r == -1 && !w.frames && out->len == len)
		return -1;
	return w.frames;
}

void tr_unwind_invalidate(struct tr_unwinder *u, pid_t tgid)
{
	struct uw_proc *p = tidmap_get(&u->procs, tgid);
	char dir[32];

	if (!p)
		return;
	snprintf(dir, sizeof(dir), "/proc/%d", (int)tgid);
	if (access(dir, F_OK) == 0) {
		p->stale = true;
		return;
	}
	tidmap_del(&u->procs, tgid);
	proc_free(p);
}

struct tr_unwinder *tr_unwind_new(void)
{
	return xcalloc(1, sizeof(struct tr_unwinder));
}

void tr_unwind_free(struct tr_unwinder *u)
{
	if (!u)
		return;
	tidmap_foreach(&u->procs, s)
		proc_free(s->val);
	tidmap_free(&u->procs);
	free(u);
}
