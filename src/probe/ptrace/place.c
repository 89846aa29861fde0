/*
 * Putting probes into a process: resolve where each lands in its address
 * space, give the instruction there a slot in a scratch page within reach,
 * write the copy, then the int3.  Also the dynamic linker's r_brk
 * (_dl_debug_state), which ld.so calls after every change to the list of
 * loaded objects: at it, probes on libraries that just appeared are placed
 * and breakpoints on libraries that went away are forgotten.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "elfsym.h"
#include "engine.h"
#include "util/die.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define SLOTS_PER_PAGE (4096 / XOL_SLOT_SIZE)

static const char *where(const struct tk_probe *p, char *buf, size_t len)
{
	if (p->path && p->symbol)
		snprintf(buf, len, "%s:%s+%#llx", p->path, p->symbol, (unsigned long long)p->offset);
	else if (p->path)
		snprintf(buf, len, "%s:%#llx", p->path, (unsigned long long)p->offset);
	else
		snprintf(buf, len, "%#llx", (unsigned long long)p->addr);
	return buf;
}

/* Is fo (in the function described by loc) an instruction boundary, and can it be copied? */
static int check_file_insn(const char *path, const struct elfsym_loc *loc, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	uint64_t upto = loc->file_off - loc->func_off;
	size_t n = (size_t)upto + XOL_INSN_MAX;
	uint8_t *buf = xcalloc(1, n);
	ssize_t got = pread(fd, buf, n, (off_t)loc->func_off);
	close(fd);
	int rc = -1;
	struct xol_insn in;
	if (got < (ssize_t)upto + 1)
		snprintf(why, len, "cannot read the instruction from the file");
	else if (upto && loc->func_size && xol_boundary(buf, (size_t)got, 0, upto, why, len) != 1)
		;
	else if (xol_decode(buf + upto, (size_t)got - upto, loc->file_off, &in, why, len) == 0)
		rc = 0;
	free(buf);
	return rc;
}

int place_prepare(struct tk_probe *p, char *err, size_t errlen)
{
	char w[600], why[256];
	struct probe_priv *pv = xcalloc(1, sizeof(*pv));
	p->priv = pv;
	if (!p->path) {
		if (!p->addr) {
			snprintf(err, errlen, "a probe needs a path or an address");
			return -1;
		}
		return 0;	/* checked when placed: the bytes are in the process */
	}
	struct stat st;
	if (stat(p->path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", p->path, strerror(errno));
		return -1;
	}
	pv->dev = st.st_dev;
	pv->ino = st.st_ino;
	struct elfsym_loc loc;
	if (p->symbol) {
		if (elfsym_resolve(p->path, p->symbol, p->offset, &loc, err, errlen) < 0)
			return -1;
	} else if (elfsym_containing(p->path, p->offset, &loc) < 0) {
		pv->fo = p->offset;	/* no function around it: nothing to check it against */
		return 0;
	}
	pv->fo = loc.file_off;
	if (check_file_insn(p->path, &loc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", where(p, w, sizeof(w)), why);
		return -1;
	}
	return 0;
}

/* Map a scratch page near `near` in the process, by making the stopped thread tid call mmap. */
static uint64_t map_page(struct pproc *p, pid_t tid, uint64_t near)
{
	uint64_t skip[16];
	size_t nskip = 0;
	if (!p->sc_insn || !tid)
		return 0;
	while (nskip < 16) {
		struct pm_maps m;
		if (pm_maps_read(p->pid, &m) < 0)
			return 0;
		uint64_t cand = pm_maps_gap(&m, near, 4096, skip, nskip);
		pm_maps_free(&m);
		if (!cand)
			return 0;
		uint64_t args[6] = { cand, 4096, PROT_READ | PROT_EXEC,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, (uint64_t)-1, 0 };
		long r = pm_inject_syscall(p->pid, tid, p->sc_insn, SYS_mmap, args);
		if ((uint64_t)r == cand)
			return cand;
		if (r == -ESRCH)
			return 0;
		if (r > 0 && r < -4095L) {
			/* an old kernel took the address as a hint only: give it back */
			uint64_t un[6] = { (uint64_t)r, 4096 };
			pm_inject_syscall(p->pid, tid, p->sc_insn, SYS_munmap, un);
		}
		skip[nskip++] = cand;
	}
	return 0;
}

static struct scratch *add_page(struct pproc *p, uint64_t addr)
{
	p->pages = xrealloc(p->pages, (p->npages + 1) * sizeof(*p->pages));
	struct scratch *sp = &p->pages[p->npages++];
	sp->addr = addr;
	sp->used = 0;
	return sp;
}

/* A free slot within reach of addr: from a page we have, or a new one. */
static uint64_t slot_for(struct pproc *p, pid_t tid, uint64_t addr)
{
	for (unsigned i = 0; i < p->npages; i++) {
		struct scratch *sp = &p->pages[i];
		if (sp->used < SLOTS_PER_PAGE && xol_near(addr, sp->addr))
			return sp->addr + XOL_SLOT_SIZE * sp->used++;
	}
	uint64_t page = map_page(p, tid, addr);
	if (!page)
		return 0;
	struct scratch *sp = add_page(p, page);
	return sp->addr + XOL_SLOT_SIZE * sp->used++;
}

/* Check that an address-only probe is on an instruction boundary of the function around it. */
static int check_boundary(const struct pm_maps *m, uint64_t addr, char *why, size_t len)
{
	const struct pm_map *e = pm_maps_find(m, addr);
	if (!e) {
		snprintf(why, len, "nothing is mapped there");
		return -1;
	}
	if (e->perms[2] != 'x') {
		snprintf(why, len, "it is not in executable memory");
		return -1;
	}
	struct elfsym_loc loc;
	if (!e->path || e->path[0] != '/' || elfsym_containing(e->path, addr - e->start + e->off, &loc))
		return 0;	/* no function known around it */
	return check_file_insn(e->path, &loc, why, len);
}

/* Put a new int3 at addr (a tombstone there is brought back); NULL with why. */
static struct bp *plant(struct pproc *p, pid_t tid, uint64_t addr, const struct pm_maps *m,
			bool check, char *why, size_t len)
{
	uint8_t code[XOL_INSN_MAX + 1] = { 0 };
	const struct pm_map *e = pm_maps_find(m, addr);
	size_t n = e && e->end - addr < sizeof(code) ? (size_t)(e->end - addr) : sizeof(code);
	struct xol_insn in;
	struct xol_slot xs;
	if (check && check_boundary(m, addr, why, len) < 0)
		return NULL;
	if (pm_read(p->memfd, addr, code, n) < 0) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	if (xol_decode(code, n, addr, &in, why, len) < 0)
		return NULL;
	uint64_t slot = slot_for(p, tid, addr);
	if (!slot) {
		snprintf(why, len, "no scratch page could be mapped within 1 GB of it");
		return NULL;
	}
	if (xol_build(&in, code, addr, slot, &xs, why, len) < 0)
		return NULL;
	static const uint8_t int3 = 0xcc;
	if (pm_write(p->memfd, tid, slot, xs.code, xs.size) < 0 ||
	    pm_write(p->memfd, tid, addr, &int3, 1) < 0) {
		snprintf(why, len, "cannot write the tracee's code: %s", strerror(errno));
		return NULL;
	}
	struct bp *b = bpt_add(&p->bps, addr);
	memcpy(b->code, code, sizeof(b->code));
	b->insn = in;
	b->slot = xs;
	b->slot_addr = slot;
	b->n = 0;
	b->has_post = b->has_ret = false;
	b->internal = false;
	b->removed = false;
	b->dev = e && e->path ? e->dev : 0;
	b->ino = e && e->path ? e->ino : 0;
	return b;
}

/* Where probe pr lands in this process (0: not here). */
static uint64_t resolve(const struct pproc *p, const struct tk_probe *pr, const struct pm_maps *m)
{
	const struct probe_priv *pv = pr->priv;
	if (pr->path)
		return pm_maps_addr(m, pv->dev, pv->ino, pv->fo);
	return p->addr_ok ? pr->addr : 0;
}

static void place_one(struct tk_session *s, struct pproc *p, pid_t tid, struct tk_probe *pr,
		      const struct pm_maps *m)
{
	uint64_t addr = resolve(p, pr, m);
	if (!addr)
		return;
	struct bp *b = bpt_get(&p->bps, addr);
	if (b && b->removed && bp_has_probe(b, pr))
		return;	/* it failed here before */
	if (!b || b->removed) {
		char why[256], w[600];
		b = plant(p, tid, addr, m, !pr->path, why, sizeof(why));
		if (!b) {
			sess_warn(s, "cannot probe %s at %#llx in process %d: %s", where(pr, w, sizeof(w)),
				  (unsigned long long)addr, (int)p->pid, why);
			/* a tombstone, so this is not tried again at every library change */
			b = bpt_add(&p->bps, addr);
			b->removed = true;
			bp_add_probe(b, pr);
			return;
		}
	}
	if (!bp_has_probe(b, pr))
		bp_add_probe(b, pr);
}

void place_all(struct tk_session *s, struct pproc *p, pid_t tid)
{
	struct pm_maps m;
	p->pending = false;
	if (pm_maps_read(p->pid, &m) < 0)
		return;
	for (size_t i = 0; i < s->nprobes; i++)
		place_one(s, p, tid, s->probes[i], &m);
	pm_maps_free(&m);
}

/* The dynamic linker's load address, from the auxiliary vector (AT_BASE). */
static uint64_t interp_base(pid_t pid)
{
	char path[64];
	uint64_t av[2], base = 0;
	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (read(fd, av, sizeof(av)) == sizeof(av) && av[0]) {
		if (av[0] == 7 /* AT_BASE */)
			base = av[1];
	}
	close(fd);
	return base;
}

/* A breakpoint of our own on _dl_debug_state, to see libraries come and go. */
static void watch_rbrk(struct tk_session *s, struct pproc *p, pid_t tid, const struct pm_maps *m)
{
	const struct pm_map *e = pm_maps_find(m, interp_base(p->pid));
	struct elfsym_loc loc;
	char err[256], why[256];
	if (!e || !e->path || elfsym_resolve(e->path, "_dl_debug_state", 0, &loc, err, sizeof(err)))
		return;	/* static, or an unknown dynamic linker: only what is mapped now */
	uint64_t addr = pm_maps_addr(m, e->dev, e->ino, loc.file_off);
	if (!addr)
		return;
	struct bp *b = bpt_get(&p->bps, addr);
	if (!b || b->removed)
		b = plant(p, tid, addr, m, false, why, sizeof(why));
	if (!b) {
		sess_warn(s, "libraries loaded later by process %d will not be probed: %s", (int)p->pid,
			  why);
		return;
	}
	b->internal = true;
	p->rbrk = addr;
}

int place_install(struct tk_session *s, struct pproc *p, pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", p->pid);
	if (p->memfd < 0 && (p->memfd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		sess_warn(s, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	struct pm_maps m;
	if (pm_maps_read(p->pid, &m) < 0)
		return -1;
	p->sc_insn = pm_find_syscall_insn(p->memfd, &m);
	const struct pm_map *exe = m.n ? &m.v[0] : NULL;
	/* The first page holds the return trampoline: one int3, in slot 0. */
	uint64_t page = exe ? map_page(p, tid, exe->start) : 0;
	if (!page) {
		pm_maps_free(&m);
		sess_warn(s, "cannot map a scratch page in process %d%s", (int)p->pid,
			  p->sc_insn ? "" : " (no vDSO to borrow a syscall instruction from)");
		return -1;
	}
	static const uint8_t int3 = 0xcc;
	pm_write(p->memfd, tid, page, &int3, 1);
	add_page(p, page)->used = 1;
	p->tramp = page;
	watch_rbrk(s, p, tid, &m);
	pm_maps_free(&m);
	place_all(s, p, tid);
	return 0;
}

void place_libs_changed(struct tk_session *s, struct pproc *p, pid_t tid)
{
	struct pm_maps m;
	if (pm_maps_read(p->pid, &m) < 0)
		return;
	/* A breakpoint whose file is no longer mapped there went with its library. */
	bpt_foreach(&p->bps, b) {
		if (b->removed || b->internal || !b->ino)
			continue;
		const struct pm_map *e = pm_maps_find(&m, b->addr);
		if (!e || e->ino != b->ino || e->dev != b->dev) {
			b->removed = true;
			b->n = 0;
		}
	}
	pm_maps_free(&m);
	place_all(s, p, tid);
}

static void unplant(struct pproc *p, pid_t tid, struct bp *b)
{
	if (!b->removed)
		pm_write(p->memfd, tid, b->addr, b->code, 1);
	b->removed = true;
}

void place_remove(struct tk_session *s, struct pproc *p, pid_t tid, struct tk_probe *pr)
{
	(void)s;
	bpt_foreach(&p->bps, b) {
		if (bp_del_probe(b, pr) && !b->n && !b->internal)
			unplant(p, tid, b);
	}
}

void place_restore_all(struct tk_session *s, struct pproc *p)
{
	bpt_foreach(&p->bps, b)
		unplant(p, 0, b);
	/* Return addresses still swapped for the trampoline go back on the stacks. */
	tidmap_foreach(&s->threads, slot) {
		struct pthr *th = slot->val;
		if (th->tgid != p->pid)
			continue;
		for (unsigned i = 0; i < th->nrs; i++) {
			uint64_t v = 0;
			if (pm_read(p->memfd, th->rs[i].sp_slot, &v, 8) == 0 && v == p->tramp)
				pm_write(p->memfd, 0, th->rs[i].sp_slot, &th->rs[i].ret, 8);
		}
	}
}
