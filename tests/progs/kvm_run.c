/*
 * kvm_run: a one-instruction guest (hlt) run once on one vCPU, so that
 * KVM_RUN returns with exit reason KVM_EXIT_HLT in the vCPU's mapped
 * kvm_run (what -e kvm=vcpu prints).  Exits 77 where /dev/kvm is not there.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/kvm.h>

#include "progs.h"

int main(void)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return 77;
	int vm = ioctl(kvm, KVM_CREATE_VM, 0);
	check(vm >= 0, "KVM_CREATE_VM");
	unsigned char *mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				  -1, 0);
	check(mem != MAP_FAILED, "mmap");
	mem[0] = 0xf4;	/* hlt */
	struct kvm_userspace_memory_region region = {
		.guest_phys_addr = 0x1000, .memory_size = 0x1000,
		.userspace_addr = (unsigned long)mem,
	};
	check(ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) == 0, "KVM_SET_USER_MEMORY_REGION");
	int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	check(vcpu >= 0, "KVM_CREATE_VCPU");
	int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	check(size > 0, "KVM_GET_VCPU_MMAP_SIZE");
	struct kvm_run *run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	check(run != MAP_FAILED, "mmap vcpu");
	struct kvm_sregs sregs;
	check(ioctl(vcpu, KVM_GET_SREGS, &sregs) == 0, "KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	check(ioctl(vcpu, KVM_SET_SREGS, &sregs) == 0, "KVM_SET_SREGS");
	struct kvm_regs regs = { .rip = 0x1000, .rflags = 2 };
	check(ioctl(vcpu, KVM_SET_REGS, &regs) == 0, "KVM_SET_REGS");
	check(ioctl(vcpu, KVM_RUN, 0) == 0, "KVM_RUN");
	return run->exit_reason == KVM_EXIT_HLT ? 0 : 1;
}
