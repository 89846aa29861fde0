/*
 * seccomp: the operation, its flags and argument.  A filter program prints
 * as {len=N, filter=ADDR}, with -v as its BPF_STMT/BPF_JUMP instructions.
 */
#include <stdint.h>

#include "decoder.h"
#include "print_bpf.h"

struct notif_sizes_ {
	uint16_t seccomp_notif, seccomp_notif_resp, seccomp_data;
};

struct sock_fprog_ {
	uint16_t len;
	uint64_t filter;
};

SC_DECODER(seccomp, MEM_BYTES_IN(2, sizeof(struct sock_fprog_)),
	   MEM_DEREF_IN(2, 8, SC_BPF_FILTER_MAX),
	   MEM_BYTES_OUT(2, sizeof(struct notif_sizes_)))
{
	unsigned op = (unsigned)c->args[0];
	unsigned flags = (unsigned)c->args[1];
	uint64_t arg = c->args[2];
	if (c->entering) {
		p_xval(c, &xlat_seccomp_ops, op, "SECCOMP_SET_MODE_???");
		p_sep(c);
	}
	switch (op) {
	case 2: {	/* SECCOMP_GET_ACTION_AVAIL */
		uint32_t act;
		out(c, "%#x, ", flags);
		if (p_fetch(c, arg, &act, sizeof(act)) == 0) {
			out(c, "[");
			p_xval(c, &xlat_seccomp_ret_action, act, "SECCOMP_RET_???");
			out(c, "]");
		}
		return SC_DONE;
	}
	case 3: {	/* SECCOMP_GET_NOTIF_SIZES: written at exit */
		struct notif_sizes_ s;
		if (c->entering) {
			out(c, "%#x, ", flags);
			return 0;
		}
		if (sc_failed(c))
			p_addr(c, arg);
		else if (p_fetch(c, arg, &s, sizeof(s)) == 0)
			out(c, "{seccomp_notif=%u, seccomp_notif_resp=%u, seccomp_data=%u}",
			    s.seccomp_notif, s.seccomp_notif_resp, s.seccomp_data);
		return 0;
	}
	case 1: {	/* SECCOMP_SET_MODE_FILTER */
		p_flags(c, &xlat_seccomp_filter_flags, flags, "SECCOMP_FILTER_FLAG_???");
		p_sep(c);
		p_seccomp_fprog(c, arg);
		return SC_DONE;
	}
	}
	out(c, "%#x, ", flags);
	p_addr(c, arg);
	return SC_DONE;
}
