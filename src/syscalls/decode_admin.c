/*
 * System administration: host and domain names, process accounting, the
 * kernel log (syslog), reboot, I/O port access, swap, kernel modules, _sysctl.
 */
#include <stddef.h>
#include <linux/sysctl.h>
#include <string.h>

#include "decoder.h"
#include "print_net.h"

#define SYSLOG_ACTION_READ_ 2
#define SYSLOG_ACTION_READ_CLEAR_ 4
#define SYSLOG_ACTION_CONSOLE_LEVEL_ 8
#define LINUX_REBOOT_CMD_RESTART2_ 0xA1B2C3D4u

#define NEW_UTS_LEN_ 64

/* The name is len bytes, not NUL-terminated; longer than a utsname field, its address. */
static void p_uts_name(struct sc_call *c)
{
	unsigned len = (unsigned)c->args[1];
	if (len > NEW_UTS_LEN_)
		p_addr(c, c->args[0]);
	else
		p_buf(c, c->args[0], len);
	out(c, ", %u", len);
}

SC_DECODER(sethostname, MEM_BYTES_IN(0, NEW_UTS_LEN_))
{
	p_uts_name(c);
	return SC_DONE;
}

SC_DECODER(setdomainname, MEM_BYTES_IN(0, NEW_UTS_LEN_))
{
	p_uts_name(c);
	return SC_DONE;
}

SC_DECODER(acct, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	return SC_DONE;
}

/* "2 /\* SYSLOG_ACTION_READ *\/": strace shows the number and the name. */
static void p_verbose_d(struct sc_call *c, const struct xlat *x, int v, const char *dflt)
{
	const char *s = xlat_str(x, (unsigned)v);
	out(c, "%d /* %s */", v, s ? s : dflt);
}

SC_DECODER(syslog, MEM_BUF_OUT_RET(1))
{
	int type = (int)c->args[0];
	int len = (int)c->args[2];
	if (c->entering) {
		p_verbose_d(c, &xlat_syslog_actions, type, "SYSLOG_ACTION_???");
		if (type >= SYSLOG_ACTION_READ_ && type <= SYSLOG_ACTION_READ_CLEAR_)
			return 0;
		if (type >= 0 && type <= 10 && type != SYSLOG_ACTION_CONSOLE_LEVEL_)
			return SC_DONE;	/* the buffer and length are ignored */
		p_sep(c);
		p_addr(c, c->args[1]);
		p_sep(c);
		if (type == SYSLOG_ACTION_CONSOLE_LEVEL_)
			p_verbose_d(c, &xlat_loglevels, len, "LOGLEVEL_???");
		else
			out(c, "%d", len);
		return SC_DONE;
	}
	p_sep(c);
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %d", len);
	return 0;
}

SC_DECODER(reboot, MEM_STR_IN(3))
{
	p_xval(c, &xlat_reboot_magic1, (unsigned)c->args[0], "LINUX_REBOOT_MAGIC_???");
	p_sep(c);
	p_xval(c, &xlat_reboot_magic2, (unsigned)c->args[1], "LINUX_REBOOT_MAGIC_???");
	p_sep(c);
	p_xval(c, &xlat_reboot_cmds, (unsigned)c->args[2], "LINUX_REBOOT_CMD_???");
	if ((unsigned)c->args[2] == LINUX_REBOOT_CMD_RESTART2_) {
		p_sep(c);
		p_str_max(c, c->args[3], 255);	/* the kernel copies 255 bytes at most */
	}
	return SC_DONE;
}

SC_DECODER(iopl)
{
	out(c, "%d", (int)c->args[0]);
	return SC_DONE;
}

SC_DECODER(ioperm)
{
	out(c, "%#llx, %#llx, %d", (unsigned long long)c->args[0],
	    (unsigned long long)c->args[1], (int)c->args[2]);
	return SC_DONE;
}

SC_DECODER(vhangup)
{
	(void)c;
	return SC_DONE;
}

/* ---- swap ---------------------------------------------------------------- */

#define SWAP_FLAG_PRIO_MASK_ 0x7fffu

/* SWAP_FLAG_PREFER|10: the flags, then the priority in the low bits. */
SC_DECODER(swapon, MEM_PATH(0))
{
	unsigned flags = (unsigned)c->args[1];
	p_path(c, c->args[0]);
	p_sep(c);
	if (flags & ~SWAP_FLAG_PRIO_MASK_) {
		p_flags(c, &xlat_swap_flags, flags & ~SWAP_FLAG_PRIO_MASK_, "SWAP_FLAG_???");
		out(c, "|");
	}
	out(c, "%u", flags & SWAP_FLAG_PRIO_MASK_);
	return SC_DONE;
}

SC_DECODER(swapoff, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	return SC_DONE;
}

/* ---- kernel modules ------------------------------------------------------ */

SC_DECODER(init_module, MEM_STR_IN(2))
{
	p_addr(c, c->args[0]);
	out(c, ", %llu, ", (unsigned long long)c->args[1]);
	p_str(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(finit_module, MEM_STR_IN(1))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_str(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_module_init_flags, (unsigned)c->args[2], "MODULE_INIT_???");
	return SC_DONE;
}

SC_DECODER(delete_module, MEM_STR_IN(0))
{
	p_str(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_delete_module_flags, (unsigned)c->args[1], "O_???");
	return SC_DONE;
}

/* ---- kexec ---------------------------------------------------------------- */

#define KEXEC_SEGMENT_MAX_ 16
#define KEXEC_ARCH_MASK_ 0xffff0000ULL

static bool p_kexec_segment(struct sc_call *c, const void *elem, size_t size, void *data)
{
	uint64_t s[4];
	(void)size;
	(void)data;
	memcpy(s, elem, sizeof(s));
	out(c, "{buf=");
	p_addr(c, s[0]);
	out(c, ", bufsz=%llu, mem=", (unsigned long long)s[1]);
	p_addr(c, s[2]);
	out(c, ", memsz=%llu}", (unsigned long long)s[3]);
	return true;
}

static size_t kexec_segments_len(const struct sc_call *c)
{
	return c->args[1] > KEXEC_SEGMENT_MAX_ ? 0 : (size_t)c->args[1] * 4 * sizeof(uint64_t);
}

SC_DECODER(kexec_load, MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY, kexec_segments_len))
{
	uint64_t n = c->args[1], flags = c->args[3];
	p_addr(c, c->args[0]);
	out(c, ", %llu, ", (unsigned long long)n);
	if (n > KEXEC_SEGMENT_MAX_)
		p_addr(c, c->args[2]);
	else
		pn_array(c, c->args[2], n, 4 * sizeof(uint64_t), p_kexec_segment, NULL);
	p_sep(c);
	p_xval(c, &xlat_kexec_arch_values, flags & KEXEC_ARCH_MASK_, "KEXEC_ARCH_???");
	if (flags & ~KEXEC_ARCH_MASK_) {
		out(c, "|");
		p_flags(c, &xlat_kexec_load_flags, flags & ~KEXEC_ARCH_MASK_, "KEXEC_???");
	}
	return SC_DONE;
}

SC_DECODER(kexec_file_load, MEM_BUF_IN(3, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_fd(c, c->args[1]);
	out(c, ", %llu, ", (unsigned long long)c->args[2]);
	p_buf(c, c->args[3], (int64_t)c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_kexec_file_load_flags, c->args[4], "KEXEC_FILE_???");
	return SC_DONE;
}

/*
 * _sysctl: the struct __sysctl_args; the name vector prints by address (strace
 * spells out CTL_* names, not done here).
 */
SC_DECODER(_sysctl, MEM_STRUCT_IN(0, struct __sysctl_args))
{
	struct __sysctl_args a;
	if (p_fetch(c, c->args[0], &a, sizeof(a)) < 0)
		return SC_DONE;
	out(c, "{name=");
	p_addr(c, (uint64_t)(uintptr_t)a.name);
	out(c, ", nlen=%d, oldval=", a.nlen);
	p_addr(c, (uint64_t)(uintptr_t)a.oldval);
	out(c, ", oldlenp=");
	p_addr(c, (uint64_t)(uintptr_t)a.oldlenp);
	out(c, ", newval=");
	p_addr(c, (uint64_t)(uintptr_t)a.newval);
	out(c, ", newlen=%zu}", a.newlen);
	return SC_DONE;
}
