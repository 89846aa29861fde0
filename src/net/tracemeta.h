/*
 * A trace file's beginning as a trace-cmd client streams it (SEND_DATA up to
 * FIN_DATA): everything but the per-CPU data.  The listener checks it, then
 * appends the data that came on the per-CPU connections and the options that
 * point at them -- what trace-cmd listen does, for version 7 and version 6
 * files.  The metadata came over the network: every offset and size in it is
 * checked against the bytes that arrived.
 */
#ifndef TRACEKIT_NET_TRACEMETA_H
#define TRACEKIT_NET_TRACEMETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_meta {
	int version;		/* 6 or 7 */
	bool swap;		/* the file's byte order is not ours */
	unsigned page_size;
	uint32_t cpus;		/* v6: the CPU count in the file; v7: CPUCOUNT or 0 */
	uint64_t size;		/* of the metadata */
	uint64_t link;		/* v7: where the last options section's next-offset is */
	char clock[32];		/* the TRACECLOCK option's selected clock, "" if none */
};

/* The metadata is bytes [0, size) of fd: 0 with mi filled, or -1 with err. */
int net_meta_inspect(int fd, uint64_t size, struct net_meta *mi, char *err, size_t errlen);

/* One CPU's received pages: a file of whole pages. */
struct net_cpu_file {
	int cpu;
	int fd;
	uint64_t size;
};

/*
 * Append the data and what points at it to fd (the metadata, mi from
 * net_meta_inspect): v7 a flyrecord section and an options section with the
 * BUFFER option, linked from the last options section; v6 the flyrecord
 * table and the pages.  0, or -1 with err.
 */
int net_meta_finish(int fd, const struct net_meta *mi, const struct net_cpu_file *cpus, int n,
		    char *err, size_t errlen);
/*
 * The same with more options (record -A's TIME_SHIFT in a guest's file): v7
 * in the new options section, v6 after the metadata's options.
 */
struct tf_option;
int net_meta_finish_with(int fd, const struct net_meta *mi, const struct net_cpu_file *cpus,
			 int n, const struct tf_option *opts, int nopts, char *err, size_t errlen);

#endif
