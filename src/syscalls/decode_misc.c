/*
 * The rest of the process family: prctl, scheduling (policy, priority,
 * affinity), system information (uname, sysinfo) and getrandom.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "print_signal.h"
#include "print_time.h"

/* ---- prctl --------------------------------------------------------------- */

#define TASK_COMM_LEN 16

/* Arguments from index first to 4, in hex: what strace prints for options it does not decode. */
static void p_prctl_rest(struct sc_call *c, int first)
{
	for (int i = first; i <= 4; i++)
		out(c, ", %#llx", (unsigned long long)c->args[i]);
}

/* A NUL-terminated name of at most max bytes (the kernel's comm). */
static void p_comm(struct sc_call *c, uint64_t addr, size_t max)
{
	const unsigned char *p;
	long n = addr ? sc_mem_peek(c, addr, max, &p) : -1;
	if (n < 0) {
		p_addr(c, addr);
		return;
	}
	const unsigned char *nul = memchr(p, 0, (size_t)n);
	if (nul)
		p_quoted(c, p, (size_t)(nul - p), false);
	else
		p_quoted(c, p, (size_t)n, (size_t)n >= max);
}

/* Options that read nothing and write nothing but the return value. */
static bool prctl_bare(unsigned op)
{
	switch (op) {
	case PR_GET_KEEPCAPS:
	case PR_GET_TIMING:
	case PR_GET_SECCOMP:
	case PR_GET_TIMERSLACK:
	case PR_TASK_PERF_EVENTS_DISABLE:
	case PR_TASK_PERF_EVENTS_ENABLE:
	case PR_GET_DUMPABLE:
	case PR_GET_NO_NEW_PRIVS:
	case PR_GET_THP_DISABLE:
	case PR_GET_IO_FLUSHER:
		return true;
	}
	return false;
}

/* Options taking one value and ignoring (but checking) the rest. */
static int prctl_set_value(unsigned op)
{
	switch (op) {
	case PR_SET_KEEPCAPS:
	case PR_SET_FPEMU:
	case PR_SET_FPEXC:
	case PR_SET_TIMING:
	case PR_SET_ENDIAN:
	case PR_SET_CHILD_SUBREAPER:
		return 1;	/* value only */
	case PR_SET_NO_NEW_PRIVS:
	case PR_SET_THP_DISABLE:
	case PR_SET_IO_FLUSHER:
		return 2;	/* value, then the rest in hex */
	}
	return 0;
}

static int prctl_entry(struct sc_call *c, unsigned op)
{
	uint64_t arg2 = c->args[1];
	p_xval(c, &xlat_prctl_options, op, "PR_???");
	if (prctl_bare(op))
		return op == PR_GET_DUMPABLE ? 0 : SC_DONE;
	int kind = prctl_set_value(op);
	if (kind) {
		out(c, ", %llu", (unsigned long long)arg2);
		if (kind == 2)
			for (int i = 2; i <= 4; i++)
				out(c, ", %llu", (unsigned long long)c->args[i]);
		return SC_DONE;
	}
	switch (op) {
	case PR_SET_PDEATHSIG:
		p_sep(c);
		if (arg2 > 128)
			out(c, "%llu", (unsigned long long)arg2);
		else
			p_sig(c, (int)arg2);
		return SC_DONE;
	case PR_SET_DUMPABLE:
		p_sep(c);
		p_xval(c, &xlat_pr_dumpable, arg2, "SUID_DUMP_???");
		return SC_DONE;
	case PR_SET_NAME:
		p_sep(c);
		p_comm(c, arg2, TASK_COMM_LEN - 1);
		return SC_DONE;
	case PR_CAPBSET_READ:
	case PR_CAPBSET_DROP:
		p_sep(c);
		p_xval(c, &xlat_capabilities, arg2, "CAP_???");
		return SC_DONE;
	case PR_SET_TIMERSLACK:
		out(c, ", %lld", (long long)arg2);
		return SC_DONE;
	case PR_GET_PDEATHSIG:
	case PR_GET_NAME:
	case PR_GET_TID_ADDRESS:
	case PR_GET_CHILD_SUBREAPER:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC:
	case PR_GET_ENDIAN:
		return 0;
	}
	p_prctl_rest(c, 1);
	return SC_DONE;
}

SC_DECODER(prctl, MEM_STR_IN(1), MEM_BYTES_OUT(1, TASK_COMM_LEN))
{
	unsigned op = (unsigned)c->args[0];
	uint64_t arg2 = c->args[1];
	if (c->entering)
		return prctl_entry(c, op);
	if (op == PR_GET_DUMPABLE) {
		const char *s = sc_failed(c) ? NULL : xlat_str(&xlat_pr_dumpable, (uint64_t)c->ret);
		if (s)
			snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", s);
		return 0;
	}
	p_sep(c);
	if (sc_failed(c)) {
		p_addr(c, arg2);
		return 0;
	}
	if (op == PR_GET_NAME) {
		p_comm(c, arg2, TASK_COMM_LEN);
		return 0;
	}
	uint64_t v = 0;
	if (p_fetch(c, arg2, &v, op == PR_GET_TID_ADDRESS ? 8 : 4) < 0)
		return 0;
	if (op == PR_GET_PDEATHSIG) {
		out(c, "[");
		p_sig(c, (int)v);
		out(c, "]");
	} else if (op == PR_GET_TID_ADDRESS) {
		out(c, "[%#llx]", (unsigned long long)v);
	} else {
		out(c, "[%u]", (unsigned)v);
	}
	return 0;
}

/* ---- scheduling ---------------------------------------------------------- */

static void p_policy(struct sc_call *c, uint64_t v)
{
	p_xval(c, &xlat_schedulers, (unsigned)v, "SCHED_???");
}

/* sched_get_priority_max and _min: a policy. */
SC_DECODER(sched_get_priority_max)
{
	p_policy(c, c->args[0]);
	return SC_DONE;
}

SC_DECODER(sched_getscheduler)
{
	if (c->entering) {
		p_int(c, c->args[0]);
		return 0;
	}
	if (sc_failed(c))
		return 0;
	unsigned v = (unsigned)c->ret;
	const char *s = xlat_str(&xlat_schedulers, v & ~0x40000000u);
	if (!s)
		return 0;
	snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s%s)", s,
		 v & 0x40000000u ? "|SCHED_RESET_ON_FORK" : "");
	return 0;
}

static void p_sched_param(struct sc_call *c, uint64_t addr)
{
	int prio;
	if (p_fetch(c, addr, &prio, sizeof(prio)) == 0)
		out(c, "[%d]", prio);
}

SC_DECODER(sched_setscheduler, MEM_STRUCT_IN(2, int))
{
	out(c, "%d, ", (int)c->args[0]);
	p_xval(c, &xlat_schedulers, (unsigned)c->args[1] & ~0x40000000u, "SCHED_???");
	if (c->args[1] & 0x40000000u)
		out(c, "|SCHED_RESET_ON_FORK");
	p_sep(c);
	p_sched_param(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(sched_setparam, MEM_STRUCT_IN(1, int))
{
	out(c, "%d, ", (int)c->args[0]);
	p_sched_param(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(sched_getparam, MEM_STRUCT_OUT(1, int))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_sched_param(c, c->args[1]);
	return 0;
}

SC_DECODER(sched_rr_get_interval, MEM_STRUCT_OUT(1, struct timespec))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_timespec(c, c->args[1]);
	return 0;
}

#define AFFINITY_CAP 1024u	/* mask bytes copied at most: 8192 CPUs */

/* [0 1 5]: the CPUs whose bits are set in len bytes at addr. */
static void p_cpu_mask(struct sc_call *c, uint64_t addr, uint64_t len)
{
	const unsigned char *m;
	if (len > AFFINITY_CAP)
		len = AFFINITY_CAP;
	long n = addr ? sc_mem_peek(c, addr, (size_t)len, &m) : -1;
	if (n < 0 || (uint64_t)n < len) {
		p_addr(c, addr);
		return;
	}
	char sep = '[';
	for (uint64_t i = 0; i < len * 8; i++) {
		if (m[i / 8] & (1u << (i % 8))) {
			out(c, "%c%llu", sep, (unsigned long long)i);
			sep = ' ';
		}
	}
	if (sep == '[')
		out(c, "[");
	out(c, "]");
}

static size_t affinity_ret_len(const struct sc_call *c)
{
	return c->ret > 0 && c->ret < AFFINITY_CAP ? (size_t)c->ret : AFFINITY_CAP;
}

static size_t affinity_arg_len(const struct sc_call *c)
{
	return c->args[1] < AFFINITY_CAP ? (size_t)c->args[1] : AFFINITY_CAP;
}

/* .size caps the length: without it the engine would copy only -s bytes. */
#define MEM_CPU_MASK(when_, fn)	{ .arg = 2, .kind = SC_MEM_BUF, .when = (when_), .len_src = SC_LEN_FN,	\
				  .len_fn = (fn), .size = AFFINITY_CAP }

SC_DECODER(sched_getaffinity, MEM_CPU_MASK(SC_AT_EXIT, affinity_ret_len))
{
	if (c->entering) {
		out(c, "%d, %llu, ", (int)c->args[0], (unsigned long long)c->args[1]);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[2]);
	else
		p_cpu_mask(c, c->args[2], (uint64_t)c->ret);
	return 0;
}

SC_DECODER(sched_setaffinity, MEM_CPU_MASK(SC_AT_ENTRY, affinity_arg_len))
{
	out(c, "%d, %llu, ", (int)c->args[0], (unsigned long long)c->args[1]);
	p_cpu_mask(c, c->args[2], c->args[1]);
	return SC_DONE;
}

SC_DECODER(getcpu, MEM_STRUCT_OUT(0, unsigned), MEM_STRUCT_OUT(1, unsigned))
{
	unsigned v;
	if (c->entering)
		return 0;
	for (int i = 0; i < 2; i++) {
		if (!p_failed_addr(c, c->args[i]) && p_fetch(c, c->args[i], &v, sizeof(v)) == 0)
			out(c, "[%u]", v);
		p_sep(c);
	}
	p_addr(c, c->args[2]);
	return 0;
}

/* ---- system information -------------------------------------------------- */

static void p_field_str(struct sc_call *c, const char *name, const char *s, size_t max)
{
	out(c, "%s=", name);
	p_quoted(c, (const unsigned char *)s, strnlen(s, max), false);
}

SC_DECODER(uname, MEM_STRUCT_OUT(0, struct utsname))
{
	struct utsname u;
	if (c->entering)
		return 0;
	if (p_failed_addr(c, c->args[0]) || p_fetch(c, c->args[0], &u, sizeof(u)) < 0)
		return 0;
	out(c, "{");
	p_field_str(c, "sysname", u.sysname, sizeof(u.sysname));
	p_sep(c);
	p_field_str(c, "nodename", u.nodename, sizeof(u.nodename));
	if (!c->fmt || !c->fmt->verbose) {
		out(c, ", ...}");
		return 0;
	}
	p_sep(c);
	p_field_str(c, "release", u.release, sizeof(u.release));
	p_sep(c);
	p_field_str(c, "version", u.version, sizeof(u.version));
	p_sep(c);
	p_field_str(c, "machine", u.machine, sizeof(u.machine));
	p_sep(c);
	p_field_str(c, "domainname", u.domainname, sizeof(u.domainname));
	out(c, "}");
	return 0;
}

SC_DECODER(sysinfo, MEM_STRUCT_OUT(0, struct sysinfo))
{
	struct sysinfo si;
	if (c->entering)
		return 0;
	if (p_failed_addr(c, c->args[0]) || p_fetch(c, c->args[0], &si, sizeof(si)) < 0)
		return 0;
	out(c, "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, freeram=%lu, sharedram=%lu"
	    ", bufferram=%lu, totalswap=%lu, freeswap=%lu, procs=%u, totalhigh=%lu"
	    ", freehigh=%lu, mem_unit=%u}",
	    si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram, si.freeram,
	    si.sharedram, si.bufferram, si.totalswap, si.freeswap, (unsigned)si.procs,
	    si.totalhigh, si.freehigh, si.mem_unit);
	return 0;
}

/* Random bytes print in hex whatever -x says, as strace does. */
SC_DECODER(getrandom, MEM_BUF_OUT_RET(0))
{
	if (c->entering)
		return 0;
	if (sc_failed(c)) {
		p_addr(c, c->args[0]);
	} else {
		struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
		const struct sc_fmt *saved = c->fmt;
		hex.xflag = 2;
		c->fmt = &hex;
		p_buf(c, c->args[0], c->ret);
		c->fmt = saved;
	}
	out(c, ", %llu, ", (unsigned long long)c->args[1]);
	p_flags(c, &xlat_getrandom_flags, (unsigned)c->args[2], "GRND_???");
	return 0;
}
