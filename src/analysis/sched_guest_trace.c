/*
 * tracekit sched -i host.dat -i guest.dat: the machines one after the other, then what
 * the guests' tasks waited for their vCPUs on the host (sched_guest.h), from one pass over
 * the files merged on the host's clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "analysis/sched_guest.h"
#include "analysis/sched_trace.h"
#include "tracefile/merge.h"
#include "util/die.h"
#include "util/json.h"

/* The sched events a guest's or host's formats give, by name. */
struct sg_formats {
	int sw, wakeup, waking, wakeup_new, migrate, exit;
	struct tep_format_field *prev_pid, *prev_state, *next_pid, *next_comm;
	struct tep_format_field *wk_pid, *wk_comm, *wk_cpu, *wkn_pid, *wkn_comm, *wkn_cpu;
	struct tep_format_field *mg_pid, *mg_dest, *ex_pid;
	bool use_waking;
};

static int event_id(struct tep_handle *tep, const char *name, struct tep_event **ev)
{
	*ev = tep_find_event_by_name(tep, "sched", name);
	return *ev ? (*ev)->id : -1;
}

static void find_formats(struct tep_handle *tep, struct sg_formats *f)
{
	struct tep_event *e;

	f->sw = event_id(tep, "sched_switch", &e);
	if (e) {
		f->prev_pid = tep_find_field(e, "prev_pid");
		f->prev_state = tep_find_field(e, "prev_state");
		f->next_pid = tep_find_field(e, "next_pid");
		f->next_comm = tep_find_field(e, "next_comm");
	}
	f->wakeup = event_id(tep, "sched_wakeup", &e);
	f->waking = event_id(tep, "sched_waking", &e);
	/* waking: the wakeup as it is decided (wakeup may come late from another CPU) */
	f->use_waking = f->waking >= 0;
	if (e || (f->wakeup >= 0 && (e = tep_find_event(tep, f->wakeup)))) {
		f->wk_pid = tep_find_field(e, "pid");
		f->wk_comm = tep_find_field(e, "comm");
		f->wk_cpu = tep_find_field(e, "target_cpu");
	}
	f->wakeup_new = event_id(tep, "sched_wakeup_new", &e);
	if (e) {
		f->wkn_pid = tep_find_field(e, "pid");
		f->wkn_comm = tep_find_field(e, "comm");
		f->wkn_cpu = tep_find_field(e, "target_cpu");
	}
	f->migrate = event_id(tep, "sched_migrate_task", &e);
	if (e) {
		f->mg_pid = tep_find_field(e, "pid");
		f->mg_dest = tep_find_field(e, "dest_cpu");
	}
	f->exit = event_id(tep, "sched_process_exit", &e);
	if (e)
		f->ex_pid = tep_find_field(e, "pid");
}

static long long num(struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec->data, &v) < 0)
		return -1;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4)
			return (int)v;
		if (f->size == 2)
			return (short)v;
	}
	return (long long)v;
}

static const char *str(struct tep_format_field *f, const struct tep_record *rec, char *buf,
		       size_t len)
{
	buf[0] = '\0';
	if (f && f->offset >= 0 && f->size > 0 && f->offset + f->size <= rec->size)
		snprintf(buf, len, "%.*s", f->size, (const char *)rec->data + f->offset);
	return buf;
}

/* One guest's pass: its host's switches and its own sched events, in merged order. */
struct guest_pass {
	int machine, host;
	struct sg_guest g;
	struct sg_formats gf, hf;
	uint64_t first, last, host_first, host_last;
	bool seen, host_seen;
	bool started;			/* the --from window has begun */
	bool guest_past, host_past;	/* an event after --to */
};

/* --from/--to on the merged clock (the host's): [from, to]. */
struct window {
	bool has_from, has_to;
	uint64_t from, to;
};

static void feed_host(struct guest_pass *p, const struct tf_event *ev)
{
	if (!p->host_seen)
		p->host_first = ev->ts;
	p->host_seen = true;
	if (ev->ts > p->host_last)
		p->host_last = ev->ts;
	if (ev->event->id != p->hf.sw)
		return;
	sg_host_switch(&p->g, (int)num(p->hf.prev_pid, ev->record),
		       (int)num(p->hf.next_pid, ev->record), ev->ts);
}

static void feed_guest(struct guest_pass *p, const struct tf_event *ev)
{
	const struct sg_formats *f = &p->gf;
	const struct tep_record *rec = ev->record;
	int id = ev->event->id;
	char comm[32];

	if (!p->seen)
		p->first = ev->ts;
	p->seen = true;
	p->last = ev->ts;
	sg_guest_seen(&p->g, ev->ts);
	if (id == f->sw) {
		int prev = (int)num(f->prev_pid, rec);
		long state = (long)num(f->prev_state, rec) & 0xff;
		if (state == 0)
			sg_guest_queue(&p->g, prev, NULL, ev->cpu, ev->ts);	/* preempted */
		else
			sg_guest_sleep(&p->g, prev, ev->ts);
		sg_guest_run(&p->g, (int)num(f->next_pid, rec), str(f->next_comm, rec, comm,
			     sizeof(comm)), ev->cpu, ev->ts);
	} else if ((id == f->waking && f->use_waking) || (id == f->wakeup && !f->use_waking)) {
		sg_guest_queue(&p->g, (int)num(f->wk_pid, rec), str(f->wk_comm, rec, comm,
			       sizeof(comm)), (int)num(f->wk_cpu, rec), ev->ts);
	} else if (id == f->wakeup_new) {
		sg_guest_queue(&p->g, (int)num(f->wkn_pid, rec), str(f->wkn_comm, rec, comm,
			       sizeof(comm)), (int)num(f->wkn_cpu, rec), ev->ts);
	} else if (id == f->migrate) {
		int pid = (int)num(f->mg_pid, rec);
		struct sg_task *t = sg_task_of(&p->g, pid);
		if (t && t->vcpu >= 0 && !t->running)	/* a queued task moves; a running one
							 * moves at its next switch */
			sg_guest_queue(&p->g, pid, NULL, (int)num(f->mg_dest, rec), ev->ts);
	} else if (id == f->exit) {
		sg_guest_sleep(&p->g, (int)num(f->ex_pid, rec), ev->ts);
	}
}

/* Set up the pass of guest machine `guest` of m (its pairing and vCPU map from m). */
static int pass_init(struct tf_merge *m, int guest, struct guest_pass *p, char *err,
		     size_t errlen)
{
	const struct tf_machine *gm = tf_merge_machine(m, guest);

	p->machine = guest;
	p->host = gm->host;
	if (sg_init(&p->g, gm->vcpu_pid ? gm->nvcpu : 0, gm->vcpu_pid) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	find_formats(tf_reader_tep(tf_merge_machine(m, guest)->r), &p->gf);
	find_formats(tf_reader_tep(tf_merge_machine(m, gm->host)->r), &p->hf);
	return 0;
}

/* After --to: which recordings go on past it (their time is then counted up to it). */
static bool note_past(struct guest_pass *p, int np, const struct tf_event *ev)
{
	bool all = true;

	for (int i = 0; i < np; i++) {
		p[i].host_past |= ev->machine == p[i].host;
		p[i].guest_past |= ev->machine == p[i].machine;
		all &= p[i].host_past && p[i].guest_past;
	}
	return all;
}

/*
 * Every guest's pass in one read of the merged files: each event to the passes it
 * concerns.  Events before --from set the states; the window's start drops the time
 * counted until then, and after --to nothing is fed.
 */
static int run_passes(struct tf_merge *m, struct guest_pass *p, int np,
		      const struct window *w, char *err, size_t errlen)
{
	struct tf_event ev;
	int rc;

	while ((rc = tf_merge_next(m, &ev, err, errlen)) == 1) {
		if (!ev.event)
			continue;
		if (w->has_to && ev.ts > w->to) {
			if (note_past(p, np, &ev))
				break;
			continue;
		}
		for (int i = 0; i < np; i++) {
			if (w->has_from && !p[i].started && ev.ts >= w->from) {
				sg_window_start(&p[i].g, w->from);
				p[i].started = true;
			}
			if (ev.machine == p[i].host)
				feed_host(&p[i], &ev);
			else if (ev.machine == p[i].machine)
				feed_guest(&p[i], &ev);
		}
	}
	if (rc < 0)
		return rc;
	for (int i = 0; i < np; i++) {
		if (w->has_from && !p[i].started)	/* nothing at or after --from */
			sg_window_start(&p[i].g, w->from);
		sg_end(&p[i].g, p[i].guest_past ? w->to : p[i].last,
		       p[i].host_past ? w->to : p[i].host_last);
	}
	return 0;
}

static int by_waited(const void *a, const void *b)
{
	const struct sg_task *x = a, *y = b;

	if (x->waited != y->waited)
		return x->waited < y->waited ? 1 : -1;
	return x->pid - y->pid;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* Tasks that waited for their vCPUs, most first; at most this many in text. */
#define SG_TEXT_TASKS 20

static void print_guest_text(const struct tf_machine *g, const struct tf_machine *h,
			     struct guest_pass *p, const struct st_options *o, FILE *out)
{
	fprintf(out, "\nGuest %s (%s) on host %s (%s): its vCPUs on the host\n", g->name, g->path,
		h->name, h->path);
	if (!g->vcpu_map_from) {
		fprintf(out, "  no vCPU-to-thread map: the host's GUEST option has no thread ids "
			"(a guest reached over the network) and the host recording has no qemu\n"
			"  'CPU N/TCG' or 'CPU N/KVM' threads, or those of more than one qemu (which "
			"runs this guest is unknown:\n  record -A with --guest-pid QEMU-PID); the time "
			"tasks waited for their vCPUs is not known\n");
		return;
	}
	fprintf(out, "  vCPU map from the %s\n", g->vcpu_map_from);
	if (!g->time_shift)
		fprintf(out, "  the guest's file has no TIME_SHIFT option: its clock is taken as the "
			"host's as it is (trace-cmd record -A writes one)\n");
	if (p->seen && (p->host_last < p->first || !p->host_seen || p->host_first > p->last))
		fprintf(out, "  the host's and the guest's recordings do not overlap in time: nothing "
			"can be said of the vCPUs\n");
	for (int i = 0; i < p->g.nvcpu; i++) {
		const struct sg_vcpu *v = &p->g.vcpu[i];
		if (!v->host_pid) {
			fprintf(out, "  vCPU %d: no host thread known\n", i);
			continue;
		}
		if (!v->known) {
			fprintf(out, "  vCPU %d: host thread %d, not seen switching in the host "
				"recording\n", i, v->host_pid);
			continue;
		}
		fprintf(out, "  vCPU %d: host thread %d ran %.3f ms, was off its host CPU %.3f ms\n",
			i, v->host_pid, ms(v->on_total), ms(v->off_total));
	}
	qsort(p->g.task, (size_t)p->g.ntask, sizeof(*p->g.task), by_waited);
	int shown = 0;
	for (int i = 0; i < p->g.ntask; i++) {
		const struct sg_task *t = &p->g.task[i];
		if (o->pid && t->pid != o->pid)
			continue;
		if (o->comm && strcmp(t->comm, o->comm) != 0)
			continue;
		if (!t->waited && !o->pid && !o->comm)
			continue;
		if (!shown++)
			fprintf(out, "  waited for its vCPU on the host (running or runnable in "
				"the guest while the vCPU's host thread was not running):\n");
		if (shown > SG_TEXT_TASKS && !o->pid && !o->comm) {
			fprintf(out, "    ... (--json lists every task)\n");
			break;
		}
		fprintf(out, "    %s-%d: %.3f ms of %.3f ms on its vCPUs (%.0f%%)\n",
			t->comm[0] ? t->comm : "?", t->pid, ms(t->waited), ms(t->attached),
			t->attached ? 100.0 * (double)t->waited / (double)t->attached : 0.0);
	}
	if (!shown)
		fprintf(out, "  no task waited for its vCPU on the host\n");
	fprintf(out, "  (counted from the host's first switch of each vCPU thread to its last "
		"event%s: a lower bound)\n", o->has_from || o->has_to ?
		", within --from/--to on the host's clock" : "");
	if (o->nfilters)
		fprintf(out, "  (-F does not apply here: the vCPU accounting reads every sched "
			"event of the files)\n");
}

static void print_guest_json(const struct tf_machine *g, const struct tf_machine *h,
			     struct guest_pass *p, const struct st_options *o,
			     const struct window *w, FILE *out)
{
	fputs("{\"guest\":", out);
	json_fputs(out, g->name);
	fputs(",\"file\":", out);
	json_fputs(out, g->path);
	fputs(",\"host_file\":", out);
	json_fputs(out, h->path);
	fputs(",\"vcpu_map\":", out);
	if (g->vcpu_map_from)
		json_fputs(out, g->vcpu_map_from);
	else
		fputs("null", out);
	/* --from/--to on the host's clock, each null when not given */
	fputs(",\"from_ns\":", out);
	if (w->has_from)
		fprintf(out, "%llu", (unsigned long long)w->from);
	else
		fputs("null", out);
	fputs(",\"to_ns\":", out);
	if (w->has_to)
		fprintf(out, "%llu", (unsigned long long)w->to);
	else
		fputs("null", out);
	fputs(",\"vcpus\":[", out);
	for (int i = 0; i < p->g.nvcpu; i++) {
		const struct sg_vcpu *v = &p->g.vcpu[i];
		/* not known is null, not 0 (pid 0 is the idle task, 0 ns a figure) */
		fprintf(out, "%s{\"vcpu\":%d,\"host_pid\":", i ? "," : "", i);
		if (v->host_pid)
			fprintf(out, "%d", v->host_pid);
		else
			fputs("null", out);
		if (v->known)
			fprintf(out, ",\"seen\":true,\"on_ns\":%llu,\"off_ns\":%llu}",
				(unsigned long long)v->on_total, (unsigned long long)v->off_total);
		else
			fputs(",\"seen\":false,\"on_ns\":null,\"off_ns\":null}", out);
	}
	fputs("],\"tasks\":[", out);
	qsort(p->g.task, (size_t)p->g.ntask, sizeof(*p->g.task), by_waited);
	int n = 0;
	for (int i = 0; g->vcpu_map_from && i < p->g.ntask; i++) {
		const struct sg_task *t = &p->g.task[i];
		if ((o->pid && t->pid != o->pid) || (o->comm && strcmp(t->comm, o->comm) != 0))
			continue;
		fprintf(out, "%s{\"pid\":%d,\"comm\":", n++ ? "," : "", t->pid);
		json_fputs(out, t->comm);
		fprintf(out, ",\"vcpu_wait_ns\":%llu,\"on_vcpu_ns\":%llu}",
			(unsigned long long)t->waited, (unsigned long long)t->attached);
	}
	fputs("]}", out);
}

/* One machine's own analysis, as sched prints a lone file's. */
static int machine_report(const struct st_options *o, const struct tf_machine *x, FILE *out,
			  bool *found, char *err, size_t errlen)
{
	struct st_options mo = *o;
	struct st_trace t;
	char why[1024];
	int rc;

	mo.input = x->path;
	rc = st_load(&t, &mo, err, errlen);
	if (rc < 0) {
		st_free(&t);
		return rc;
	}
	if (!o->json)
		fprintf(out, "== %s (%s) ==\n", x->name, x->path);
	rc = st_print(&t, &mo, out, why, sizeof(why));
	st_free(&t);
	if (rc < 0 && (o->pid || o->comm)) {
		/* This machine has no such task; another may. */
		if (o->json)
			fputs("null", out);
		else
			fprintf(out, "%s\n", why);
		return 0;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	*found = true;
	return 0;
}

int sg_report(const struct st_options *o, const char *const *paths, int n, FILE *out,
	      char *err, size_t errlen)
{
	struct tf_merge *m = tf_merge_open(paths, n, err, errlen);
	bool found = false;
	int rc = 0;

	if (!m)
		return -1;
	if (tf_merge_find_vcpus(m, err, errlen) < 0) {
		tf_merge_close(m);
		return -1;
	}
	if (o->json)
		fputs("{\"machines\":[", out);
	for (int i = 0; i < n && rc == 0; i++) {
		const struct tf_machine *x = tf_merge_machine(m, i);
		if (o->json) {
			fputs(i ? ",{\"machine\":" : "{\"machine\":", out);
			json_fputs(out, x->name);
			fputs(",\"file\":", out);
			json_fputs(out, x->path);
			fputs(",\"sched\":", out);
		} else if (i) {
			fputc('\n', out);
		}
		rc = machine_report(o, x, out, &found, err, errlen);
		if (o->json) {
			/* st_print's JSON ends its line: the object goes on after it */
			fputc('}', out);
		}
	}
	if (rc == 0 && !found && (o->pid || o->comm)) {
		snprintf(err, errlen, "%s%s%s: in none of the %d files", o->pid ? "pid " : "comm ",
			 o->comm ? o->comm : "", o->pid ? "" : "", n);
		if (o->pid)
			snprintf(err, errlen, "pid %d: in none of the %d files", o->pid, n);
		rc = -1;
	}
	if (o->json && rc == 0)
		fputs("],\"guests\":[", out);
	struct guest_pass *passes = xcalloc((size_t)n, sizeof(*passes));
	int ng = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		if (tf_merge_machine(m, i)->host < 0)
			continue;
		rc = pass_init(m, i, &passes[ng], err, errlen);
		if (rc == 0)
			ng++;
	}
	struct window w = { .has_from = o->has_from, .has_to = o->has_to,
			    .from = o->has_from ? st_ns_of_seconds(o->from) : 0,
			    .to = o->has_to ? st_ns_of_seconds(o->to) : UINT64_MAX };
	if (rc == 0 && ng)
		rc = run_passes(m, passes, ng, &w, err, errlen);
	for (int i = 0; i < ng && rc == 0; i++) {
		const struct tf_machine *g = tf_merge_machine(m, passes[i].machine);
		const struct tf_machine *h = tf_merge_machine(m, g->host);
		if (!o->json)
			print_guest_text(g, h, &passes[i], o, out);
		else {
			if (i)
				fputc(',', out);
			print_guest_json(g, h, &passes[i], o, &w, out);
		}
	}
	for (int i = 0; i < ng; i++)
		sg_free(&passes[i].g);
	free(passes);
	if (o->json && rc == 0)
		fputs("]}\n", out);
	else if (rc == 0 && !ng)
		fprintf(out, "\nNo guest among the files: no file's GUEST option names another's "
			"trace id, and no file has qemu's vCPU threads\n");
	tf_merge_close(m);
	return rc;
}
