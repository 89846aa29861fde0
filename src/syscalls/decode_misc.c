/*
 * The rest of the process family: scheduling (policy, priority,
 * affinity), system information (uname, sysinfo) and getrandom.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "print_pid.h"
#include "print_signal.h"
#include "print_time.h"

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
		p_pid(c, (int)c->args[0], SC_PT_TGID);
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
	unsigned policy = (unsigned)c->args[1];
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	if (!xlat_str(&xlat_schedulers, policy & ~0x40000000u)) {
		p_xval(c, &xlat_schedulers, policy, "SCHED_???");	/* unknown: the whole value */
	} else {
		p_xval(c, &xlat_schedulers, policy & ~0x40000000u, NULL);
		if (policy & 0x40000000u)
			out(c, "|SCHED_RESET_ON_FORK");
	}
	p_sep(c);
	p_sched_param(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(sched_setparam, MEM_STRUCT_IN(1, int))
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	p_sched_param(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(sched_getparam, MEM_STRUCT_OUT(1, int))
{
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_sched_param(c, c->args[1]);
	return 0;
}

SC_DECODER(sched_rr_get_interval, MEM_STRUCT_OUT(1, struct timespec))
{
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
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
	if (addr && !len) {
		out(c, "[]");
		return;
	}
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
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		out(c, ", %llu, ", (unsigned long long)c->args[1]);
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
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	out(c, ", %llu, ", (unsigned long long)c->args[1]);
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
