/*
 * A small recording made without the rest of tracekit, for the trace.dat
 * writer's end-to-end test (test_writer_tracecmd.py):
 *
 *	writer-record OUTDIR
 *
 * makes instance tracekit-<pid>-writer-test, records sched_switch and
 * sched_wakeup (clock mono) around a pipe ping-pong workload, drains each
 * CPU's trace_pipe_raw, removes the instance (on every path), writes
 * OUTDIR/v7.dat and OUTDIR/v6.dat with tf_writer, and prints the events it
 * counted in the raw pages with libtraceevent's kbuffer:
 *
 *	sched_switch 1234
 *	sched_wakeup 567
 *
 * Exit 0 on success, 77 when tracefs cannot be used (not root), 1 otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "tracefile/writer.h"

#define TRACEFS "/sys/kernel/tracing"
#define MAX_CPUS 1024
#define MAX_FORMATS 256

static char instance[256];
static struct tf_text stats[MAX_CPUS];
static volatile sig_atomic_t instance_made;

static void remove_instance(void)
{
	if (instance_made && (rmdir(instance) == 0 || errno == ENOENT))
		instance_made = 0;
}

static void on_signal(int sig)
{
	remove_instance();
	signal(sig, SIG_DFL);
	raise(sig);
}

static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n == cap)
			buf = realloc(buf, cap *= 2);
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

static int write_str(const char *dir, const char *rel, const char *val)
{
	char path[512];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "writer-record: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	if (!ok)
		fprintf(stderr, "writer-record: write %s to %s: %s\n", val, path, strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

/* Two processes bouncing a byte through pipes: many switches and wakeups. */
static void workload(void)
{
	int a[2], b[2];
	char c = 'x';
	pid_t pid;

	if (pipe(a) || pipe(b))
		return;
	pid = fork();
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
			;
		_exit(0);
	}
	for (int i = 0; i < 2000; i++) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			break;
	}
	close(a[1]);
	waitpid(pid, NULL, 0);
	close(a[0]);
	close(b[0]);
	close(b[1]);
}

static int count_cpus(void)
{
	char path[512];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", instance, n);
		if (access(path, F_OK) || n == MAX_CPUS)
			return n;
		n++;
	}
}

/* Non-blocking reads of whole pages until EAGAIN; returns bytes saved or -1. */
static long long drain_cpu(int cpu, const char *out, unsigned page)
{
	char path[512], *buf = malloc(page);
	long long total = 0;
	int in, fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", instance, cpu);
	in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (in < 0 || fd < 0 || !buf) {
		fprintf(stderr, "writer-record: %s: %s\n", in < 0 ? path : out, strerror(errno));
		total = -1;
		goto out;
	}
	for (;;) {
		ssize_t r = read(in, buf, page);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (r != (ssize_t)page) {
			fprintf(stderr, "writer-record: %s: short page (%zd bytes)\n", path, r);
			total = -1;
			break;
		}
		if (write(fd, buf, page) != (ssize_t)page) {
			fprintf(stderr, "writer-record: %s: %s\n", out, strerror(errno));
			total = -1;
			break;
		}
		total += page;
	}
out:
	if (in >= 0)
		close(in);
	if (fd >= 0)
		close(fd);
	free(buf);
	return total;
}

static int event_id(const char *format)
{
	const char *p = strstr(format, "\nID: ");

	return p ? atoi(p + 5) : -1;
}

/* Count events of the two ids in a file of raw pages. */
static int count_events(const char *path, unsigned page, int id_switch, int id_wakeup,
			long long *n_switch, long long *n_wakeup)
{
	size_t len;
	char *data = read_all(path, &len);
	struct kbuffer *kb = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   KBUFFER_ENDIAN_LITTLE);

	int ret = 0;

	if (!data || !kb) {
		ret = -1;
		goto out;
	}
	for (size_t off = 0; off + page <= len; off += page) {
		unsigned long long ts;
		void *ev;

		if (kbuffer_load_subbuffer(kb, data + off) < 0) {
			fprintf(stderr, "writer-record: %s: bad page at offset %zu\n", path, off);
			ret = -1;
			goto out;
		}
		for (ev = kbuffer_read_event(kb, &ts); ev; ev = kbuffer_next_event(kb, &ts)) {
			unsigned short type;

			memcpy(&type, ev, sizeof(type));
			*n_switch += type == id_switch;
			*n_wakeup += type == id_wakeup;
		}
	}
out:
	if (kb)
		kbuffer_free(kb);
	free(data);
	return ret;
}

struct texts {
	struct tf_format formats[MAX_FORMATS];
	int nformats;
};

static int add_format(struct texts *t, const char *system, const char *path)
{
	size_t len;
	char *text = read_all(path, &len);

	if (!text || t->nformats == MAX_FORMATS) {
		fprintf(stderr, "writer-record: cannot read %s\n", path);
		free(text);
		return -1;
	}
	t->formats[t->nformats].system = system;
	t->formats[t->nformats].text.data = text;
	t->formats[t->nformats].text.len = len;
	t->nformats++;
	return 0;
}

static int add_ftrace_formats(struct texts *t)
{
	DIR *d = opendir(TRACEFS "/events/ftrace");
	struct dirent *e;
	char path[512];

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), TRACEFS "/events/ftrace/%s/format", e->d_name);
		if (access(path, R_OK) == 0 && add_format(t, "ftrace", path)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

static struct tf_text text_of(const char *path)
{
	struct tf_text t = { NULL, 0 };

	t.data = read_all(path, &t.len);
	if (!t.data)
		t.len = 0;
	return t;
}

static void free_texts(struct tf_meta *m, struct texts *t, int ncpus)
{
	const struct tf_text *own[] = { &m->header_page, &m->header_event, &m->kallsyms,
		&m->printk_formats, &m->cmdlines, &m->tgids };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		free((char *)own[i]->data);
	for (int i = 0; i < t->nformats; i++)
		free((char *)t->formats[i].text.data);
	for (int cpu = 0; cpu < ncpus; cpu++)
		free((char *)stats[cpu].data);
}

static int write_file(const char *path, int version, const struct tf_meta *m,
		      const struct tf_cpu_data *cpus, int n)
{
	char err[512];
	struct tf_writer *w = tf_writer_open(path, version, err, sizeof(err));

	if (!w) {
		fprintf(stderr, "writer-record: %s\n", err);
		return -1;
	}
	for (int cpu = 0; cpu < n; cpu++) {
		if (tf_add_cpu_stats(w, cpu, stats[cpu].data, stats[cpu].len, err, sizeof(err))) {
			fprintf(stderr, "writer-record: %s\n", err);
			tf_writer_close(w, NULL, 0);
			return -1;
		}
	}
	if (tf_write_meta(w, m, err, sizeof(err)) ||
	    tf_write_cpu_data(w, cpus, n, err, sizeof(err))) {
		fprintf(stderr, "writer-record: %s\n", err);
		tf_writer_close(w, NULL, 0);
		return -1;
	}
	if (tf_writer_close(w, err, sizeof(err))) {
		fprintf(stderr, "writer-record: %s\n", err);
		return -1;
	}
	return 0;
}

static int record(unsigned page, int *ncpus, const char *outdir)
{
	char path[512];

	if (write_str(instance, "trace_clock", "mono") ||
	    write_str(instance, "events/sched/sched_switch/enable", "1") ||
	    write_str(instance, "events/sched/sched_wakeup/enable", "1") ||
	    write_str(instance, "tracing_on", "1"))
		return -1;
	workload();
	if (write_str(instance, "tracing_on", "0"))
		return -1;
	*ncpus = count_cpus();
	for (int cpu = 0; cpu < *ncpus; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", outdir, cpu);
		if (drain_cpu(cpu, path, page) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", instance, cpu);
		stats[cpu] = text_of(path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct texts t;
	static struct tf_cpu_data cpus[MAX_CPUS];
	static char paths[MAX_CPUS][512];
	unsigned page = (unsigned)sysconf(_SC_PAGESIZE);
	long long n_switch = 0, n_wakeup = 0;
	const char *notes[] = { "command=writer-record ping-pong",
				"events=sched:sched_switch,sched:sched_wakeup" };
	struct utsname u;
	char ubuf[512], v7[512], v6[512];
	struct tf_meta m = { 0 };
	int ncpus = 0, rc, id_switch, id_wakeup;

	if (argc != 2) {
		fprintf(stderr, "usage: writer-record OUTDIR\n");
		return 2;
	}
	if (access(TRACEFS "/instances", W_OK)) {
		fprintf(stderr, "writer-record: %s/instances is not writable "
			"(run as root with tracefs mounted)\n", TRACEFS);
		return 77;
	}
	snprintf(instance, sizeof(instance), TRACEFS "/instances/tracekit-%d-writer-test",
		 (int)getpid());
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (mkdir(instance, 0755)) {
		fprintf(stderr, "writer-record: mkdir %s: %s\n", instance, strerror(errno));
		return 1;
	}
	instance_made = 1;
	atexit(remove_instance);
	rc = record(page, &ncpus, argv[1]);
	remove_instance();
	if (rc || instance_made) {
		fprintf(stderr, "writer-record: recording failed%s\n",
			instance_made ? " and the instance could not be removed" : "");
		return 1;
	}

	if (add_ftrace_formats(&t) ||
	    add_format(&t, "sched", TRACEFS "/events/sched/sched_switch/format") ||
	    add_format(&t, "sched", TRACEFS "/events/sched/sched_wakeup/format"))
		return 1;
	/* The last two formats are sched_switch's and sched_wakeup's. */
	id_switch = event_id(t.formats[t.nformats - 2].text.data);
	id_wakeup = event_id(t.formats[t.nformats - 1].text.data);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct stat st;

		snprintf(paths[cpu], sizeof(paths[cpu]), "%s/cpu%d.raw", argv[1], cpu);
		if (stat(paths[cpu], &st))
			return 1;
		cpus[cpu] = (struct tf_cpu_data){ cpu, paths[cpu], 0, (uint64_t)st.st_size };
		if (count_events(paths[cpu], page, id_switch, id_wakeup, &n_switch, &n_wakeup))
			return 1;
	}

	uname(&u);
	snprintf(ubuf, sizeof(ubuf), "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
	m.page_size = page;
	m.cpus = ncpus;
	m.header_page = text_of(TRACEFS "/events/header_page");
	m.header_event = text_of(TRACEFS "/events/header_event");
	m.formats = t.formats;
	m.nformats = t.nformats;
	m.kallsyms = text_of("/proc/kallsyms");
	m.printk_formats = text_of(TRACEFS "/printk_formats");
	m.cmdlines = text_of(TRACEFS "/saved_cmdlines");
	m.tgids = text_of(TRACEFS "/saved_tgids");
	m.clock = "mono";
	m.uname = ubuf;
	m.version = "writer-test";
	m.notes = notes;
	m.nnotes = 2;

	snprintf(v7, sizeof(v7), "%s/v7.dat", argv[1]);
	snprintf(v6, sizeof(v6), "%s/v6.dat", argv[1]);
	rc = write_file(v7, 7, &m, cpus, ncpus) || write_file(v6, 6, &m, cpus, ncpus);
	free_texts(&m, &t, ncpus);
	if (rc)
		return 1;
	printf("sched_switch %lld\nsched_wakeup %lld\n", n_switch, n_wakeup);
	return 0;
}
