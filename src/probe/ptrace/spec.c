/*
 * The C API's probes written as text (tk_probe_spec_add, tracekit/probe.h):
 * the grammar shared with the kernel backend, C expressions through DWARF,
 * and the glue's trace lines -- what `probe trace --ptrace` does for one spec.
 */
#include <stdio.h>
#include <stdlib.h>

#include "probe/probe_def.h"
#include "probe/ptrace/engine.h"
#include "probe/ptrace/glue.h"
#include "tracekit/probe.h"
#include "util/die.h"

struct tk_spec_probe {
	struct probe_def def;
	struct pg_set *set;
};

struct tk_spec_probe *tk_probe_spec_add(struct tk_session *s, const char *spec, tk_line_fn emit,
					void *arg)
{
	struct tk_spec_probe *p = xcalloc(1, sizeof(*p));
	struct pd_error perr;
	struct probe_def *d = &p->def;
	if (pd_parse(spec, d, &perr) < 0) {
		pd_error_line(spec, &perr, s->err, sizeof(s->err));
		free(p);
		return NULL;
	}
	if (d->target != PD_USER) {
		snprintf(s->err, sizeof(s->err), "'%s': a kernel probe: the ptrace engine probes "
			 "programs and libraries (PATH:SYMBOL)", spec);
		goto bad;
	}
	if (pd_resolve(d, s->err, sizeof(s->err)) < 0)
		goto bad;
	p->set = pg_register(s, &d, 1, emit, arg, s->err, sizeof(s->err));
	if (!p->set)
		goto bad;
	return p;
bad:
	pd_free(d);
	free(p);
	return NULL;
}

void tk_probe_spec_del(struct tk_session *s, struct tk_spec_probe *p)
{
	if (!p)
		return;
	pg_free(s, p->set);
	pd_free(&p->def);
	free(p);
}
