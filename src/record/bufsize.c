/*
 * The default ring-buffer size (see bufsize.h).  The kernel's 1408 KB per
 * CPU lost ~2% of `make demo`'s sched + raw_syscalls recording on an idle
 * 2-CPU machine: a busy CPU fills it in well under the time a recorder
 * thread may wait for a CPU when the traced program keeps them all busy.
 * Events that fire per syscall, interrupt or allocation get four times the
 * scheduling set's buffer.  Never more than 1/32 of the available memory in
 * all, never less than the kernel's own default.
 */
#include "bufsize.h"

#include <stdio.h>
#include <string.h>

#define KB_KERNEL_DEFAULT 1408
#define KB_QUIET (4 * 1024)	/* the scheduling set and the like */
#define KB_BUSY (16 * 1024)	/* events per syscall, interrupt, allocation ... */

/* Systems whose events fire at up to millions per second on one CPU. */
static const char *const busy_systems[] = {
	"raw_syscalls", "syscalls", "irq", "irq_vectors", "timer", "kmem", "workqueue",
	"ipi", "rcu", "lock", "net", "napi", "block", "filemap", "pagemap", "page_pool",
	"preemptirq", "x86_fpu", "exceptions", "tlb",
};

static int busy(const char *event)
{
	size_t len = strcspn(event, ":");

	for (size_t i = 0; i < sizeof(busy_systems) / sizeof(busy_systems[0]); i++)
		if (strlen(busy_systems[i]) == len && !strncmp(event, busy_systems[i], len))
			return 1;
	return 0;
}

unsigned rec_buffer_kb_for(char *const *events, int n, uint64_t avail_kb, int ncpus)
{
	uint64_t kb = KB_QUIET;

	for (int i = 0; i < n; i++)
		if (busy(events[i]))
			kb = KB_BUSY;
	if (avail_kb && ncpus > 0 && kb > avail_kb / 32 / (uint64_t)ncpus)
		kb = avail_kb / 32 / (uint64_t)ncpus;
	if (kb < KB_KERNEL_DEFAULT)
		kb = KB_KERNEL_DEFAULT;
	return (unsigned)kb;
}

uint64_t rec_mem_available_kb(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
