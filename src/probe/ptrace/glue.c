/*
 * Probe definitions to ptrace probes; see glue.h.  At each hit the fetch
 * args are evaluated by the grammar's own evaluator (pd_format_args) on the
 * stopped thread's registers and memory, so both backends print the same
 * values.
 */
#include "glue.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe/hitline.h"
#include "probe/probe_def.h"
#include "probe/translate.h"
#include "tracekit/probe.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "util/tidmap.h"

struct pg_probe {
	struct tk_probe p;
	struct probe_def *def;
	char event[128];	/* the event name the kernel backend would print */
	struct pg_set *set;
};

struct pg_set {
	struct pg_probe *v;
	size_t n;
	pg_emit_fn emit;
	void *arg;
	/* tid -> open /proc/TID/stat (+1, so 0 is "none"): read at every hit, opened once */
	struct tidmap stat;
};

/* The evaluator's opaque: the hit, its def, its load bias. */
struct hit {
	const struct tk_probe_ctx *c;
	const struct probe_def *def;
	uint64_t bias;
};

static int read_mem(void *opaque, uint64_t addr, void *buf, size_t len)
{
	const struct tk_probe_ctx *c = ((const struct hit *)opaque)->c;
	return c->read(c, addr, buf, len) == (long)len ? 0 : -1;
}

/* :symbol args: named as the kernel backend names them. */
static int symbolize(void *opaque, uint64_t addr, struct strbuf *out)
{
	const struct hit *h = opaque;
	return ph_symbolize(h->def, h->bias, h->c->pid, addr, out);
}

/* /proc/TID/stat of tid, kept open: a stale one (the tid reused) fails and is opened again. */
static ssize_t read_stat(struct pg_set *g, pid_t tid, char *buf, size_t len)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		long fd = (long)tidmap_get(&g->stat, tid) - 1;
		if (fd < 0) {
			char path[64];
			snprintf(path, sizeof(path), "/proc/%d/stat", tid);
			if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				return -1;
			tidmap_put(&g->stat, tid, (void *)(fd + 1));
		}
		ssize_t n = pread((int)fd, buf, len - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			return n;
		}
		close((int)fd);
		tidmap_del(&g->stat, tid);
	}
	return -1;
}

/* The thread's comm and the CPU it last ran on (field 39), from /proc/TID/stat. */
static void task_info(struct pg_set *g, pid_t tid, char *name, size_t len, int *cpu)
{
	char buf[1024];
	*cpu = 0;
	snprintf(name, len, "<...>");
	if (read_stat(g, tid, buf, sizeof(buf)) < 0)
		return;
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return;
	snprintf(name, len, "%.*s", (int)(close - open - 1), open + 1);
	int field = 2;		/* comm may hold spaces: count fields after it */
	for (char *p = close; *p; p++)
		if (*p == ' ' && ++field == 39) {
			*cpu = atoi(p + 1);
			break;
		}
}

static void print_hit(struct pg_probe *g, const struct tk_probe_ctx *c, bool ret)
{
	struct pd_ctx pc = { 0 };
	char comm[64];
	int cpu;
	task_info(g->set, c->tid, comm, sizeof(comm), &cpu);
	pc.regs = &c->regs;
	pc.is_return = ret;
	pc.retval = c->regs.rax;
	pc.func = c->func;
	pc.ret_ip = c->ret_addr;
	pc.comm = comm;
	/* run-time minus link-time address of the probed object */
	pc.load_bias = ret ? c->func - g->def->func_vaddr : c->addr - g->def->vaddr;
	struct hit h = { c, g->def, pc.load_bias };
	pc.read = read_mem;
	pc.symbolize = symbolize;
	pc.opaque = &h;
	struct strbuf sb = STRBUF_INIT;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);	/* the clock the kernel backend's lines use */
	sb_printf(&sb, "%16s-%-7d [%03d] ..... %5lld.%06ld: %s: ", comm, (int)c->tid, cpu,
		  (long long)ts.tv_sec, ts.tv_nsec / 1000, g->event);
	pd_format_head(g->def, &pc, &sb);
	pd_format_args(g->def, &pc, &sb);
	g->set->emit(sb_str(&sb), g->set->arg);
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

struct pg_set *pg_register(struct tk_session *s, struct probe_def **defs, size_t n,
			   pg_emit_fn emit, void *arg, char *err, size_t errlen)
{
	struct pg_set *g = xcalloc(1, sizeof(*g));
	g->v = xcalloc(n ? n : 1, sizeof(*g->v));
	g->emit = emit;
	g->arg = arg;
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
		pp->set = g;
		if (d->event)
			snprintf(pp->event, sizeof(pp->event), "%s", d->event);
		else
			pd_event_name(d, pp->event, sizeof(pp->event));
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
	for (size_t i = 0; s && i < g->n; i++)
		tk_probe_unregister(s, &g->v[i].p);
	tidmap_foreach(&g->stat, slot)
		close((int)((long)slot->val - 1));
	tidmap_free(&g->stat);
	free(g->v);
	free(g);
}
