/*
 * The listener (see listener.h).  Per client, in its own thread:
 *
 *   greeting ("tracecmd", V3) -> TINIT (CPUs, page size, tcp) -> one socket
 *   per CPU, their ports in RINIT -> SEND_DATA...FIN_DATA: the metadata,
 *   written as the start of the client's file -> pages on the CPU sockets,
 *   each to a temporary NAME.HOST:PORT.cpuN -> CLOSE -> the pages appended
 *   to the file with the options that point at them (tracemeta.c).
 *
 * What a client sends is hostile: messages are bounded (msg.c), the metadata
 * is bounded and checked before the file is completed, data connections are
 * taken only from the client's own address, names are built here from the
 * numbers and checked characters, and files are made only inside the
 * directory (openat on its descriptor, O_NOFOLLOW).  Memory per client is a
 * fixed buffer: pages go to disk as they come.  A client that goes away
 * mid-stream leaves the file of what arrived, and that is said.
 */
#include "net/listener.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/msg.h"
#include "net/tracemeta.h"
#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

#define GREET_MS 10000		/* the greeting and TINIT: a silent peer is dropped */
#define DRAIN_TCP_MS 5000	/* after CLOSE: the CPU connections' last pages */
#define DRAIN_UDP_MS 300
#define BUF_SIZE (1 << 16)
#define UDP_RCVBUF (4 << 20)

struct listener {
	const struct net_listen_opts *o;
	int dirfd;
	pthread_mutex_t lock;	/* output lines, the counts below */
	pthread_cond_t changed;
	int active;
	int ended;
};

struct cpu_conn {
	int listen_fd;		/* TCP: the port's socket until the client connects */
	int fd;			/* TCP: the connection; UDP: the socket */
	int tmp;		/* the pages so far */
	uint64_t bytes;
	uint64_t bad;		/* UDP datagrams that were not one page, or not from the client */
	uint32_t dropped;	/* UDP: the socket's own drop count */
	bool eof;
};

struct client {
	struct listener *L;
	int ctl;
	struct sockaddr_storage peer, local;
	char who[96];		/* "127.0.0.1:45678" */
	char base[300];		/* "trace.localhost:45678" (-o is at most 64 bytes here) */
	uint32_t cpus;
	unsigned page_size;
	bool tcp;
	struct cpu_conn *cpu;
	int out;
	uint64_t meta_size;
	bool meta_done, closed, lost_ctl;
	char err[512];
	uint8_t *buf;
	struct net_msg msg;
};

static void say(struct listener *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A human line on stderr ("tracekit: listen: ..."), unless --json. */
static void say(struct listener *L, const char *fmt, ...)
{
	va_list ap;

	if (L->o->json)
		return;
	pthread_mutex_lock(&L->lock);
	fputs("tracekit: listen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&L->lock);
}

/* A JSON line on stdout, if --json: sb holds the members after "event". */
static void say_json(struct listener *L, const char *event, const struct strbuf *members)
{
	if (!L->o->json)
		return;
	pthread_mutex_lock(&L->lock);
	printf("{\"event\":\"%s\"%s%s}\n", event, members->len ? "," : "", sb_str(members));
	fflush(stdout);
	pthread_mutex_unlock(&L->lock);
}

static bool stopping(const struct listener *L)
{
	return L->o->stop && *L->o->stop;
}

/* A host name fit for a file name: letters, digits, '.', '-', '_', ':' and no leading dot. */
static bool name_ok(const char *s)
{
	if (!*s || *s == '.' || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_' || *s == ':'))
			return false;
	return true;
}

/* trace-cmd's names: NAME.HOST:PORT, HOST as getnameinfo gives it (a name where one resolves). */
static void name_client(struct client *c)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV], num[64];
	socklen_t len = c->peer.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						      : sizeof(struct sockaddr_in);

	net_numeric_host((struct sockaddr *)&c->peer, num, sizeof(num));
	if (getnameinfo((struct sockaddr *)&c->peer, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICSERV) || !name_ok(host))
		snprintf(host, sizeof(host), "%s", num);
	if (getnameinfo((struct sockaddr *)&c->peer, len, NULL, 0, serv, sizeof(serv),
			NI_NUMERICSERV))
		snprintf(serv, sizeof(serv), "0");
	snprintf(c->who, sizeof(c->who), "%s:%s", num, serv);
	if (!name_ok(host))
		snprintf(host, sizeof(host), "unknown");
	snprintf(c->base, sizeof(c->base), "%.64s.%.200s:%.8s",
		 c->L->o->name ? c->L->o->name : "trace", host, serv);
}

static int open_in_dir(struct client *c, const char *suffix)
{
	char name[400];

	snprintf(name, sizeof(name), "%s%s", c->base, suffix);
	return openat(c->L->dirfd, name, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
}

static void unlink_in_dir(struct client *c, const char *suffix)
{
	char name[400];

	snprintf(name, sizeof(name), "%s%s", c->base, suffix);
	unlinkat(c->L->dirfd, name, 0);
}

/* One socket per CPU on the address the client reached us at, any free port. */
static int open_cpu_sockets(struct client *c, unsigned *ports)
{
	char addr[64];
	int type = c->tcp ? SOCK_STREAM : SOCK_DGRAM;

	net_numeric_host((struct sockaddr *)&c->local, addr, sizeof(addr));
	c->cpu = xcalloc(c->cpus, sizeof(*c->cpu));
	for (uint32_t i = 0; i < c->cpus; i++)
		c->cpu[i].listen_fd = c->cpu[i].fd = c->cpu[i].tmp = -1;
	for (uint32_t i = 0; i < c->cpus; i++) {
		struct cpu_conn *p = &c->cpu[i];
		char suffix[32];
		int fd = net_bind(addr, 0, type, c->err, sizeof(c->err));

		if (fd < 0)
			return -1;
		ports[i] = net_local_port(fd);
		if (c->tcp) {
			p->listen_fd = fd;
		} else {
			int one = 1, size = UDP_RCVBUF;

			setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
			p->fd = fd;
		}
		snprintf(suffix, sizeof(suffix), ".cpu%u", i);
		p->tmp = open_in_dir(c, suffix);
		if (p->tmp < 0) {
			snprintf(c->err, sizeof(c->err), "cannot create %s%s: %s", c->base, suffix,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, (const char *)buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* The greeting, TINIT, the CPU sockets, RINIT, the file. */
static int set_up(struct client *c)
{
	struct net_tinit t;
	unsigned *ports;
	int r;

	if (net_greet_client(c->ctl, GREET_MS, c->err, sizeof(c->err)) < 0)
		return -1;
	r = net_msg_read(c->ctl, &c->msg, GREET_MS, c->err, sizeof(c->err));
	if (r == 1)
		snprintf(c->err, sizeof(c->err), "the client left before TINIT");
	if (r || net_tinit_decode(&c->msg, &t, c->err, sizeof(c->err)) < 0)
		return -1;
	if (t.flags & NET_TINIT_VSOCK) {
		snprintf(c->err, sizeof(c->err), "the client asks for vsock data connections "
			 "(not spoken here: use TCP or UDP)");
		return -1;
	}
	c->cpus = t.cpus;
	c->page_size = t.page_size;
	c->tcp = t.flags & NET_TINIT_TCP;
	c->out = open_in_dir(c, ".dat");
	if (c->out < 0) {
		snprintf(c->err, sizeof(c->err), "cannot create %s.dat: %s", c->base, strerror(errno));
		return -1;
	}
	ports = xcalloc(c->cpus, sizeof(*ports));
	r = open_cpu_sockets(c, ports);
	if (!r && net_send_rinit(c->ctl, ports, c->cpus) < 0) {
		snprintf(c->err, sizeof(c->err), "cannot send RINIT: %s", strerror(errno));
		r = -1;
	}
	free(ports);
	return r;
}

/* A control message while streaming: 0 to go on, 1 at the end, -1 with err. */
static int on_control(struct client *c)
{
	int r = net_msg_read(c->ctl, &c->msg, GREET_MS, c->err, sizeof(c->err));

	if (r == 1) {
		c->lost_ctl = true;
		snprintf(c->err, sizeof(c->err), "the client closed the connection without CLOSE");
		return 1;
	}
	if (r < 0) {
		c->lost_ctl = true;
		return 1;
	}
	switch (c->msg.cmd) {
	case NET_SEND_DATA:
		if (c->meta_done) {
			snprintf(c->err, sizeof(c->err), "metadata after FIN_DATA");
			return -1;
		}
		if (c->meta_size + c->msg.data_len > c->L->o->max_meta) {
			snprintf(c->err, sizeof(c->err), "more than %llu bytes of metadata (the "
				 "limit)", (unsigned long long)c->L->o->max_meta);
			return -1;
		}
		if (write_all(c->out, c->msg.data, c->msg.data_len) < 0) {
			snprintf(c->err, sizeof(c->err), "cannot write %s.dat: %s", c->base,
				 strerror(errno));
			return -1;
		}
		c->meta_size += c->msg.data_len;
		return 0;
	case NET_FIN_DATA:
		c->meta_done = true;
		return 0;
	case NET_CLOSE:
		c->closed = true;
		return 1;
	default:
		/* trace-cmd answers what it does not expect with NOT_SUPP and goes on */
		if (c->msg.cmd != NET_NOT_SUPP)
			net_send_cmd(c->ctl, NET_NOT_SUPP);
		return 0;
	}
}

static int save(struct client *c, struct cpu_conn *p, const void *buf, size_t len)
{
	if (write_all(p->tmp, buf, len) < 0) {
		snprintf(c->err, sizeof(c->err), "cannot write %s's pages: %s", c->base,
			 strerror(errno));
		return -1;
	}
	p->bytes += len;
	return 0;
}

static int on_tcp_accept(struct client *c, struct cpu_conn *p)
{
	struct sockaddr_storage from;
	socklen_t len = sizeof(from);
	int fd = accept4(p->listen_fd, (struct sockaddr *)&from, &len, SOCK_CLOEXEC);

	if (fd < 0)
		return 0;
	if (!net_same_host((struct sockaddr *)&from, (struct sockaddr *)&c->peer)) {
		close(fd);	/* not the client: its port stays open for the client */
		return 0;
	}
	p->fd = fd;
	close(p->listen_fd);
	p->listen_fd = -1;
	return 0;
}

static int on_tcp_data(struct client *c, struct cpu_conn *p)
{
	ssize_t r = read(p->fd, c->buf, BUF_SIZE);

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) {
		p->eof = true;
		return 0;
	}
	return save(c, p, c->buf, (size_t)r);
}

/* One datagram: one page, from the client's address, or counted as bad. */
static int on_udp_data(struct client *c, struct cpu_conn *p)
{
	struct sockaddr_storage from;
	char cbuf[CMSG_SPACE(sizeof(uint32_t))];
	struct iovec iov = { .iov_base = c->buf, .iov_len = BUF_SIZE };
	struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	ssize_t r = recvmsg(p->fd, &mh, MSG_DONTWAIT);

	if (r < 0)
		return 0;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_RXQ_OVFL)
			memcpy(&p->dropped, CMSG_DATA(cm), sizeof(uint32_t));
	if ((size_t)r != c->page_size || (mh.msg_flags & MSG_TRUNC) ||
	    !net_same_host((struct sockaddr *)&from, (struct sockaddr *)&c->peer)) {
		p->bad++;
		return 0;
	}
	return save(c, p, c->buf, (size_t)r);
}

/*
 * Until CLOSE (or the client or a signal ends it): control messages and pages.
 * Then the pages still on their way: TCP connections to their end, UDP until
 * quiet.  -1 on a failure of ours or a protocol error.
 */
static int stream(struct client *c)
{
	struct pollfd *pf = xcalloc(c->cpus + 1, sizeof(*pf));
	long long drain_until = 0, quiet_ms = c->tcp ? DRAIN_TCP_MS : DRAIN_UDP_MS;
	int ret = 0;

	for (;;) {
		int n = 0, r;
		bool waiting = false;

		if (!drain_until && (c->closed || c->lost_ctl || stopping(c->L)))
			drain_until = net_now_ms() + quiet_ms;
		if (drain_until && net_now_ms() >= drain_until)
			break;
		if (!drain_until) {
			pf[n].fd = c->ctl;
			pf[n++].events = POLLIN;
		}
		for (uint32_t i = 0; i < c->cpus; i++) {
			struct cpu_conn *p = &c->cpu[i];

			pf[n].events = POLLIN;
			if (p->listen_fd >= 0 && !drain_until)
				pf[n++].fd = p->listen_fd;
			else if (p->fd >= 0 && !p->eof)
				pf[n++].fd = p->fd, waiting = true;
		}
		if (drain_until && c->tcp && !waiting)
			break;	/* every connection ended */
		r = poll(pf, (nfds_t)n, 200);
		if (r < 0 && errno != EINTR) {
			snprintf(c->err, sizeof(c->err), "poll: %s", strerror(errno));
			ret = -1;
			break;
		}
		if (r <= 0)
			continue;
		if (!c->tcp && drain_until)	/* UDP: quiet for a while after the last page */
			drain_until = net_now_ms() + quiet_ms;
		for (int k = 0; k < n && ret == 0; k++) {
			if (!pf[k].revents)
				continue;
			if (pf[k].fd == c->ctl) {
				ret = on_control(c);
				if (ret == 1)
					ret = 0;
				continue;
			}
			for (uint32_t i = 0; i < c->cpus; i++) {
				struct cpu_conn *p = &c->cpu[i];

				if (pf[k].fd == p->listen_fd)
					ret = on_tcp_accept(c, p);
				else if (pf[k].fd == p->fd)
					ret = c->tcp ? on_tcp_data(c, p) : on_udp_data(c, p);
			}
		}
		if (ret)
			break;
	}
	free(pf);
	return ret;
}

/* The pages appended, the temporaries gone: 0, or -1 with err. */
static int complete_file(struct client *c, uint64_t *pages, uint64_t *cut)
{
	struct net_cpu_file *files = xcalloc(c->cpus, sizeof(*files));
	struct net_meta mi;
	int ret = -1;

	*pages = *cut = 0;
	for (uint32_t i = 0; i < c->cpus; i++) {
		uint64_t whole = c->cpu[i].bytes / c->page_size * c->page_size;

		*cut += c->cpu[i].bytes - whole;	/* a page cut by a disconnect */
		files[i] = (struct net_cpu_file){ .cpu = (int)i, .fd = c->cpu[i].tmp, .size = whole };
		*pages += whole / c->page_size;
	}
	if (net_meta_inspect(c->out, c->meta_size, &mi, c->err, sizeof(c->err)) == 0) {
		if (mi.page_size != c->page_size)
			snprintf(c->err, sizeof(c->err), "the metadata's page size (%u) is not "
				 "TINIT's (%u)", mi.page_size, c->page_size);
		else if (mi.version == 6 && mi.cpus != c->cpus)
			snprintf(c->err, sizeof(c->err), "the metadata's CPU count (%u) is not "
				 "TINIT's (%u)", mi.cpus, c->cpus);
		else
			ret = net_meta_finish(c->out, &mi, files, (int)c->cpus, c->err,
					      sizeof(c->err));
	}
	free(files);
	return ret;
}

static void report_end(struct client *c, int ok, uint64_t pages, uint64_t cut)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t bad = 0, dropped = 0;
	bool whole = c->closed && !c->lost_ctl;
	char file[400];

	for (uint32_t i = 0; c->cpu && i < c->cpus; i++) {
		bad += c->cpu[i].bad;
		dropped += c->cpu[i].dropped;
	}
	snprintf(file, sizeof(file), "%s.dat", c->base);
	if (c->L->o->json) {
		sb_add(&sb, "\"client\":");
		json_str(&sb, c->who);
		sb_add(&sb, ",\"file\":");
		if (ok == 0)
			json_str(&sb, file);
		else
			sb_add(&sb, "null");
		/* the transport is TINIT's: none before it */
		sb_printf(&sb, ",\"cpus\":%u,\"transport\":%s,\"pages\":%llu,\"complete\":%s",
			  c->cpus, !c->cpus ? "null" : c->tcp ? "\"tcp\"" : "\"udp\"",
			  (unsigned long long)pages, whole ? "true" : "false");
		sb_printf(&sb, ",\"lost_pages\":%llu,\"bad_datagrams\":%llu,\"cut_bytes\":%llu",
			  (unsigned long long)dropped, (unsigned long long)bad,
			  (unsigned long long)cut);
		if (c->err[0]) {
			sb_add(&sb, ",\"error\":");
			json_str(&sb, c->err);
		}
		say_json(c->L, "done", &sb);
		sb_free(&sb);
		return;
	}
	if (ok < 0) {
		say(c->L, "%s: no trace kept: %s", c->who, c->err);
		return;
	}
	if (whole)
		say(c->L, "%s: %s: %llu pages", c->who, file, (unsigned long long)pages);
	else
		say(c->L, "%s: %s: the client left mid-stream (%s); the file holds the %llu pages "
		    "that arrived%s", c->who, file, stopping(c->L) ? "listener stopped" : c->err,
		    (unsigned long long)pages, cut ? ", a cut last page dropped" : "");
	if (!c->tcp && (dropped || bad))
		say(c->L, "%s: UDP: %llu pages lost in this host's socket buffers, %llu datagrams "
		    "refused (not one page, or not from the client); record with -t (TCP) to lose "
		    "none", c->who, (unsigned long long)dropped, (unsigned long long)bad);
}

static void end_client(struct client *c, int ok)
{
	uint64_t pages = 0, cut = 0;

	if (ok == 0 && c->out >= 0) {
		if (!c->meta_done && !c->meta_size) {
			snprintf(c->err, sizeof(c->err), "the client left before sending the trace "
				 "file's metadata");
			ok = -1;
		} else if (complete_file(c, &pages, &cut) < 0) {
			ok = -1;
		}
	}
	if (ok < 0 && c->out >= 0)
		unlink_in_dir(c, ".dat");
	report_end(c, ok, pages, cut);
	for (uint32_t i = 0; c->cpu && i < c->cpus; i++) {
		char suffix[32];

		if (c->cpu[i].listen_fd >= 0)
			close(c->cpu[i].listen_fd);
		if (c->cpu[i].fd >= 0)
			close(c->cpu[i].fd);
		if (c->cpu[i].tmp >= 0) {
			close(c->cpu[i].tmp);
			snprintf(suffix, sizeof(suffix), ".cpu%u", i);
			unlink_in_dir(c, suffix);
		}
	}
	if (c->out >= 0)
		close(c->out);
	close(c->ctl);
	free(c->cpu);
	free(c->buf);
}

static void *serve(void *arg)
{
	struct client *c = arg;
	struct listener *L = c->L;
	struct strbuf sb = STRBUF_INIT;
	int ok;

	name_client(c);	/* here: a reverse lookup may wait on DNS, accepting must not */
	ok = set_up(c);
	if (ok == 0) {
		say(L, "%s connected: %u CPUs, %s, %s.dat", c->who, c->cpus, c->tcp ? "TCP" : "UDP",
		    c->base);
		sb_add(&sb, "\"client\":");
		json_str(&sb, c->who);
		sb_printf(&sb, ",\"cpus\":%u,\"transport\":\"%s\"", c->cpus, c->tcp ? "tcp" : "udp");
		say_json(L, "connected", &sb);
		sb_free(&sb);
		ok = stream(c);
	}
	end_client(c, ok);
	free(c);
	pthread_mutex_lock(&L->lock);
	L->active--;
	L->ended++;
	pthread_cond_broadcast(&L->changed);
	pthread_mutex_unlock(&L->lock);
	return NULL;
}

static void refuse(struct listener *L, int fd, const struct sockaddr *from, const char *why)
{
	char host[64];
	struct strbuf sb = STRBUF_INIT;

	net_numeric_host(from, host, sizeof(host));
	close(fd);
	say(L, "refused %s: %s", host, why);
	sb_add(&sb, "\"client\":");
	json_str(&sb, host);
	sb_add(&sb, ",\"why\":");
	json_str(&sb, why);
	say_json(L, "refused", &sb);
	sb_free(&sb);
}

static void take(struct listener *L, int fd, const struct sockaddr_storage *from)
{
	struct client *c = xcalloc(1, sizeof(*c));
	socklen_t len = sizeof(c->local);
	pthread_attr_t attr;
	pthread_t t;

	c->L = L;
	c->ctl = fd;
	c->out = -1;
	c->peer = *from;
	c->buf = xmalloc(BUF_SIZE);
	getsockname(fd, (struct sockaddr *)&c->local, &len);
	pthread_mutex_lock(&L->lock);
	L->active++;
	pthread_mutex_unlock(&L->lock);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, serve, c)) {
		refuse(L, fd, (const struct sockaddr *)from, "no thread for it");
		pthread_mutex_lock(&L->lock);
		L->active--;
		pthread_mutex_unlock(&L->lock);
		free(c->buf);
		free(c);
	}
	pthread_attr_destroy(&attr);
}

int net_listen_run(const struct net_listen_opts *o)
{
	struct listener L = { .o = o };
	char err[512];
	int sfd;

	L.dirfd = open(o->dir ? o->dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (L.dirfd < 0) {
		errmsg("-d %s: %s (the directory for the clients' files must exist)",
		       o->dir ? o->dir : ".", strerror(errno));
		return 1;
	}
	sfd = net_bind(o->addr, o->port, SOCK_STREAM, err, sizeof(err));
	if (sfd < 0) {
		errmsg("%s", err);
		close(L.dirfd);
		return 1;
	}
	pthread_mutex_init(&L.lock, NULL);
	pthread_cond_init(&L.changed, NULL);
	say(&L, "listening on %s port %u, files in %s", o->addr ? o->addr : "127.0.0.1",
	    net_local_port(sfd), o->dir ? o->dir : ".");
	{
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, "\"address\":");
		json_str(&sb, o->addr ? o->addr : "127.0.0.1");
		sb_printf(&sb, ",\"port\":%u", net_local_port(sfd));
		say_json(&L, "listening", &sb);
		sb_free(&sb);
	}
	while (!stopping(&L)) {
		struct pollfd p = { .fd = sfd, .events = POLLIN };
		struct sockaddr_storage from;
		socklen_t len = sizeof(from);
		int fd;

		pthread_mutex_lock(&L.lock);
		bool enough = o->clients && L.ended >= o->clients;
		pthread_mutex_unlock(&L.lock);
		if (enough)
			break;
		if (poll(&p, 1, 200) <= 0)
			continue;
		fd = accept4(sfd, (struct sockaddr *)&from, &len, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (!net_allowed(&o->allow, (struct sockaddr *)&from)) {
			refuse(&L, fd, (struct sockaddr *)&from, "not in --allow");
			continue;
		}
		pthread_mutex_lock(&L.lock);
		bool full = L.active >= o->max_clients;
		pthread_mutex_unlock(&L.lock);
		if (full) {
			refuse(&L, fd, (struct sockaddr *)&from, "too many clients at once");
			continue;
		}
		take(&L, fd, &from);
	}
	close(sfd);
	/* Every client finishes its file (a signal makes them stop streaming). */
	pthread_mutex_lock(&L.lock);
	while (L.active)
		pthread_cond_wait(&L.changed, &L.lock);
	pthread_mutex_unlock(&L.lock);
	close(L.dirfd);
	return 0;
}
