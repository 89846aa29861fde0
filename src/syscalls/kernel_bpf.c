/*
 * Loading and reading the kernel mode's BPF program (see kernel_bpf.h).
 * libbpf's own messages are kept, not printed: the last one explains a
 * verifier or attach refusal in err.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel_bpf.h"
#include "bpf/kmode.skel.h"
#include "util/die.h"

struct km_bpf {
	struct kmode *skel;
	struct ring_buffer *rb;
	int (*fn)(void *ctx, void *rec, size_t len);
	void *ctx;
};

static char last_msg[256];

static int keep_message(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (getenv("TRACEKIT_BPF_DEBUG")) {
		vfprintf(stderr, fmt, ap);
		return 0;
	}
	if (level == LIBBPF_DEBUG)
		return 0;
	char line[sizeof(last_msg)];
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = '\0';
	if (line[0])
		memcpy(last_msg, line, sizeof(last_msg));
	return 0;
}

static void failed(enum km_bpf_fail *why, int e, const char *what, char *err, size_t errlen)
{
	if (e == EPERM && geteuid() != 0) {
		*why = KM_FAIL_PERM;
		snprintf(err, errlen, "%s: not permitted (--kernel needs root: CAP_BPF and CAP_PERFMON)",
			 what);
		return;
	}
	*why = KM_FAIL_NOBPF;
	snprintf(err, errlen, "%s: %s%s%s", what, strerror(e), last_msg[0] ? "; libbpf: " : "", last_msg);
}

struct km_bpf *km_bpf_open(const struct km_plan *plans, bool follow, size_t ring_bytes,
			   enum km_bpf_fail *why, char *err, size_t errlen)
{
	libbpf_set_print(keep_message);
	last_msg[0] = '\0';
	*why = KM_FAIL_NONE;
	struct km_bpf *b = xcalloc(1, sizeof(*b));
	b->skel = kmode__open();
	if (!b->skel) {
		failed(why, errno, "cannot open the BPF program", err, errlen);
		goto fail;
	}
	b->skel->rodata->cfg_follow = follow;
	int e = bpf_map__set_max_entries(b->skel->maps.rb, (uint32_t)ring_bytes);
	if (e) {
		failed(why, -e, "ring buffer size", err, errlen);
		goto fail;
	}
	e = kmode__load(b->skel);
	if (e) {
		failed(why, -e, "cannot load the BPF program", err, errlen);
		goto fail;
	}
	int fd = bpf_map__fd(b->skel->maps.plans);
	for (uint32_t nr = 0; nr < KM_NR_MAX; nr++) {
		if (bpf_map_update_elem(fd, &nr, &plans[nr], BPF_ANY)) {
			failed(why, errno, "cannot fill the copy plan", err, errlen);
			goto fail;
		}
	}
	return b;
fail:
	km_bpf_close(b);
	return NULL;
}

int km_bpf_add_task(struct km_bpf *b, pid_t tid, bool pending, char *err, size_t errlen)
{
	uint32_t key = (uint32_t)tid;
	struct km_task t = { .state = pending ? KM_PENDING : KM_ACTIVE };
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.tasks), &key, &t, BPF_ANY)) {
		snprintf(err, errlen, "cannot trace process %d: %s", (int)tid, strerror(errno));
		return -1;
	}
	return 0;
}

int km_bpf_in_calls(const struct km_bpf *b, uint64_t before, pid_t *tids, int max)
{
	enum { BATCH = 256 };
	uint32_t keys[BATCH], out_batch;
	struct km_task vals[BATCH];
	int fd = bpf_map__fd(b->skel->maps.tasks), n = 0;
	bool first = true;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	for (;;) {
		uint32_t count = BATCH;
		int e = bpf_map_lookup_batch(fd, first ? NULL : &out_batch, &out_batch, keys, vals, &count, &opts);
		if (e < 0 && errno != ENOENT)
			return n;
		for (uint32_t i = 0; i < count && n < max; i++)
			if ((vals[i].state & KM_INCALL) && vals[i].ts < before)
				tids[n++] = (pid_t)keys[i];
		if (e < 0 || n == max)	/* ENOENT: that was the last batch */
			return n;
		first = false;
	}
}

int km_bpf_task(const struct km_bpf *b, pid_t tid, struct km_task *t)
{
	uint32_t key = (uint32_t)tid;
	struct km_task again;
	int fd = bpf_map__fd(b->skel->maps.tasks);
	/* Read twice: the program may be writing it (a new call) while it is copied. */
	if (bpf_map_lookup_elem(fd, &key, t) || bpf_map_lookup_elem(fd, &key, &again) ||
	    memcmp(t, &again, sizeof(again)))
		return -1;
	return 0;
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct km_bpf *b = ctx;
	return b->fn(b->ctx, data, len);
}

int km_bpf_attach(struct km_bpf *b, char *err, size_t errlen)
{
	int e = kmode__attach(b->skel);
	if (e) {
		enum km_bpf_fail why;
		failed(&why, -e, "cannot attach to the syscall tracepoints", err, errlen);
		return -1;
	}
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.rb), on_record, b, NULL);
	if (!b->rb) {
		snprintf(err, errlen, "cannot map the ring buffer: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int km_bpf_poll(struct km_bpf *b, int timeout_ms, int (*fn)(void *ctx, void *rec, size_t len),
		void *ctx)
{
	b->fn = fn;
	b->ctx = ctx;
	/* Records are written without a wakeup (bpf/kmode.bpf.c): the timeout is the pace. */
	int n = ring_buffer__poll(b->rb, timeout_ms);
	if (n < 0 && n != -EINTR)
		return -1;
	int m = ring_buffer__consume(b->rb);
	if (m < 0)
		return -1;
	return (n > 0 ? n : 0) + m;
}

uint64_t km_bpf_lost(const struct km_bpf *b)
{
	return __atomic_load_n(&b->skel->bss->lost_records, __ATOMIC_RELAXED);
}

uint64_t km_bpf_truncated(const struct km_bpf *b)
{
	return __atomic_load_n(&b->skel->bss->truncated_records, __ATOMIC_RELAXED);
}

void km_bpf_close(struct km_bpf *b)
{
	if (!b)
		return;
	ring_buffer__free(b->rb);
	kmode__destroy(b->skel);
	free(b);
}
