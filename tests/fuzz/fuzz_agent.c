/*
 * Fuzz the host-guest protocol's time sync as tracekit runs it: the bytes are
 * what the peer sends on the time-sync connection (TIME_SYNC messages), fed
 * through a socket pair to the real code.  The first byte picks the side:
 *   'G'  tracekit agent's side (tsync_guest_serve): the host's requests and
 *        its echoes, PROBES results;
 *   'H'  record -A's side (tsync_host_round, the next byte the vCPU count):
 *        the guest's START, probes, END, OFFSET; then the TIME_SHIFT option;
 *   else a ptp PROBES payload, decoded and used as the guest uses it.
 * Whatever arrives, the code must end (the peer's end of input is EOF),
 * never overrun, and keep what it promises (sample counts, option sizes).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/tsync.h"

static struct tsync_clock *mono(void)
{
	static struct tsync_clock *c;
	char err[256];

	if (!c)
		c = tsync_clock_open("mono", err, sizeof(err));
	if (!c)
		abort();
	return c;
}

/* Our end of a pair whose other end has sent data and closed: reads see data, then EOF. */
static int peer_says(const uint8_t *data, size_t size)
{
	int sv[2];
	int big = 1 << 22;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (size && write(sv[1], data, size) != (ssize_t)size)
		abort();
	close(sv[1]);
	/* what we send goes nowhere: a full buffer is an error, not a wait */
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	return sv[0];
}

static void guest_side(const uint8_t *data, size_t size)
{
	struct tsync_guest_stats st;
	atomic_int stop = 0;

	tsync_guest_serve(peer_says(data, size), mono(), &stop, &st);
	if (st.best_rtt < -1 || st.worst_rtt < st.best_rtt ||
	    strnlen(st.error, sizeof(st.error)) >= sizeof(st.error))
		abort();
}

static void host_side(const uint8_t *data, size_t size)
{
	int vcpus = size ? data[0] % 4 + 1 : 1;
	struct tsync_host *h = tsync_host_new(peer_says(data + !!size, size - !!size), vcpus,
					      mono());
	char err[256];
	int rounds = 0;
	size_t len = 0;
	uint8_t *opt;

	while (rounds < 64 && tsync_host_round(h, err, sizeof(err)) == 0)
		rounds++;
	for (int cpu = 0; cpu < vcpus; cpu++) {
		const int64_t *ts, *off;
		int n = tsync_host_samples(h, cpu, &ts, &off);

		if (n < 0 || n > rounds + 1)
			abort();
		for (int i = 0; i < n; i++)
			if (!ts[i] || !off[i])
				abort();	/* zero samples are trace-cmd's "none", never kept */
	}
	opt = tsync_host_time_shift(h, 42, &len);
	if (opt) {
		size_t want = 16;

		for (int cpu = 0; cpu < vcpus; cpu++) {
			const int64_t *ts, *off;

			want += 4 + 32 * (size_t)tsync_host_samples(h, cpu, &ts, &off);
		}
		if (len != want)
			abort();
		free(opt);
	}
	tsync_host_stop(h);
	tsync_host_free(h);
}

static void results(const uint8_t *data, size_t size)
{
	static struct ptp_result r;
	static int64_t sent[PTP_LOOP], back[PTP_LOOP];
	int64_t offset, ts, rtt;
	char err[256];

	if (ptp_result_decode(data, (uint32_t)size, &r, err, sizeof(err)) < 0)
		return;
	if (r.count > PTP_RESULT_SAMPLES)
		abort();
	for (int i = 0; i < PTP_LOOP; i++) {
		sent[i] = 1000 + 100 * i;
		back[i] = sent[i] + 50 + i % 7;
	}
	if (ptp_fastest(sent, back, PTP_LOOP, &r, &offset, &ts, &rtt) == 0 && (rtt < 50 || rtt > 56))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] == 'G')
		guest_side(data + 1, size - 1);
	else if (data[0] == 'H')
		host_side(data + 1, size - 1);
	else
		results(data + 1, size - 1);
	return 0;
}
