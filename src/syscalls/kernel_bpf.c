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
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel_bpf.h"
#include "table.h"
#include "bpf/kmode.skel.h"
#include "util/die.h"

struct km_bpf {
	struct kmode *skel;
	uint32_t slot_mask;
	struct km_task *slots;	/* the program's slots array, mapped (KM_SLOTS entries) */
	size_t slots_len;
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

struct km_bpf *km_bpf_open(const struct km_plan *plans, bool follow, bool clock, bool fds,
			   bool pidns, size_t ring_bytes, enum km_bpf_fail *why, char *err,
			   size_t errlen)
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
	b->skel->rodata->cfg_clock = clock;
	b->skel->rodata->cfg_fds = fds;
	b->skel->rodata->cfg_pidns = pidns;
	/* For tests: fewer slots, so that tasks share them and spill (a power of two). */
	const char *slots = getenv("TRACEKIT_KM_SLOTS");
	unsigned long nslots = slots ? strtoul(slots, NULL, 10) : KM_SLOTS;
	if (!nslots || nslots > KM_SLOTS || (nslots & (nslots - 1)))
		nslots = KM_SLOTS;
	b->slot_mask = (uint32_t)nslots - 1;
	b->skel->rodata->cfg_slot_mask = b->slot_mask;
	b->skel->rodata->cfg_wake_at = ring_bytes / 4;
	/*
	 * A plan that sends no call a syscall has (only numbers without one):
	 * the small pair of syscall programs (kmode.bpf.c's *_none).
	 */
	bool sends = pidns;
	for (uint32_t nr = 0; nr < KM_NR_MAX && !sends; nr++)
		sends = plans[nr].traced && sc_by_nr(nr) && sc_by_nr(nr)->name;
	bpf_program__set_autoload(b->skel->progs.km_sys_enter, sends);
	bpf_program__set_autoload(b->skel->progs.km_sys_exit, sends);
	bpf_program__set_autoload(b->skel->progs.km_sys_enter_none, !sends);
	bpf_program__set_autoload(b->skel->progs.km_sys_exit_none, !sends);
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
	b->slots_len = sizeof(struct km_task) * KM_SLOTS;
	b->slots = mmap(NULL, b->slots_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			bpf_map__fd(b->skel->maps.slots), 0);
	if (b->slots == MAP_FAILED) {
		b->slots = NULL;
		failed(why, errno, "cannot map the task slots", err, errlen);
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
	uint32_t key = (uint32_t)tid, state = pending ? KM_PENDING : KM_ACTIVE, none = 0;
	struct km_task *slot = &b->slots[key & b->slot_mask];
	/* As the program's task_add: the slot if it is free (or already ours), else the spill map. */
	if (__atomic_load_n(&slot->tid, __ATOMIC_ACQUIRE) == key ||
	    __atomic_compare_exchange_n(&slot->tid, &none, key, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&slot->pids_key, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&slot->state, state, __ATOMIC_RELEASE);
		return 0;
	}
	struct km_task t = { .tid = key, .state = state };
	int fd = bpf_map__fd(b->skel->maps.spill);
	if (bpf_map_update_elem(fd, &key, &t, BPF_NOEXIST) == 0) {
		__atomic_fetch_add(&b->skel->bss->spilled, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (errno != EEXIST || bpf_map_update_elem(fd, &key, &t, BPF_EXIST)) {
		snprintf(err, errlen, "cannot trace process %d: %s", (int)tid, strerror(errno));
		return -1;
	}
	return 0;
}

/* One copy of a slot the program may be writing: read until two reads agree. */
static bool read_slot(const struct km_task *slot, struct km_task *t)
{
	for (int tries = 0; tries < 4; tries++) {
		struct km_task again;
		memcpy(t, slot, sizeof(*t));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		memcpy(&again, slot, sizeof(again));
		if (!memcmp(t, &again, sizeof(again)))
			return true;
	}
	return false;
}

int km_bpf_task(const struct km_bpf *b, pid_t tid, struct km_task *t)
{
	uint32_t key = (uint32_t)tid;
	if (read_slot(&b->slots[key & b->slot_mask], t) && t->tid == key)
		return 0;
	struct km_task again;
	int fd = bpf_map__fd(b->skel->maps.spill);
	if (!__atomic_load_n(&b->skel->bss->spilled, __ATOMIC_RELAXED) ||
	    bpf_map_lookup_elem(fd, &key, t) || bpf_map_lookup_elem(fd, &key, &again) ||
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

uint64_t km_bpf_stamps(const struct km_bpf *b)
{
	return __atomic_load_n(&b->skel->bss->stamps, __ATOMIC_ACQUIRE);
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
	if (b->slots)
		munmap(b->slots, b->slots_len);
	kmode__destroy(b->skel);
	free(b);
}
