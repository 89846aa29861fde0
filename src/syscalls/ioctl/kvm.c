/*
 * KVM ioctls (linux/kvm.h) on /dev/kvm, a VM and a vCPU descriptor: the
 * new descriptors KVM_CREATE_VM and KVM_CREATE_VCPU return, memory
 * regions, registers and CPUID tables (their entries with -v only).
 */
#include <inttypes.h>
#include <stdio.h>
#include <linux/kvm.h>

#include "family.h"

/* The most CPUID entries the kernel takes (KVM_MAX_CPUID_ENTRIES, not in uapi). */
#define CPUID_ENTRIES_MAX 256

static void p_x(struct sc_call *c, const char *name, uint64_t v)
{
	out(c, v ? "%s=%#" PRIx64 : "%s=%" PRIu64, name, v);
}

static void p_memory_region(struct sc_call *c, uint64_t arg)
{
	struct kvm_userspace_memory_region r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{slot=%u, flags=", r.slot);
	p_flags(c, &xlat_kvm_mem_flags, r.flags, "KVM_MEM_???");
	p_x(c, ", guest_phys_addr", r.guest_phys_addr);
	out(c, ", memory_size=%" PRIu64, (uint64_t)r.memory_size);
	p_x(c, ", userspace_addr", r.userspace_addr);
	out(c, "}");
}

/* struct kvm_regs: without -v rax, rsp, rbp, rip and rflags. */
static void p_regs(struct sc_call *c, uint64_t arg)
{
	struct kvm_regs r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	bool all = c->fmt->verbose;
	p_x(c, "{rax", r.rax);
	if (all) {
		p_x(c, ", rbx", r.rbx);
		p_x(c, ", rcx", r.rcx);
		p_x(c, ", rdx", r.rdx);
		p_x(c, ", rsi", r.rsi);
		p_x(c, ", rdi", r.rdi);
	} else {
		out(c, ", ...");
	}
	p_x(c, ", rsp", r.rsp);
	p_x(c, ", rbp", r.rbp);
	if (all) {
		const uint64_t hi[] = { r.r8, r.r9, r.r10, r.r11, r.r12, r.r13, r.r14, r.r15 };
		for (int i = 0; i < 8; i++) {
			char name[8];
			snprintf(name, sizeof(name), ", r%d", 8 + i);
			p_x(c, name, hi[i]);
		}
	} else {
		out(c, ", ...");
	}
	p_x(c, ", rip", r.rip);
	p_x(c, ", rflags", r.rflags);
	out(c, "}");
}

static void p_segment(struct sc_call *c, const char *name, const struct kvm_segment *s)
{
	out(c, "%s=", name);
	p_x(c, "{base", s->base);
	out(c, ", limit=%u, selector=%u, type=%u, present=%u, dpl=%u, db=%u, s=%u, l=%u, g=%u, "
	       "avl=%u}", s->limit, s->selector, s->type, s->present, s->dpl, s->db, s->s, s->l,
	    s->g, s->avl);
}

static void p_dtable(struct sc_call *c, const char *name, const struct kvm_dtable *d)
{
	out(c, ", %s=", name);
	p_x(c, "{base", d->base);
	out(c, ", limit=%u}", d->limit);
}

/* struct kvm_sregs: cs only without -v. */
static void p_sregs(struct sc_call *c, uint64_t arg)
{
	struct kvm_sregs s;
	if (p_fetch(c, arg, &s, sizeof(s)) < 0)
		return;
	out(c, "{");
	p_segment(c, "cs", &s.cs);
	if (!c->fmt->verbose) {
		out(c, ", ...}");
		return;
	}
	const struct kvm_segment *segs[] = { &s.ds, &s.es, &s.fs, &s.gs, &s.ss, &s.tr, &s.ldt };
	const char *names[] = { "ds", "es", "fs", "gs", "ss", "tr", "ldt" };
	for (int i = 0; i < 7; i++) {
		out(c, ", ");
		p_segment(c, names[i], segs[i]);
	}
	p_dtable(c, "gdt", &s.gdt);
	p_dtable(c, "idt", &s.idt);
	out(c, ", cr0=%" PRIu64 ", cr2=%" PRIu64 ", cr3=%" PRIu64 ", cr4=%" PRIu64 ", cr8=%" PRIu64
	       ", efer=%" PRIu64, (uint64_t)s.cr0, (uint64_t)s.cr2, (uint64_t)s.cr3, (uint64_t)s.cr4,
	    (uint64_t)s.cr8, (uint64_t)s.efer);
	p_x(c, ", apic_base", s.apic_base);
	out(c, ", interrupt_bitmap=[");
	for (size_t i = 0; i < sizeof(s.interrupt_bitmap) / sizeof(s.interrupt_bitmap[0]); i++)
		out(c, s.interrupt_bitmap[i] ? "%s%#" PRIx64 : "%s%" PRIu64, i ? ", " : "",
		    (uint64_t)s.interrupt_bitmap[i]);
	out(c, "]}");
}

static void p_cpuid_entry(struct sc_call *c, const struct kvm_cpuid_entry2 *e)
{
	p_x(c, "{function", e->function);
	p_x(c, ", index", e->index);
	out(c, ", flags=");
	p_flags(c, &xlat_kvm_cpuid_flags, e->flags, "KVM_CPUID_FLAG_???");
	p_x(c, ", eax", e->eax);
	p_x(c, ", ebx", e->ebx);
	p_x(c, ", ecx", e->ecx);
	p_x(c, ", edx", e->edx);
	out(c, "}");
}

/* struct kvm_cpuid2: the count, and with -v the entries (up to what was copied). */
static void p_cpuid2(struct sc_call *c, uint64_t arg)
{
	struct kvm_cpuid2 h;
	if (p_fetch(c, arg, &h, sizeof(h)) < 0)
		return;
	out(c, "{nent=%u, entries=", h.nent);
	if (!c->fmt->verbose) {
		out(c, h.nent ? "[...]}" : "[]}");
		return;
	}
	out(c, "[");
	for (uint32_t i = 0; i < h.nent; i++) {
		struct kvm_cpuid_entry2 e;
		uint64_t at = arg + sizeof(h) + (uint64_t)i * sizeof(e);
		if (i)
			out(c, ", ");
		if (i >= CPUID_ENTRIES_MAX || sc_mem_read(c, at, &e, sizeof(e)) < 0) {
			out(c, "...");
			break;
		}
		p_cpuid_entry(c, &e);
	}
	out(c, "]}");
}

static int kvm_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case KVM_CREATE_VM:
		c->rv = SC_RV_FD;
		return IOCTL_UNDECODED;	/* the machine type prints as a number */
	case KVM_CREATE_VCPU:
		c->rv = SC_RV_FD;
		out(c, ", %u", (uint32_t)arg);
		return SC_DONE;
	case KVM_CHECK_EXTENSION:
		p_sep(c);
		p_xval(c, &xlat_kvm_caps, arg, "KVM_CAP_???");
		return SC_DONE;
	case KVM_SET_USER_MEMORY_REGION:
		return ioctl_setter(c, arg, p_memory_region);
	case KVM_GET_REGS:
		return ioctl_getter(c, arg, p_regs);
	case KVM_SET_REGS:
		return ioctl_setter(c, arg, p_regs);
	case KVM_GET_SREGS:
		return ioctl_getter(c, arg, p_sregs);
	case KVM_SET_SREGS:
		return ioctl_setter(c, arg, p_sregs);
	case KVM_GET_SUPPORTED_CPUID:
	case KVM_GET_EMULATED_CPUID:
		return ioctl_getter(c, arg, p_cpuid2);
	case KVM_SET_CPUID2:
		return ioctl_setter(c, arg, p_cpuid2);
	}
	return IOCTL_UNDECODED;
}

static size_t kvm_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case KVM_GET_SUPPORTED_CPUID:
	case KVM_GET_EMULATED_CPUID:
	case KVM_SET_CPUID2:
		return sizeof(struct kvm_cpuid2) + CPUID_ENTRIES_MAX * sizeof(struct kvm_cpuid_entry2);
	case KVM_SET_USER_MEMORY_REGION:
	case KVM_GET_REGS:
	case KVM_SET_REGS:
	case KVM_GET_SREGS:
	case KVM_SET_SREGS:
		return _IOC_SIZE(req);
	}
	return 0;
}

const struct ioctl_family ioctl_kvm = {
	.type = KVMIO,
	.names = &xlat_kvm_ioctls,
	.decode = kvm_decode,
	.arg_len = kvm_arg_len,
};
