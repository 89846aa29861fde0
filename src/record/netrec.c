/* record -N (see netrec.h): the metadata as a file's first part, then the pages. */
#include "netrec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ftrace/session.h"
#include "meta.h"
#include "net/agent.h"
#include "net/client.h"
#include "util/die.h"

struct rec_net {
	struct net_client *c;
	char dir[64];
	char hostport[256];
	bool tcp;
	struct net_agent_session *agent;	/* recording for an agent's host */
};

/* The trace file up to its data, in a memory file: fd, or -1 with err. */
static int meta_file(struct ft_session *s, int version, const char *const *notes, int nnotes,
		     const char *clock, const uint64_t *trace_id, uint64_t *size, char *err,
		     size_t errlen)
{
	struct tf_option id = { TF_OPT_TRACEID, trace_id, 8 };
	struct rec_meta rm;
	struct tf_writer *w;
	struct stat st;
	char path[64];
	int fd = memfd_create("tracekit-meta", MFD_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return -1;
	}
	if (rec_meta_gather(s, &rm, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	rm.m.notes = notes;
	rm.m.nnotes = nnotes;
	rm.m.clock = clock;
	rm.m.version = TRACEKIT_VERSION;
	rm.m.options = trace_id ? &id : NULL;
	rm.m.noptions = trace_id ? 1 : 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	w = tf_writer_open(path, version, err, errlen);
	if (!w || tf_write_meta(w, &rm.m, err, errlen) < 0 ||
	    tf_writer_close_meta(w, err, errlen) < 0 || fstat(fd, &st) < 0) {
		if (w && !err[0])
			snprintf(err, errlen, "cannot write the metadata");
		rec_meta_free(&rm);
		close(fd);
		return -1;
	}
	rec_meta_free(&rm);
	*size = (uint64_t)st.st_size;
	return fd;
}

static struct rec_net *start(struct ft_session *s, const char *hostport, bool tcp,
			     struct net_agent_session *a, int version, const char *const *notes,
			     int nnotes, const char *clock, char *spool, size_t len, char *err,
			     size_t errlen)
{
	struct rec_net *n = xcalloc(1, sizeof(*n));
	const char *tmp = getenv("TMPDIR");
	uint64_t size = 0;
	int fd;

	n->tcp = tcp;
	snprintf(n->hostport, sizeof(n->hostport), "%s", hostport);
	snprintf(n->dir, sizeof(n->dir), "%.40s/tracekit-net-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(n->dir)) {
		snprintf(err, errlen, "cannot make a spool directory %s: %s", n->dir,
			 strerror(errno));
		n->dir[0] = '\0';
		goto fail;
	}
	snprintf(spool, len, "%s/spool", n->dir);
	/*
	 * The metadata is gathered before connecting: trace-cmd listen gives up on a
	 * client silent for 5 s between RINIT and FIN_DATA (kallsyms takes a while to
	 * read on a loaded machine).
	 */
	fd = meta_file(s, version, notes, nnotes, clock, a ? &a->trace_id : NULL, &size, err,
		       errlen);
	if (fd < 0)
		goto fail;
	if (a && ft_cpu_count(s) != a->cpus) {
		snprintf(err, errlen, "tracefs has %d CPUs, the host was told %d", ft_cpu_count(s),
			 a->cpus);
		close(fd);
		goto fail;
	}
	n->agent = a;
	n->c = a ? net_client_agent(a)
		 : net_client_open(hostport, tcp, ft_cpu_count(s), (unsigned)sysconf(_SC_PAGESIZE),
				   err, errlen);
	if (!n->c || net_client_send_meta(n->c, fd, size, err, errlen) < 0) {
		close(fd);
		goto fail;
	}
	close(fd);
	return n;
fail:
	rec_net_free(n);
	return NULL;
}

struct rec_net *rec_net_start(struct ft_session *s, const char *hostport, bool tcp, int version,
			      const char *const *notes, int nnotes, const char *clock,
			      char *spool, size_t len, char *err, size_t errlen)
{
	return start(s, hostport, tcp, NULL, version, notes, nnotes, clock, spool, len, err,
		     errlen);
}

struct rec_net *rec_net_start_agent(struct ft_session *s, struct net_agent_session *a,
				    int version, const char *const *notes, int nnotes,
				    const char *clock, char *spool, size_t len, char *err,
				    size_t errlen)
{
	return start(s, a->host, true, a, version, notes, nnotes, clock, spool, len, err, errlen);
}

int rec_net_stream(struct rec_net *n, char *err, size_t errlen)
{
	char spool[128];

	snprintf(spool, sizeof(spool), "%s/spool", n->dir);
	return net_client_stream(n->c, spool, err, errlen);
}

int rec_net_finish(struct rec_net *n, unsigned long long events, unsigned long long lost,
		   bool quiet, char *err, size_t errlen)
{
	struct net_client_stats st;
	int ret = net_client_finish(n->c, &st, err, errlen);

	(void)quiet;
	if (n->agent) {		/* the agent says it with the rest of the session */
		net_agent_recorded(n->agent, events, lost, st.pages_sent);
		return ret;
	}
	fprintf(stderr, "tracekit: record: %s (%s): %llu events, %llu lost in the kernel, "
		"%llu pages sent", n->hostport, n->tcp ? "TCP" : "UDP", events, lost,
		(unsigned long long)st.pages_sent);
	if (!n->tcp)
		fprintf(stderr, ", %llu pages refused by the socket; what the listener's host "
			"dropped only it can count (tracekit listen says it; -t for TCP loses none)",
			(unsigned long long)st.pages_failed);
	fputc('\n', stderr);
	return ret;
}

void rec_net_free(struct rec_net *n)
{
	if (!n)
		return;
	net_client_free(n->c);
	if (n->dir[0]) {
		char spool[128];

		/* the recorder's files, if it did not remove them (a failure before it ran) */
		for (int i = 0; i < 4096; i++) {
			snprintf(spool, sizeof(spool), "%s/spool.cpu%d", n->dir, i);
			if (unlink(spool) < 0 && errno == ENOENT && i > 0)
				break;
		}
		rmdir(n->dir);
	}
	free(n);
}
