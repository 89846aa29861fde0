/*
 * probe-driver: the e2e tests' and bench's user of include/tracekit/probe.h.
 *
 *   probe-driver [-q] [-d N] [-e SPEC]... [-c TEXT]... (-p PID | -- COMMAND ARGS...)
 *
 * SPEC is [r:]WHERE[/FLAG,...]: WHERE is PATH:SYMBOL[+OFF], PATH:0xFILEOFF
 * or 0xADDR; r: makes a return probe; FLAGS: str (print the string at
 * rdi), post (a post-handler too).  Each hit prints one line:
 *   hit I pid=P tid=T rip=+0 rdi=N rsi=N [str="..."]  (pre-handler; rip - probed address)
 *   post I tid=T rax=N next=+OFF                   (after the instruction)
 *   ret I tid=T rax=N                              (return probe)
 * and at the end "count I hits=N missed=N" per spec, then "status=N".
 * -q prints only the counts (bench); -d N detaches after N hits in all.
 * -c TEXT: a probe as tracekit probe trace takes it (tk_probe_spec_add: the
 * kernel's grammar or C expressions); each hit prints its trace line.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracekit/probe.h"

#define MAXP 16

struct spec {
	int index;
	int str;
	char path[1024];
	char sym[1024];
};

static struct tk_session *sess;
static int quiet;
static long detach_after = -1;
static long hits;

static void count_hit(void)
{
	if (++hits == detach_after)
		tk_session_stop(sess);
}

static int on_pre(struct tk_probe *p, struct tk_probe_ctx *c)
{
	const struct spec *sp = p->data;
	count_hit();
	if (quiet)
		return 0;
	printf("hit %d pid=%d tid=%d rip=%+lld rdi=%lld rsi=%lld", sp->index, (int)c->pid,
	       (int)c->tid, (long long)(c->regs.rip - c->addr), (long long)c->regs.rdi,
	       (long long)c->regs.rsi);
	if (sp->str) {
		char buf[64] = "";
		long n = c->read(c, c->regs.rdi, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
		printf(" str=\"%s\"", buf);
	}
	putchar('\n');
	return 0;
}

static void on_post(struct tk_probe *p, struct tk_probe_ctx *c)
{
	const struct spec *sp = p->data;
	if (!quiet)
		printf("post %d tid=%d rax=%lld next=%+lld\n", sp->index, (int)c->tid,
		       (long long)c->regs.rax, (long long)(c->regs.rip - c->addr));
}

static int on_ret(struct tk_probe *p, struct tk_probe_ctx *c)
{
	const struct spec *sp = p->data;
	count_hit();
	if (!quiet)
		printf("ret %d tid=%d rax=%lld\n", sp->index, (int)c->tid, (long long)c->regs.rax);
	return 0;
}

/* Parse one -e SPEC into p (and sp, which it points to). */
static int parse(const char *arg, struct tk_probe *p, struct spec *sp)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", arg);
	char *s = buf;
	int ret = 0;
	if (!strncmp(s, "r:", 2)) {
		ret = 1;
		s += 2;
	}
	char *flags = strchr(s, '/');
	/* a path has slashes too: flags follow the last one after the ':' */
	char *colon = strrchr(s, ':');
	flags = colon ? strchr(colon, '/') : (s[0] == '0' ? strchr(s, '/') : NULL);
	if (flags)
		*flags++ = 0;
	if (ret)
		p->ret_handler = on_ret;
	else
		p->pre_handler = on_pre;
	for (char *f = flags ? strtok(flags, ",") : NULL; f; f = strtok(NULL, ",")) {
		if (!strcmp(f, "str"))
			sp->str = 1;
		else if (!strcmp(f, "post"))
			p->post_handler = on_post;
		else
			return -1;
	}
	if (!colon) {
		p->addr = strtoull(s, NULL, 0);
		return p->addr ? 0 : -1;
	}
	*colon = 0;
	snprintf(sp->path, sizeof(sp->path), "%s", s);
	p->path = sp->path;
	char *w = colon + 1;
	if (!strncmp(w, "0x", 2)) {
		p->offset = strtoull(w, NULL, 16);
		return 0;
	}
	char *plus = strchr(w, '+');
	if (plus) {
		*plus = 0;
		p->offset = strtoull(plus + 1, NULL, 0);
	}
	snprintf(sp->sym, sizeof(sp->sym), "%s", w);
	p->symbol = sp->sym;
	return 0;
}

static void on_line(const char *line, void *arg)
{
	(void)arg;
	count_hit();
	if (!quiet)
		puts(line);
}

static void on_signal(int sig)
{
	(void)sig;
	tk_session_stop(sess);
}

static int usage(void)
{
	fprintf(stderr, "usage: probe-driver [-q] [-d N] [-e SPEC]... [-c TEXT]... "
			"(-p PID | -- COMMAND...)\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct tk_probe probes[MAXP];
	static struct spec specs[MAXP];
	const char *specarg[MAXP], *textarg[MAXP];
	struct tk_spec_probe *textp[MAXP];
	int n = 0, nt = 0, opt;
	pid_t pid = 0;
	while ((opt = getopt(argc, argv, "+qd:e:c:p:")) != -1) {
		switch (opt) {
		case 'q':
			quiet = 1;
			break;
		case 'd':
			detach_after = atol(optarg);
			break;
		case 'e':
			if (n == MAXP)
				return usage();
			specarg[n++] = optarg;
			break;
		case 'c':
			if (nt == MAXP)
				return usage();
			textarg[nt++] = optarg;
			break;
		case 'p':
			pid = atoi(optarg);
			break;
		default:
			return usage();
		}
	}
	if (!pid && optind >= argc)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	sess = tk_session_new();
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: wake the loop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	int rc = pid ? tk_session_attach(sess, pid) : tk_session_spawn(sess, argv + optind);
	if (rc < 0) {
		fprintf(stderr, "probe-driver: %s\n", tk_session_error(sess));
		tk_session_free(sess);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		specs[i].index = i;
		probes[i].data = &specs[i];
		if (parse(specarg[i], &probes[i], &specs[i]) < 0) {
			fprintf(stderr, "probe-driver: bad spec '%s'\n", specarg[i]);
			tk_session_stop(sess);
			tk_session_run(sess);
			tk_session_free(sess);
			return 2;
		}
		if (tk_probe_register(sess, &probes[i]) < 0) {
			fprintf(stderr, "probe-driver: %s\n", tk_session_error(sess));
			tk_session_stop(sess);
			tk_session_run(sess);
			tk_session_free(sess);
			return 1;
		}
	}
	for (int i = 0; i < nt; i++) {
		textp[i] = tk_probe_spec_add(sess, textarg[i], on_line, NULL);
		if (!textp[i]) {
			fprintf(stderr, "probe-driver: %s\n", tk_session_error(sess));
			while (i-- > 0)
				tk_probe_spec_del(sess, textp[i]);
			tk_session_stop(sess);
			tk_session_run(sess);
			tk_session_free(sess);
			return 1;
		}
	}
	int status = tk_session_run(sess);
	for (int i = 0; i < nt; i++)
		tk_probe_spec_del(sess, textp[i]);
	for (int i = 0; i < n; i++)
		printf("count %d hits=%lu missed=%lu\n", i, probes[i].nhit, probes[i].nmissed);
	printf("status=%d\n", status);
	if (status < 0)
		fprintf(stderr, "probe-driver: %s\n", tk_session_error(sess));
	tk_session_free(sess);
	return status < 0 ? 1 : 0;
}
