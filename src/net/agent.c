/*
 * tracekit agent (see agent.h): accept a host, answer its TRACE_REQ, serve
 * the time sync in a thread of its own, and hand the recording to the CLI's
 * record function.  Everything the host sends is bounded: the request by the
 * message size, every wait by a timeout, the ports by the CPU count.
 */
#include "net/agent.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "net/tsync.h"
#include "util/die.h"
#include "util/json.h"

/* A host that connected and says nothing this long is dropped. */
#define REQ_WAIT_MS 10000
/*
 * The host connects for the time sync after TRACE_RESP, once its own recording is set up:
 * seconds on a slow machine (a sanitizer build in an emulated guest took more than 15).  It
 * is awaited beside the recording, until it ends or this long.
 */
#define TSYNC_ACCEPT_MS (10 * 60 * 1000)

/* After the recording, the host's last sample and STOP come at once; a host that never sends them
 * is not waited for longer than this. */
#define TSYNC_END_WAIT_MS 30000

struct tsync_thread {
	pthread_t t;
	bool running;
	atomic_int done, connected;
	int lfd, fd;
	const struct net_allow *allow;
	struct tsync_clock *clk;
	atomic_int stop;	/* set by the session's thread, read by this one */
	struct tsync_guest_stats st;
};

const char *net_agent_req_clock(const struct net_trace_req *r)
{
	const char *clock = NULL;

	for (int i = 0; i + 1 < r->argc; i++)
		if (!strcmp(r->argv[i], "-C"))
			clock = r->argv[i + 1];
	return clock;
}

/* A listening TCP socket on the first free port from *next up; -1 when none is. */
static int listen_from(const char *addr, unsigned *next, unsigned *port)
{
	char err[256];

	for (unsigned p = *next; p <= 65535; p++) {
		int fd = net_bind(addr, p, SOCK_STREAM, err, sizeof(err));

		if (fd >= 0) {
			*port = p;
			*next = p + 1;
			return fd;
		}
		if (errno != EADDRINUSE && errno != EACCES)
			return -1;
	}
	return -1;
}

/* Accept one connection from an allowed peer within ms; -1 on timeout or *stop. */
static int accept_allowed(int lfd, const struct net_allow *allow, int ms, atomic_int *stop)
{
	for (int waited = 0; waited < ms && !(stop && atomic_load(stop)); waited += 100) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd;

		if (poll(&p, 1, 100) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (net_allowed(allow, (struct sockaddr *)&ss))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * The CPUs the recording has: tracefs's per_cpu directories (the possible CPUs, which a machine
 * that can hot-plug has more of than it runs), as the recorder counts them.
 */
static int count_cpus(void)
{
	const char *dir = tracefs_tracing_dir();
	char path[4200];
	struct dirent *e;
	int max = -1;
	DIR *d;

	snprintf(path, sizeof(path), "%s/per_cpu", dir ? dir : "/sys/kernel/tracing");
	d = opendir(path);
	if (!d)
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	while ((e = readdir(d))) {
		int cpu;

		if (sscanf(e->d_name, "cpu%d", &cpu) == 1 && cpu > max)
			max = cpu;
	}
	closedir(d);
	return max >= 0 ? max + 1 : (int)sysconf(_SC_NPROCESSORS_CONF);
}

static void *tsync_main(void *arg)
{
	struct tsync_thread *t = arg;

	t->fd = accept_allowed(t->lfd, t->allow, TSYNC_ACCEPT_MS, &t->stop);
	if (t->fd >= 0) {
		atomic_store(&t->connected, 1);
		tsync_guest_serve(t->fd, t->clk, &t->stop, &t->st);
	}
	atomic_store(&t->done, 1);
	return NULL;
}

bool net_agent_close_asked(struct net_agent_session *s)
{
	struct pollfd p = { .fd = s->ctl, .events = POLLIN };
	struct net_msg *m;
	char err[256];
	int r;

	if (s->close_seen)
		return true;
	if (poll(&p, 1, 0) <= 0)
		return false;
	m = xmalloc(sizeof(*m));
	r = net_msg_read(s->ctl, m, REQ_WAIT_MS, err, sizeof(err));
	/* CLOSE, the end of the connection, or a message that has no place here: the end */
	s->close_seen = true;
	if (r < 0)
		fprintf(stderr, "tracekit: agent: %s: %s; the recording ends\n", s->host, err);
	else if (!r && m->cmd != NET_CLOSE)
		fprintf(stderr, "tracekit: agent: %s: a %s message where CLOSE was due; the "
			"recording ends\n", s->host, net_cmd_name(m->cmd));
	free(m);
	return s->close_seen;
}

static bool offers(const struct net_trace_req *r, const char *proto)
{
	for (int i = 0; r->protos[i]; i++)
		if (!strcmp(r->protos[i], proto))
			return true;
	return false;
}

void net_agent_recorded(struct net_agent_session *s, unsigned long long events,
			unsigned long long lost, unsigned long long pages_sent)
{
	s->recorded = true;
	s->events = events;
	s->lost = lost;
	s->pages_sent = pages_sent;
}

/* --json: the session's end, one line: what was sent and how the clocks were synced. */
static void done_json(const struct net_agent_session *s, const struct tsync_thread *t,
		      int status)
{
	fputs("{\"event\":\"done\",\"host\":", stdout);
	json_fputs(stdout, s->host);
	printf(",\"status\":%d", status);	/* the recording's exit status, as record's */
	if (s->recorded)
		printf(",\"events\":%llu,\"lost\":%llu,\"pages_sent\":%llu", s->events, s->lost,
		       s->pages_sent);
	else
		fputs(",\"events\":null,\"lost\":null,\"pages_sent\":null", stdout);
	fputs(",\"time_sync\":", stdout);
	if (!t->running) {
		fputs("null", stdout);
	} else {
		printf("{\"connected\":%s,\"samples\":%u", t->fd >= 0 ? "true" : "false",
		       t->st.samples);
		if (t->st.best_rtt >= 0)
			printf(",\"offset_ns\":%lld,\"round_trip_ns\":%lld,"
			       "\"longest_round_trip_ns\":%lld", (long long)t->st.last_offset,
			       (long long)t->st.best_rtt, (long long)t->st.worst_rtt);
		else
			fputs(",\"offset_ns\":null,\"round_trip_ns\":null,"
			      "\"longest_round_trip_ns\":null", stdout);
		fputs(",\"error\":", stdout);
		if (t->st.error[0])
			json_fputs(stdout, t->st.error);
		else
			fputs("null", stdout);
		fputc('}', stdout);
	}
	fputs("}\n", stdout);
	fflush(stdout);
}

static void say_sync(const struct net_agent_session *s, const struct tsync_thread *t)
{
	if (!t->running)
		return;
	if (t->fd < 0) {
		fprintf(stderr, "tracekit: agent: %s did not connect for the time sync\n", s->host);
		return;
	}
	fprintf(stderr, "tracekit: agent: %s: time sync (ptp): %u samples", s->host,
		t->st.samples);
	if (t->st.best_rtt >= 0)
		fprintf(stderr, ", offset %lld ns, shortest round trip %lld ns, longest %lld ns "
			"(the offsets are within +-%lld ns, half the longest)",
			(long long)t->st.last_offset, (long long)t->st.best_rtt,
			(long long)t->st.worst_rtt, (long long)(t->st.worst_rtt / 2));
	if (t->st.error[0])
		fprintf(stderr, "; %s", t->st.error);
	fputc('\n', stderr);
}

/* A session ended before it recorded: a line on stderr, and with --json a "failed" one. */
static void say_failed(const struct net_agent_opts *o, const char *host, const char *why)
{
	fprintf(stderr, "tracekit: agent: %s: %s\n", host, why);
	if (!o->json)
		return;
	fputs("{\"event\":\"failed\",\"host\":", stdout);
	json_fputs(stdout, host);
	fputs(",\"why\":", stdout);
	json_fputs(stdout, why);
	fputs("}\n", stdout);
	fflush(stdout);
}

/* The recording starts: a line on stderr, or the JSON one. */
static void say_recording(const struct net_agent_opts *o, const struct net_agent_session *s,
			  const struct net_trace_resp *resp)
{
	if (!o->json) {
		fprintf(stderr, "tracekit: agent: %s: recording for it (%d CPUs, data ports "
			"%u-%u)\n", s->host, s->cpus, s->ports[0], s->ports[s->cpus - 1]);
		return;
	}
	fputs("{\"event\":\"recording\",\"host\":", stdout);
	json_fputs(stdout, s->host);
	printf(",\"cpus\":%d,\"data_ports\":[", s->cpus);
	for (int i = 0; i < s->cpus; i++)
		printf("%s%u", i ? "," : "", s->ports[i]);
	fputs("],\"time_sync\":", stdout);
	if (resp->tsync_proto[0])
		printf("{\"protocol\":\"ptp\",\"port\":%u}", resp->tsync_port);
	else
		fputs("null", stdout);
	fputs(",\"options\":[", stdout);
	for (int i = 0; i < s->req.argc; i++) {
		if (i)
			fputc(',', stdout);
		json_fputs(stdout, s->req.argv[i]);
	}
	fputs("]}\n", stdout);
	fflush(stdout);
}

/* One host, from its TRACE_REQ to CLOSE_RESP: whether it got to a recording. */
static bool session(const struct net_agent_opts *o, int ctl, const char *host)
{
	struct net_agent_session s = { .ctl = ctl, .allow = &o->allow, .addr = o->addr,
					.stop = o->stop };
	struct net_trace_resp *resp = xcalloc(1, sizeof(*resp));
	struct net_msg *m = xmalloc(sizeof(*m));
	struct tsync_thread t = { .fd = -1 };
	char err[512];
	unsigned first = o->first_port ? o->first_port : NET_AGENT_FIRST_PORT, next = first;
	int tsync_listen = -1, r, rc;
	bool started = false;	/* "recording" said: "done" follows */
	char why[600] = "";	/* or why it was not: said at the end */
	const char *clock;

	snprintf(s.host, sizeof(s.host), "%s", host);
	r = net_msg_read(ctl, m, REQ_WAIT_MS, err, sizeof(err));
	if (r == 1)
		snprintf(err, sizeof(err), "closed the connection before its request");
	if (!r && m->cmd == NET_TRACE_PROXY) {
		snprintf(err, sizeof(err), "asked for a proxy (TRACE_PROXY, vsock only): not "
			 "spoken here");
		net_send_cmd(ctl, NET_NOT_SUPP);
		r = -1;
	}
	if (r || net_trace_req_decode(m, &s.req, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "%s", err);
		goto out;
	}
	clock = net_agent_req_clock(&s.req);
	snprintf(s.clock, sizeof(s.clock), "%s", clock ? clock : "");
	s.cpus = count_cpus();
	if (s.cpus < 1 || s.cpus > NET_MAX_CPUS) {
		snprintf(why, sizeof(why), "%d CPUs here: trace-cmd's protocol takes 1 to %d",
			 s.cpus, NET_MAX_CPUS);
		goto out;
	}
	s.page_size = (unsigned)sysconf(_SC_PAGESIZE);
	s.data_fds = xcalloc((size_t)s.cpus, sizeof(int));
	s.ports = xcalloc((size_t)s.cpus, sizeof(unsigned));
	for (int i = 0; i < s.cpus; i++)
		s.data_fds[i] = -1;
	for (int i = 0; i < s.cpus; i++) {
		s.data_fds[i] = listen_from(o->addr, &next, &s.ports[i]);
		if (s.data_fds[i] < 0) {
			snprintf(why, sizeof(why), "no free port from %u up for CPU %d's data "
				 "(--ports-from)", first, i);
			goto out;
		}
	}
	if (getrandom(&s.trace_id, sizeof(s.trace_id), 0) != sizeof(s.trace_id))
		s.trace_id = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);
	if (offers(&s.req, TSYNC_PROTO_PTP)) {
		t.clk = tsync_clock_open(clock, err, sizeof(err));
		if (!t.clk)
			fprintf(stderr, "tracekit: agent: %s: no time sync: %s\n", host, err);
		else
			tsync_listen = listen_from(o->addr, &next, &resp->tsync_port);
		if (t.clk && tsync_listen >= 0)
			snprintf(resp->tsync_proto, sizeof(resp->tsync_proto), "%s",
				 TSYNC_PROTO_PTP);
	} else {
		fprintf(stderr, "tracekit: agent: %s offers no time-sync protocol spoken here "
			"(ptp): its file and ours are not put on one clock\n", host);
	}
	resp->cpus = (uint32_t)s.cpus;
	resp->page_size = s.page_size;
	resp->trace_id = s.trace_id;
	for (int i = 0; i < s.cpus; i++)
		resp->ports[i] = s.ports[i];
	if (net_send_trace_resp(ctl, resp) < 0) {
		snprintf(why, sizeof(why), "cannot answer: %s", strerror(errno));
		goto out;
	}
	if (resp->tsync_proto[0]) {
		t.lfd = tsync_listen;
		t.allow = &o->allow;
		if (pthread_create(&t.t, NULL, tsync_main, &t) == 0) {
			t.running = true;
		} else {
			fprintf(stderr, "tracekit: agent: %s: no time sync: cannot start its "
				"thread\n", host);
			close(tsync_listen);	/* the host's connection is refused, not left waiting */
			tsync_listen = -1;
		}
	}
	if (*o->stop) {
		/* a Ctrl-C while the request came: the recording would reset it and run on */
		snprintf(why, sizeof(why), "stopped before recording");
		rc = 1;
	} else {
		say_recording(o, &s, resp);
		started = true;
		rc = o->record(&s, o->arg);
	}
	if (s.recorded && !o->json)
		fprintf(stderr, "tracekit: agent: %s: %llu events, %llu lost in the kernel, %llu "
			"pages sent\n", host, s.events, s.lost, s.pages_sent);
	if (t.running) {
		/*
		 * the host's STOP ends it; a stop asked here, a host that never says it, one
		 * that never connected, or a recording that did not happen, too
		 */
		for (int waited = 0; waited < TSYNC_END_WAIT_MS && !rc && !atomic_load(&t.done) &&
		     atomic_load(&t.connected) && !*o->stop; waited += 50)
			usleep(50000);
		atomic_store(&t.stop, 1);
		pthread_join(t.t, NULL);
		if (!o->json)
			say_sync(&s, &t);
	}
	if (o->json && started)
		done_json(&s, &t, rc);
out:
	if (why[0])
		say_failed(o, host, why);
	if (tsync_listen >= 0)
		close(tsync_listen);
	tsync_clock_close(t.clk);
	for (int i = 0; s.data_fds && i < s.cpus; i++)
		if (s.data_fds[i] >= 0)
			close(s.data_fds[i]);
	free(s.data_fds);
	free(s.ports);
	net_trace_req_free(&s.req);
	free(resp);
	free(m);
	close(ctl);
	return started;
}

int net_agent_run(const struct net_agent_opts *o)
{
	char err[256];
	int lfd = net_bind(o->addr, o->port ? o->port : NET_AGENT_PORT, SOCK_STREAM, err,
			   sizeof(err));
	int served = 0;

	if (lfd < 0) {
		fprintf(stderr, "tracekit: agent: %s\n", err);
		return 1;
	}
	if (o->json) {
		fputs("{\"event\":\"listening\",\"address\":", stdout);
		json_fputs(stdout, o->addr ? o->addr : "127.0.0.1");
		printf(",\"port\":%u}\n", o->port ? o->port : NET_AGENT_PORT);
		fflush(stdout);
	} else {
		fprintf(stderr, "tracekit: agent: listening on %s port %u\n",
			o->addr ? o->addr : "127.0.0.1", o->port ? o->port : NET_AGENT_PORT);
	}
	while (!*o->stop && (!o->sessions || served < o->sessions)) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		char host[64];
		int fd;

		if (poll(&p, 1, 200) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		net_numeric_host((struct sockaddr *)&ss, host, sizeof(host));
		if (!net_allowed(&o->allow, (struct sockaddr *)&ss)) {
			if (o->json) {
				fputs("{\"event\":\"refused\",\"host\":", stdout);
				json_fputs(stdout, host);
				fputs(",\"why\":\"not allowed\"}\n", stdout);
				fflush(stdout);
			}
			fprintf(stderr, "tracekit: agent: refused %s (not allowed: -N HOST or "
				"--allow CIDR lets it in)\n", host);
			close(fd);
			continue;
		}
		/* a connection that never asked for a recording (a port check) is no host served */
		if (session(o, fd, host))
			served++;
	}
	close(lfd);
	return 0;
}
