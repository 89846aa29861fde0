/*
 * The kernel mode's copy plan: each syscall decoder's struct sc_mem_spec,
 * restated in the terms the BPF program can follow (bpf/kmode.h).  The plan
 * only decides which bytes the kernel copies; user space then runs mem.c's
 * own fetch over those bytes, so a decoder sees what it would see in ptrace
 * mode wherever the plan covered its reads.
 */
#include <string.h>
#include <sys/syscall.h>

#include "decoder.h"
#include "kernel_fds.h"
#include "kernel_plan.h"

#define FN_CAP 512u		/* request-dependent lengths (ioctl, fcntl ...): this much (struct dm_ioctl, loop_config) */
#define CTRL_CAP 1024u
#define DEEP_CAP1 256u		/* KM_OP_DEEP: bytes at each pointer in the argument (V4L2's clips, SG_IO's cdb) */
#define IOCB_SIZE 64u		/* struct iocb */

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static unsigned char len_src(const struct sc_mem_spec *m)
{
	switch (m->len_src) {
	case SC_LEN_ARG: return KM_LEN_ARG;
	case SC_LEN_RET: return KM_LEN_RET;
	case SC_LEN_ARGPTR: return KM_LEN_ARGPTR;
	default: return KM_LEN_FIXED;
	}
}

/* Whether the decoder follows pointers from argument a with code (a .walk_fn, io_submit's iocbs). */
static bool walks_from(const struct sc_decoder *d, unsigned a)
{
	for (const struct sc_mem_spec *m = d->mem; m->kind; m++)
		if ((m->kind == SC_MEM_WALK || m->kind == SC_MEM_IOCBV) && m->arg == a)
			return true;
	return false;
}

/*
 * Bytes a deep copy takes at argument a: what the decoder's request-dependent
 * buffer there may need (ioctl's: struct kbsentry, dm_ioctl with its data,
 * UBI_IOCRNVOL's 4368), two regions at most.
 */
static unsigned deep_cap(const struct sc_decoder *d, unsigned a)
{
	unsigned cap = FN_CAP;
	for (const struct sc_mem_spec *m = d->mem; m->kind; m++)
		if (m->kind == SC_MEM_BUF && m->len_src == SC_LEN_FN && m->arg == a && m->size > cap)
			cap = (unsigned)m->size;
	return min_u(cap, 8192);
}

/* One spec as a copy; false when the program cannot follow it (the decoder prints addresses). */
static bool translate(const struct sc_decoder *d, const struct sc_mem_spec *m, const struct sc_fmt *fmt,
		      bool verbose, bool dumps, bool first_strv, struct km_copy *k)
{
	/* -e read=/write= dump all the data a call moved: its buffers whole, as far as a record goes. */
	unsigned strsize = dumps && (m->kind == SC_MEM_IOVEC || m->kind == SC_MEM_MSGHDR ||
				     m->kind == SC_MEM_MMSGHDR || (m->kind == SC_MEM_BUF && !m->size)) ?
				   KM_REG_CAP : fmt->strsize;
	*k = (struct km_copy){ .arg = m->arg == SC_ARG_SP ? KM_ARG_SP : m->arg, .when = m->when,
			       .off = m->off, .len_arg = m->len_arg, .elem = 1 };
	switch (m->kind) {
	case SC_MEM_STR:
		/* mem.c reads max+1 bytes; one more tells a cut string from one that just fits. */
		k->op = KM_OP_STR;
		k->cap = (m->len_src == SC_LEN_PATH ? 4096 : strsize) + 2;
		break;
	case SC_MEM_BUF:
		/* A request-dependent length where code follows pointers: the deep copy holds it. */
		if (m->len_src == SC_LEN_FN && walks_from(d, m->arg))
			return false;
		k->op = KM_OP_BUF;
		k->len_src = len_src(m);
		if (m->len_src == SC_LEN_FIXED)
			k->cap = m->size;
		else if (m->len_src == SC_LEN_FN)
			k->cap = min_u(m->size ? m->size : FN_CAP, FN_CAP > strsize + 8 ? FN_CAP : strsize + 8);
		else if (m->len_src == SC_LEN_PATH || m->len_src == SC_LEN_STRSIZE)
			k->cap = strsize;
		else
			k->cap = m->size ? m->size : strsize;
		break;
	case SC_MEM_ARRAY:
		k->op = KM_OP_BUF;
		k->len_src = len_src(m);
		k->elem = m->size;
		k->cap = m->len_src == SC_LEN_FIXED ? m->size * m->size : 64 * 1024;
		break;
	case SC_MEM_IOVEC:
		k->op = KM_OP_IOVEC;
		k->len_src = len_src(m);
		k->cap = strsize;
		break;
	case SC_MEM_MSGHDR:
		k->op = KM_OP_MSGHDR;
		k->cap = strsize;
		break;
	case SC_MEM_STRV:
		/* argv's strings; envp's only with -v (without it only its length prints). */
		k->op = KM_OP_STRV;
		k->cap = first_strv || verbose ? strsize + 2 : 0;
		break;
	case SC_MEM_DEREF:
		/* A pointer in the first bytes of an argument the deep copy follows (bpf's pathname). */
		if (walks_from(d, m->arg) && m->off + sizeof(uint64_t) <= KM_DEEP_WORDS * sizeof(uint64_t))
			return false;
		/*
		 * Only some requests hold a pointer there (ioctl's, setsockopt's
		 * filter): a guess, unless the deep copy has it.
		 */
		if (m->len_src == SC_LEN_FN || m->guess) {
			if (walks_from(d, m->arg))
				return false;
			k->flags = KM_QUIET;
		}
		k->op = KM_OP_DEREF;
		k->cap = m->size;
		break;
	case SC_MEM_WALK:
		/*
		 * The walk is code the program cannot run: it copies the argument
		 * and what its pointer-shaped words point at, two levels down (a
		 * superset of the walks of ioctl/ and io_uring_register).
		 */
		k->op = KM_OP_DEEP;
		k->cap = deep_cap(d, m->arg);
		/* Arrays the walk prints (io_uring_register's): -s elements and the one that says "...". */
		if (m->size && m->len_src != SC_LEN_ARG) {
			unsigned elems = verbose ? SC_VEC_MAX + 1 : fmt->strsize + 1;
			if (elems * m->size > k->cap)
				k->cap = min_u(elems * m->size, 8192);
		}
		/*
		 * A walk that starts from args[len_arg] bytes (bpf's attr): those only,
		 * not deep_cap's worth of whatever follows them on the caller's stack,
		 * whose pointer-shaped words would fill the record before -y's lookups.
		 */
		if (m->len_src == SC_LEN_ARG) {
			k->len_src = KM_LEN_ARG;
			k->elem = 1;
		}
		k->cap1 = min_u(KM_REG_CAP, strsize + 1 > DEEP_CAP1 ? strsize + 1 : DEEP_CAP1);
		k->cap2 = min_u(KM_REG_CAP, strsize + 1 > 64 ? strsize + 1 : 64);
		break;
	case SC_MEM_IOCBV:
		/* io_submit: the pointers, each iocb, and what its aio_buf points at. */
		k->op = KM_OP_DEEP;
		k->len_src = len_src(m);
		k->elem = sizeof(uint64_t);
		k->cap = KM_DEEP_WORDS * sizeof(uint64_t);
		k->cap1 = IOCB_SIZE;
		k->cap2 = min_u(KM_REG_CAP, strsize + 1 > 64 ? strsize + 1 : 64);
		break;
	case SC_MEM_MMSGHDR:
		/* The first KM_MMSG_MAX entries; later ones print as addresses. */
		k->op = KM_OP_MMSGHDR;
		k->len_src = len_src(m);
		k->cap = strsize;
		break;
	default:
		return false;
	}
	k->cap = min_u(k->cap, k->op == KM_OP_BUF ? KM_DATA_LIMIT : k->op == KM_OP_DEEP ? 8192 : KM_REG_CAP);
	return true;
}

/*
 * Calls that are always sent as two records: the memory of exec's arguments
 * is gone at its exit, exit never returns, clone adds a task that runs
 * before the call ends, sigreturn and restart_syscall rewrite the registers
 * the arguments are read from; capset's input header gets the version the
 * kernel prefers written into it when the call refuses the caller's.
 */
static const char *const two_records[] = {
	"execve", "execveat", "exit", "exit_group", "clone", "clone3", "fork", "vfork",
	"rt_sigreturn", "restart_syscall", "capset",
};

/*
 * Whether the entry's copies can be made at the exit instead: none of the
 * memory read at entry is written by the call (an argument copied at both
 * ends is in/out; a length read through a pointer may be rewritten).
 */
static bool entry_is_input(const struct km_plan *p)
{
	unsigned in = 0, out = 0;
	for (int i = 0; i < p->ncopy; i++) {
		const struct km_copy *k = &p->c[i];
		unsigned bit = 1u << k->arg;
		if (k->len_src == KM_LEN_ARGPTR)
			bit |= 1u << k->len_arg;
		if (k->when & SC_AT_ENTRY)
			in |= bit;
		if (k->when & SC_AT_EXIT)
			out |= bit;
		if ((k->when & SC_AT_ENTRY) && k->len_src == KM_LEN_ARGPTR)
			return false;
	}
	return !(in & out);
}

/*
 * With -y (fds) every call keeps a record at entry: its descriptors are
 * looked up as they were then (a bind changes what its socket shows, a
 * close removes it), as strace prints them.
 */
static bool one_record(const struct km_plan *p, const struct sc_entry *e, bool fds)
{
	for (size_t i = 0; e && i < sizeof(two_records) / sizeof(two_records[0]); i++)
		if (e->name && !strcmp(e->name, two_records[i]))
			return false;
	return !fds && entry_is_input(p);
}

void km_plan_build(struct km_plan *plans, const struct sc_filter *f, const struct sc_fmt *fmt,
		   bool summary_only, bool paths)
{
	memset(plans, 0, sizeof(*plans) * KM_NR_MAX);
	bool dumps = sc_filter_dumps(f);
	/*
	 * -e none (strace's signal tests): no line shows a descriptor, none need
	 * be followed (numbers no syscall has still show, with raw arguments).
	 */
	bool shows_calls = false;
	for (int nr = 0; nr < KM_NR_MAX && !shows_calls; nr++)
		shows_calls = sc_filter_traced(f, nr) && sc_by_nr(nr) && sc_by_nr(nr)->name;
	for (int nr = 0; nr < KM_NR_MAX; nr++) {
		struct km_plan *p = &plans[nr];
		/* -c alone prints no arguments: nothing to copy (-P still needs the paths). */
		bool counts_only = summary_only && !paths;
		/*
		 * Calls that make descriptors come too, shown or not: what they made
		 * decodes later calls (-y's paths, netlink sockets' protocols) once
		 * the process is gone.
		 */
		p->traced = sc_filter_traced(f, nr) || (shows_calls && !counts_only && km_fds_tracks(nr));
		/*
		 * exit_group too: after it a leader's exit line need not wait for
		 * threads the trace does not follow (kernel_events.c's on_gone).
		 */
		p->traced |= shows_calls && !counts_only && nr == SYS_exit_group;
		const struct sc_entry *e = sc_by_nr(nr);
		if (p->traced && e && e->dec && !counts_only) {
			bool first_strv = true;
			/* abbrev= lists the calls printed abbreviated: the others whole, as with -v */
			bool verbose = fmt->verbose || !sc_filter_in(f, SC_QUAL_ABBREV, nr);
			for (const struct sc_mem_spec *m = e->dec->mem; m->kind && p->ncopy < KM_COPY_MAX; m++) {
				if (translate(e->dec, m, fmt, verbose, dumps, first_strv, &p->c[p->ncopy]))
					p->sides |= p->c[p->ncopy++].when;
				if (m->kind == SC_MEM_STRV)
					first_strv = false;
			}
		}
		p->one = p->traced && one_record(p, e, fmt->yflag || fmt->decode_fds);
	}
}
