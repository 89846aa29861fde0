/* Resource limits and usage: getrlimit, setrlimit, prlimit64, getrusage, priorities. */
#include <stdio.h>
#include <sys/resource.h>

#include "print_pid.h"
#include "print_time.h"

/* strace's rlimit numbers: 8192*1024 for whole kibibytes, RLIM64_INFINITY for none. */
static void p_rlim_val(struct sc_call *c, uint64_t v, const char *inf)
{
	bool kib = v > 1024 && v % 1024 == 0;
	if (xlat_style != XLAT_STYLE_ABBREV || (v != UINT64_MAX && !kib)) {
		out(c, "%llu", (unsigned long long)v);
		if (xlat_style != XLAT_STYLE_VERBOSE || (v != UINT64_MAX && !kib))
			return;
		out(c, " /* ");
	}
	if (v == UINT64_MAX)
		out(c, "%s", inf);
	else
		out(c, "%llu*1024", (unsigned long long)(v / 1024));
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " */");
}

static void p_rlimit(struct sc_call *c, uint64_t addr, const char *inf)
{
	uint64_t r[2];
	if (p_fetch(c, addr, r, sizeof(r)) < 0)
		return;
	out(c, "{rlim_cur=");
	p_rlim_val(c, r[0], inf);
	out(c, ", rlim_max=");
	p_rlim_val(c, r[1], inf);
	out(c, "}");
}

static void p_resource(struct sc_call *c, uint64_t res)
{
	p_xval(c, &xlat_resources, (unsigned)res, "RLIMIT_???");
}

SC_DECODER(getrlimit, MEM_BYTES_OUT(1, 16))
{
	if (c->entering) {
		p_resource(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_rlimit(c, c->args[1], "RLIM64_INFINITY");
	return 0;
}

SC_DECODER(setrlimit, MEM_BYTES_IN(1, 16))
{
	p_resource(c, c->args[0]);
	p_sep(c);
	p_rlimit(c, c->args[1], "RLIM64_INFINITY");
	return SC_DONE;
}

SC_DECODER(prlimit64, MEM_BYTES_IN(2, 16), MEM_BYTES_OUT(3, 16))
{
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
		p_resource(c, c->args[1]);
		p_sep(c);
		p_rlimit(c, c->args[2], "RLIM64_INFINITY");
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[3]);
	else
		p_rlimit(c, c->args[3], "RLIM64_INFINITY");
	return 0;
}

SC_DECODER(getrusage, MEM_STRUCT_OUT(1, struct rusage))
{
	if (c->entering) {
		p_xval(c, &xlat_usagewho, (uint64_t)(int64_t)(int)c->args[0], "RUSAGE_???");
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_rusage(c, c->args[1]);
	return 0;
}

/* PRIO_PROCESS, pid or PRIO_PGRP, pgid: which pids those are (PRIO_USER: a uid). */
static void p_prio_who(struct sc_call *c)
{
	unsigned which = (unsigned)c->args[0];
	p_xval(c, &xlat_priorities, which, "PRIO_???");
	p_sep(c);
	if (which == PRIO_PROCESS)
		p_pid(c, (int)c->args[1], SC_PT_TGID);
	else if (which == PRIO_PGRP)
		p_pid(c, (int)c->args[1], SC_PT_PGID);
	else
		out(c, "%d", (int)c->args[1]);
}

SC_DECODER(getpriority)
{
	p_prio_who(c);
	return SC_DONE;
}

SC_DECODER(setpriority)
{
	p_prio_who(c);
	out(c, ", %d", (int)c->args[2]);
	return SC_DONE;
}
