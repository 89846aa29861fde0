/*
 * -e kvm=vcpu: the exit reason of a vCPU's KVM_RUN, read from the kvm_run
 * structure the traced process mapped from the vCPU descriptor.
 */
#ifndef TRACEKIT_SYSCALLS_KVM_VCPU_H
#define TRACEKIT_SYSCALLS_KVM_VCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* "(KVM_EXIT_HLT)" into out for KVM_RUN on fd of thread tid; false when unknown. */
bool kvm_vcpu_exit_note(pid_t tid, int fd, char *out, size_t len);

#endif
