/* A thread's syscall in flight, shared by both engines (see callstate.h). */
#include "syscalls/callstate.h"

#include <string.h>

#include "syscalls/format.h"
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

void sc_callstate_end(struct sc_callstate *cs, int64_t ret)
{
	cs->in_call = false;
	cs->call.ret = ret;
	if (ret == -516)	/* ERESTART_RESTARTBLOCK: restart_syscall will resume it */
		cs->interrupted = cs->call.nr;
}
