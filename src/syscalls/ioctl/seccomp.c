/*
 * seccomp user-notification ioctls (linux/seccomp.h) on a listener
 * descriptor: the notification a supervisor receives, its response, the
 * id check and the descriptor it installs in the target.
 */
#include <inttypes.h>
#include <linux/audit.h>
#include <linux/ioctl.h>
#include <linux/seccomp.h>

#include "family.h"
#include "syscalls/print_pid.h"

/* The number's name when arch is the tracer's own (x86-64 without the x32 bit), else NULL. */
static const char *native_syscall(uint32_t nr, uint32_t arch)
{
	if (arch != AUDIT_ARCH_X86_64 || nr >= 0x40000000)
		return NULL;
	const struct sc_entry *e = sc_by_nr(nr);
	return e ? e->name : NULL;
}

/* struct seccomp_data's nr: __NR_gettid, as strace names the tracer's own syscalls. */
static void p_data_nr(struct sc_call *c, uint32_t nr, uint32_t arch)
{
	const char *name = native_syscall(nr, arch);
	if (!name || xlat_style == XLAT_STYLE_RAW)
		out(c, "%u", nr);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%u /* __NR_%s */", nr, name);
	else
		out(c, "__NR_%s", name);
}

static void p_notif(struct sc_call *c, const struct seccomp_notif *n)
{
	out(c, "{id=%#" PRIx64 ", pid=", (uint64_t)n->id);
	p_pid(c, (int)n->pid, SC_PT_TGID);
	out(c, ", flags=%#x, data={nr=", n->flags);
	p_data_nr(c, (uint32_t)n->data.nr, n->data.arch);
	out(c, ", arch=");
	p_xval(c, &xlat_audit_arch, n->data.arch, "AUDIT_ARCH_???");
	out(c, ", instruction_pointer=");
	p_addr(c, n->data.instruction_pointer);
	out(c, ", args=[");
	for (int i = 0; i < 6; i++)
		out(c, n->data.args[i] ? "%s%#" PRIx64 : "%s%" PRIu64, i ? ", " : "",
		    (uint64_t)n->data.args[i]);
	out(c, "]}}");
}

/*
 * SECCOMP_IOCTL_NOTIF_RECV: the kernel wants a zeroed struct; one that is
 * not zero prints at entry too, then " => " and what the kernel wrote.
 */
static int notif_recv(struct sc_call *c, uint64_t arg)
{
	struct seccomp_notif n;
	if (c->entering) {
		p_sep(c);
		if (sc_mem_read(c, arg, &n, sizeof(n)) < 0 || ioctl_all_zero(&n, sizeof(n))) {
			if (!ioctl_readable(c, arg, sizeof(n))) {
				p_addr(c, arg);
				return SC_DONE;
			}
			return 0;
		}
		p_notif(c, &n);
		out(c, IOCTL_CHANGED);
		return 0;
	}
	if (sc_failed(c) || sc_mem_read(c, arg, &n, sizeof(n)) < 0)
		p_addr(c, arg);
	else
		p_notif(c, &n);
	return 0;
}

static void p_resp(struct sc_call *c, uint64_t arg)
{
	struct seccomp_notif_resp r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{id=%#" PRIx64 ", val=%" PRId64 ", error=", (uint64_t)r.id, (int64_t)r.val);
	const char *err = r.error < 0 && r.error > -4096 ? sc_errname(-r.error) : NULL;
	if (!err || xlat_style == XLAT_STYLE_RAW)
		out(c, "%d", r.error);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%d /* -%s */", r.error, err);
	else
		out(c, "-%s", err);
	out(c, ", flags=");
	p_flags(c, &xlat_seccomp_notif_resp_flags, r.flags, "SECCOMP_USER_NOTIF_FLAG_???");
	out(c, "}");
}

static void p_addfd(struct sc_call *c, uint64_t arg)
{
	struct seccomp_notif_addfd a;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	out(c, "{id=%#" PRIx64 ", flags=", (uint64_t)a.id);
	p_flags(c, &xlat_seccomp_addfd_flags, a.flags, "SECCOMP_ADDFD_FLAG_???");
	out(c, ", srcfd=");
	p_fd(c, (uint64_t)(int64_t)(int32_t)a.srcfd);
	out(c, ", newfd=%d, newfd_flags=", (int32_t)a.newfd);
	p_flags(c, &xlat_open_flags, a.newfd_flags, "O_???");
	out(c, "}");
}

static void p_id(struct sc_call *c, uint64_t arg)
{
	uint64_t id;
	if (p_fetch(c, arg, &id, sizeof(id)) == 0)
		out(c, id ? "[%#" PRIx64 "]" : "[%" PRIu64 "]", id);
}

static int seccomp_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case SECCOMP_IOCTL_NOTIF_RECV:
		return notif_recv(c, arg);
	case SECCOMP_IOCTL_NOTIF_SEND:
		return ioctl_setter(c, arg, p_resp);
	case SECCOMP_IOCTL_NOTIF_ID_VALID:
	case _IOR(SECCOMP_IOC_MAGIC, 2, __u64):
		return ioctl_setter(c, arg, p_id);
	case SECCOMP_IOCTL_NOTIF_ADDFD:
		return ioctl_setter(c, arg, p_addfd);
	}
	return IOCTL_UNDECODED;
}

static size_t seccomp_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case SECCOMP_IOCTL_NOTIF_RECV:
		return sizeof(struct seccomp_notif);
	case SECCOMP_IOCTL_NOTIF_SEND:
		return sizeof(struct seccomp_notif_resp);
	case SECCOMP_IOCTL_NOTIF_ADDFD:
		return sizeof(struct seccomp_notif_addfd);
	}
	return sizeof(uint64_t);
}

const struct ioctl_family ioctl_seccomp = {
	.type = SECCOMP_IOC_MAGIC,
	.names = &xlat_seccomp_ioctls,
	.decode = seccomp_decode,
	.arg_len = seccomp_arg_len,
};
