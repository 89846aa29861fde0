/* Credentials: user and group ids, supplementary groups, capabilities. */
#include <linux/capability.h>

#include "decoder.h"

/* strace prints the "unchanged" id (uid_t)-1 as -1, others unsigned. */
static void p_id(struct sc_call *c, uint64_t v)
{
	unsigned id = (unsigned)v;
	if (id == (unsigned)-1)
		out(c, "-1");
	else
		out(c, "%u", id);
}

/* setuid, setgid, setfsuid, setfsgid: one id. */
SC_DECODER(setuid)
{
	p_id(c, c->args[0]);
	return SC_DONE;
}

/* setreuid, setregid */
SC_DECODER(setreuid)
{
	p_id(c, c->args[0]);
	p_sep(c);
	p_id(c, c->args[1]);
	return SC_DONE;
}

/* setresuid, setresgid */
SC_DECODER(setresuid)
{
	p_id(c, c->args[0]);
	p_sep(c);
	p_id(c, c->args[1]);
	p_sep(c);
	p_id(c, c->args[2]);
	return SC_DONE;
}

static void p_id_out(struct sc_call *c, uint64_t addr)
{
	unsigned id;
	if (!c->entering && sc_failed(c)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &id, sizeof(id)) == 0) {
		out(c, "[");
		p_id(c, id);
		out(c, "]");
	}
}

/* getresuid, getresgid: three ids written by the kernel. */
SC_DECODER(getresuid, MEM_STRUCT_OUT(0, unsigned), MEM_STRUCT_OUT(1, unsigned),
	   MEM_STRUCT_OUT(2, unsigned))
{
	if (c->entering)
		return 0;
	p_id_out(c, c->args[0]);
	p_sep(c);
	p_id_out(c, c->args[1]);
	p_sep(c);
	p_id_out(c, c->args[2]);
	return 0;
}

/* [0, 4, 27]: n ids, abbreviated after -s entries unless -v. */
#define NGROUPS_MAX_ 65536u	/* the kernel's limit: longer lists print as the address */

static void p_gid_list(struct sc_call *c, uint64_t addr, uint64_t n)
{
	unsigned g;
	if (!addr || n > NGROUPS_MAX_ || (n && sc_mem_read(c, addr, &g, sizeof(g)) < 0)) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			p_sep(c);
		if (sc_mem_read(c, addr + i * sizeof(g), &g, sizeof(g)) < 0) {
			out(c, "... /* %#llx */", (unsigned long long)(addr + i * sizeof(g)));
			break;
		}
		if (c->fmt && !c->fmt->verbose && i >= c->fmt->strsize) {
			out(c, "...");
			break;
		}
		p_id(c, g);
	}
	out(c, "]");
}

SC_DECODER(getgroups, MEM_ARRAY_OUT_RET(1, unsigned))
{
	if (c->entering) {
		p_int(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	/* getgroups(0, NULL) asks for the count only: the list is not written. */
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else if (!c->args[0])	/* asked for the count only: an empty list */
		p_gid_list(c, c->args[1], 0);
	else
		p_gid_list(c, c->args[1], (uint64_t)c->ret);
	return 0;
}

SC_DECODER(setgroups, MEM_ARRAY_IN(1, unsigned, 0))
{
	p_int(c, c->args[0]);
	p_sep(c);
	p_gid_list(c, c->args[1], (unsigned)c->args[0]);
	return SC_DONE;
}

/* ---- capabilities -------------------------------------------------------- */

static void p_cap_header(struct sc_call *c, uint64_t addr)
{
	struct __user_cap_header_struct h;
	if (p_fetch(c, addr, &h, sizeof(h)) < 0)
		return;
	out(c, "{version=");
	p_xval(c, &xlat_cap_versions, h.version, "_LINUX_CAPABILITY_VERSION_???");
	out(c, ", pid=%d}", h.pid);
}

/* 1<<CAP_CHOWN|1<<CAP_KILL, unknown bits in hex, 0 for none. */
static void p_caps(struct sc_call *c, uint64_t v)
{
	const char *sep = "";
	if (!v) {
		out(c, "0");
		return;
	}
	for (size_t i = 0; i < xlat_capabilities.n; i++) {
		uint64_t bit = 1ULL << xlat_capabilities.e[i].val;
		if (v & bit) {
			out(c, "%s1<<%s", sep, xlat_capabilities.e[i].str);
			v &= ~bit;
			sep = "|";
		}
	}
	if (v)
		out(c, "%s%#llx", sep, (unsigned long long)v);
}

/* Version 1 holds 32 capability bits, versions 2 and 3 two words of them. */
static void p_cap_data(struct sc_call *c, uint64_t hdr_addr, uint64_t addr)
{
	struct __user_cap_header_struct h;
	struct __user_cap_data_struct d[2] = { 0 };
	size_t n = 2;
	/* No header to say the version: strace prints the data by address. */
	if (sc_mem_read(c, hdr_addr, &h, sizeof(h)) < 0) {
		p_addr(c, addr);
		return;
	}
	if (h.version == _LINUX_CAPABILITY_VERSION_1)
		n = 1;
	if (p_fetch(c, addr, d, n * sizeof(d[0])) < 0)
		return;
	out(c, "{effective=");
	p_caps(c, d[0].effective | (uint64_t)d[1].effective << 32);
	out(c, ", permitted=");
	p_caps(c, d[0].permitted | (uint64_t)d[1].permitted << 32);
	out(c, ", inheritable=");
	p_caps(c, d[0].inheritable | (uint64_t)d[1].inheritable << 32);
	out(c, "}");
}

SC_DECODER(capget, MEM_STRUCT_INOUT(0, struct __user_cap_header_struct),
	   MEM_BYTES_OUT(1, 2 * sizeof(struct __user_cap_data_struct)))
{
	if (c->entering) {
		p_cap_header(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c) || !c->args[1])
		p_addr(c, c->args[1]);
	else
		p_cap_data(c, c->args[0], c->args[1]);
	return 0;
}

SC_DECODER(capset, MEM_STRUCT_IN(0, struct __user_cap_header_struct),
	   MEM_BYTES_IN(1, 2 * sizeof(struct __user_cap_data_struct)))
{
	p_cap_header(c, c->args[0]);
	p_sep(c);
	p_cap_data(c, c->args[0], c->args[1]);
	return SC_DONE;
}
