/*
 * record -A HOST:PORT --name NAME: the host's side of trace-cmd's host-guest
 * protocol over TCP (trace-record.c's connect_to_agent, setup_guest and
 * tell_guests_to_stop in trace-cmd 3.1).  While the host records its own
 * trace.dat, an agent (trace-cmd agent, tracekit agent) records the guest:
 * TRACE_REQ with the guest's record options, TRACE_RESP with its ports, the
 * ptp time sync on a connection of its own, the guest file's metadata on the
 * control connection and each guest CPU's pages on one connection per CPU.
 * At the end CLOSE, a last time-sync sample, CLOSE_RESP, and the guest's file
 * (trace-NAME.dat beside the output, as trace-cmd names it) is written with
 * the TIME_SHIFT option; the host's file gets TRACEID and GUEST, so that
 * `trace-cmd report -i trace.dat -i trace-NAME.dat` puts both on one clock.
 */
#ifndef TRACEKIT_RECORD_GUEST_H
#define TRACEKIT_RECORD_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_guest;

struct rec_guest_opts {
	const char *hostport;		/* the agent: HOST:PORT (PORT default 823) */
	const char *name;		/* --name, or NULL: the host part */
	char **argv;			/* the guest's record options */
	int argc;
	const char *clock;		/* the host's trace clock, given to the guest too */
	uint64_t trace_id;		/* the host's */
	const char *output;		/* the host's file; the guest's is named from it */
	int tsync_interval_ms;		/* a sample every so often besides start and end (0: none) */
	int guest_pid;			/* --guest-pid: the host process running the guest (qemu), or 0 */
	bool quiet;
};

/* Connect, ask, sync, take the metadata, connect the data ports.  NULL with err. */
struct rec_guest *rec_guest_start(const struct rec_guest_opts *o, char *err, size_t errlen);
/* Tell the agent to stop recording (CLOSE), without waiting: several guests stop together. */
void rec_guest_ask_close(struct rec_guest *g);
/*
 * End the guest's recording (CLOSE, if rec_guest_ask_close did not send it) and write
 * its file; a line on stderr says what it holds and how well the clocks agree.  0, or -1
 * with err.
 */
int rec_guest_stop(struct rec_guest *g, char *err, size_t errlen);
/*
 * The GUEST option for the host's file (name, trace id, vCPUs, vCPU -> host
 * thread: with --guest-pid, qemu's threads named "CPU N/KVM" or "CPU N/TCG";
 * else -1, as trace-cmd writes for a network guest).
 */
const uint8_t *rec_guest_option(const struct rec_guest *g, size_t *len);
/* Removes what a failed run left (the guest's partial files). */
void rec_guest_free(struct rec_guest *g);

/* The thread of pid named "CPU cpu/..." (qemu's vCPU threads), or -1. */
int rec_guest_vcpu_thread(int pid, int cpu);

/* A guest's name: --name's, else the host part of HOST:PORT (as trace-cmd names it). */
void rec_guest_name(const char *hostport, const char *name, char *buf, size_t len);

/* trace-cmd's guest file name: "trace.dat" and "g" give "trace-g.dat". */
void rec_guest_file(const char *output, const char *name, char *buf, size_t len);

#endif
