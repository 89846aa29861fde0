/*
 * User tracepoints while recording: the session directory, the control
 * files of -P pids, and the thread that drains every program thread's ring
 * buffer (src/ust/abi.h) into a staging file of its own, so the buffers
 * never need to hold a whole recording.  ust_pages.c turns the staged
 * records into trace.dat pages at the end.
 */
#include "ust.h"
#include "ust_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"
#include "util/editdist.h"

#define DRAIN_PERIOD_US 5000
#define DEFAULT_BUFFER_KB 4096
/*
 * How long a COMMAND's thread with a full buffer waits for the drain to make
 * room (without progress) before it drops: long enough for a recorder that a
 * loaded machine keeps off a CPU, bounded for one that hangs.  -P programs
 * never wait by default: they were running before, and run on after, us.
 */
#define DEFAULT_WAIT_MS 1000
#define DRAIN_SLICE (256 * 1024)
#define DRAIN_NICE -10

bool ust_is_user_spec(struct ft_session *s, const char *spec)
{
	char sys[256], path[4400];
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	struct stat st;

	if (!n || n >= sizeof(sys) || strpbrk(spec, "*?[") == spec)
		return false;
	memcpy(sys, spec, n);
	sys[n] = '\0';
	if (strpbrk(sys, "*?[/"))
		return false;
	snprintf(path, sizeof(path), "%s/events/%s", ft_tracefs_dir(s), sys);
	if (stat(path, &st) == 0)
		return false;
	/* A bare name without a colon may be a kernel event: only a system:event spec is ours. */
	return colon != NULL;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A (TSC, CLOCK_MONOTONIC) pair: the TSC read between two clock reads, the closest of a few tries. */
static void calibrate(struct ust_point *p)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = mono_ns();
		uint64_t t = ust_read_tsc();
		uint64_t b = mono_ns();

		if (b - a < best) {
			best = b - a;
			p->tsc = t;
			p->ns = a + (b - a) / 2;
		}
	}
}

/* The TSC counts at one rate on every CPU, in every power state: then it can stand for the clock. */
static bool tsc_usable(void)
{
#if defined(__x86_64__)
	char line[8192];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
#else
	return false;
#endif
}

static int write_config(struct ust_rec *u, const char **specs, int nspecs, unsigned buffer_kb,
			unsigned wait_ms, char *err, size_t errlen)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/config", u->dir);
	f = fopen(path, "we");
	if (!f) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "clock %s\nbuffer_kb %u\nwait_ms %u\nrecorder %d\n",
		u->clock == TK_CLOCK_TSC ? "tsc" : "mono", buffer_kb, wait_ms, (int)getpid());
	for (int i = 0; i < nspecs; i++)
		fprintf(f, "enable %s\n", specs[i]);
	if (fclose(f)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* -P: tell a running program where the session is (or that it is over: dir ""). */
static int signal_process(pid_t pid, const char *dir, char *err, size_t errlen)
{
	char path[64];
	struct tk_uctl *c;
	int fd;

	snprintf(path, sizeof(path), TK_UST_CTL_FMT, (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "process %d has no tracekit tracepoints (no %s): was it "
			 "linked with -ltracekit?", (int)pid, path);
		return -1;
	}
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (c == MAP_FAILED || c->magic != TK_UCTL_MAGIC) {
		snprintf(err, errlen, "%s is not a tracekit control file", path);
		if (c != MAP_FAILED)
			munmap(c, sizeof(*c));
		return -1;
	}
	snprintf(c->session, sizeof(c->session), "%s", dir);
	__atomic_add_fetch(&c->gen, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &c->gen, FUTEX_WAKE, 1, NULL, NULL, 0);
	munmap(c, sizeof(*c));
	return 0;
}

/* ---- draining ---- */

static bool known(const struct ust_rec *u, const char *name)
{
	for (int i = 0; i < u->nbufs; i++) {
		if (!strcmp(u->bufs[i].name, name))
			return true;
	}
	return false;
}

static void read_comm(struct ust_buf *b)
{
	char path[96];
	FILE *f;

	snprintf(b->comm, sizeof(b->comm), "%.15s", b->h->comm);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)b->pid, (int)b->tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(b->comm, sizeof(b->comm), f))
		b->comm[strcspn(b->comm, "\n")] = '\0';
	fclose(f);
}

/* A buffer file the program finished setting up: map it and give it a staging file. */
static void adopt(struct ust_rec *u, const char *name)
{
	char path[600];
	struct stat st;
	struct tk_ubuf_hdr *h;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", u->dir, name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < TK_UBUF_HDR * 2) {
		close(fd);
		return;
	}
	h = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return;
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != TK_UBUF_MAGIC ||
	    h->version != TK_UBUF_VERSION || h->size + TK_UBUF_HDR != (uint64_t)st.st_size ||
	    (h->size & (h->size - 1))) {
		munmap(h, (size_t)st.st_size);	/* not ready yet, or not ours: looked at again later */
		return;
	}
	u->bufs = xrealloc(u->bufs, sizeof(*u->bufs) * (size_t)(u->nbufs + 1));
	struct ust_buf *b = &u->bufs[u->nbufs];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->h = h;
	b->maplen = (size_t)st.st_size;
	b->ring = (char *)h + TK_UBUF_HDR;
	b->mask = h->size - 1;
	b->pid = h->pid;
	b->tid = h->tid;
	b->clock = h->clock;
	b->tail = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
	read_comm(b);
	snprintf(path, sizeof(path), "%s/stage%d", u->dir, u->nbufs);
	b->stage_path = xstrdup(path);
	b->stage = fopen(path, "w+e");
	if (!b->stage) {
		snprintf(u->err, sizeof(u->err), "cannot create %s: %s", path, strerror(errno));
		u->failed = true;
	}
	u->nbufs++;
}

static void scan(struct ust_rec *u)
{
	DIR *d = opendir(u->dir);

	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strncmp(e->d_name, "buf-", 4) && !known(u, e->d_name))
			adopt(u, e->d_name);
	}
	closedir(d);
}

/* The ring's bytes [from, to) (not across its end) into the staging file. */
static void stage(struct ust_rec *u, struct ust_buf *b, uint64_t from, uint64_t to)
{
	if (to == from || u->failed)
		return;
	if (fwrite(b->ring + (from & b->mask), to - from, 1, b->stage) != 1) {
		snprintf(u->err, sizeof(u->err), "cannot write %s: %s", b->stage_path,
			 strerror(errno));
		u->failed = true;
	}
}

/* A thread waiting for room in its full buffer (abi.h): the tail moved, or the buffer closed. */
static void wake_writer(struct ust_buf *b)
{
	if (!__atomic_load_n(&b->h->waiting, __ATOMIC_SEQ_CST))
		return;
	__atomic_add_fetch(&b->h->tail_seq, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &b->h->tail_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/*
 * Move what the thread committed into the staging file, as it is (pads
 * included: records are checked when merged); returns the bytes moved.
 */
static uint64_t drain_buf(struct ust_rec *u, struct ust_buf *b)
{
	uint64_t head, cap = b->mask + 1, moved;

	if (b->done)
		return 0;
	bool exited = __atomic_load_n(&b->h->exited, __ATOMIC_ACQUIRE);
	head = __atomic_load_n(&b->h->head, __ATOMIC_ACQUIRE);
	if (head < b->tail || head - b->tail > cap || (head & 15)) {
		b->corrupt = true;	/* the program wrote over its own buffer's header */
		b->done = true;
		return 0;
	}
	moved = head - b->tail;
	while (b->tail < head) {
		/* A slice at a time, each given back at once: the thread refills behind us. */
		uint64_t end = (b->tail | b->mask) + 1;	/* the ring's end, in head units */
		uint64_t to = b->tail + DRAIN_SLICE;

		to = to < end ? to : end;
		to = to < head ? to : head;
		stage(u, b, b->tail, to);
		b->tail = to;
		__atomic_store_n(&b->h->tail, b->tail, __ATOMIC_SEQ_CST);
		wake_writer(b);
	}
	if (exited)
		b->done = true;
	return moved;
}

static uint64_t drain_all(struct ust_rec *u)
{
	uint64_t moved = 0;

	scan(u);
	for (int i = 0; i < u->nbufs; i++)
		moved += drain_buf(u, &u->bufs[i]);
	return moved;
}

static void *drain_thread(void *arg)
{
	struct ust_rec *u = arg;

	/*
	 * Ahead of the programs it drains when CPUs are scarce (root may raise it): a
	 * buffer it reaches late drops events, while its own work is bounded by theirs.
	 */
	setpriority(PRIO_PROCESS, (id_t)gettid(), DRAIN_NICE);

	while (!__atomic_load_n(&u->stop, __ATOMIC_ACQUIRE)) {
		/* A busy program: round again at once (a sleep on a loaded machine lasts a
		 * scheduler round, while the program fills its buffer); a quiet one: a pause. */
		if (drain_all(u) < 256 * 1024)
			usleep(DRAIN_PERIOD_US);
	}
	return NULL;
}

/* ---- the session's life ---- */

static int make_dir(struct ust_rec *u, char *err, size_t errlen)
{
	static int seq;

	for (int i = 0; i < 100; i++) {
		snprintf(u->dir, sizeof(u->dir), "/dev/shm/tracekit-ust-%d-%d", (int)getpid(), seq++);
		if (mkdir(u->dir, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	snprintf(err, errlen, "cannot create the user-event session %s: %s", u->dir,
		 strerror(errno));
	return -1;
}

struct ust_rec *ust_rec_start(struct ft_session *s, const struct rec_event *events, int nevents,
			      const pid_t *pids, int npids, const char *clock, const char *out,
			      unsigned buffer_kb, int wait_ms, char *err, size_t errlen)
{
	const char **mine = NULL;
	int nmine = 0;
	struct ust_rec *u;

	for (int i = 0; i < nevents; i++) {
		if (!ust_is_user_spec(s, events[i].spec))
			continue;
		if (events[i].filter) {
			snprintf(err, errlen, "-f on user events (%s) is not supported: filter "
				 "when reading (report -F)", events[i].spec);
			free(mine);
			return NULL;
		}
		mine = xrealloc(mine, sizeof(*mine) * (size_t)(nmine + 1));
		mine[nmine++] = events[i].spec;
	}
	if (!nmine)
		return NULL;
	if (clock && strcmp(clock, "mono")) {
		snprintf(err, errlen, "user events (%s) are timed with the mono clock: drop -C %s",
			 mine[0], clock);
		free(mine);
		return NULL;
	}
	u = xcalloc(1, sizeof(*u));
	u->out = xstrdup(out);
	const char *force = getenv("TRACEKIT_UST_CLOCK");
	u->clock = (force ? !strcmp(force, "tsc") : tsc_usable()) ? TK_CLOCK_TSC : TK_CLOCK_MONO;
	if (make_dir(u, err, errlen) < 0 ||
	    write_config(u, mine, nmine, buffer_kb ? buffer_kb : DEFAULT_BUFFER_KB,
			 wait_ms >= 0 ? (unsigned)wait_ms : npids ? 0 : DEFAULT_WAIT_MS, err,
			 errlen) < 0)
		goto fail;
	calibrate(&u->start);
	setenv(TK_UST_ENV, u->dir, 1);
	for (int i = 0; i < npids; i++) {
		if (signal_process(pids[i], u->dir, err, errlen) < 0)
			goto fail;
		u->pids = xrealloc(u->pids, sizeof(pid_t) * (size_t)(u->npids + 1));
		u->pids[u->npids++] = pids[i];
	}
	if (pthread_create(&u->thread, NULL, drain_thread, u)) {
		snprintf(err, errlen, "cannot start the user-event drain thread");
		goto fail;
	}
	u->running = true;
	u->specs = mine;
	u->nspecs = nmine;
	return u;
fail:
	free(mine);
	ust_rec_free(u, false);
	return NULL;
}

int ust_rec_stop(struct ust_rec *u, char *err, size_t errlen)
{
	for (int i = 0; i < u->npids; i++)
		signal_process(u->pids[i], "", NULL, 0);
	if (u->running) {
		__atomic_store_n(&u->stop, 1, __ATOMIC_RELEASE);
		pthread_join(u->thread, NULL);
		u->running = false;
	}
	drain_all(u);
	/* Nothing drains them from here on: a thread that fills its buffer drops at once. */
	for (int i = 0; i < u->nbufs; i++) {
		__atomic_store_n(&u->bufs[i].h->closed, 1, __ATOMIC_SEQ_CST);
		wake_writer(&u->bufs[i]);
	}
	calibrate(&u->end);
	if (u->end.ns - u->start.ns < 1000000) {
		usleep(2000);	/* a short run: a longer base for the TSC rate */
		calibrate(&u->end);
	}
	for (int i = 0; i < u->nbufs; i++) {
		u->lost += __atomic_load_n(&u->bufs[i].h->lost, __ATOMIC_RELAXED);
		if (u->bufs[i].corrupt)
			u->corrupt++;
	}
	if (u->failed) {
		snprintf(err, errlen, "%s", u->err);
		return -1;
	}
	return ust_write_pages(u, err, errlen);
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	char path[600];

	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

void ust_rec_free(struct ust_rec *u, bool keep_files)
{
	if (!u)
		return;
	if (u->running) {
		__atomic_store_n(&u->stop, 1, __ATOMIC_RELEASE);
		pthread_join(u->thread, NULL);
	}
	for (int i = 0; i < u->nbufs; i++) {
		struct ust_buf *b = &u->bufs[i];

		munmap(b->h, b->maplen);
		if (b->stage)
			fclose(b->stage);
		unlink(b->stage_path);
		free(b->stage_path);
	}
	free(u->bufs);
	if (u->dir[0]) {
		remove_tree(u->dir);
		unsetenv(TK_UST_ENV);
	}
	if (u->pages_path && !keep_files)
		unlink(u->pages_path);
	ust_result_free(u);
	free(u->pages_path);
	free(u->pids);
	free(u->specs);
	free(u->out);
	free(u);
}

int ust_reset_stale(void (*removed)(const char *path, const char *why, void *arg), void *arg)
{
	DIR *d = opendir("/dev/shm");
	char path[300], why[64];
	int n = 0, pid;

	for (struct dirent *e; d && (e = readdir(d));) {
		bool session = sscanf(e->d_name, "tracekit-ust-%d-", &pid) == 1;

		if (!session && sscanf(e->d_name, "tracekit-ctl-%d", &pid) != 1)
			continue;
		if (pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
		if (session)
			remove_tree(path);
		else
			unlink(path);
		snprintf(why, sizeof(why), "%s %d is gone", session ? "recorder" : "program", pid);
		removed(path, why, arg);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether a process announced a tracepoint the -e spec names (the runtime's rule). */
static bool spec_matched(const struct ust_rec *u, const char *spec)
{
	char full[2 * TK_NAME_MAX + 2];

	for (int i = 0; i < u->nevents_fmt; i++) {
		const struct tk_event_desc *ev = &u->events_fmt[i].d.ev;

		snprintf(full, sizeof(full), "%s:%s", ev->system, ev->name);
		if (!fnmatch(spec, full, 0) || !fnmatch(spec, ev->system, 0))
			return true;
	}
	return false;
}

/* " (did you mean sched?)" when spec's system is a misspelt kernel system, else "". */
static void kernel_system_hint(struct ft_session *s, const char *spec, char *hint, size_t len)
{
	char dir[4200], near[256] = "";
	size_t n = strcspn(spec, ":");
	struct closest c;

	hint[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/events", ft_tracefs_dir(s));
	DIR *d = opendir(dir);
	if (!d)
		return;
	closest_init(&c, n / 3 < 2 ? 2 : n / 3);	/* farther is no longer a misspelling */
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_type == DT_DIR && e->d_name[0] != '.')
			closest_offer(&c, spec, n, e->d_name);
	closedir(d);
	closest_join(&c, near, sizeof(near));
	closest_free(&c);
	if (near[0])
		snprintf(hint, len, " (did you mean %s?)", near);
}

unsigned long long ust_rec_events(const struct ust_rec *u)
{
	return u ? (unsigned long long)u->events : 0;
}

int ust_rec_print_stats(const struct ust_rec *u, struct ft_session *s, const char *output,
			bool quiet, bool judge_specs)
{
	uint64_t lost = u->lost + u->unknown;
	int unmatched = 0;

	if (!quiet) {
		fprintf(stderr, "  user events: %llu events, %llu lost, %d threads\n",
			(unsigned long long)u->events, (unsigned long long)lost, u->nbufs);
	}
	if (lost)
		fprintf(stderr, "tracekit: record: %s: %llu user events lost (a thread's buffer "
			"filled faster than it was drained: try -b with more KB)\n", output,
			(unsigned long long)lost);
	if (u->corrupt)
		fprintf(stderr, "tracekit: record: %s: %d user buffers were overwritten by their "
			"program; their later events are missing\n", output, u->corrupt);
	for (int i = 0; judge_specs && i < u->nspecs; i++) {
		char hint[300];

		if (spec_matched(u, u->specs[i]))
			continue;
		kernel_system_hint(s, u->specs[i], hint, sizeof(hint));
		fprintf(stderr, "tracekit: record: no tracepoint matched -e %s%s: it is not a kernel "
			"event system, and no traced program has such a tracepoint (tracekit list; "
			"tracekit list --binary PROGRAM)\n", u->specs[i], hint);
		unmatched++;
	}
	return unmatched;
}
