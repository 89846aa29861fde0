/*
 * `probe trace --ptrace`: the probes placed by tracekit's own breakpoint
 * engine (include/tracekit/probe.h) in a command it starts, or in a running
 * process (-p PID).  Each hit is printed by the glue (ptrace/glue.c) as the
 * kernel backend's line, with the same evaluator for the args.  Ctrl-C,
 * SIGTERM, SIGHUP: every original byte is put back and the process runs on.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/hitline.h"
#include "probe/live.h"
#include "probe/probe_def.h"
#include "probe/ptrace/glue.h"
#include "tracekit/probe.h"
#include "util/stopsig.h"
#include "util/die.h"

static struct tk_session *running;

static void on_stop(int sig)
{
	(void)sig;
	if (running)
		tk_session_stop(running);
}

/* SIGPIPE (| head) is ignored (stopsig.h): the failed write stops the session, so the
 * bytes go back rather than the process dying of our int3s. */

static void emit(const char *line, void *arg)
{
	const struct pl_options *o = arg;
	ph_emit(line, o->json, stdout);
	if (ferror(stdout) && running)
		tk_session_stop(running);
}

/* Parse and resolve every spec before anything runs; -1 with err. */
static int load_defs(const struct pl_options *o, struct probe_def *defs, size_t *ndefs,
		     char *err, size_t errlen)
{
	for (int i = 0; i < o->nspecs; i++) {
		struct pd_error perr;
		if (pd_parse(o->specs[i], &defs[i], &perr) < 0) {
			pd_error_line(o->specs[i], &perr, err, errlen);
			return -1;
		}
		*ndefs = (size_t)i + 1;
		if (defs[i].target == PD_KERNEL) {
			snprintf(err, errlen, "'%s': a kernel probe (no PATH:) cannot be traced with "
				 "--ptrace, which probes programs and libraries (PATH:SYMBOL); drop "
				 "--ptrace to use kprobe_events", o->specs[i]);
			return -1;
		}
		if (defs[i].usdt_provider) {
			snprintf(err, errlen, "'%s': USDT probes are not supported by --ptrace yet "
				 "(drop --ptrace to use uprobes)", o->specs[i]);
			return -1;
		}
		if (pd_resolve(&defs[i], err, errlen) < 0)
			return -1;
	}
	return 0;
}

int pl_run_ptrace(const struct pl_options *o)
{
	char err[1024] = "";
	struct probe_def *defs = xcalloc((size_t)o->nspecs, sizeof(*defs));
	struct probe_def **ptrs = xcalloc((size_t)o->nspecs, sizeof(*ptrs));
	size_t ndefs = 0;
	struct tk_session *s = NULL;
	struct pg_set *g = NULL;
	int status = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* live, like the kernel backend */
	if (load_defs(o, defs, &ndefs, err, sizeof(err)) < 0)
		goto fail;
	for (size_t i = 0; i < ndefs; i++)
		ptrs[i] = &defs[i];
	s = tk_session_new();
	/* Registered before the command runs: a probe that cannot be placed fails here. */
	if (!(g = pg_register(s, ptrs, ndefs, emit, (void *)o, err, sizeof(err))))
		goto fail;
	if ((o->pid ? tk_session_attach(s, o->pid) : tk_session_spawn(s, o->argv)) < 0) {
		if (o->pid)
			snprintf(err, sizeof(err), "cannot attach to pid %d: %s", o->pid,
				 tk_session_error(s));
		else
			snprintf(err, sizeof(err), "%s", tk_session_error(s));
		goto fail;
	}
	running = s;
	catch_stop_signals(on_stop);
	status = tk_session_run(s);
	running = NULL;
	if (status < 0) {
		snprintf(err, sizeof(err), "%s", tk_session_error(s));
		goto fail;
	}
	fflush(stdout);
	goto out;
fail:
	errmsg("%s", err);
	status = 1;
out:
	tk_session_free(s);	/* detached: every byte back */
	pg_free(NULL, g);
	for (size_t i = 0; i < ndefs; i++)
		pd_free(&defs[i]);
	free(defs);
	free(ptrs);
	return status;
}
