/*
 * The host-guest time sync's pieces from fixed inputs: the ptp PROBES message
 * both ways, the guest's choice of the fastest probe and the offset's sign,
 * the host's side of one exchange scripted over a socket pair and the
 * TIME_SHIFT option it makes (trace-cmd.dat.v7's layout), the error it states
 * (its least sure sample's, as the merge uses every sample), and the guest
 * file's name as trace-cmd makes it.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "net/tsync.h"
#include "record/guest.h"

static void test_result_round_trip(void)
{
	static struct ptp_result r, back;
	static uint8_t wire[PTP_RESULT_LEN];
	char err[256];

	r.series = 7;
	r.count = 3;
	for (int i = 0; i < 3; i++)
		r.s[i] = (struct ptp_sample){ .ts = 1000000000000LL + i, .id = (uint32_t)i + 1 };
	ptp_result_encode(&r, wire);
	assert(wire[3] == 7 && wire[7] == 3);	/* big-endian series and count */
	assert(ptp_result_decode(wire, PTP_RESULT_LEN, &back, err, sizeof(err)) == 0);
	assert(back.series == 7 && back.count == 3);
	assert(back.s[2].ts == 1000000000002LL && back.s[2].id == 3);
	/* a count the bytes cannot hold, and a message too short for its header */
	wire[7] = 200;
	assert(ptp_result_decode(wire, 8 + 199 * 12, &back, err, sizeof(err)) < 0);
	assert(strstr(err, "200 samples"));
	assert(ptp_result_decode(wire, 7, &back, err, sizeof(err)) < 0);
}

static void test_fastest(void)
{
	static struct ptp_result host;
	int64_t sent[4] = { 1000, 2000, 3000, 4000 }, back[4] = { 1100, 2040, 3010, 4200 };
	int64_t offset, ts, rtt;

	host.count = 4;
	for (int i = 0; i < 4; i++)
		host.s[i] = (struct ptp_sample){ .ts = 50000 + sent[i] + 5, .id = (uint32_t)i + 1 };
	/* probe 3 (index 2) is fastest, 10 ns: its middle 3005, the host saw it at 53005 */
	host.s[2].id = 9;	/* ...but its id is wrong: it does not count */
	assert(ptp_fastest(sent, back, 4, &host, &offset, &ts, &rtt) == 0);
	assert(rtt == 40 && ts == 2020 && offset == 52005 - 2020);
	host.s[2].id = 3;
	assert(ptp_fastest(sent, back, 4, &host, &offset, &ts, &rtt) == 0);
	assert(rtt == 10 && ts == 3005 && offset == 50000);	/* host minus guest */
	host.count = 0;
	assert(ptp_fastest(sent, back, 4, &host, &offset, &ts, &rtt) < 0);
}

static size_t tsync_msg(uint8_t *p, const char *proto, uint32_t id, const void *pl, uint32_t len)
{
	uint32_t v;

	v = htonl(32 + len);
	memcpy(p, &v, 4);
	v = htonl(9);
	memcpy(p + 4, &v, 4);
	v = htonl(20);
	memcpy(p + 8, &v, 4);
	memset(p + 12, 0, 16);
	memcpy(p + 12, proto, strlen(proto));
	v = htonl(id);
	memcpy(p + 28, &v, 4);
	if (len)
		memcpy(p + 32, pl, len);
	return 32 + len;
}

static void put_be64(uint8_t *p, int64_t x)
{
	uint32_t hi = htonl((uint32_t)((uint64_t)x >> 32)), lo = htonl((uint32_t)x);

	memcpy(p, &hi, 4);
	memcpy(p + 4, &lo, 4);
}

/* The guest's side scripted: START, two probes, END, OFFSET (time 12345, offset -678). */
static void test_host_exchange_and_time_shift(void)
{
	static uint8_t script[1024];
	uint8_t start[8] = { 0, 0, 0, 1, 0, 0, 0, 3 }, cnt[4] = { 0 }, off[16];
	size_t n = 0, len = 0;
	const int64_t *ts, *offset;
	char err[256];
	int sv[2];
	uint8_t *opt;
	struct tsync_clock *clk = tsync_clock_open("mono", err, sizeof(err));

	assert(clk);
	n += tsync_msg(script + n, "ptp", PTP_START, start, 8);
	for (uint8_t i = 1; i <= 2; i++) {
		cnt[3] = i;
		n += tsync_msg(script + n, "ptp", PTP_PROBE, cnt, 4);
	}
	n += tsync_msg(script + n, "ptp", PTP_END, NULL, 0);
	put_be64(off, 12345);
	put_be64(off + 8, -678);
	n += tsync_msg(script + n, "ptp", PTP_OFFSET, off, 16);
	assert(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	assert(write(sv[1], script, n) == (ssize_t)n);
	struct tsync_host *h = tsync_host_new(sv[0], 1, clk);
	assert(tsync_host_round(h, err, sizeof(err)) == 0);
	assert(tsync_host_samples(h, 0, &ts, &offset) == 1);
	assert(ts[0] == 12345 && offset[0] == -678);
	/* a second round: the guest says nothing more */
	shutdown(sv[1], SHUT_WR);
	assert(tsync_host_round(h, err, sizeof(err)) < 0);
	assert(strstr(err, "closed"));
	opt = tsync_host_time_shift(h, 0x1122334455667788ULL, &len);
	assert(opt && len == 16 + 4 + 4 * 8);
	{
		uint64_t id;
		uint32_t flags, cpus, count;
		int64_t t, o, scaling, frac;

		memcpy(&id, opt, 8);
		memcpy(&flags, opt + 8, 4);
		memcpy(&cpus, opt + 12, 4);
		memcpy(&count, opt + 16, 4);
		memcpy(&t, opt + 20, 8);
		memcpy(&o, opt + 28, 8);
		memcpy(&scaling, opt + 36, 8);
		memcpy(&frac, opt + 44, 8);
		assert(id == 0x1122334455667788ULL && flags == TSYNC_FLAG_INTERPOLATE && cpus == 1);
		assert(count == 1 && t == 12345 && o == -678 && scaling == 1 && frac == 0);
	}
	free(opt);
	tsync_host_free(h);
	close(sv[1]);
	tsync_clock_close(clk);
}

/* One whole message the host sent (a 4-byte total size first), dropped. */
static void skip_msg(int fd)
{
	uint8_t buf[9000];
	uint32_t size;

	assert(read(fd, &size, 4) == 4);
	size = ntohl(size);
	assert(size >= 4 && size - 4 <= sizeof(buf));
	for (size_t got = 0; got < size - 4;) {
		ssize_t r = read(fd, buf, size - 4 - got);

		assert(r > 0);
		got += (size_t)r;
	}
}

/*
 * A scripted guest of two samples: the first answers at once, the second waits 30 ms
 * after the host's echo of its first probe, so that sample is sure to 15 ms at best.
 */
static void *slow_second_sample(void *arg)
{
	int fd = *(int *)arg;
	uint8_t msg[256], start[8] = { 0, 0, 0, 1, 0, 0, 0, 3 }, cnt[4] = { 0 }, off[16];

	for (int sample = 0; sample < 2; sample++) {
		size_t n = tsync_msg(msg, "ptp", PTP_START, start, 8);

		cnt[3] = 1;
		n += tsync_msg(msg + n, "ptp", PTP_PROBE, cnt, 4);
		assert(write(fd, msg, n) == (ssize_t)n);
		if (sample == 1) {
			for (int i = 0; i < 3; i++)	/* the host's PROBE command, START, probe 1 */
				skip_msg(fd);
			nanosleep(&(struct timespec){ .tv_nsec = 30000000 }, NULL);
		}
		cnt[3] = 2;
		n = tsync_msg(msg, "ptp", PTP_PROBE, cnt, 4);
		n += tsync_msg(msg + n, "ptp", PTP_END, NULL, 0);
		put_be64(off, 1000 * (sample + 1));
		put_be64(off + 8, -5);
		n += tsync_msg(msg + n, "ptp", PTP_OFFSET, off, 16);
		assert(write(fd, msg, n) == (ssize_t)n);
		if (sample == 0)
			for (int i = 0; i < 5; i++)	/* PROBE command, START, 2 probes, PROBES */
				skip_msg(fd);
	}
	return NULL;
}

static void test_error_is_the_least_sure_samples(void)
{
	char err[256];
	int sv[2];
	pthread_t guest;
	struct tsync_clock *clk = tsync_clock_open("mono", err, sizeof(err));

	assert(clk && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	struct tsync_host *h = tsync_host_new(sv[0], 1, clk);
	assert(pthread_create(&guest, NULL, slow_second_sample, &sv[1]) == 0);
	assert(tsync_host_round(h, err, sizeof(err)) == 0);
	assert(tsync_host_error(h) >= 0);
	assert(tsync_host_round(h, err, sizeof(err)) == 0);
	/* the merge interpolates between both samples: the error is the second's, not the first's */
	assert(tsync_host_error(h) >= 15000000);
	assert(pthread_join(guest, NULL) == 0);
	tsync_host_free(h);
	close(sv[1]);
	tsync_clock_close(clk);
}

static void test_no_sample_no_time_shift(void)
{
	char err[256];
	size_t len = 0;
	int sv[2];
	struct tsync_clock *clk = tsync_clock_open("boot", err, sizeof(err));

	assert(clk && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	struct tsync_host *h = tsync_host_new(sv[0], 2, clk);
	assert(!tsync_host_time_shift(h, 1, &len));	/* trace-cmd writes none either */
	assert(tsync_host_error(h) == -1);
	tsync_host_free(h);
	close(sv[1]);
	tsync_clock_close(clk);
}

static void test_guest_file_names(void)
{
	char buf[256];

	rec_guest_file("trace.dat", "g", buf, sizeof(buf));
	assert(!strcmp(buf, "trace-g.dat"));
	rec_guest_file("out/run.dat", "vm1", buf, sizeof(buf));
	assert(!strcmp(buf, "out/run-vm1.dat"));
	rec_guest_file("a.b/trace", "g", buf, sizeof(buf));
	assert(!strcmp(buf, "a.b/trace-g"));
	rec_guest_file("trace", "127.0.0.1", buf, sizeof(buf));
	assert(!strcmp(buf, "trace-127.0.0.1"));
}

int main(void)
{
	test_result_round_trip();
	test_fastest();
	test_host_exchange_and_time_shift();
	test_error_is_the_least_sure_samples();
	test_no_sample_no_time_shift();
	test_guest_file_names();
	printf("tsync: ok\n");
	return 0;
}
