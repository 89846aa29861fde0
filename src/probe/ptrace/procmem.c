/* A traced process's mappings and memory; see procmem.h. */
#include "procmem.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/die.h"

int pm_maps_read(pid_t pid, struct pm_maps *m)
{
	char path[64], line[4096 + 128];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	memset(m, 0, sizeof(*m));
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		struct pm_map e = { 0 };
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		int pos = 0;
		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, e.perms, &off, &maj,
			   &min, &ino, &pos) < 7)
			continue;
		e.start = start;
		e.end = end;
		e.off = off;
		e.ino = ino;
		e.dev = makedev(maj, min);
		char *name = line + pos;
		name[strcspn(name, "\n")] = 0;
		if (*name)
			e.path = xstrdup(name);
		if (m->n == cap) {
			cap = cap ? cap * 2 : 64;
			m->v = xrealloc(m->v, cap * sizeof(*m->v));
		}
		m->v[m->n++] = e;
	}
	fclose(f);
	return 0;
}

void pm_maps_free(struct pm_maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

const struct pm_map *pm_maps_find(const struct pm_maps *m, uint64_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->v[i].start && addr < m->v[i].end)
			return &m->v[i];
	return NULL;
}

uint64_t pm_maps_addr(const struct pm_maps *m, uint64_t dev, uint64_t ino, uint64_t fo)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct pm_map *e = &m->v[i];
		if (e->ino != ino || e->dev != dev || e->perms[2] != 'x')
			continue;
		if (fo >= e->off && fo < e->off + (e->end - e->start))
			return e->start + (fo - e->off);
	}
	return 0;
}

#define LOWEST 0x10000ull		/* below vm.mmap_min_addr */
#define HIGHEST 0x7ffffffff000ull	/* the 47-bit user address space */
#define REACH (1ull << 30)

static bool skipped(uint64_t a, const uint64_t *skip, size_t nskip)
{
	for (size_t i = 0; i < nskip; i++)
		if (skip[i] == a)
			return true;
	return false;
}

uint64_t pm_maps_gap(const struct pm_maps *m, uint64_t near, size_t len, const uint64_t *skip,
		     size_t nskip)
{
	uint64_t best = 0, bestd = REACH;
	/* Leave a page free beside each neighbour (the heap's brk grows up, stacks grow down). */
	const uint64_t pad = 0x1000;
	for (size_t i = 0; i <= m->n; i++) {
		uint64_t lo = i ? m->v[i - 1].end : LOWEST;
		uint64_t hi = i < m->n ? m->v[i].start : HIGHEST;
		if (hi <= lo || hi - lo < len + 2 * pad)
			continue;
		lo += pad;
		hi -= pad;
		/* the end of the gap nearest to near: its top when below, its bottom when above */
		uint64_t cand = hi - len <= near ? hi - len : lo >= near ? lo : (near & ~0xfffull);
		if (cand + len > hi)
			cand = hi - len;
		cand &= ~0xfffull;
		if (cand < lo || skipped(cand, skip, nskip))
			continue;
		uint64_t d = cand > near ? cand - near + len : near - cand;
		/* below the code is preferred: count what lies above as twice as far */
		if (cand > near)
			d *= 2;
		if (d < bestd) {
			bestd = d;
			best = cand;
		}
	}
	return best;
}

int pm_read(int memfd, uint64_t addr, void *buf, size_t len)
{
	return pread(memfd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

int pm_write(int memfd, pid_t tid, uint64_t addr, const void *buf, size_t len)
{
	if (pwrite(memfd, buf, len, (off_t)addr) == (ssize_t)len)
		return 0;
	if (!tid)
		return -1;
	/* Kernels built to refuse /proc/PID/mem writes to read-only pages still allow POKEDATA. */
	const uint8_t *b = buf;
	for (size_t done = 0; done < len;) {
		uint64_t word_addr = (addr + done) & ~7ull;
		errno = 0;
		long word = ptrace(PTRACE_PEEKDATA, tid, (void *)word_addr, 0L);
		if (errno)
			return -1;
		size_t at = (size_t)(addr + done - word_addr);
		size_t n = 8 - at < len - done ? 8 - at : len - done;
		memcpy((char *)&word + at, b + done, n);
		if (ptrace(PTRACE_POKEDATA, tid, (void *)word_addr, (void *)word) < 0)
			return -1;
		done += n;
	}
	return 0;
}

uint64_t pm_find_syscall_insn(int memfd, const struct pm_maps *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct pm_map *e = &m->v[i];
		if (!e->path || strcmp(e->path, "[vdso]") || e->end - e->start > (1u << 20))
			continue;
		size_t len = e->end - e->start;
		uint8_t *buf = xmalloc(len);
		uint64_t found = 0;
		if (pm_read(memfd, e->start, buf, len) == 0) {
			for (size_t j = 0; j + 1 < len; j++) {
				if (buf[j] == 0x0f && buf[j + 1] == 0x05) {
					found = e->start + j;
					break;
				}
			}
		}
		free(buf);
		return found;
	}
	return 0;
}

/*
 * Step tid once and wait for the trap.  Signals that stop it first are
 * remembered in *sigs (a bit each) and the step is retried.
 */
static int step_once(pid_t tid, uint64_t *sigs)
{
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, tid, 0L, 0L) < 0)
			return -1;
		int st;
		pid_t got;
		while ((got = waitpid(tid, &st, __WALL)) < 0 && errno == EINTR)
			;
		if (got < 0 || !WIFSTOPPED(st))
			return -1;
		int sig = WSTOPSIG(st);
		if (sig == SIGTRAP && !(st >> 16))
			return 0;
		if (!(st >> 16) && sig != SIGTRAP && sig < 64)
			*sigs |= 1ull << sig;
	}
}

static void requeue(pid_t tgid, pid_t tid, uint64_t sigs)
{
	for (int sig = 1; sig < 64; sig++)
		if (sigs & (1ull << sig))
			syscall(SYS_tgkill, tgid, tid, sig);
}

int pm_step(pid_t tgid, pid_t tid)
{
	uint64_t sigs = 0;
	int rc = step_once(tid, &sigs);
	requeue(tgid, tid, sigs);
	return rc;
}

long pm_inject_syscall(pid_t tgid, pid_t tid, uint64_t insn, long nr, const uint64_t args[6])
{
	struct user_regs_struct saved, r;
	if (ptrace(PTRACE_GETREGS, tid, 0L, &saved) < 0)
		return -ESRCH;
	r = saved;
	r.rip = insn;
	r.rax = (uint64_t)nr;
	r.orig_rax = (uint64_t)-1;	/* no syscall restart on the way out of this stop */
	r.rdi = args[0];
	r.rsi = args[1];
	r.rdx = args[2];
	r.r10 = args[3];
	r.r8 = args[4];
	r.r9 = args[5];
	if (ptrace(PTRACE_SETREGS, tid, 0L, &r) < 0)
		return -ESRCH;
	uint64_t sigs = 0;
	if (step_once(tid, &sigs) < 0)
		return -ESRCH;
	long ret = -ESRCH;
	if (ptrace(PTRACE_GETREGS, tid, 0L, &r) == 0)
		ret = (long)r.rax;
	ptrace(PTRACE_SETREGS, tid, 0L, &saved);
	requeue(tgid, tid, sigs);
	return ret;
}
