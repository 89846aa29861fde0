/*
 * Probe definitions to ptrace probes; see glue.h.  At each hit the fetch
 * args are evaluated by the grammar's own evaluator (pd_format_args) on the
 * stopped thread's registers and memory, so both backends print the same
 * values.
 */
#include "glue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/probe_def.h"
#include "tracekit/probe.h"
#include "util/die.h"
#include "util/strbuf.h"

struct pg_probe {
	struct tk_probe p;
	struct probe_def *def;
	char event[256];	/* group/event */
	FILE *out;
};

struct pg_set {
	struct pg_probe *v;
	size_t n;
};

/* The kernel's default event name for a uprobe: p_FILE_0xOFFSET (r_ for return probes). */
static void event_name(const struct probe_def *d, char *out, size_t len)
{
	const char *base = strrchr(d->path, '/');
	char ev[128];
	if (d->event)
		snprintf(ev, sizeof(ev), "%s", d->event);
	else
		snprintf(ev, sizeof(ev), "%c_%s_0x%llx", d->kind == PD_RETURN ? 'r' : 'p',
			 base ? base + 1 : d->path, (unsigned long long)d->file_offset);
	snprintf(out, len, "%s/%s", d->group ? d->group : pd_default_group(d), ev);
}

static int read_mem(void *opaque, uint64_t addr, void *buf, size_t len)
{
	const struct tk_probe_ctx *c = opaque;
	return c->read(c, addr, buf, len) == (long)len ? 0 : -1;
}

/* /proc/TID/comm and the CPU it last ran on (field 39 of /proc/TID/stat). */
static void task_info(pid_t tid, char *name, size_t len, int *cpu)
{
	char path[64], buf[1024];
	FILE *f;
	*cpu = 0;
	snprintf(name, len, "<...>");
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	if ((f = fopen(path, "re"))) {
		if (fgets(name, (int)len, f))
			name[strcspn(name, "\n")] = 0;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	if (!(f = fopen(path, "re")))
		return;
	if (fgets(buf, sizeof(buf), f)) {
		char *p = strrchr(buf, ')');	/* comm may hold spaces: count fields after it */
		int field = 2;
		for (; p && *p; p++)
			if (*p == ' ' && ++field == 39) {
				*cpu = atoi(p + 1);
				break;
			}
	}
	fclose(f);
}

static void print_hit(struct pg_probe *g, const struct tk_probe_ctx *c, bool ret)
{
	struct pd_ctx pc = { 0 };
	char comm[64];
	int cpu;
	task_info(c->tid, comm, sizeof(comm), &cpu);
	pc.regs = &c->regs;
	pc.is_return = ret;
	pc.retval = c->regs.rax;
	pc.func = c->func;
	pc.ret_ip = c->ret_addr;
	pc.comm = comm;
	/* run-time minus link-time address of the probed object */
	pc.load_bias = (ret ? c->func : c->addr) - g->def->vaddr;
	pc.read = read_mem;
	pc.opaque = (void *)c;
	struct strbuf sb = { 0 };
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sb_printf(&sb, "%16s-%-7d [%03d] %5lld.%06ld: %s: ", comm, (int)c->tid, cpu,
		  (long long)ts.tv_sec, ts.tv_nsec / 1000, g->event);
	pd_format_head(g->def, &pc, &sb);
	pd_format_args(g->def, &pc, &sb);
	sb_addc(&sb, '\n');
	fputs(sb_str(&sb), g->out);
	sb_free(&sb);
}

static int on_entry(struct tk_probe *p, struct tk_probe_ctx *c)
{
	print_hit((struct pg_probe *)p, c, false);
	return 0;
}

static int on_return(struct tk_probe *p, struct tk_probe_ctx *c)
{
	print_hit((struct pg_probe *)p, c, true);
	return 0;
}

struct pg_set *pg_register(struct tk_session *s, struct probe_def **defs, size_t n, FILE *out,
			   char *err, size_t errlen)
{
	struct pg_set *g = xcalloc(1, sizeof(*g));
	g->v = xcalloc(n ? n : 1, sizeof(*g->v));
	for (size_t i = 0; i < n; i++) {
		struct probe_def *d = defs[i];
		struct pg_probe *pp = &g->v[i];
		if (d->target != PD_USER || !d->resolved || d->usdt_provider) {
			snprintf(err, errlen, "%s: %s", d->text,
				 d->target != PD_USER ? "kernel probes need the kernel backend"
				 : d->usdt_provider ? "USDT probes are not supported by --ptrace yet"
				 : "not resolved");
			pg_free(s, g);
			return NULL;
		}
		pp->def = d;
		pp->out = out;
		event_name(d, pp->event, sizeof(pp->event));
		pp->p.path = d->path;
		pp->p.offset = d->file_offset;	/* a file offset: symbol already resolved */
		if (d->kind == PD_RETURN) {
			pp->p.ret_handler = on_return;
			pp->p.maxactive = (int)d->maxactive;
		} else {
			pp->p.pre_handler = on_entry;
		}
		if (tk_probe_register(s, &pp->p) < 0) {
			snprintf(err, errlen, "%s: %s", d->text, tk_session_error(s));
			pg_free(s, g);
			return NULL;
		}
		g->n = i + 1;
	}
	return g;
}

void pg_free(struct tk_session *s, struct pg_set *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		tk_probe_unregister(s, &g->v[i].p);
	free(g->v);
	free(g);
}
