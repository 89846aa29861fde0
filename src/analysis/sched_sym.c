/*
 * Names for the futex words of a process's lock waits: the address is looked up
 * in the "maps" note `tracekit record` saves when the command has exec'd (where
 * each file is loaded), then in that file's ELF symbols (src/probe/elfsym, as
 * probe reads them).  A file whose mtime differs from the recorded one was
 * rebuilt since: it names nothing.  Locks in the heap, on a stack or in a library
 * loaded after the exec keep their address.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sched_trace.h"
#include "probe/elfsym.h"
#include "util/die.h"

/* The file whose mappings hold addr: its path, load base and recorded mtime. */
static bool find_mapping(const char *maps, uint64_t addr, char *path, size_t len, uint64_t *base,
			 long long *mtime)
{
	for (const char *p = maps; p && *p;) {
		const char *end = strchr(p, ';');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		uint64_t lo, hi;
		int at = 0;
		char entry[4200];
		if (n < sizeof(entry)) {
			memcpy(entry, p, n);
			entry[n] = '\0';
			if (sscanf(entry, "%" SCNx64 "-%" SCNx64 " %lld %n", &lo, &hi, mtime, &at) == 3 &&
			    at && addr >= lo && addr < hi) {
				snprintf(path, len, "%s", entry + at);
				*base = lo;
				return true;
			}
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* The symbol whose [value, value + size) holds vaddr (sorted by address: binary search). */
static const struct es_sym *sym_holding(const struct es_file *f, uint64_t vaddr)
{
	size_t lo = 0, hi = es_nsyms(f);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (es_sym(f, mid)->value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Symbols at the same or nearby addresses (aliases, a section start): look a few back. */
	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++) {
		const struct es_sym *s = es_sym(f, i);
		if (!s->func && vaddr < s->value + (s->size ? s->size : 1))
			return s;
	}
	return NULL;
}

static const char *keep(struct st_trace *t, const char *name, uint64_t off)
{
	char buf[512];

	if (off)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, name, off);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	t->names = xrealloc(t->names, sizeof(*t->names) * (size_t)(t->nnames + 1));
	return t->names[t->nnames++] = xstrdup(buf);
}

static const char *name_of(struct st_trace *t, uint64_t addr)
{
	char path[4096], err[256];
	uint64_t base;
	long long mtime;
	struct stat st;

	if (!find_mapping(t->maps, addr, path, sizeof(path), &base, &mtime) ||
	    stat(path, &st) != 0 || (long long)st.st_mtime != mtime)
		return NULL;
	struct es_file *f = es_open(path, err, sizeof(err));
	if (!f)
		return NULL;
	uint64_t vaddr = es_is_dyn(f) ? addr - base : addr;
	const struct es_sym *s = sym_holding(f, vaddr);
	const char *name = s ? keep(t, s->demangled ? s->demangled : s->name, vaddr - s->value) :
			   NULL;
	es_close(f);
	return name;
}

void st_name_locks(struct st_trace *t, struct sa_proc *p)
{
	if (!t->maps)
		return;
	for (size_t i = 0; i < p->nwhy; i++) {
		struct sa_why *w = &p->why[i];
		if (w->kind == SA_WHY_SLEEP && sa_why_is_futex(w->nr) && !w->joined && w->addr &&
		    !w->sym)
			w->sym = name_of(t, w->addr);
	}
}
