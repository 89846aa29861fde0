/*
 * tracekit view past --max-events: levels of detail per lane.
 *
 * The part of the trace past the event cap is kept as bins, not spans: per CPU
 * the busy time of each bin and the task that ran most of it, per task lane
 * the time in each state.  The finest level has a fixed number of bins whose
 * width doubles as the trace outgrows them; coarser levels (LOD_STEP times
 * wider each) are made from it when the page is written.  So the page's size
 * past the cap is bounded whatever the trace's length.
 */
#ifndef TRACEKIT_EXPORT_VIEW_LOD_H
#define TRACEKIT_EXPORT_VIEW_LOD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LOD_TASKS 16	/* task lanes with levels: the recorded command's first 16 */
#define LOD_LEVELS 3	/* finest, finest / LOD_STEP, finest / LOD_STEP^2 bins */
#define LOD_STEP 8
#define LOD_PEND 8	/* tasks told apart within one finest bin */

struct vw_lod_pend {
	int pid;
	uint64_t ns;
};

struct vw_lod_cpu {
	uint64_t *busy;		/* busy ns per bin */
	int32_t *top;		/* the task that ran most of the bin, 0 none */
	uint64_t *top_ns;	/* ... and how long */
	long open;		/* the bin being filled (slices come in time order), -1 none */
	int npend;
	struct vw_lod_pend pend[LOD_PEND];	/* the open bin's tasks */
};

struct vw_lod_task {
	int pid;
	uint32_t (*ns)[4];	/* per bin, ns in running, runnable, sleeping, blocked */
};

struct vw_lod {
	uint64_t from;		/* where the levels start, ns (the page's relative time) */
	uint64_t bin_ns;	/* finest bin width */
	long nbins;		/* finest bins per lane, a power of two */
	int ncpus;
	struct vw_lod_cpu *cpu;
	int ntasks;
	struct vw_lod_task task[LOD_TASKS];
};

/* Bins per lane at the finest level for ncpus CPUs: 2^16, fewer past 32 CPUs. */
long vw_lod_bins(int ncpus);
void vw_lod_init(struct vw_lod *l, int ncpus, uint64_t from);
/* pid ran on cpu over [a, b) (ns, a >= from; slices of a CPU in time order). */
void vw_lod_cpu(struct vw_lod *l, int cpu, uint64_t a, uint64_t b, int pid);
/* Task pid was in state (1..4) over [a, b); false when it has no lane (LOD_TASKS taken). */
bool vw_lod_task(struct vw_lod *l, int pid, int state, uint64_t a, uint64_t b);
/* Task pid's levels are not wanted after all (the page has no lane for it). */
void vw_lod_drop_task(struct vw_lod *l, int pid);
/* The levels as the page's "lod" JSON object (the encoding: view_lod.c). */
void vw_lod_write(struct vw_lod *l, FILE *out);
void vw_lod_free(struct vw_lod *l);

#endif
