/*
 * The detail of a big trace for `tracekit view --serve`: every event and every
 * span (CPU slices, task states, syscalls) as the page's JSON, cut into chunks
 * of a fixed number of events and written to a cache file as the one pass over
 * the trace goes; in memory only an index (per chunk: its first time, where its
 * parts lie in the file) and the spans that cross a chunk's start (at most one
 * per lane and chunk).  A window of chunks is then written as page data without
 * reading the trace again.
 */
#ifndef TRACEKIT_EXPORT_VIEW_CHUNKS_H
#define TRACEKIT_EXPORT_VIEW_CHUNKS_H

#include <stdint.h>
#include <stdio.h>

struct vw_chunks;

/* cache: a read-write file (a temporary one: the caller removes it). */
struct vw_chunks *vw_chunks_new(FILE *cache, long chunk_events);
void vw_chunks_free(struct vw_chunks *c);

/* An event at t (ns after the page's t0): json is its "[t,cpu,pid,type,...]" text. */
void vw_chunks_event(struct vw_chunks *c, uint64_t t, const char *json, size_t n);
void vw_chunks_cpu_span(struct vw_chunks *c, int cpu, uint64_t a, uint64_t b, int pid);
void vw_chunks_task_span(struct vw_chunks *c, int pid, uint64_t a, uint64_t b, int state,
			 int cpu);
void vw_chunks_sys_span(struct vw_chunks *c, int pid, uint64_t a, uint64_t b, long nr,
			uint64_t arg);
/* The last chunk written out: 0, or -1 when the cache file could not be written. */
int vw_chunks_finish(struct vw_chunks *c);

int vw_chunks_count(const struct vw_chunks *c);
/* Chunk k's first event's time (k == count: the end, UINT64_MAX). */
uint64_t vw_chunks_start(const struct vw_chunks *c, int k);
long vw_chunks_events(const struct vw_chunks *c, int ka, int kb);

/*
 * Chunks ka..kb (0 <= ka <= kb < count) as page data fields:
 * "taskSpans":{..},"sysSpans":{..},"cpuSpans":[..],"events":[..] (no braces
 * around them); the spans crossing into the window from before or after it
 * included.  0, or -1 when the cache cannot be read.
 */
int vw_chunks_write(struct vw_chunks *c, int ka, int kb, FILE *out);

/* "[t0,t1,...]": each chunk's first time, for the page to ask for windows. */
void vw_chunks_starts_json(const struct vw_chunks *c, FILE *out);

#endif
