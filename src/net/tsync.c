/*
 * trace-cmd's time synchronisation, both sides (see tsync.h).  The message
 * layouts are those of trace-cmd 3.1's trace-timesync.c (the "none" PROBE
 * carries a 16-bit CPU number in the sender's byte order) and
 * trace-timesync-ptp.c (everything else big-endian).
 */
#include "net/tsync.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/msg.h"
#include "util/die.h"

/* A peer silent this long during an exchange has gone (ASan on TCG stamps -C local slowly). */
#define TSYNC_WAIT_MS 60000
/* The samples a host keeps per vCPU (a --tsync-interval of 1 ms for hours stays bounded). */
#define TSYNC_MAX_SAMPLES 100000

static uint32_t be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static int64_t be64_at(const uint8_t *p)
{
	return (int64_t)((uint64_t)be32_at(p) << 32 | be32_at(p + 4));
}

static void put64(uint8_t *p, int64_t v)
{
	put32(p, (uint32_t)((uint64_t)v >> 32));
	put32(p + 4, (uint32_t)v);
}

int ptp_result_decode(const uint8_t *p, uint32_t len, struct ptp_result *r, char *err,
		      size_t errlen)
{
	if (len < 8) {
		snprintf(err, errlen, "a ptp PROBES message of %u bytes", len);
		return -1;
	}
	r->series = be32_at(p);
	r->count = be32_at(p + 4);
	if (r->count > PTP_RESULT_SAMPLES || len < 8 + r->count * 12) {
		snprintf(err, errlen, "a ptp PROBES message announces %u samples in %u bytes",
			 r->count, len);
		return -1;
	}
	for (uint32_t i = 0; i < r->count; i++) {
		r->s[i].ts = be64_at(p + 8 + i * 12);
		r->s[i].id = be32_at(p + 8 + i * 12 + 8);
	}
	return 0;
}

void ptp_result_encode(const struct ptp_result *r, uint8_t out[PTP_RESULT_LEN])
{
	memset(out, 0, PTP_RESULT_LEN);
	put32(out, r->series);
	put32(out + 4, r->count);
	for (uint32_t i = 0; i < r->count && i < PTP_RESULT_SAMPLES; i++) {
		put64(out + 8 + i * 12, r->s[i].ts);
		put32(out + 8 + i * 12 + 8, r->s[i].id);
	}
}

int ptp_fastest(const int64_t *sent, const int64_t *back, int n, const struct ptp_result *host,
		int64_t *offset, int64_t *ts, int64_t *rtt)
{
	int64_t best = LLONG_MAX;
	int max = n < (int)host->count ? n : (int)host->count;

	for (int i = 0; i < max; i++) {
		int64_t mid, d, o;

		if (!sent[i] || !back[i] || !host->s[i].ts || host->s[i].id != (uint32_t)i + 1)
			continue;
		/* the host's stamps are the peer's word: an offset that overflows is no sample */
		if (__builtin_sub_overflow(back[i], sent[i], &d) || d < 0 || d >= best)
			continue;
		mid = sent[i] + d / 2;
		if (__builtin_sub_overflow(host->s[i].ts, mid, &o))
			continue;
		best = d;
		*offset = o;
		*ts = mid;
	}
	if (best == LLONG_MAX)
		return -1;
	*rtt = best;
	return 0;
}

/*
 * trace-cmd writes a message's header and its payload with two write()s: with
 * Nagle's algorithm on its side the payload waits for our ACK of the header,
 * which a delayed ACK holds back 40 ms -- every probe's round trip would take
 * that long.  ACK at once (the kernel clears QUICKACK again, so before each read).
 */
static void ack_at_once(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
}

void tsync_socket_setup(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	ack_at_once(fd);
}

/*
 * Wait up to TSYNC_WAIT_MS for fd to have data, looking at *stop (if given) every
 * 200 ms: a Ctrl-C in the middle of an exchange does not wait out a silent peer.
 */
static int wait_readable(int fd, atomic_int *stop, char *err, size_t errlen)
{
	for (int waited = 0; stop && waited < TSYNC_WAIT_MS; waited += 200) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (atomic_load(stop)) {
			snprintf(err, errlen, "stopped in a time-sync sample the host left unanswered");
			return -1;
		}
		if (poll(&p, 1, 200) > 0)
			return 0;
	}
	return 0;	/* net_msg_read's own wait says a silent peer */
}

/* Receive one TIME_SYNC message of protocol proto (or fail saying what came). */
static int recv_tsync(int fd, atomic_int *stop, struct net_msg *m, struct net_tsync *t,
		      const char *proto, char *err, size_t errlen)
{
	int r;

	ack_at_once(fd);
	if (wait_readable(fd, stop, err, errlen) < 0)
		return -1;
	r = net_msg_read(fd, m, TSYNC_WAIT_MS, err, errlen);

	if (r == 1) {
		snprintf(err, errlen, "the peer closed the time-sync connection");
		return 1;
	}
	if (r < 0 || net_tsync_decode(m, t, err, errlen) < 0)
		return -1;
	if (strcmp(t->proto, proto)) {
		snprintf(err, errlen, "a time-sync message of protocol '%s' where '%s' was due",
			 t->proto, proto);
		return -1;
	}
	return 0;
}

static int send_ptp(int fd, uint32_t id, const void *payload, uint32_t len, char *err,
		    size_t errlen)
{
	if (net_send_tsync(fd, TSYNC_PROTO_PTP, id, payload, len) == 0)
		return 0;
	snprintf(err, errlen, "the time-sync connection failed: %s", strerror(errno));
	return -1;
}

/* ---- the guest: one ptp exchange, led from here ---- */

struct guest_round {
	uint32_t series;
	int64_t sent[PTP_LOOP], back[PTP_LOOP];
	struct ptp_result host;
};

static int guest_exchange(int fd, atomic_int *stop, struct tsync_clock *clk,
			  struct guest_round *g, struct tsync_guest_stats *st, char *err,
			  size_t errlen)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	struct net_tsync t;
	uint8_t start[8], cnt[4], off[16];
	int64_t offset = 0, ts = 0, rtt = 0;
	int64_t stamps[2 * PTP_LOOP];
	int ret = -1;

	put32(start, ++g->series);
	put32(start + 4, PTP_FLAG_FASTEST | PTP_FLAG_MARKER);
	if (send_ptp(fd, PTP_START, start, sizeof(start), err, errlen) < 0 ||
	    recv_tsync(fd, stop, m, &t, TSYNC_PROTO_PTP, err, errlen))
		goto out;
	if (t.id != PTP_START) {
		snprintf(err, errlen, "ptp message %u where START's answer was due", t.id);
		goto out;
	}
	memset(stamps, 0, sizeof(stamps));
	tsync_clock_begin(clk);
	for (int i = 1; i <= PTP_LOOP; i++) {
		put32(cnt, (uint32_t)i);
		tsync_clock_mark(clk, 2 * i - 1, &stamps[2 * i - 2]);
		if (send_ptp(fd, PTP_PROBE, cnt, 4, err, errlen) < 0 ||
		    recv_tsync(fd, stop, m, &t, TSYNC_PROTO_PTP, err, errlen))
			goto out;
		tsync_clock_mark(clk, 2 * i, &stamps[2 * i - 1]);
		if (t.id != PTP_PROBE || t.payload_len < 4 || be32_at(t.payload) != (uint32_t)i) {
			snprintf(err, errlen, "ptp probe %d came back as message %u", i, t.id);
			goto out;
		}
	}
	if (tsync_clock_end(clk, stamps, 2 * PTP_LOOP) < 0) {
		snprintf(err, errlen, "cannot read the trace clock's marks back");
		goto out;
	}
	for (int i = 0; i < PTP_LOOP; i++) {
		g->sent[i] = stamps[2 * i];
		g->back[i] = stamps[2 * i + 1];
	}
	if (send_ptp(fd, PTP_END, NULL, 0, err, errlen) < 0 ||
	    recv_tsync(fd, stop, m, &t, TSYNC_PROTO_PTP, err, errlen))
		goto out;
	if (t.id != PTP_PROBES) {
		snprintf(err, errlen, "ptp message %u where PROBES was due", t.id);
		goto out;
	}
	if (ptp_result_decode(t.payload, t.payload_len, &g->host, err, errlen) < 0)
		goto out;
	if (ptp_fastest(g->sent, g->back, PTP_LOOP, &g->host, &offset, &ts, &rtt) == 0) {
		if (st->best_rtt < 0 || rtt < st->best_rtt)
			st->best_rtt = rtt;
		if (rtt > st->worst_rtt)
			st->worst_rtt = rtt;
		st->last_offset = offset;
	}
	/* no complete probe: offset 0, which trace-cmd's host drops as no sample */
	put64(off, ts);
	put64(off + 8, offset);
	if (send_ptp(fd, PTP_OFFSET, off, sizeof(off), err, errlen) < 0)
		goto out;
	st->samples++;
	ret = 0;
out:
	free(m);
	return ret;
}

/* Run on cpu for the sample, as trace-cmd does; the old mask is restored after. */
static bool pin(int cpu, cpu_set_t *old)
{
	cpu_set_t one;

	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(*old), old) < 0 ||
	    !CPU_ISSET(cpu, old))
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0;
}

void tsync_guest_serve(int fd, struct tsync_clock *clk, atomic_int *stop,
		       struct tsync_guest_stats *st)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	struct guest_round *g = xcalloc(1, sizeof(*g));
	struct net_tsync t;

	tsync_socket_setup(fd);
	st->samples = 0;
	st->best_rtt = -1;
	st->worst_rtt = -1;
	st->last_offset = 0;
	st->error[0] = '\0';
	while (!atomic_load(stop)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		cpu_set_t old;
		bool pinned;
		uint16_t cpu = 0;
		int r;

		/* between samples the host may be silent for the whole recording */
		r = poll(&p, 1, 200);
		if (r == 0 || (r < 0 && errno == EINTR))
			continue;
		r = recv_tsync(fd, stop, m, &t, TSYNC_PROTO_NONE, st->error, sizeof(st->error));
		if (r)
			break;
		if (t.id == TSYNC_CMD_STOP)
			break;
		if (t.id != TSYNC_CMD_PROBE) {
			snprintf(st->error, sizeof(st->error), "time-sync command %u", t.id);
			break;
		}
		if (t.payload_len >= 2)
			memcpy(&cpu, t.payload, 2);
		pinned = pin(cpu, &old);
		r = guest_exchange(fd, stop, clk, g, st, st->error, sizeof(st->error));
		if (pinned)
			sched_setaffinity(0, sizeof(old), &old);
		if (r)
			break;
	}
	if (atomic_load(stop) && !st->error[0])
		snprintf(st->error, sizeof(st->error), "stopped before the host's STOP");
	close(fd);
	free(g);
	free(m);
}

/* ---- the host ---- */

struct vcpu_samples {
	int64_t *ts, *offset;
	int n, size;
};

struct tsync_host {
	int fd;
	int vcpus;
	struct tsync_clock *clk;
	struct vcpu_samples *v;
	int64_t worst_gap;	/* the longest of each sample's shortest gap, -1: none */
	struct net_msg m;
};

struct tsync_host *tsync_host_new(int fd, int vcpus, struct tsync_clock *clk)
{
	struct tsync_host *h = xcalloc(1, sizeof(*h));

	tsync_socket_setup(fd);
	h->fd = fd;
	h->vcpus = vcpus;
	h->clk = clk;
	h->v = xcalloc((size_t)vcpus, sizeof(*h->v));
	h->worst_gap = -1;
	return h;
}

static void keep_sample(struct vcpu_samples *v, int64_t ts, int64_t offset)
{
	if (v->n >= TSYNC_MAX_SAMPLES)
		return;
	if (v->n == v->size) {
		v->size = v->size ? v->size * 2 : 8;
		v->ts = xrealloc(v->ts, sizeof(*v->ts) * (size_t)v->size);
		v->offset = xrealloc(v->offset, sizeof(*v->offset) * (size_t)v->size);
	}
	v->ts[v->n] = ts;
	v->offset[v->n] = offset;
	v->n++;
}

/* The host's part of one exchange the guest leads: echo its probes, stamping each. */
static int host_exchange(struct tsync_host *h, struct vcpu_samples *v, char *err, size_t errlen)
{
	struct net_msg *m = &h->m;
	struct net_tsync t;
	struct ptp_result *res = xcalloc(1, sizeof(*res));
	uint8_t *out = xmalloc(PTP_RESULT_LEN);
	int64_t stamps[PTP_LOOP], prev_echo = 0, shortest = -1;
	uint32_t ids[PTP_LOOP];
	int n = 0, ret = -1;

	if (recv_tsync(h->fd, NULL, m, &t, TSYNC_PROTO_PTP, err, errlen))
		goto out;
	if (t.id != PTP_START || t.payload_len < 8) {
		snprintf(err, errlen, "ptp message %u (%u bytes) where START was due", t.id,
			 t.payload_len);
		goto out;
	}
	res->series = be32_at(t.payload);
	if (send_ptp(h->fd, PTP_START, t.payload, 8, err, errlen) < 0)
		goto out;
	tsync_clock_begin(h->clk);
	for (;;) {
		uint32_t count;

		if (recv_tsync(h->fd, NULL, m, &t, TSYNC_PROTO_PTP, err, errlen))
			goto out;
		if (t.id == PTP_END)
			break;
		if (t.id != PTP_PROBE || t.payload_len < 4) {
			snprintf(err, errlen, "ptp message %u where a probe or END was due", t.id);
			goto out;
		}
		count = be32_at(t.payload);
		if (count == 0 || count > PTP_LOOP || n >= PTP_LOOP) {
			snprintf(err, errlen, "ptp probe number %u (1 to %d)", count, PTP_LOOP);
			goto out;
		}
		ids[n] = count;
		tsync_clock_mark(h->clk, n + 1, &stamps[n]);
		n++;
		if (send_ptp(h->fd, PTP_PROBE, t.payload, 4, err, errlen) < 0)
			goto out;
	}
	if (tsync_clock_end(h->clk, stamps, n) < 0) {
		snprintf(err, errlen, "cannot read the trace clock's marks back");
		goto out;
	}
	/*
	 * The gaps between an echo and the next probe: the guest's round trips, about.  The
	 * guest takes its offset at the fastest probe, so this sample is as sure as its
	 * shortest gap.
	 */
	for (int i = 0; i < n; i++) {
		if (i && ids[i] == ids[i - 1] + 1) {
			int64_t gap = stamps[i] - prev_echo;

			if (gap > 0 && (shortest < 0 || gap < shortest))
				shortest = gap;
		}
		prev_echo = stamps[i];
	}
	/* as trace-cmd's client: the sample of probe k at index k-1 */
	for (int i = 0; i < n; i++) {
		uint32_t k = ids[i];

		res->s[k - 1].ts = stamps[i];
		res->s[k - 1].id = k;
	}
	res->count = (uint32_t)n;
	ptp_result_encode(res, out);
	if (send_ptp(h->fd, PTP_PROBES, out, PTP_RESULT_LEN, err, errlen) < 0 ||
	    recv_tsync(h->fd, NULL, m, &t, TSYNC_PROTO_PTP, err, errlen))
		goto out;
	if (t.id != PTP_OFFSET || t.payload_len < 16) {
		snprintf(err, errlen, "ptp message %u where OFFSET was due", t.id);
		goto out;
	}
	{
		int64_t ts = be64_at(t.payload), offset = be64_at(t.payload + 8);

		/* trace-cmd keeps no sample of offset or time 0: the guest found no probe */
		if (ts && offset) {
			keep_sample(v, ts, offset);
			if (shortest > h->worst_gap)
				h->worst_gap = shortest;
		}
	}
	ret = 0;
out:
	free(res);
	free(out);
	return ret;
}

int tsync_host_round(struct tsync_host *h, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < h->vcpus; cpu++) {
		uint16_t c = (uint16_t)cpu;

		if (net_send_tsync(h->fd, TSYNC_PROTO_NONE, TSYNC_CMD_PROBE, &c, sizeof(c)) < 0) {
			snprintf(err, errlen, "the time-sync connection failed: %s",
				 strerror(errno));
			return -1;
		}
		if (host_exchange(h, &h->v[cpu], err, errlen) < 0)
			return -1;
	}
	return 0;
}

void tsync_host_stop(struct tsync_host *h)
{
	if (h->fd < 0)
		return;
	net_send_tsync(h->fd, TSYNC_PROTO_NONE, TSYNC_CMD_STOP, NULL, 0);
	close(h->fd);
	h->fd = -1;
}

int tsync_host_samples(const struct tsync_host *h, int cpu, const int64_t **ts,
		       const int64_t **offset)
{
	if (cpu < 0 || cpu >= h->vcpus)
		return 0;
	*ts = h->v[cpu].ts;
	*offset = h->v[cpu].offset;
	return h->v[cpu].n;
}

int64_t tsync_host_error(const struct tsync_host *h)
{
	return h->worst_gap < 0 ? -1 : h->worst_gap / 2;
}

uint8_t *tsync_host_time_shift(const struct tsync_host *h, uint64_t peer_trace_id, size_t *len)
{
	size_t size = 16;
	uint8_t *buf, *p;
	uint32_t flags = TSYNC_FLAG_INTERPOLATE, vcpus = (uint32_t)h->vcpus;

	for (int i = 0; i < h->vcpus; i++) {
		if (!h->v[i].n)
			return NULL;
		size += 4 + (size_t)h->v[i].n * 8 * 4;	/* count; times, offsets, scalings; fractions */
	}
	/* The file's byte order is ours, as every number of the options trace-cmd writes. */
	p = buf = xmalloc(size);
	memcpy(p, &peer_trace_id, 8);
	memcpy(p + 8, &flags, 4);
	memcpy(p + 12, &vcpus, 4);
	p += 16;
	for (int i = 0; i < h->vcpus; i++) {
		const struct vcpu_samples *v = &h->v[i];
		uint32_t n = (uint32_t)v->n;
		int64_t one = 1;

		memcpy(p, &n, 4);
		p += 4;
		memcpy(p, v->ts, 8 * n);
		p += 8 * n;
		memcpy(p, v->offset, 8 * n);
		p += 8 * n;
		for (uint32_t k = 0; k < n; k++, p += 8)
			memcpy(p, &one, 8);
	}
	for (int i = 0; i < h->vcpus; i++) {
		memset(p, 0, 8 * (size_t)h->v[i].n);	/* fraction bits: none */
		p += 8 * (size_t)h->v[i].n;
	}
	*len = size;
	return buf;
}

void tsync_host_free(struct tsync_host *h)
{
	if (!h)
		return;
	if (h->fd >= 0)
		close(h->fd);
	for (int i = 0; i < h->vcpus; i++) {
		free(h->v[i].ts);
		free(h->v[i].offset);
	}
	free(h->v);
	free(h);
}
