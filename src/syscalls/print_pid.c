/*
 * Pids across PID namespaces.
 *
 * A tracee in another PID namespace passes and gets pids as its namespace
 * numbers them.  /proc/N/status lists each id of a process in every namespace
 * from /proc's down to the process's own (NSpid, NStgid, NSpgid, NSsid), and
 * /proc/N/ns/pid with the NS_GET_PARENT ioctl gives the chain of namespaces
 * from the process's own up to ours.  So a number from a tracee's namespace
 * is found by looking for the process whose id at that namespace's level is
 * that number: first where it was found last time, then the tracee itself
 * (most pids a process passes are its own), then every task in /proc.
 *
 * /proc may be mounted from an outer namespace than the tracer's (a tracer
 * run under unshare -p without a new /proc): then its numbers differ from
 * ours too, and "ours" is the outermost level the ioctl lets us reach.
 *
 * The kernel mode prints a call after the fact, when a short-lived process
 * may be gone from /proc: its BPF program tells a task's ids at its calls
 * (sc_pid_learn), and those are asked first.
 */
#include "print_pid.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"

#define NS_DEPTH_MAX 33		/* the kernel nests at most 32 PID namespaces */

static const char *const status_key[] = {
	[SC_PT_TID] = "NSpid:", [SC_PT_TGID] = "NStgid:",
	[SC_PT_PGID] = "NSpgid:", [SC_PT_SID] = "NSsid:",
};

/* The namespaces of /proc/<proc>, its own first; returns how many. */
static size_t ns_chain(int proc, unsigned long *ns, size_t max)
{
	char path[64];
	if (proc)
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", proc);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/pid");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	while (fd >= 0 && n < max) {
		struct stat st;
		if (fstat(fd, &st) < 0)
			break;
		ns[n++] = (unsigned long)st.st_ino;
		/* EPERM above the namespace we were born in: that is "ours" */
		int parent = ioctl(fd, NS_GET_PARENT);
		close(fd);
		fd = parent;
	}
	if (fd >= 0)
		close(fd);
	return n;
}

/* The ids of /proc/<proc> in each namespace, /proc's first; returns how many. */
static size_t id_list(int proc, enum sc_pid_type type, int *ids, size_t max)
{
	char path[64], line[512];
	if (proc)
		snprintf(path, sizeof(path), "/proc/%d/status", proc);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = 0, klen = strlen(status_key[type]);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, status_key[type], klen) != 0)
			continue;
		char *p = line + klen, *end;
		while (n < max) {
			long v = strtol(p, &end, 10);
			if (end == p)
				break;
			ids[n++] = (int)v;
			p = end;
		}
		break;
	}
	fclose(f);
	return n;
}

static bool proc_is_ours(void)
{
	static int ours = -1;
	int ids[NS_DEPTH_MAX];
	if (ours < 0)
		ours = id_list(0, SC_PT_TID, ids, NS_DEPTH_MAX) <= 1;
	return ours;
}

static unsigned long our_ns(void)
{
	static unsigned long ns;
	if (!ns)
		ns_chain(0, &ns, 1);
	return ns;
}

/* What /proc/<proc> says id in namespace from_ns is in ours: 0 when not that process. */
static int try_proc(int proc, unsigned long from_ns, int id, enum sc_pid_type type)
{
	unsigned long ns[NS_DEPTH_MAX];
	int ids[NS_DEPTH_MAX];
	size_t nns = ns_chain(proc, ns, NS_DEPTH_MAX);
	size_t nids = id_list(proc, type, ids, NS_DEPTH_MAX);
	if (!nns || nids < nns)
		return 0;
	for (size_t i = 0; i < nns; i++) {
		if (ns[i] != from_ns)
			continue;
		return ids[nids - 1 - i] == id ? ids[nids - nns] : 0;
	}
	return 0;
}

/*
 * What the trace told (sc_pid_learn): an id in a namespace -> ours, and a
 * task -> its namespace.  Direct-mapped, so bounded: a fact pushed out by
 * another is asked of /proc again, as without them.
 */
#define LEARNED 4096
static struct learned {
	unsigned long ns;
	int id, type, ours;
} learned[LEARNED];
static struct learned_task {
	pid_t tid;
	unsigned long ns;
} learned_task[LEARNED];

static struct learned *learned_slot(unsigned long ns, int id, enum sc_pid_type type)
{
	return &learned[(ns * 31 + (unsigned long)id * 4 + type) % LEARNED];
}

void sc_pid_learn(pid_t tid, const struct sc_pid_level *lv, size_t n)
{
	size_t o = 0;
	while (o < n && lv[o].ns != our_ns())
		o++;
	if (o == n || tid <= 0)
		return;
	learned_task[(size_t)tid % LEARNED] = (struct learned_task){ tid, lv[0].ns };
	for (size_t l = 0; l < o; l++)
		for (int t = SC_PT_TID; t <= SC_PT_SID; t++)
			if (lv[l].id[t] > 0 && lv[o].id[t] > 0)
				*learned_slot(lv[l].ns, lv[l].id[t], t) =
					(struct learned){ lv[l].ns, lv[l].id[t], t, lv[o].id[t] };
}

static int learned_id(unsigned long ns, int id, enum sc_pid_type type)
{
	const struct learned *f = learned_slot(ns, id, type);
	return f->ns == ns && f->id == id && f->type == (int)type ? f->ours : 0;
}

/* The process ours (its leader's tid) was reaped: its TID and TGID facts go. */
static void unlearn(pid_t ours)
{
	for (size_t i = 0; i < LEARNED; i++)
		if (learned[i].ours == ours && (learned[i].type == SC_PT_TID || learned[i].type == SC_PT_TGID))
			learned[i] = (struct learned){ 0 };
	if (learned_task[(size_t)ours % LEARNED].tid == ours)
		learned_task[(size_t)ours % LEARNED] = (struct learned_task){ 0 };
}

/* Last finds, so that a pid printed again costs two reads, not a /proc scan. */
static struct found {
	unsigned long ns;
	int id, type, proc;
} found[64];

static struct found *slot(unsigned long ns, int id, enum sc_pid_type type)
{
	return &found[(ns * 31 + (unsigned long)id * 4 + type) % (sizeof(found) / sizeof(found[0]))];
}

static int try_dir(const char *path, bool tasks, unsigned long from_ns, int id,
		   enum sc_pid_type type, int *proc)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int r = 0;
	struct dirent *e;
	while (!r && (e = readdir(d))) {
		char *end;
		long n = strtol(e->d_name, &end, 10);
		if (*end || n <= 0 || n > 0x7fffffff)
			continue;
		if (tasks) {
			char sub[64];
			snprintf(sub, sizeof(sub), "/proc/%ld/task", n);
			r = try_dir(sub, false, from_ns, id, type, proc);
		} else {
			r = try_proc((int)n, from_ns, id, type);
			if (r)
				*proc = (int)n;
		}
	}
	closedir(d);
	return r;
}

/* id in from_ns, in ours; *proc: the /proc entry it was found at. */
static int translate(unsigned long from_ns, int hint, int id, enum sc_pid_type type, int *proc)
{
	if (id <= 0 || !from_ns)
		return 0;
	if (from_ns == our_ns() && proc_is_ours()) {
		*proc = id;
		return id;
	}
	int r = learned_id(from_ns, id, type);
	if (r) {
		*proc = proc_is_ours() ? r : 0;
		return r;
	}
	struct found *f = slot(from_ns, id, type);
	if (f->ns == from_ns && f->id == id && f->type == (int)type)
		r = try_proc(*proc = f->proc, from_ns, id, type);
	if (!r && hint)
		r = try_proc(*proc = hint, from_ns, id, type);
	/* any task holds a tgid, pgid or sid of its group: leaders suffice for those */
	if (!r)
		r = try_dir("/proc", type == SC_PT_TID, from_ns, id, type, proc);
	if (r)
		*f = (struct found){ from_ns, id, (int)type, *proc };
	return r;
}

/* The PID namespace of a tracee (by our number) and its /proc entry. */
static unsigned long tracee_ns(pid_t tid, int *proc)
{
	static struct { pid_t tid; int proc; unsigned long ns; } seen[64];
	const struct learned_task *lt = &learned_task[(size_t)tid % LEARNED];
	if (tid > 0 && lt->tid == tid) {
		*proc = proc_is_ours() ? tid : 0;
		return lt->ns;
	}
	size_t i = (size_t)tid % (sizeof(seen) / sizeof(seen[0]));
	if (seen[i].tid == tid && seen[i].ns) {
		*proc = seen[i].proc;
		return seen[i].ns;
	}
	unsigned long ns = 0;
	*proc = 0;
	if (!translate(our_ns(), 0, tid, SC_PT_TID, proc) || !ns_chain(*proc, &ns, 1))
		return 0;
	seen[i].tid = tid;
	seen[i].proc = *proc;
	seen[i].ns = ns;
	return ns;
}

static int translate_for(pid_t tracee, int id, enum sc_pid_type type, int *proc)
{
	int tracee_proc;
	unsigned long ns = tracee_ns(tracee, &tracee_proc);
	return translate(ns, tracee_proc, id, type, proc);
}

/* The child a wait call reaped, in the waiter's numbers; 0: none. */
static int reaped_child(struct sc_call *c)
{
	const char *name = c->ent ? c->ent->name : "";
	if (!strcmp(name, "wait4") && (int64_t)c->ret > 0) {
		int st;
		if (sc_mem_read(c, c->args[1], &st, sizeof(st)) == 0)
			return WIFEXITED(st) || WIFSIGNALED(st) ? (int)c->ret : 0;
		return c->args[2] & (WUNTRACED | WCONTINUED) ? 0 : (int)c->ret;
	}
	if (!strcmp(name, "waitid") && c->ret == 0 && !(c->args[3] & WNOWAIT)) {
		siginfo_t si;
		if (sc_mem_read(c, c->args[2], &si, sizeof(si)) < 0)
			return 0;
		if (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			return si.si_pid;
	}
	return 0;
}

void sc_pid_reaped(struct sc_call *c)
{
	if (!c->fmt || !(c->fmt->decode_pids & SC_DPID_PIDNS))
		return;
	int child = reaped_child(c), proc;
	unsigned long ns = child > 0 ? tracee_ns(c->tid, &proc) : 0;
	int ours = ns ? learned_id(ns, child, SC_PT_TGID) : 0;
	if (ours)
		unlearn(ours);
}

pid_t sc_pid_proc(pid_t tid)
{
	int proc;
	if (proc_is_ours() || !tracee_ns(tid, &proc))
		return tid;
	return proc;
}

int sc_pid_translate(pid_t tracee, int id, enum sc_pid_type type)
{
	int proc;
	return translate_for(tracee, id, type, &proc);
}

/* -Y: <comm> of /proc/<proc>, quoted as the line leader's (sb_comm). */
static void p_comm(struct sc_call *c, int proc)
{
	char path[64], comm[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", proc);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	size_t n = fread(comm, 1, sizeof(comm) - 1, f);
	fclose(f);
	if (n && comm[n - 1] == '\n')
		n--;
	sb_comm(c->out, comm, n);
}

void p_pid(struct sc_call *c, int pid, enum sc_pid_type type)
{
	sb_printf(c->out, "%d", pid);
	unsigned how = c->fmt ? c->fmt->decode_pids : 0;
	bool comm = (how & SC_DPID_COMM) && (type == SC_PT_TID || type == SC_PT_TGID);
	bool ns = how & SC_DPID_PIDNS;
	if (!comm && !ns)
		return;
	int proc = 0;
	int ours = translate_for(c->tid, pid, type, &proc);
	if (!ours)
		return;
	if (comm)
		p_comm(c, proc);
	if (ns && ours != pid)
		sb_printf(c->out, " /* %d in strace's PID NS */", ours);
}

void p_pid_tgid_pgid(struct sc_call *c, int pid)
{
	if (pid > 0) {
		p_pid(c, pid, SC_PT_TGID);
	} else if (pid < -1) {
		sb_printf(c->out, "%d", pid);
		unsigned how = c->fmt ? c->fmt->decode_pids : 0;
		int proc, ours = how & SC_DPID_PIDNS ?
			translate_for(c->tid, -pid, SC_PT_PGID, &proc) : 0;
		if (ours && ours != -pid)
			sb_printf(c->out, " /* %d in strace's PID NS */", ours);
	} else {
		sb_printf(c->out, "%d", pid);
	}
}

void p_pid_at(struct sc_call *c, uint64_t addr, enum sc_pid_type type)
{
	int pid;
	if (p_fetch(c, addr, &pid, sizeof(pid)) < 0)
		return;
	sb_addc(c->out, '[');
	p_pid(c, pid, type);
	sb_addc(c->out, ']');
}
