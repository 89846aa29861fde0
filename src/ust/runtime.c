/*
 * libtracekit: the runtime behind <tracekit/tracepoint.h>.
 *
 * Tracepoints register from constructors (the program's, and a dlopen'ed
 * library's), get a number in this process, and are enabled when a session
 * (a recorder's directory, see abi.h) asks for their name.  Each thread
 * writes into a ring buffer of its own, mapped from the session directory
 * on its first event: no lock and no system call per event, nothing shared
 * between threads.  A full buffer waits for the recorder to drain it when the
 * session asks (wait_ms, see abi.h), never longer than that without progress
 * and never for a recorder that is gone; else its events are dropped and
 * counted.
 *
 * A started program finds its session in the environment.  For a running
 * one (record -P), the runtime makes a control file when the first
 * tracepoint registers, and a thread that sleeps on a futex in it until a
 * recorder writes a session there (or "" when it is done).
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "abi.h"
#include "runtime.h"

#define EXPORT __attribute__((visibility("default")))

struct session {
	bool active;
	char dir[512];
	int clock;
	uint64_t ring_bytes;
	unsigned wait_ms;	/* how long a full buffer waits for room; 0: drop at once */
	pid_t recorder;		/* the recorder's pid, to tell a slow one from a gone one */
	char **enable;
	int nenable;
	int events_fd;
};

/* One thread's buffer, as the thread sees it. */
struct tbuf {
	struct tk_ubuf_hdr *h;
	char *ring;
	uint64_t mask;
	uint64_t head, pending;
	uint64_t tail;		/* the recorder's tail when last read: reread only when full */
	unsigned wait_ms;	/* the session's, when the buffer was made */
	pid_t recorder;
	bool nowait;		/* a wait gave up: drop until the recorder moves nowait_tail */
	uint64_t nowait_tail;
	unsigned gen;		/* the session it belongs to; another one reopens */
	int nesting;
	int32_t tid;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tk_tracepoint *registered;
static uint16_t next_id = 1;
static struct session sess;
static unsigned sess_gen;	/* bumped when a session starts: buffers reopen */
static int sess_clock;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static __thread struct tbuf tb __attribute__((tls_model("initial-exec")));

static struct tk_uctl *ctl;		/* this process's control file, mapped */
static char ctl_path[64];

static uint64_t now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (sess_clock == TK_CLOCK_TSC)
		return __builtin_ia32_rdtsc();
#endif
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool wanted(const struct tk_tracepoint *tp)
{
	char full[2 * TK_NAME_MAX + 2];

	snprintf(full, sizeof(full), "%s:%s", tp->ev->system, tp->ev->name);
	for (int i = 0; i < sess.nenable; i++) {
		if (!fnmatch(sess.enable[i], full, 0) || !fnmatch(sess.enable[i], tp->ev->system, 0))
			return true;
	}
	return false;
}

/* The description the recorder turns into a format file. */
static void announce(const struct tk_tracepoint *tp)
{
	struct tk_udesc d;

	if (sess.events_fd < 0)
		return;
	memset(&d, 0, sizeof(d));
	d.magic = TK_UDESC_MAGIC;
	d.id = tp->id;
	d.ev = *tp->ev;
	d.cls = *tp->cls;
	if (write(sess.events_fd, &d, sizeof(d)) != (ssize_t)sizeof(d)) {
		close(sess.events_fd);
		sess.events_fd = -1;
	}
}

static void open_events_file(void)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/events-%d", sess.dir, (int)getpid());
	sess.events_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC | O_CLOEXEC, 0600);
}

static void parse_config_line(char *line)
{
	char *nl = strchr(line, '\n');

	if (nl)
		*nl = '\0';
	if (!strncmp(line, "clock ", 6)) {
		sess.clock = !strcmp(line + 6, "tsc") ? TK_CLOCK_TSC : TK_CLOCK_MONO;
	} else if (!strncmp(line, "buffer_kb ", 10)) {
		uint64_t bytes = strtoull(line + 10, NULL, 10) * 1024, ring = 4096;

		while (ring < bytes && ring < (1ull << 34))
			ring <<= 1;
		sess.ring_bytes = ring;
	} else if (!strncmp(line, "wait_ms ", 8)) {
		sess.wait_ms = (unsigned)strtoul(line + 8, NULL, 10);
	} else if (!strncmp(line, "recorder ", 9)) {
		sess.recorder = (pid_t)strtol(line + 9, NULL, 10);
	} else if (!strncmp(line, "enable ", 7)) {
		char **e = realloc(sess.enable, sizeof(char *) * (size_t)(sess.nenable + 1));

		if (!e)
			return;
		sess.enable = e;
		sess.enable[sess.nenable] = strdup(line + 7);
		if (sess.enable[sess.nenable])
			sess.nenable++;
	}
}

/* Called with reg_lock held: read SESSION/config and enable what it asks for. */
static void session_start(const char *dir)
{
	char path[600], line[512];
	FILE *f;

	if (strlen(dir) >= sizeof(sess.dir))
		return;
	snprintf(path, sizeof(path), "%s/config", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	snprintf(sess.dir, sizeof(sess.dir), "%s", dir);
	sess.clock = TK_CLOCK_MONO;
	sess.ring_bytes = 1 << 20;
	sess.wait_ms = 0;
	sess.recorder = 0;
	while (fgets(line, sizeof(line), f))
		parse_config_line(line);
	fclose(f);
	sess.active = true;
	sess_clock = sess.clock;
	open_events_file();
	__atomic_add_fetch(&sess_gen, 1, __ATOMIC_RELEASE);
	for (struct tk_tracepoint *tp = registered; tp; tp = tp->next) {
		announce(tp);
		if (wanted(tp))
			__atomic_or_fetch(&tp->state, TK_TP_RECORD, __ATOMIC_RELEASE);
	}
}

/* Called with reg_lock held: the recorder is done; buffers reopen if another comes. */
static void session_stop(void)
{
	for (struct tk_tracepoint *tp = registered; tp; tp = tp->next)
		__atomic_and_fetch(&tp->state, ~TK_TP_RECORD, __ATOMIC_RELEASE);
	for (int i = 0; i < sess.nenable; i++)
		free(sess.enable[i]);
	free(sess.enable);
	sess.enable = NULL;
	sess.nenable = 0;
	if (sess.events_fd >= 0)
		close(sess.events_fd);
	sess.events_fd = -1;
	sess.active = false;
	__atomic_add_fetch(&sess_gen, 1, __ATOMIC_RELEASE);
}

/* The -P listener: wait for the control file's generation to move, then follow it. */
static void *listen_ctl(void *arg)
{
	struct tk_uctl *c = arg;
	uint32_t seen = 0;
	char dir[sizeof(c->session)];

	for (;;) {
		uint32_t gen = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);

		if (gen == seen) {
			syscall(SYS_futex, &c->gen, FUTEX_WAIT, gen, NULL, NULL, 0);
			continue;
		}
		seen = gen;
		memcpy(dir, c->session, sizeof(dir));
		dir[sizeof(dir) - 1] = '\0';
		pthread_mutex_lock(&reg_lock);
		if (sess.active)
			session_stop();
		if (dir[0])
			session_start(dir);
		pthread_mutex_unlock(&reg_lock);
	}
	return NULL;
}

static void remove_ctl(void)
{
	if (ctl_path[0] && ctl && ctl->magic == TK_UCTL_MAGIC)
		unlink(ctl_path);
}

/* The control file and its listener (no signal ever lands on that thread). */
static void open_ctl(void)
{
	pthread_t t;
	pthread_attr_t attr;
	sigset_t all, old;
	int fd;

	snprintf(ctl_path, sizeof(ctl_path), TK_UST_CTL_FMT, (int)getpid());
	fd = open(ctl_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		goto fail;
	if (ftruncate(fd, sizeof(*ctl)) < 0) {
		close(fd);
		goto fail;
	}
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl == MAP_FAILED) {
		ctl = NULL;
		goto fail;
	}
	ctl->magic = TK_UCTL_MAGIC;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, listen_ctl, ctl) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		goto fail;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return;
fail:
	unlink(ctl_path);
	ctl_path[0] = '\0';
}

/* A thread ends: its buffer is complete. */
static void thread_exit(void *arg)
{
	struct tbuf *b = arg;

	if (!b->h)
		return;
	__atomic_store_n(&b->h->exited, 1, __ATOMIC_RELEASE);
	munmap(b->h, TK_UBUF_HDR + b->mask + 1);
	b->h = NULL;
}

/* Forget the parent's buffer (its mapping is shared) and announce our tracepoints as a new pid. */
static void after_fork_child(void)
{
	if (tb.h)
		munmap(tb.h, TK_UBUF_HDR + tb.mask + 1);
	memset(&tb, 0, sizeof(tb));
	pthread_mutex_init(&reg_lock, NULL);
	if (ctl) {
		munmap(ctl, sizeof(*ctl));	/* the parent's; the listener thread did not fork */
		ctl = NULL;
		if (!getenv(TK_UST_ENV) && !getenv("TRACEKIT_NO_CONTROL"))
			open_ctl();
	}
	if (!sess.active)
		return;
	if (sess.events_fd >= 0)
		close(sess.events_fd);
	open_events_file();
	for (struct tk_tracepoint *tp = registered; tp; tp = tp->next)
		announce(tp);
}

static void init(void)
{
	const char *dir = getenv(TK_UST_ENV);

	sess.events_fd = -1;
	pthread_key_create(&exit_key, thread_exit);
	pthread_atfork(NULL, NULL, after_fork_child);
	if (dir && *dir) {
		session_start(dir);
		return;
	}
	if (getenv("TRACEKIT_NO_CONTROL"))
		return;
	open_ctl();
	atexit(remove_ctl);
}

EXPORT void tk_tp_register(struct tk_tracepoint *tp)
{
	pthread_once(&init_once, init);
	pthread_mutex_lock(&reg_lock);
	if (!tp->registered) {
		tp->registered = 1;
		tp->id = next_id++;
		tp->next = registered;
		registered = tp;
		if (sess.active) {
			announce(tp);
			if (wanted(tp))
				__atomic_or_fetch(&tp->state, TK_TP_RECORD, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&reg_lock);
}

/* dlclose: the tracepoint's memory goes away, so it leaves the list (its events were written). */
EXPORT void tk_tp_unregister(struct tk_tracepoint *tp)
{
	pthread_mutex_lock(&reg_lock);
	for (struct tk_tracepoint **p = &registered; *p; p = &(*p)->next) {
		if (*p == tp) {
			*p = tp->next;
			break;
		}
	}
	__atomic_and_fetch(&tp->state, ~TK_TP_RECORD, __ATOMIC_RELEASE);
	tp->registered = 0;
	pthread_mutex_unlock(&reg_lock);
	tk_tp_probes_release(tp);
}

/* This thread's buffer for the current session; false when it cannot have one. */
static bool thread_buffer(struct tbuf *b, unsigned gen)
{
	char path[700];
	size_t len;
	uint64_t ring;
	int fd, clock;
	void *map;

	if (b->h)
		thread_exit(b);
	b->gen = gen;
	if (!b->tid)
		b->tid = (int32_t)gettid();
	pthread_mutex_lock(&reg_lock);	/* a -P session may be changing */
	snprintf(path, sizeof(path), "%s/buf-%d-%d-%u", sess.dir, (int)getpid(), (int)b->tid, gen);
	ring = sess.ring_bytes;
	clock = sess.clock;
	b->wait_ms = sess.wait_ms;
	b->recorder = sess.recorder;
	b->nowait = false;
	bool active = sess.active;
	pthread_mutex_unlock(&reg_lock);
	if (!active)
		return false;
	len = TK_UBUF_HDR + ring;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	if (ftruncate(fd, (off_t)len) < 0) {
		close(fd);
		unlink(path);
		return false;
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	b->h = map;
	b->ring = (char *)map + TK_UBUF_HDR;
	b->mask = ring - 1;
	b->head = 0;
	b->tail = 0;
	b->h->version = TK_UBUF_VERSION;
	b->h->pid = (int32_t)getpid();
	b->h->tid = b->tid;
	b->h->size = ring;
	b->h->clock = (uint32_t)clock;
	prctl(PR_GET_NAME, b->h->comm, 0, 0, 0);
	__atomic_store_n(&b->h->magic, TK_UBUF_MAGIC, __ATOMIC_RELEASE);
	pthread_setspecific(exit_key, b);
	return true;
}

static void count_lost(struct tbuf *b)
{
	__atomic_store_n(&b->h->lost, b->h->lost + 1, __ATOMIC_RELAXED);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The recorder is no more (a SIGKILL skips its cleanup): waiting for it would be forever. */
static bool recorder_gone(const struct tbuf *b)
{
	return b->recorder > 0 && kill(b->recorder, 0) < 0 && errno == ESRCH;
}

/*
 * The buffer is full: wait until the recorder makes room for need bytes past
 * head, at most wait_ms without its tail moving.  Off the fast path: the
 * enabled cost of an event that fits is what it was.  errno is the program's.
 */
static __attribute__((noinline, cold)) bool wait_for_room(struct tbuf *b, uint64_t need)
{
	struct tk_ubuf_hdr *h = b->h;
	uint64_t cap = b->mask + 1, moved_at;
	int saved = errno;
	bool room = false;

	if (!b->wait_ms)
		return false;
	if (b->nowait) {
		/* Waits again once the recorder shows it is draining. */
		if (__atomic_load_n(&h->tail, __ATOMIC_ACQUIRE) == b->nowait_tail)
			return false;
		b->nowait = false;
	}
	moved_at = mono_ms();
	b->nesting = 1;		/* a signal handler's event meanwhile is dropped, not interleaved */
	for (uint64_t last = b->tail;;) {
		uint32_t seq = __atomic_load_n(&h->tail_seq, __ATOMIC_ACQUIRE);

		__atomic_store_n(&h->waiting, 1, __ATOMIC_SEQ_CST);
		b->tail = __atomic_load_n(&h->tail, __ATOMIC_SEQ_CST);
		if (b->head + need - b->tail <= cap) {
			room = true;
			break;
		}
		uint64_t now_ms = mono_ms();
		if (b->tail != last) {
			last = b->tail;
			moved_at = now_ms;
		}
		if (__atomic_load_n(&h->closed, __ATOMIC_ACQUIRE) || recorder_gone(b) ||
		    now_ms - moved_at >= b->wait_ms)
			break;
		/* Woken when the tail moves; a few ms at most, to look at the recorder again. */
		struct timespec t = { 0, 5 * 1000000 };
		syscall(SYS_futex, &h->tail_seq, FUTEX_WAIT, seq, &t, NULL, 0);
	}
	__atomic_store_n(&h->waiting, 0, __ATOMIC_RELAXED);
	b->nesting = 0;
	if (!room) {
		b->nowait = true;
		b->nowait_tail = b->tail;
	}
	errno = saved;
	return room;
}

EXPORT void *tk_tp_reserve(struct tk_tracepoint *tp, uint32_t size)
{
	struct tbuf *b = &tb;
	unsigned gen = __atomic_load_n(&sess_gen, __ATOMIC_ACQUIRE);
	uint64_t need = TK_UREC_SIZE(size), cap, pos, pad = 0;
	struct tk_urec *r;

	if (TK_UNLIKELY(b->gen != gen) && !thread_buffer(b, gen))
		return NULL;
	if (TK_UNLIKELY(!b->h))
		return NULL;
	if (TK_UNLIKELY(b->nesting || size > TK_UREC_MAX)) {
		count_lost(b);
		return NULL;
	}
	cap = b->mask + 1;
	pos = b->head & b->mask;
	if (pos + need > cap)
		pad = cap - pos;
	/* The tail's cache line is the recorder's: touch it only when the space seems gone. */
	if (b->head + pad + need - b->tail > cap) {
		b->tail = __atomic_load_n(&b->h->tail, __ATOMIC_ACQUIRE);
		if (b->head + pad + need - b->tail > cap && !wait_for_room(b, pad + need)) {
			count_lost(b);
			return NULL;
		}
	}
	if (pad) {
		r = (struct tk_urec *)(b->ring + pos);
		r->len = (uint32_t)(pad - sizeof(*r));
		r->kind = TK_UREC_PAD;
		b->head += pad;
		pos = 0;
	}
	r = (struct tk_urec *)(b->ring + pos);
	r->ts = now();
	r->len = size;
	r->id = tp->id;
	r->kind = TK_UREC_EVENT;
	b->pending = b->head + need;
	b->nesting = 1;

	struct tk_entry_header *e = (struct tk_entry_header *)(r + 1);
	e->type = tp->id;
	e->flags = 0;
	e->preempt_count = 0;
	e->pid = b->tid;
	return e;
}

EXPORT void tk_tp_commit(struct tk_tracepoint *tp, void *entry)
{
	struct tbuf *b = &tb;

	(void)tp;
	(void)entry;
	b->head = b->pending;
	__atomic_store_n(&b->h->head, b->head, __ATOMIC_RELEASE);
	b->nesting = 0;
}
