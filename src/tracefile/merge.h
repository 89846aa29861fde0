/*
 * Several trace files read as one: a host's and its guests' recordings (trace-cmd record -A
 * writes them: the host's file carries a GUEST option per guest, each guest's file a
 * TIME_SHIFT option), or any files merged on their timestamps as `trace-cmd report -i A -i B`
 * merges them.  Each file is a machine; events come out in time order across all of them,
 * tagged with their machine (tf_event.machine).
 *
 * The guests' timestamps are corrected to the host's clock by libtracecmd as it reads the
 * file (the TIME_SHIFT samples: offset, scaling and fraction per vCPU, interpolated between
 * samples when the flags say so), the very correction trace-cmd report applies.
 *
 * The vCPU map: which host thread runs each of a guest's vCPUs.  From the host's GUEST
 * option (its vCPU-to-pid array); when that has no pids (a guest reached over TCP, where the
 * recorder cannot know qemu's threads), from the host's thread names: qemu names its vCPU
 * threads "CPU N/KVM", or "CPU N/TCG" under TCG, where no kvm_exit events say which thread
 * ran a vCPU.
 */
#ifndef TRACEKIT_TRACEFILE_MERGE_H
#define TRACEKIT_TRACEFILE_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "tracefile/reader.h"

#define TF_MAX_MACHINES 16

struct tf_machine {
	const char *path;		/* as given */
	const char *name;		/* a guest's name (the host's GUEST option), "host" for a
					 * file that has guests, else the file's base name */
	struct tf_reader *r;
	int host;			/* a guest: its host's machine index; else -1 */
	bool time_shift;		/* its clock corrected to the host's (TIME_SHIFT) */
	int nvcpu;			/* a guest: its vCPUs (the GUEST option's count) */
	int *vcpu_pid;			/* a guest: host thread running vCPU i, 0 unknown */
	const char *vcpu_map_from;	/* "GUEST option", "thread names" or NULL: no map */
};

struct tf_merge;

/* n files (1..TF_MAX_MACHINES): NULL and one line in err naming the file on failure. */
struct tf_merge *tf_merge_open(const char *const *paths, int n, char *err, size_t errlen);
void tf_merge_close(struct tf_merge *m);

int tf_merge_nmachines(const struct tf_merge *m);
const struct tf_machine *tf_merge_machine(const struct tf_merge *m, int i);

/*
 * The vCPU map from the host's events when its saved thread names lack qemu's vCPU threads
 * (the kernel's saved_cmdlines is a small ring that a busy machine overwrites): one pass
 * over the sched_switch events of each file that may be the host.  For the verbs that show
 * vCPUs (sched, view); before the first tf_merge_next.  0, or -1 and err.
 */
int tf_merge_find_vcpus(struct tf_merge *m, char *err, size_t errlen);

/*
 * -F filters on every file: an event a file lacks is left out of that file (trace-cmd
 * report's way), but a filter no file can take is an error: -1 and err.
 */
int tf_merge_set_filters(struct tf_merge *m, const char *const *filters, int n, char *err,
			 size_t errlen);

/*
 * The next event of all files in time order (ties: the file given first, as trace-cmd
 * does): 1 with *ev filled (ev->machine its machine), 0 at the end, -1 and err.  The event
 * is valid until the next call.
 */
int tf_merge_next(struct tf_merge *m, struct tf_event *ev, char *err, size_t errlen);

#endif
