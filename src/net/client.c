/*
 * record -N's sending side (see client.h).  The recorder is the local one
 * (splice into per-CPU spool files); a sender thread per CPU follows its
 * spool file and sends whole pages: over TCP as a stream, over UDP one page
 * a datagram, as trace-cmd's recorders do.  What a UDP socket refuses is
 * counted; what a listener's socket drops only the listener can count.
 */
#include "net/client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/addr.h"
#include "net/agent.h"
#include "net/msg.h"
#include "util/die.h"

#define GREET_MS 10000
#define POLL_US 20000

struct sender {
	struct net_client *c;
	int cpu;
	int sock;
	int spool;
	uint64_t pos;
	uint64_t sent, failed;
	int error;		/* errno of a failed TCP send: the listener went away */
	int listen_fd;		/* agent: the host connects here for this CPU's pages */
	pthread_t thread;
	bool running;
};

struct net_client {
	int ctl;
	bool tcp;
	int cpus;
	unsigned page_size;
	struct sender *s;
	atomic_int draining;	/* the recorder drained: send the rest and stop */
	uint32_t end_cmd;	/* CLOSE to a listener, CLOSE_RESP to the host of an agent */
	const struct net_allow *allow;	/* agent: who may connect to the data ports */
};

/* A host that has not connected a CPU's data port this long after the end is given up. */
#define AGENT_CONNECT_GRACE_US 5000000

struct net_client *net_client_open(const char *hostport, bool tcp, int cpus, unsigned page_size,
				   char *err, size_t errlen)
{
	char host[256];
	unsigned port, ports[NET_MAX_CPUS];
	uint32_t n;
	struct net_client *c;
	struct net_msg *m;
	int r;

	if (net_split_hostport(hostport, host, sizeof(host), &port, err, errlen) < 0)
		return NULL;
	if (cpus <= 0 || cpus > NET_MAX_CPUS) {
		snprintf(err, errlen, "%d CPUs: trace-cmd's protocol is used for 1 to %d", cpus,
			 NET_MAX_CPUS);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->end_cmd = NET_CLOSE;
	c->tcp = tcp;
	c->cpus = cpus;
	c->page_size = page_size;
	c->ctl = net_connect(host, port, SOCK_STREAM, err, errlen);
	if (c->ctl < 0)
		goto fail;
	if (net_greet_listener(c->ctl, GREET_MS, err, errlen) < 0 ||
	    net_send_tinit(c->ctl, (uint32_t)cpus, page_size, tcp) < 0)
		goto fail_proto;
	m = xmalloc(sizeof(*m));
	r = net_msg_read(c->ctl, m, GREET_MS, err, errlen);
	if (r == 1)
		snprintf(err, errlen, "the listener closed the connection after TINIT");
	if (!r && m->cmd == NET_NOT_SUPP) {
		snprintf(err, errlen, "the listener does not take this recording (NOT_SUPP)");
		r = -1;
	}
	if (!r)
		r = net_rinit_decode(m, ports, NET_MAX_CPUS, &n, err, errlen);
	free(m);
	if (r)
		goto fail_proto;
	if ((int)n != cpus) {
		snprintf(err, errlen, "the listener gave %u ports for %d CPUs", n, cpus);
		goto fail_proto;
	}
	c->s = xcalloc((size_t)cpus, sizeof(*c->s));
	for (int i = 0; i < cpus; i++)
		c->s[i] = (struct sender){ .c = c, .cpu = i, .sock = -1, .spool = -1,
					   .listen_fd = -1 };
	for (int i = 0; i < cpus; i++) {
		c->s[i].sock = net_connect(host, ports[i], tcp ? SOCK_STREAM : SOCK_DGRAM, err,
					   errlen);
		if (c->s[i].sock < 0)
			goto fail;
	}
	return c;
fail_proto:
	{
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", hostport, why);
	}
fail:
	net_client_free(c);
	return NULL;
}

struct net_client *net_client_agent(struct net_agent_session *a)
{
	struct net_client *c = xcalloc(1, sizeof(*c));

	c->ctl = a->ctl;
	c->tcp = true;
	c->cpus = a->cpus;
	c->page_size = a->page_size;
	c->end_cmd = NET_CLOSE_RESP;
	c->allow = a->allow;
	c->s = xcalloc((size_t)c->cpus, sizeof(*c->s));
	for (int i = 0; i < c->cpus; i++)
		c->s[i] = (struct sender){ .c = c, .cpu = i, .sock = -1, .spool = -1,
					   .listen_fd = a->data_fds[i] };
	return c;
}

/* Agent: the host's connection for this CPU, once it comes; false while it has not. */
static bool accept_host(struct sender *s)
{
	struct pollfd p = { .fd = s->listen_fd, .events = POLLIN };
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd;

	if (poll(&p, 1, 0) <= 0)
		return false;
	fd = accept4(s->listen_fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	if (fd < 0)
		return false;
	if (!net_allowed(s->c->allow, (struct sockaddr *)&ss)) {
		close(fd);
		return false;
	}
	s->sock = fd;
	return true;
}

int net_client_send_meta(struct net_client *c, int fd, uint64_t size, char *err, size_t errlen)
{
	char buf[NET_MSG_MAX_DATA];
	uint64_t off = 0;

	while (off < size) {
		size_t want = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		ssize_t r = pread(fd, buf, want, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "cannot read the metadata: %s",
				 r < 0 ? strerror(errno) : "short file");
			return -1;
		}
		if (net_send_data(c->ctl, buf, (size_t)r) < 0)
			goto lost;
		off += (uint64_t)r;
	}
	if (net_send_cmd(c->ctl, NET_FIN_DATA) == 0)
		return 0;
lost:
	snprintf(err, errlen, "the listener went away while the metadata was sent: %s",
		 strerror(errno));
	return -1;
}

/* Send the whole pages the spool has beyond s->pos; false when the connection failed. */
static bool send_ready(struct sender *s, char *page)
{
	struct net_client *c = s->c;
	struct stat st;
	uint64_t start = s->pos;

	if (fstat(s->spool, &st) < 0)
		return true;
	while (s->pos + c->page_size <= (uint64_t)st.st_size) {
		ssize_t r = pread(s->spool, page, c->page_size, (off_t)s->pos);

		if (r != (ssize_t)c->page_size)
			break;
		if (c->tcp) {
			if (net_write_full(s->sock, page, c->page_size) < 0) {
				s->error = errno;
				return false;
			}
			s->sent++;
		} else if (send(s->sock, page, c->page_size, 0) == (ssize_t)c->page_size) {
			s->sent++;
		} else {
			s->failed++;
		}
		s->pos += c->page_size;
	}
	/* What is sent is not needed here again: keep the spool's disk use small. */
	if (s->pos > start)
		fallocate(s->spool, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)s->pos);
	return true;
}

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	char *page = xmalloc(s->c->page_size);
	long grace = AGENT_CONNECT_GRACE_US;

	for (;;) {
		bool last = atomic_load(&s->c->draining);

		if (s->sock < 0 && !accept_host(s)) {
			if (last && (grace -= POLL_US) <= 0) {
				s->error = ENOTCONN;
				break;
			}
			usleep(POLL_US);
			continue;
		}

		if (!send_ready(s, page) || last)
			break;
		usleep(POLL_US);
	}
	free(page);
	return NULL;
}

int net_client_stream(struct net_client *c, const char *spool, char *err, size_t errlen)
{
	for (int i = 0; i < c->cpus; i++) {
		char path[4200];
		struct sender *s = &c->s[i];

		snprintf(path, sizeof(path), "%s.cpu%d", spool, i);
		s->spool = open(path, O_RDWR | O_CLOEXEC);
		if (s->spool < 0) {
			snprintf(err, errlen, "cannot open the spool %s: %s", path, strerror(errno));
			return -1;
		}
		if (pthread_create(&s->thread, NULL, sender_main, s)) {
			snprintf(err, errlen, "cannot start a sender thread");
			return -1;
		}
		s->running = true;
	}
	return 0;
}

int net_client_finish(struct net_client *c, struct net_client_stats *st, char *err,
		      size_t errlen)
{
	int lost = 0;

	memset(st, 0, sizeof(*st));
	atomic_store(&c->draining, 1);
	for (int i = 0; i < c->cpus; i++) {
		struct sender *s = &c->s[i];

		if (s->running)
			pthread_join(s->thread, NULL);
		s->running = false;
		st->pages_sent += s->sent;
		st->pages_failed += s->failed;
		if (s->error)
			lost = s->error;
		/* TCP: the end of the connection is the end of this CPU's pages */
		if (s->sock >= 0)
			close(s->sock);
		s->sock = -1;
	}
	st->bytes_sent = st->pages_sent * c->page_size;
	if (net_send_cmd(c->ctl, c->end_cmd) < 0 && !lost)
		lost = errno;
	if (lost == ENOTCONN) {
		snprintf(err, errlen, "the host never connected for some CPU's pages");
		return -1;
	}
	if (lost) {
		snprintf(err, errlen, "the %s went away: %s",
			 c->end_cmd == NET_CLOSE ? "listener" : "host", strerror(lost));
		return -1;
	}
	return 0;
}

void net_client_free(struct net_client *c)
{
	if (!c)
		return;
	atomic_store(&c->draining, 1);
	for (int i = 0; c->s && i < c->cpus; i++) {
		if (c->s[i].running)
			pthread_join(c->s[i].thread, NULL);
		if (c->s[i].sock >= 0)
			close(c->s[i].sock);
		if (c->s[i].spool >= 0)
			close(c->s[i].spool);
	}
	if (c->ctl >= 0 && c->end_cmd == NET_CLOSE)	/* an agent's belongs to its session */
		close(c->ctl);
	free(c->s);
	free(c);
}
