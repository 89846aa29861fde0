/*
 * Perfetto's protobuf trace, written field by field (pb.h).  Field numbers are
 * those of Perfetto's published protos/perfetto/trace/ .proto files.
 *
 * trace_processor builds CPU tracks and thread states only from ftrace packets,
 * so scheduling events go out as they came from the kernel: per-CPU
 * FtraceEventBundles of sched_switch / sched_waking / sched_wakeup(_new).  Task
 * names go in one ProcessTree packet; every other event is a TrackEvent (an
 * instant, or a slice for syscalls) on its thread's track, declared by a
 * TrackDescriptor before its first use.  Timestamps stay in the trace's clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "export/export.h"
#include "export/pb.h"
#include "export/writers.h"
#include "tracefile/merge.h"
#include "tracefile/reader.h"
#include "util/die.h"

/* Trace */
#define TRACE_PACKET 1
/* TracePacket */
#define PKT_FTRACE_EVENTS 1
#define PKT_PROCESS_TREE 2
#define PKT_TIMESTAMP 8
#define PKT_SEQUENCE_ID 10
#define PKT_TRACK_EVENT 11
#define PKT_SEQUENCE_FLAGS 13
#define PKT_SYSTEM_INFO 45
#define PKT_TRACK_DESCRIPTOR 60
#define PKT_MACHINE_ID 98	/* several machines: trace_processor keeps their CPUs and pids apart */
#define SEQ_INCREMENTAL_STATE_CLEARED 1
/* FtraceEventBundle */
#define BUNDLE_CPU 1
#define BUNDLE_EVENT 2
/* FtraceEvent */
#define FE_TIMESTAMP 1
#define FE_PID 2
#define FE_SCHED_SWITCH 4
#define FE_SCHED_WAKEUP 17
#define FE_SCHED_WAKING 20
#define FE_SCHED_WAKEUP_NEW 114
/* ProcessTree, its Process and Thread */
#define PT_PROCESSES 1
#define PT_THREADS 2
#define PROC_PID 1
#define PROC_CMDLINE 3
#define PROC_CMDLINE_IS_COMM 9
#define THREAD_TID 1
#define THREAD_NAME 2
#define THREAD_TGID 3
/* TrackDescriptor and ThreadDescriptor */
#define TD_UUID 1
#define TD_THREAD 4
#define THD_PID 1
#define THD_TID 2
#define THD_NAME 5
/* TrackEvent and DebugAnnotation */
#define TE_DEBUG_ANNOTATIONS 4
#define TE_TYPE 9
#define TE_TRACK_UUID 11
#define TE_CATEGORIES 22
#define TE_NAME 23
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
#define TYPE_INSTANT 3
#define DA_UINT 3
#define DA_INT 4
#define DA_STRING 6
#define DA_NAME 10
/* SystemInfo and Utsname */
#define SI_UTSNAME 1
#define UTS_SYSNAME 1
#define UTS_VERSION 2
#define UTS_RELEASE 3
#define UTS_MACHINE 4

#define SEQUENCE 1		/* our one sequence of track events */
#define BUNDLE_MAX 1024		/* events per ftrace bundle */
#define FLUSH_AT (1 << 20)	/* bytes of packets held before a write */

struct bundle {
	struct pb events;	/* encoded FtraceEvent fields (BUNDLE_EVENT) */
	unsigned n;
};

struct perfetto {
	FILE *out;
	const struct ex_scan *s;
	struct tep_handle *tep;
	struct pb *pb;		/* packets not yet written (several machines share them) */
	unsigned machine;	/* several files: 0 the first, else its TracePacket.machine_id */
	struct bundle *cpu;
	struct tidmap described;	/* threads whose TrackDescriptor is out */
	struct tidmap depth;		/* open syscall slices per thread */
	bool described_idle;		/* tid 0 cannot be a tidmap key */
};

/*
 * A thread's track: uuids are ours to choose; tid + 1 keeps 0 (no track) unused, the
 * machine above 32 bits keeps machines' threads apart.
 */
static uint64_t thread_uuid(const struct perfetto *p, int tid)
{
	return ((uint64_t)p->machine << 32) + (uint64_t)(unsigned)tid + 1;
}

/* A packet of this machine's: with several, each says which (machine_id, not for the first). */
static void packet_begin(struct perfetto *p)
{
	pb_begin(p->pb, TRACE_PACKET);
	if (p->machine)
		pb_uint(p->pb, PKT_MACHINE_ID, p->machine);
}

static unsigned sequence(const struct perfetto *p)
{
	return SEQUENCE + p->machine;	/* a sequence per machine: its own track descriptors */
}

static void flush(struct perfetto *p, bool force)
{
	if (!force && p->pb->len < FLUSH_AT)
		return;
	fwrite(p->pb->buf, 1, p->pb->len, p->out);
	pb_reset(p->pb);
}

static void flush_bundle(struct perfetto *p, int cpu)
{
	struct bundle *b = &p->cpu[cpu];

	if (!b->n)
		return;
	packet_begin(p);
	pb_begin(p->pb, PKT_FTRACE_EVENTS);
	pb_uint(p->pb, BUNDLE_CPU, (uint64_t)cpu);
	pb_raw(p->pb, b->events.buf, b->events.len);
	pb_end(p->pb);
	pb_end(p->pb);
	pb_reset(&b->events);
	b->n = 0;
	flush(p, false);
}

/* "Linux 6.18.0 #1 SMP ... x86_64" (sysname release version machine) as Utsname. */
static void write_system_info(struct perfetto *p, const char *uname)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", uname);
	char *sys = strtok(buf, " "), *rel = strtok(NULL, " "), *rest = strtok(NULL, "");

	if (!sys || !rel)
		return;
	packet_begin(p);
	pb_begin(p->pb, PKT_SYSTEM_INFO);
	pb_begin(p->pb, SI_UTSNAME);
	pb_str(p->pb, UTS_SYSNAME, sys);
	pb_str(p->pb, UTS_RELEASE, rel);
	char *machine = rest ? strrchr(rest, ' ') : NULL;
	if (machine) {
		*machine++ = '\0';
		pb_str(p->pb, UTS_VERSION, rest);
		pb_str(p->pb, UTS_MACHINE, machine);
	}
	pb_end(p->pb);
	pb_end(p->pb);
	pb_end(p->pb);
}

/*
 * Every process (a thread-group leader, from the file's saved tgids; without
 * them every task is its own) and every thread under its process.
 */
static void write_process_tree(struct perfetto *p)
{
	packet_begin(p);
	pb_uint(p->pb, PKT_TIMESTAMP, p->s->first_ts);
	pb_begin(p->pb, PKT_PROCESS_TREE);
	tidmap_foreach(&p->s->names, slot) {
		int tgid = ex_tgid(p->s, slot->tid);
		if (tgid == slot->tid || !tidmap_get(&p->s->names, tgid)) {
			pb_begin(p->pb, PT_PROCESSES);
			pb_int(p->pb, PROC_PID, tgid);
			pb_str(p->pb, PROC_CMDLINE, ex_name(p->s, tgid));
			pb_bool(p->pb, PROC_CMDLINE_IS_COMM, 1);
			pb_end(p->pb);
		}
		pb_begin(p->pb, PT_THREADS);
		pb_int(p->pb, THREAD_TID, slot->tid);
		pb_str(p->pb, THREAD_NAME, slot->val);
		pb_int(p->pb, THREAD_TGID, tgid);
		pb_end(p->pb);
	}
	pb_end(p->pb);
	pb_end(p->pb);
}

/* The first packet of our sequence says its (empty) incremental state is valid. */
static void start_sequence(struct perfetto *p)
{
	packet_begin(p);
	pb_uint(p->pb, PKT_TIMESTAMP, p->s->first_ts);
	pb_uint(p->pb, PKT_SEQUENCE_ID, sequence(p));
	pb_uint(p->pb, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	pb_end(p->pb);
}

static void describe_thread(struct perfetto *p, int tid, uint64_t ts)
{
	if (tid < 0)
		tid = 0;
	if (tid == 0 ? p->described_idle : tidmap_get(&p->described, tid) != NULL)
		return;
	if (tid == 0)
		p->described_idle = true;
	else
		tidmap_put(&p->described, tid, (void *)1);
	packet_begin(p);
	pb_uint(p->pb, PKT_TIMESTAMP, ts);
	pb_uint(p->pb, PKT_SEQUENCE_ID, sequence(p));
	pb_begin(p->pb, PKT_TRACK_DESCRIPTOR);
	pb_uint(p->pb, TD_UUID, thread_uuid(p, tid));
	pb_begin(p->pb, TD_THREAD);
	pb_int(p->pb, THD_PID, ex_tgid(p->s, tid));
	pb_int(p->pb, THD_TID, tid);
	pb_str(p->pb, THD_NAME, ex_name(p->s, tid));
	pb_end(p->pb);
	pb_end(p->pb);
	pb_end(p->pb);
}

static void put_num(struct pb *pb, unsigned field, struct tf_event *e, const char *name)
{
	long long v;

	if (ex_num(e->event, e->record, name, &v))
		pb_int(pb, field, v);
}

static void put_str(struct pb *pb, unsigned field, struct tf_event *e, const char *name)
{
	char buf[64];

	if (ex_str(e->event, e->record, name, buf, sizeof(buf)))
		pb_str(pb, field, buf);
}

static void sched_switch(struct pb *pb, struct tf_event *e)
{
	pb_begin(pb, FE_SCHED_SWITCH);
	put_str(pb, 1, e, "prev_comm");
	put_num(pb, 2, e, "prev_pid");
	put_num(pb, 3, e, "prev_prio");
	put_num(pb, 4, e, "prev_state");
	put_str(pb, 5, e, "next_comm");
	put_num(pb, 6, e, "next_pid");
	put_num(pb, 7, e, "next_prio");
	pb_end(pb);
}

/* sched_waking, sched_wakeup and sched_wakeup_new share one layout in the protos. */
static void sched_wake(struct pb *pb, unsigned field, struct tf_event *e)
{
	long long success;

	pb_begin(pb, field);
	put_str(pb, 1, e, "comm");
	put_num(pb, 2, e, "pid");
	put_num(pb, 3, e, "prio");
	/* Recent kernels dropped "success" from the event: it was always 1. */
	pb_int(pb, 4, ex_num(e->event, e->record, "success", &success) ? success : 1);
	put_num(pb, 5, e, "target_cpu");
	pb_end(pb);
}

static void ftrace_event(struct perfetto *p, struct tf_event *e, enum ex_kind k)
{
	struct bundle *b = &p->cpu[e->cpu];
	const char *name = e->event->name;

	pb_begin(&b->events, BUNDLE_EVENT);
	pb_uint(&b->events, FE_TIMESTAMP, e->ts);
	pb_uint(&b->events, FE_PID, (uint32_t)tep_data_pid(p->tep, e->record));
	if (k == EXK_SWITCH)
		sched_switch(&b->events, e);
	else
		sched_wake(&b->events, !strcmp(name, "sched_waking") ? FE_SCHED_WAKING :
			   !strcmp(name, "sched_wakeup") ? FE_SCHED_WAKEUP : FE_SCHED_WAKEUP_NEW,
			   e);
	pb_end(&b->events);
	if (++b->n == BUNDLE_MAX)
		flush_bundle(p, e->cpu);
}

/* Fields as debug annotations: numbers and strings (arrays are left out). */
static void annotations(struct pb *pb, struct tep_event *ev, struct tep_record *rec)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		long long v;
		char buf[256];
		bool str = f->flags & TEP_FIELD_IS_STRING;

		if (!str && (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			continue;
		if (str && (f->flags & TEP_FIELD_IS_DYNAMIC)) {
			int len;
			const char *s = tep_get_field_raw(NULL, ev, f->name, rec, &len, 0);
			if (!s || len < 0)
				continue;
			snprintf(buf, sizeof(buf), "%.*s", len, s);
		} else if (str ? !ex_str(ev, rec, f->name, buf, sizeof(buf)) :
				 !ex_num(ev, rec, f->name, &v)) {
			continue;
		}
		pb_begin(pb, TE_DEBUG_ANNOTATIONS);
		pb_str(pb, DA_NAME, f->name);
		if (str)
			pb_str(pb, DA_STRING, buf);
		else if (f->flags & TEP_FIELD_IS_SIGNED)
			pb_int(pb, DA_INT, v);
		else
			pb_uint(pb, DA_UINT, (uint64_t)v);
		pb_end(pb);
	}
}

static void track_event(struct perfetto *p, struct tf_event *e, enum ex_kind k, const char *name)
{
	int tid = tep_data_pid(p->tep, e->record);

	describe_thread(p, tid, e->ts);
	packet_begin(p);
	pb_uint(p->pb, PKT_TIMESTAMP, e->ts);
	pb_uint(p->pb, PKT_SEQUENCE_ID, sequence(p));
	pb_begin(p->pb, PKT_TRACK_EVENT);
	pb_uint(p->pb, TE_TYPE, k == EXK_BEGIN ? TYPE_SLICE_BEGIN :
		k == EXK_END ? TYPE_SLICE_END : TYPE_INSTANT);
	pb_uint(p->pb, TE_TRACK_UUID, thread_uuid(p, tid > 0 ? tid : 0));
	if (k != EXK_END) {
		pb_str(p->pb, TE_CATEGORIES, e->event ? e->event->system : "unknown");
		pb_str(p->pb, TE_NAME, name);
	}
	if (e->event)
		annotations(p->pb, e->event, e->record);
	pb_end(p->pb);
	pb_end(p->pb);
	flush(p, false);
}

static void on_event(struct perfetto *p, struct tf_event *e)
{
	char name[256];

	if (!e->event) {
		track_event(p, e, EXK_INSTANT, "unknown event");
		return;
	}
	enum ex_kind k = ex_classify(e->event, e->record, name, sizeof(name));
	if (k == EXK_SWITCH || k == EXK_WAKE) {
		ftrace_event(p, e, k);
		return;
	}
	k = ex_nest(&p->depth, tep_data_pid(p->tep, e->record), k);
	if (k == EXK_INSTANT)
		snprintf(name, sizeof(name), "%s:%s", e->event->system, e->event->name);
	track_event(p, e, k, name);
}

static void perfetto_start(struct perfetto *p, struct tf_reader *r, const struct ex_scan *s,
			   FILE *out, struct pb *pb, unsigned machine)
{
	*p = (struct perfetto){ .out = out, .s = s, .tep = tf_reader_tep(r), .pb = pb,
				.machine = machine };
	p->cpu = xcalloc((size_t)s->ncpus + 1, sizeof(*p->cpu));
	write_system_info(p, tf_reader_info(r)->uname);
	write_process_tree(p);
	start_sequence(p);
}

static int perfetto_event(struct perfetto *p, struct tf_event *e, char *err, size_t errlen)
{
	if (e->cpu >= p->s->ncpus) {
		snprintf(err, errlen, "CPU %d appeared on the second reading only", e->cpu);
		return -1;
	}
	on_event(p, e);
	return 0;
}

static void perfetto_finish(struct perfetto *p)
{
	for (int i = 0; i < p->s->ncpus; i++) {
		flush_bundle(p, i);
		pb_free(&p->cpu[i].events);
	}
	free(p->cpu);
	tidmap_free(&p->described);
	tidmap_free(&p->depth);
}

int ex_write_perfetto(struct tf_reader *r, const struct ex_scan *s, FILE *out, char *err,
		      size_t errlen)
{
	struct pb pb = PB_INIT;
	struct perfetto p;
	struct tf_event e;
	int rc;

	perfetto_start(&p, r, s, out, &pb, 0);
	while ((rc = tf_reader_next(r, &e, err, errlen)) == 1)
		if ((rc = perfetto_event(&p, &e, err, errlen)) < 0)
			break;
	perfetto_finish(&p);
	flush(&p, true);
	pb_free(&pb);
	return rc;
}

int ex_write_perfetto_merged(struct tf_merge *m, const struct ex_scan *s, FILE *out, char *err,
			     size_t errlen)
{
	int n = tf_merge_nmachines(m);
	struct perfetto p[TF_MAX_MACHINES];
	struct pb pb = PB_INIT;
	struct tf_event e;
	int rc;

	for (int i = 0; i < n; i++)
		perfetto_start(&p[i], tf_merge_machine(m, i)->r, &s[i], out, &pb, (unsigned)i);
	while ((rc = tf_merge_next(m, &e, err, errlen)) == 1)
		if ((rc = perfetto_event(&p[e.machine], &e, err, errlen)) < 0)
			break;
	for (int i = 0; i < n; i++)
		perfetto_finish(&p[i]);
	flush(&p[0], true);
	pb_free(&pb);
	return rc;
}
