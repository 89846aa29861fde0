/*
 * record -A (see guest.h).  The order is trace-cmd's, so that trace-cmd's
 * agent sees what it expects: TRACE_REQ, TRACE_RESP, the time-sync
 * connection (a thread takes the samples from then on, the first of every
 * vCPU while the metadata comes), the metadata, then the data connections;
 * at the end CLOSE, a last sample and STOP, CLOSE_RESP.  The agent is a peer
 * on the network: every message is bounded (the metadata by GUEST_MAX_META),
 * every wait by a timeout.
 */
#include "guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/addr.h"
#include "net/msg.h"
#include "net/tracemeta.h"
#include "net/tsync.h"
#include "tracefile/writer.h"
#include "util/die.h"

#define GUEST_WAIT_MS 30000
#define GUEST_MAX_META (256ull << 20)
/* After CLOSE_RESP the agent has closed its data connections; a reader gets this long. */
#define DRAIN_WAIT_MS 10000
#define DEFAULT_AGENT_PORT 823

struct reader {
	struct rec_guest *g;
	int cpu;
	int sock;
	int fd;
	uint64_t bytes;
	int error;
	pthread_t t;
	bool running;
	atomic_int done;
};

struct rec_guest {
	struct rec_guest_opts o;
	char host[256];
	unsigned port;
	char name[128];
	int ctl;
	struct net_trace_resp resp;
	char file[4200], part[4200];
	int meta_fd;
	uint64_t meta_size;
	struct net_meta mi;
	struct reader *r;
	int cpus;
	/* time sync */
	struct tsync_clock *clk;
	struct tsync_host *ts;
	pthread_t ts_thread;
	bool ts_running;
	bool keep;		/* finishing failed: the pieces stay for the user */
	atomic_int ts_stop;
	char ts_err[256];
	uint8_t *guest_opt;
	size_t guest_opt_len;
	bool close_sent;	/* CLOSE went (or failed with close_errno) */
	int close_errno;
};

/* HOST:PORT, or HOST alone (trace-cmd's port); 0, or -1 and err. */
static int split_agent(const char *hostport, char *host, size_t hostlen, unsigned *port,
		       char *err, size_t errlen)
{
	const char *colon = strrchr(hostport, ':');

	if (!colon || strchr(colon, ']')) {
		snprintf(host, hostlen, "%s", hostport);
		*port = DEFAULT_AGENT_PORT;
		return 0;
	}
	return net_split_hostport(hostport, host, hostlen, port, err, errlen);
}

void rec_guest_name(const char *hostport, const char *name, char *buf, size_t len)
{
	char host[256], err[256];
	unsigned port;

	if (name)
		snprintf(buf, len, "%s", name);
	else if (split_agent(hostport, host, sizeof(host), &port, err, sizeof(err)) == 0)
		snprintf(buf, len, "%s", host);
	else
		snprintf(buf, len, "%s", hostport);	/* its start says what is wrong */
}

void rec_guest_file(const char *output, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(output, '/');
	const char *dot = strrchr(output, '.');
	size_t base = dot && dot > (slash ? slash + 1 : output) ? (size_t)(dot - output)
								 : strlen(output);

	snprintf(buf, len, "%.*s-%s%s", (int)base, output, name, output + base);
}

/* FILE.cpuN, as a recording's own per-CPU files: reset removes both kinds alike. */
static void cpu_path(const struct rec_guest *g, int cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s.cpu%d", g->file, cpu);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char buf[1 << 16];

	for (;;) {
		ssize_t n = read(r->sock, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				r->error = errno;
			break;
		}
		if (write(r->fd, buf, (size_t)n) != n) {
			r->error = errno ? errno : EIO;
			break;
		}
		r->bytes += (uint64_t)n;
	}
	atomic_store(&r->done, 1);
	return NULL;
}

/*
 * The samples: the first at once, then one each tsync_interval_ms (none more without it).
 * In a thread from the first on: the agent sends its metadata meanwhile, and a slow first
 * round (339 probes, a loaded machine) must not leave it writing to a host that reads nothing.
 */
static void *tsync_loop(void *arg)
{
	struct rec_guest *g = arg;

	for (;;) {
		if (tsync_host_round(g->ts, g->ts_err, sizeof(g->ts_err)) < 0 ||
		    g->o.tsync_interval_ms <= 0)
			return NULL;
		for (int waited = 0; waited < g->o.tsync_interval_ms; waited += 10) {
			if (atomic_load(&g->ts_stop))
				return NULL;
			usleep(10000);
		}
	}
}

/* TRACE_REQ: "-C CLOCK" first (the guest records on the host's clock), then the user's. */
static int send_request(struct rec_guest *g, char *err, size_t errlen)
{
	const char *protos[] = { TSYNC_PROTO_PTP, NULL };
	char **argv = xcalloc((size_t)g->o.argc + 3, sizeof(char *));
	int argc = 0, r;

	argv[argc++] = "-C";
	argv[argc++] = (char *)g->o.clock;
	for (int i = 0; i < g->o.argc; i++)
		argv[argc++] = g->o.argv[i];
	r = net_send_trace_req(g->ctl, g->o.trace_id, argc, argv, protos);
	free(argv);
	if (r < 0)
		snprintf(err, errlen, "cannot send the request to the agent %s:%u: %s", g->host,
			 g->port, strerror(errno));
	return r;
}

static int receive_response(struct rec_guest *g, char *err, size_t errlen)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	char why[512];
	int r = net_msg_read(g->ctl, m, GUEST_WAIT_MS, why, sizeof(why));

	if (r == 1)
		snprintf(why, sizeof(why), "it closed the connection before answering (does it "
			 "allow this host? tracekit agent takes loopback only unless -N HOST or "
			 "--allow CIDR; its own output says)");
	if (!r && m->cmd == NET_NOT_SUPP) {
		snprintf(why, sizeof(why), "it does not take this request (NOT_SUPP)");
		r = -1;
	}
	if (!r && net_trace_resp_decode(m, &g->resp, why, sizeof(why)) < 0)
		r = -1;
	free(m);
	if (r)
		snprintf(err, errlen, "agent %s:%u: %s", g->host, g->port, why);
	return r ? -1 : 0;
}

static void start_tsync(struct rec_guest *g)
{
	char err[512];
	int fd;

	if (strcmp(g->resp.tsync_proto, TSYNC_PROTO_PTP) || !g->resp.tsync_port) {
		snprintf(g->ts_err, sizeof(g->ts_err), "the agent offers no time sync%s%s%s",
			 g->resp.tsync_proto[0] ? " but '" : "", g->resp.tsync_proto,
			 g->resp.tsync_proto[0] ? "'" : "");
		return;
	}
	g->clk = tsync_clock_open(g->o.clock, err, sizeof(err));
	if (!g->clk) {
		snprintf(g->ts_err, sizeof(g->ts_err), "%.250s", err);
		return;
	}
	fd = net_connect(g->host, g->resp.tsync_port, SOCK_STREAM, err, sizeof(err));
	if (fd < 0) {
		snprintf(g->ts_err, sizeof(g->ts_err), "time-sync port %u: %.200s",
			 g->resp.tsync_port, err);
		return;
	}
	g->ts = tsync_host_new(fd, (int)g->resp.cpus, g->clk);
	if (pthread_create(&g->ts_thread, NULL, tsync_loop, g) == 0)
		g->ts_running = true;
	else
		tsync_host_round(g->ts, g->ts_err, sizeof(g->ts_err));	/* one sample, here */
}

/* SEND_DATA ... FIN_DATA into the guest file's first part. */
static int receive_meta(struct rec_guest *g, char *err, size_t errlen)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	char why[512] = "";
	int ret = -1;

	for (;;) {
		int r = net_msg_read(g->ctl, m, GUEST_WAIT_MS, why, sizeof(why));

		if (r == 1 && !g->meta_size)	/* it took the request, then did not record */
			snprintf(why, sizeof(why), "it closed the connection before recording (the "
				 "agent's own output says why: an event or option its machine "
				 "lacks?)");
		else if (r == 1)
			snprintf(why, sizeof(why), "it closed the connection during the metadata");
		if (r)
			goto out;
		if (m->cmd == NET_FIN_DATA)
			break;
		if (m->cmd != NET_SEND_DATA) {
			snprintf(why, sizeof(why), "a %s message in the metadata",
				 net_cmd_name(m->cmd));
			goto out;
		}
		if (g->meta_size + m->data_len > GUEST_MAX_META) {
			snprintf(why, sizeof(why), "more than %llu MB of metadata",
				 GUEST_MAX_META >> 20);
			goto out;
		}
		if (pwrite(g->meta_fd, m->data, m->data_len, (off_t)g->meta_size) !=
		    (ssize_t)m->data_len) {
			snprintf(err, errlen, "cannot write %s: %s", g->part, strerror(errno));
			free(m);
			return -1;
		}
		g->meta_size += m->data_len;
	}
	ret = net_meta_inspect(g->meta_fd, g->meta_size, &g->mi, why, sizeof(why));
out:
	if (ret)
		snprintf(err, errlen, "agent %s:%u: %s", g->host, g->port, why);
	free(m);
	return ret;
}

static int connect_data(struct rec_guest *g, char *err, size_t errlen)
{
	g->cpus = (int)g->resp.cpus;
	g->r = xcalloc((size_t)g->cpus, sizeof(*g->r));
	for (int i = 0; i < g->cpus; i++)
		g->r[i] = (struct reader){ .g = g, .cpu = i, .sock = -1, .fd = -1 };
	for (int i = 0; i < g->cpus; i++) {
		struct reader *r = &g->r[i];
		char path[4300];

		cpu_path(g, i, path, sizeof(path));
		r->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (r->fd < 0) {
			snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
			return -1;
		}
		r->sock = net_connect(g->host, g->resp.ports[i], SOCK_STREAM, err, errlen);
		if (r->sock < 0)
			return -1;
		if (pthread_create(&r->t, NULL, reader_main, r)) {
			snprintf(err, errlen, "cannot start a reader thread");
			return -1;
		}
		r->running = true;
	}
	return 0;
}

struct rec_guest *rec_guest_start(const struct rec_guest_opts *o, char *err, size_t errlen)
{
	struct rec_guest *g = xcalloc(1, sizeof(*g));

	g->o = *o;
	g->ctl = g->meta_fd = -1;
	if (split_agent(o->hostport, g->host, sizeof(g->host), &g->port, err, errlen) < 0)
		goto fail;
	snprintf(g->name, sizeof(g->name), "%.127s", o->name ? o->name : g->host);
	rec_guest_file(o->output, g->name, g->file, sizeof(g->file));
	snprintf(g->part, sizeof(g->part), "%.4190s.part", g->file);
	g->meta_fd = open(g->part, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (g->meta_fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", g->part, strerror(errno));
		goto fail;
	}
	g->ctl = net_connect(g->host, g->port, SOCK_STREAM, err, errlen);
	if (g->ctl < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "-A %s: %s (is an agent running there: 'tracekit agent' or "
			 "'trace-cmd agent -N THIS-HOST'?)", o->hostport, why);
		goto fail;
	}
	if (send_request(g, err, errlen) < 0 || receive_response(g, err, errlen) < 0)
		goto fail;
	start_tsync(g);
	if (receive_meta(g, err, errlen) < 0 || connect_data(g, err, errlen) < 0)
		goto fail;
	return g;
fail:
	rec_guest_free(g);
	return NULL;
}

/* CLOSE_RESP, skipping nothing else: any other message is the agent's mistake. */
static int wait_close_resp(struct rec_guest *g, char *why, size_t len)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	int r = net_msg_read(g->ctl, m, GUEST_WAIT_MS, why, len);

	if (r == 1)
		snprintf(why, len, "it closed the connection without CLOSE_RESP");
	if (!r && m->cmd != NET_CLOSE_RESP) {
		snprintf(why, len, "a %s message where CLOSE_RESP was due", net_cmd_name(m->cmd));
		r = -1;
	}
	free(m);
	return r ? -1 : 0;
}

static void join_readers(struct rec_guest *g)
{
	for (int waited = 0; waited < DRAIN_WAIT_MS; waited += 20) {
		bool all = true;

		for (int i = 0; i < g->cpus; i++)
			all &= !g->r[i].running || atomic_load(&g->r[i].done);
		if (all)
			break;
		usleep(20000);
	}
	for (int i = 0; i < g->cpus; i++) {
		struct reader *r = &g->r[i];

		if (!r->running)
			continue;
		if (!atomic_load(&r->done))
			shutdown(r->sock, SHUT_RDWR);	/* an agent that never ends its data */
		pthread_join(r->t, NULL);
		r->running = false;
	}
}

/* shifted: the file got its TIME_SHIFT option (every vCPU has a sample, same byte order). */
static void say_sync(const struct rec_guest *g, bool shifted)
{
	const int64_t *ts, *off;
	int n = g->ts ? tsync_host_samples(g->ts, 0, &ts, &off) : 0;
	int64_t e = g->ts ? tsync_host_error(g->ts) : -1;

	if (!n || !shifted) {
		fprintf(stderr, "tracekit: record: guest %s: no time sync (%s): its times are its "
			"own clock's\n", g->name, g->ts_err[0] ? g->ts_err :
			!n ? "no sample" : g->mi.swap ? "its file's byte order is not this machine's" :
			"a vCPU without a sample");
		return;
	}
	fprintf(stderr, "tracekit: record: guest %s: time sync ptp, %d sample%s per vCPU, "
		"offset %lld ns (guest to host)", g->name, n, n == 1 ? "" : "s",
		(long long)off[n - 1]);
	if (e >= 0)
		fprintf(stderr, ", estimated error +-%lld ns (half the round trip of its least "
			"sure sample)", (long long)e);
	if (g->ts_err[0])
		fprintf(stderr, "; %s", g->ts_err);
	fputc('\n', stderr);
}

int rec_guest_vcpu_thread(int pid, int cpu)
{
	char path[64], comm[64], want[32];
	struct dirent *e;
	int found = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	snprintf(want, sizeof(want), "CPU %d/", cpu);
	while (found < 0 && (e = readdir(d))) {
		int tid = atoi(e->d_name);
		FILE *f;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f) && !strncmp(comm, want, strlen(want)))
			found = tid;
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

/* The GUEST option; how many vCPUs --guest-pid has no named thread for. */
static int make_guest_option(struct rec_guest *g)
{
	int unnamed = 0;

	size_t nlen = strlen(g->name) + 1;
	uint32_t cpus = g->resp.cpus;
	uint8_t *p;

	g->guest_opt_len = nlen + 8 + 4 + (size_t)cpus * 8;
	p = g->guest_opt = xmalloc(g->guest_opt_len);
	memcpy(p, g->name, nlen);
	p += nlen;
	memcpy(p, &g->resp.trace_id, 8);
	p += 8;
	memcpy(p, &cpus, 4);
	p += 4;
	for (uint32_t i = 0; i < cpus; i++) {
		/* a TCP agent's vCPU threads are known only from --guest-pid */
		int32_t pid = g->o.guest_pid > 0 ? rec_guest_vcpu_thread(g->o.guest_pid, (int)i) : -1;

		unnamed += g->o.guest_pid > 0 && pid < 0;
		memcpy(p, &i, 4);
		memcpy(p + 4, &pid, 4);
		p += 8;
	}
	return unnamed;
}

void rec_guest_ask_close(struct rec_guest *g)
{
	if (g->close_sent)
		return;
	g->close_sent = true;
	if (net_send_cmd(g->ctl, NET_CLOSE) < 0)
		g->close_errno = errno ? errno : EPIPE;
}

int rec_guest_stop(struct rec_guest *g, char *err, size_t errlen)
{
	struct net_cpu_file *files = xcalloc((size_t)g->cpus, sizeof(*files));
	struct tf_option opt = { TF_OPT_TIME_SHIFT, NULL, 0 };
	uint8_t *shift = NULL;
	size_t shift_len = 0;
	uint64_t bytes = 0;
	char why[512] = "";
	int ret = -1, close_ok, unnamed;

	rec_guest_ask_close(g);
	if (g->close_errno)
		snprintf(why, sizeof(why), "the agent went away: %s", strerror(g->close_errno));
	if (g->ts_running) {
		atomic_store(&g->ts_stop, 1);
		pthread_join(g->ts_thread, NULL);
		g->ts_running = false;
	}
	if (g->ts && !g->ts_err[0])
		tsync_host_round(g->ts, g->ts_err, sizeof(g->ts_err));	/* the last sample */
	if (g->ts)
		tsync_host_stop(g->ts);
	close_ok = !why[0] && wait_close_resp(g, why, sizeof(why)) == 0;
	join_readers(g);
	for (int i = 0; i < g->cpus; i++) {
		struct reader *r = &g->r[i];
		uint64_t whole = r->bytes / g->mi.page_size * g->mi.page_size;

		files[i] = (struct net_cpu_file){ .cpu = i, .fd = r->fd, .size = whole };
		bytes += whole;
		if (whole != r->bytes && !why[0])
			snprintf(why, sizeof(why), "CPU %d's last %llu bytes were not a whole page: "
				 "dropped", i, (unsigned long long)(r->bytes - whole));
		if (r->error && !why[0])
			snprintf(why, sizeof(why), "CPU %d's data connection: %s", i,
				 strerror(r->error));
	}
	/* Our writer swaps no option's contents: a file of the other byte order goes without. */
	if (g->ts && !g->mi.swap)
		shift = tsync_host_time_shift(g->ts, g->o.trace_id, &shift_len);
	opt.data = shift;
	opt.len = (uint32_t)shift_len;
	if (net_meta_finish_with(g->meta_fd, &g->mi, files, g->cpus, &opt, shift ? 1 : 0, err,
				 errlen) < 0) {
		g->keep = true;
		goto out;
	}
	if (rename(g->part, g->file) < 0) {
		snprintf(err, errlen, "cannot rename %s to %s (the whole file is there): %s",
			 g->part, g->file, strerror(errno));
		g->keep = true;
		goto out;
	}
	unnamed = make_guest_option(g);
	fprintf(stderr, "tracekit: record: guest %s (%s:%u): %s, %llu KB of %d CPUs%s%s\n", g->name,
		g->host, g->port, g->file, (unsigned long long)(bytes / 1024), g->cpus,
		close_ok && !why[0] ? "" : "; ", close_ok && !why[0] ? "" : why);
	if (!close_ok && !why[0])
		fprintf(stderr, "tracekit: record: guest %s: the agent did not confirm the end: "
			"its last pages may be missing\n", g->name);
	say_sync(g, shift != NULL);
	/* qemu names its vCPU threads only when told to; without names sched cannot pair them */
	if (unnamed)
		fprintf(stderr, "tracekit: record: guest %s: --guest-pid %d has no thread named "
			"'CPU N/KVM' or 'CPU N/TCG' for %d of its %d vCPUs (qemu names them with -name "
			"NAME,debug-threads=on): the GUEST option says -1 for those\n", g->name,
			g->o.guest_pid, unnamed, (int)g->resp.cpus);
	ret = 0;
out:
	free(shift);
	free(files);
	return ret;
}

const uint8_t *rec_guest_option(const struct rec_guest *g, size_t *len)
{
	*len = g->guest_opt_len;
	return g->guest_opt;
}

void rec_guest_free(struct rec_guest *g)
{
	char path[4300];

	if (!g)
		return;
	if (g->ctl >= 0)
		shutdown(g->ctl, SHUT_RDWR);
	if (g->ts_running) {
		atomic_store(&g->ts_stop, 1);
		pthread_join(g->ts_thread, NULL);
	}
	for (int i = 0; g->r && i < g->cpus; i++) {
		if (g->r[i].sock >= 0)
			shutdown(g->r[i].sock, SHUT_RDWR);
		if (g->r[i].running)
			pthread_join(g->r[i].t, NULL);
		if (g->r[i].sock >= 0)
			close(g->r[i].sock);
		if (g->r[i].fd >= 0)
			close(g->r[i].fd);
		cpu_path(g, i, path, sizeof(path));
		if (!g->keep)
			unlink(path);
	}
	if (g->meta_fd >= 0) {
		close(g->meta_fd);
		if (!g->keep)
			unlink(g->part);	/* gone already when the file was written */
	}
	if (g->keep)
		fprintf(stderr, "tracekit: record: guest %s: its file could not be finished: what "
			"was received is kept in %s and beside it (.cpuN)\n", g->name, g->part);
	if (g->ctl >= 0)
		close(g->ctl);
	tsync_host_free(g->ts);
	tsync_clock_close(g->clk);
	free(g->r);
	free(g->guest_opt);
	free(g);
}
