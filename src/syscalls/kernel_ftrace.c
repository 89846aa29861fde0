/*
 * --kernel's ftrace source (see kernel_ftrace.h).  The events are read with
 * libtracefs's raw iterator, in time order across CPUs, and restated as the
 * BPF program's records so kernel_events.c prints them unchanged.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "bpf/kmode.h"
#include "ftrace/session.h"
#include "kernel_ftrace.h"
#include "tracefile/fields.h"
#include "util/die.h"
#include "util/tidmap.h"

enum { EV_ENTER, EV_EXIT, EV_FORK, EV_EXIT_TASK, EV_SIGNAL, EV_N };

static const char *const event_names[EV_N][2] = {
	[EV_ENTER] = { "raw_syscalls", "sys_enter" },
	[EV_EXIT] = { "raw_syscalls", "sys_exit" },
	[EV_FORK] = { "sched", "sched_process_fork" },
	[EV_EXIT_TASK] = { "sched", "sched_process_exit" },
	[EV_SIGNAL] = { "signal", "signal_deliver" },
};

struct km_ftrace {
	struct ft_session *s;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	int id[EV_N];
	struct tep_format_field *nr, *args, *ret, *child, *sig, *code, *xnr;
	bool follow;
	pid_t *pids;
	int npids;
	struct tidmap pending;	/* held command: nothing before its execve */
	int (*fn)(void *ctx, void *rec, size_t len);
	void *ctx;
};

struct km_ftrace *km_ftrace_open(bool follow, unsigned buffer_kb, char *err, size_t errlen)
{
	struct km_ftrace *f = xcalloc(1, sizeof(*f));
	f->follow = follow;
	if (!(f->s = ft_session_new(err, errlen)))
		goto fail;
	if (ft_set_clock(f->s, "mono", err, errlen) < 0 ||
	    ft_set_buffer_kb(f->s, buffer_kb ? buffer_kb : 4096, err, errlen) < 0)
		goto fail;
	f->tep = ft_tep(f->s);
	f->inst = tracefs_instance_alloc(ft_tracefs_dir(f->s), ft_instance_name(f->s));
	if (!f->tep || !f->inst) {
		snprintf(err, errlen, "cannot read the event formats of tracefs");
		goto fail;
	}
	for (int i = 0; i < EV_N; i++) {
		struct tep_event *ev = tep_find_event_by_name(f->tep, event_names[i][0], event_names[i][1]);
		if (!ev) {
			snprintf(err, errlen, "this kernel has no %s:%s event", event_names[i][0],
				 event_names[i][1]);
			goto fail;
		}
		f->id[i] = ev->id;
		if (i == EV_ENTER) {
			f->nr = tep_find_field(ev, "id");
			f->args = tep_find_field(ev, "args");
		} else if (i == EV_EXIT) {
			f->xnr = tep_find_field(ev, "id");
			f->ret = tep_find_field(ev, "ret");
		} else if (i == EV_FORK) {
			f->child = tep_find_field(ev, "child_pid");
		} else if (i == EV_SIGNAL) {
			f->sig = tep_find_field(ev, "sig");
			f->code = tep_find_field(ev, "code");
		}
	}
	return f;
fail:
	km_ftrace_close(f);
	return NULL;
}

int km_ftrace_add_task(struct km_ftrace *f, pid_t tid, bool pending, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	f->pids = xrealloc(f->pids, sizeof(pid_t) * (size_t)(f->npids + 1));
	f->pids[f->npids++] = tid;
	if (pending)
		tidmap_put(&f->pending, tid, f);
	return 0;
}

int km_ftrace_attach(struct km_ftrace *f, char *err, size_t errlen)
{
	if (ft_set_pids(f->s, f->pids, f->npids, f->follow, err, errlen) < 0)
		return -1;
	for (int i = 0; i < EV_N; i++) {
		char spec[128];
		snprintf(spec, sizeof(spec), "%s:%s", event_names[i][0], event_names[i][1]);
		if (ft_enable_events(f->s, spec, err, errlen) < 0)
			return -1;
	}
	return ft_tracing_on(f->s, true, err, errlen);
}

static int on_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	(void)cpu;
	struct km_ftrace *f = ctx;
	struct {
		struct km_hdr h;
		struct km_region r;
		unsigned char si[48];
	} out;
	memset(&out, 0, sizeof(out));
	struct km_hdr *h = &out.h;
	h->ts = rec->ts;
	h->tid = (uint32_t)tep_data_pid(f->tep, rec);
	h->tgid = h->tid;	/* not in these events; only -f's JSON "pid" would need it */
	size_t len = sizeof(*h);
	if (ev->id == f->id[EV_ENTER]) {
		h->type = KM_ENTER;
		h->nr = (int32_t)tf_field_num(f->nr, rec, 0);
		if (tidmap_get(&f->pending, (pid_t)h->tid)) {
			if (h->nr != 59 && h->nr != 322)
				return 0;
			tidmap_del(&f->pending, (pid_t)h->tid);
		}
		for (int i = 0; i < 6; i++)
			h->args[i] = tf_field_num(f->args, rec, i);
	} else if (ev->id == f->id[EV_EXIT]) {
		h->type = KM_EXIT;
		h->nr = (int32_t)tf_field_num(f->xnr, rec, 0);
		h->ret = (int64_t)tf_field_num(f->ret, rec, 0);
	} else if (ev->id == f->id[EV_FORK]) {
		h->type = KM_FORK;
		h->args[0] = h->args[1] = tf_field_num(f->child, rec, 0);
	} else if (ev->id == f->id[EV_EXIT_TASK]) {
		/* The exit code is not in the event: nr -1 asks the printer to infer it. */
		h->type = KM_GONE;
		h->nr = -1;
	} else if (ev->id == f->id[EV_SIGNAL]) {
		h->type = KM_SIGNAL;
		h->nr = (int32_t)tf_field_num(f->sig, rec, 0);
		int32_t si[3] = { h->nr, 0, (int32_t)tf_field_num(f->code, rec, 0) };
		memcpy(out.si, si, sizeof(si));
		out.r.len = 48;
		h->nregions = 1;
		h->size = sizeof(out.r) + 48;
		len = sizeof(out);
	} else {
		return 0;
	}
	if (h->type != KM_ENTER && tidmap_get(&f->pending, (pid_t)h->tid))
		return 0;
	f->fn(f->ctx, &out, len);
	return 0;
}

int km_ftrace_poll(struct km_ftrace *f, int timeout_ms, int (*fn)(void *ctx, void *rec, size_t len),
		   void *ctx)
{
	if (timeout_ms > 0 && poll(NULL, 0, timeout_ms) < 0 && errno == EINTR)
		return 0;
	f->fn = fn;
	f->ctx = ctx;
	return tracefs_iterate_raw_events(f->tep, f->inst, NULL, 0, on_event, f) < 0 ? -1 : 0;
}

uint64_t km_ftrace_lost(struct km_ftrace *f)
{
	uint64_t lost = 0;
	for (int cpu = 0; cpu < ft_cpu_count(f->s); cpu++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		char *text = ft_read_file(f->s, rel, NULL);
		for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
			unsigned long long v;
			if (sscanf(p, "overrun: %llu", &v) == 1 || sscanf(p, "dropped events: %llu", &v) == 1)
				lost += v;
		}
		free(text);
	}
	return lost;
}

void km_ftrace_close(struct km_ftrace *f)
{
	if (!f)
		return;
	tracefs_instance_free(f->inst);
	ft_session_destroy(f->s);
	tidmap_free(&f->pending);
	free(f->pids);
	free(f);
}
