/*
 * Time synchronisation between a host and a guest as trace-cmd 3.1 runs it
 * over TIME_SYNC messages on a connection of its own (lib/trace-cmd/
 * trace-timesync.c and trace-timesync-ptp.c): the host asks for a sample of
 * one vCPU with a "none"/PROBE message carrying the CPU number; the guest
 * answers with a "ptp" exchange it leads -- START, 339 PROBE round trips,
 * END -- the host sends back when it saw each probe (PROBES), and the guest
 * replies with the offset it computed (OFFSET): host time minus guest time,
 * taken at the probe with the fastest round trip.  The host keeps every
 * sample and writes them into the guest's file as the TIME_SHIFT option; the
 * host ends with "none"/STOP.
 *
 * Each side reads its own trace clock.  trace-cmd does it through
 * trace_marker_raw in an instance of its own; here the clocks that user space
 * can read are read directly (mono, mono_raw, boot, tai), the others (local,
 * global, x86-tsc...) through trace_marker_raw in a private instance, as
 * trace-cmd does (src/net/tsync_clock.c).
 *
 * Every message the peer sends is checked: sizes, protocol names, ids.
 */
#ifndef TRACEKIT_NET_TSYNC_H
#define TRACEKIT_NET_TSYNC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TSYNC_PROTO_PTP "ptp"
#define TSYNC_PROTO_NONE "none"

/* "none" commands */
enum { TSYNC_CMD_PROBE = 1, TSYNC_CMD_STOP = 2 };
/* "ptp" messages */
enum { PTP_START = 1, PTP_PROBE = 2, PTP_PROBES = 3, PTP_OFFSET = 4, PTP_END = 5 };

#define PTP_LOOP 339
/* trace-cmd's flags in START: only the fastest probe counts; clocks read through markers. */
#define PTP_FLAG_FASTEST 0x1
#define PTP_FLAG_MARKER 0x2
/* TIME_SHIFT's flags: interpolate between samples (trace-cmd's TSYNC_FLAG_INTERPOLATE). */
#define TSYNC_FLAG_INTERPOLATE 0x1

/* The PROBES message: the series, a count, then 2*PTP_LOOP {be64 ts, be32 id}. */
#define PTP_RESULT_SAMPLES (2 * PTP_LOOP)
#define PTP_RESULT_LEN (8 + PTP_RESULT_SAMPLES * 12)

struct ptp_sample {
	int64_t ts;
	uint32_t id;
};

struct ptp_result {
	uint32_t series;
	uint32_t count;
	struct ptp_sample s[PTP_RESULT_SAMPLES];
};

/* The wire forms (big-endian), bounded: -1 with err when the payload does not add up. */
int ptp_result_decode(const uint8_t *p, uint32_t len, struct ptp_result *r, char *err,
		      size_t errlen);
/* Always PTP_RESULT_LEN bytes (trace-cmd sends the whole structure). */
void ptp_result_encode(const struct ptp_result *r, uint8_t out[PTP_RESULT_LEN]);

/*
 * The guest's computation (trace-cmd's "fastest response"): sent[i] and
 * back[i] are the guest's times probe i+1 left and its echo came back,
 * host->s[i] when the host saw probe i+1.  The offset (host - guest) and the
 * guest time of the fastest probe, and that probe's round trip; -1 when no
 * probe is complete.
 */
int ptp_fastest(const int64_t *sent, const int64_t *back, int n, const struct ptp_result *host,
		int64_t *offset, int64_t *ts, int64_t *rtt);

struct tsync_clock;

/*
 * The trace clock's reader: mono, mono_raw, boot and tai directly, the
 * others through trace_marker_raw in a private tracefs instance.  NULL with
 * err (tracefs missing, a clock the kernel lacks).
 */
struct tsync_clock *tsync_clock_open(const char *clock, char *err, size_t errlen);
void tsync_clock_close(struct tsync_clock *c);
/* The stamps of a batch: begin, mark each (id 1..n), end fills ts[id-1]. */
void tsync_clock_begin(struct tsync_clock *c);
void tsync_clock_mark(struct tsync_clock *c, int id, int64_t *ts);
int tsync_clock_end(struct tsync_clock *c, int64_t *ts, int n);

/* No Nagle, and ACKs at once: a probe's round trip is the network's, not TCP's timers. */
void tsync_socket_setup(int fd);

/* ---- the guest's side (tracekit agent) ---- */

struct tsync_guest_stats {
	uint32_t samples;	/* ptp exchanges answered */
	int64_t best_rtt;	/* the shortest round trip seen, ns (-1: none) */
	int64_t worst_rtt;	/* the longest round trip a sample was taken at (-1: none) */
	int64_t last_offset;	/* host - guest, ns */
	char error[256];	/* why it ended early, "" if by STOP */
};

/*
 * Serve the host's requests on fd until STOP, the end of the connection or
 * *stop; each sample pinned to the CPU asked for.  fd is closed.
 */
void tsync_guest_serve(int fd, struct tsync_clock *clk, atomic_int *stop,
		       struct tsync_guest_stats *st);

/* ---- the host's side (tracekit record -A) ---- */

struct tsync_host;

/* Over fd (connected to the guest's time-sync port), for a guest of vcpus CPUs. */
struct tsync_host *tsync_host_new(int fd, int vcpus, struct tsync_clock *clk);
/* One sample of every vCPU; 0, or -1 with err (the guest broke off). */
int tsync_host_round(struct tsync_host *h, char *err, size_t errlen);
/* STOP, and close the connection. */
void tsync_host_stop(struct tsync_host *h);
/* Samples of vCPU cpu (ts, offset), and how many. */
int tsync_host_samples(const struct tsync_host *h, int cpu, const int64_t **ts,
		       const int64_t **offset);
/*
 * The TIME_SHIFT option's bytes (trace-cmd.dat.v7: the peer's trace id,
 * flags, vCPU count, per vCPU count/times/offsets/scalings, then the
 * fractions), malloc'd; NULL when a vCPU has no sample.
 */
uint8_t *tsync_host_time_shift(const struct tsync_host *h, uint64_t peer_trace_id, size_t *len);
/*
 * The estimated error of the offsets, ns: for each sample, the shortest time
 * the guest took between the host's echo and its next probe (an upper bound
 * of the round trip its offset was taken at); half the longest of those, as
 * the merge uses every sample.  -1 if unknown.
 */
int64_t tsync_host_error(const struct tsync_host *h);
void tsync_host_free(struct tsync_host *h);

#endif
