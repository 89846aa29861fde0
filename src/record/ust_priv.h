/* Between ust.c (session, draining) and ust_pages.c (trace.dat pages, formats). */
#ifndef TRACEKIT_RECORD_UST_PRIV_H
#define TRACEKIT_RECORD_UST_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ust.h"
#include "ust/abi.h"
#include "util/strbuf.h"

struct ust_point {
	uint64_t tsc, ns;
};

/* One program thread's buffer, as the recorder maps it. */
struct ust_buf {
	char name[128];
	struct tk_ubuf_hdr *h;
	size_t maplen;
	char *ring;
	uint64_t mask, tail;
	int32_t pid, tid;
	uint32_t clock;
	char comm[17];
	FILE *stage;
	char *stage_path;
	uint64_t staged;
	bool done, corrupt;
};

/* A user event in the file: its global id and format. */
struct ust_event {
	struct tk_udesc d;
	unsigned id;
	struct strbuf text;
};

/* Which global event a process's local id is. */
struct ust_proc {
	int32_t pid;
	int nmap;
	int *map;		/* local id -> index into events, -1 unknown */
};

struct ust_rec {
	char dir[256];
	char *out;
	int clock;
	struct ust_point start, end;
	struct ust_buf *bufs;
	int nbufs;
	pthread_t thread;
	int stop;
	bool running, failed;
	char err[1024];
	pid_t *pids;
	int npids;
	const char **specs;	/* the user -e specs (the caller's strings) */
	int nspecs;

	/* results */
	struct ust_event *events_fmt;
	int nevents_fmt;
	struct ust_proc *procs;
	int nprocs;
	uint64_t events, lost, unknown;
	int corrupt;
	char *pages_path;
	uint64_t pages_size;
	struct tf_format *formats;
	struct strbuf cmdlines, tgids;
	struct tf_cpu_data *cpu_data;
	int user_cpu;
	const char **notes;
	char cpu_note[32];
};

static inline uint64_t ust_read_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return 0;
#endif
}

/* After the last drain: formats, the merged pages file. */
int ust_write_pages(struct ust_rec *u, char *err, size_t errlen);
void ust_result_free(struct ust_rec *u);

#endif
