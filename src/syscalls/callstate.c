/* A thread's syscall in flight, shared by both engines (see callstate.h). */
#include "syscalls/callstate.h"

#include <string.h>

#include "syscalls/format.h"
#include "syscalls/json.h"
#include "syscalls/output.h"
#include "syscalls/table.h"

void sc_callstate_init(struct sc_callstate *cs, pid_t tid, pid_t tgid, const struct sc_fmt *fmt)
{
	memset(cs, 0, sizeof(*cs));
	cs->tgid = tgid;
	cs->interrupted = -1;
	cs->call.tid = tid;
	cs->call.fmt = fmt;
	cs->call.out = &cs->text;
}

void sc_callstate_free(struct sc_callstate *cs)
{
	sc_call_reset(&cs->call);
	sc_mem_free(&cs->call.mem);
	sb_free(&cs->text);
}

void sc_callstate_begin(struct sc_callstate *cs, long nr, const void *args, uint64_t sp,
			const struct sc_filter *filter)
{
	struct sc_call *c = &cs->call;
	sc_call_reset(c);
	sb_reset(&cs->text);
	c->nr = nr;
	c->ent = sc_by_nr(nr);
	c->resumes = cs->interrupted;
	cs->interrupted = -1;
	memcpy(c->args, args, sizeof(c->args));
	c->sp = sp;
	cs->in_call = true;
	cs->printed_entry = false;
	cs->shown = sc_filter_traced(filter, nr);
}

static const char *name_of(const struct sc_call *c)
{
	return c->ent ? c->ent->name : "?";
}

void sc_callstate_print_exit(struct sc_callstate *cs, struct sc_output *w, bool json,
			     const struct timespec *start, const struct timespec *start_mono,
			     const struct timespec *real, const struct timespec *mono,
			     const char *ret, double took)
{
	struct sc_call *c = &cs->call;
	if (json) {
		struct strbuf js = STRBUF_INIT;
		json_call(&js, c, cs->tgid, sb_str(&cs->text), ret[0] == ' ' ? ret + 3 : ret, start,
			  took, true);
		out_raw(w, c->tid, sb_str(&js));
		sb_free(&js);
		return;
	}
	if (!cs->printed_entry) {
		out_call_entry(w, c->tid, start, start_mono, "");
		out_call_exit(w, c->tid, real, mono, name_of(c), sb_str(&cs->text), ret);
	} else {
		out_call_exit(w, c->tid, real, mono, name_of(c), sb_str(&cs->text) + cs->entry_len, ret);
	}
}

void sc_callstate_print_cut(struct sc_callstate *cs, struct sc_output *w, bool json,
			    const struct timespec *start, const struct timespec *start_mono)
{
	struct sc_call *c = &cs->call;
	if (json) {
		struct strbuf js = STRBUF_INIT;
		sb_addc(&cs->text, ')');
		json_call(&js, c, cs->tgid, sb_str(&cs->text), "?", start, 0, false);
		out_raw(w, c->tid, sb_str(&js));
		sb_free(&js);
		return;
	}
	if (!cs->printed_entry)
		out_call_entry(w, c->tid, start, start_mono, sb_str(&cs->text));
	/* A call printed whole at entry just ends; any other was cut short. */
	out_call_gone(w, c->tid, name_of(c), c->done_at_entry);
}

void sc_callstate_end(struct sc_callstate *cs, int64_t ret)
{
	cs->in_call = false;
	cs->call.ret = ret;
	if (ret == -516)	/* ERESTART_RESTARTBLOCK: restart_syscall will resume it */
		cs->interrupted = cs->call.nr;
}
