/*
 * A vCPU's kvm_run structure is shared memory: the process maps it from the
 * vCPU descriptor and the kernel fills exit_reason before KVM_RUN returns.
 * The mapping shows in /proc/PID/maps under the descriptor's name
 * (anon_inode:kvm-vcpu:N), which is how it is found here without tracking
 * mmap calls.  Two VMs in one process each with a vCPU N share that name:
 * the first mapping is taken.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "kvm_vcpu.h"
#include "tracee/tracee.h"
#include "xlat.h"
#include "xlat_tables.h"

static bool vcpu_name(pid_t tid, int fd, char *name, size_t len)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	ssize_t n = readlink(link, name, len - 1);
	if (n <= 0)
		return false;
	name[n] = '\0';
	return strncmp(name, "anon_inode:kvm-vcpu:", 20) == 0;
}

/* The start of the mapping named name in tid's address space, 0 if none. */
static uint64_t mapping_of(pid_t tid, const char *name)
{
	char path[64], line[512];
	uint64_t start = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (!start && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		const char *sp = strrchr(line, ' ');
		if (sp && strcmp(sp + 1, name) == 0 && sscanf(line, "%" SCNx64, &start) != 1)
			start = 0;
	}
	fclose(f);
	return start;
}

bool kvm_vcpu_exit_note(pid_t tid, int fd, char *out, size_t len)
{
	char name[128];
	uint32_t reason;
	if (!vcpu_name(tid, fd, name, sizeof(name)))
		return false;
	uint64_t run = mapping_of(tid, name);
	if (!run || tracer_read((void *)(intptr_t)tid, run + offsetof(struct kvm_run, exit_reason),
				&reason, sizeof(reason)) != (long)sizeof(reason))
		return false;
	const char *s = xlat_str(&xlat_kvm_exit_reasons, reason);
	if (s)
		snprintf(out, len, "(%s)", s);
	else
		snprintf(out, len, "(%#x /* KVM_EXIT_??? */)", reason);
	return true;
}
