/*
 * ust_prog MODE ...: fires the tracepoints of ust_trace.h in known patterns
 * for tests/ust/test_ust.py.
 *
 *   fields            one all_kinds event with fixed values
 *   classes           span_begin/span_end pairs of one class
 *   condition         odd_only for 0..9, with two register_trace_ callbacks,
 *                     one removed halfway; prints the callback counts
 *   threads N M       N threads, M all_kinds events each (i = thread, u = seq)
 *   fork              events in the parent, then in a forked child, then the parent
 *   dlopen LIB        a library's own tracepoint, loaded after start
 *   cxx N             N events fired from C++ code
 *   spin              an event every 1 ms until killed; prints "ready" first,
 *                     then "tick N" every 100 events
 *   count N           N all_kinds events as fast as possible
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CREATE_TRACE_POINTS
#include "ust_trace.h"

void ust_cxx_fire(int n);

static const unsigned char bytes3[] = { 0x01, 0xab, 0xff };

static void fields(void)
{
	trace_all_kinds(-7, 18446744073709551615ull, "hello world", "tagged", bytes3, 3);
	trace_all_kinds(0, 0, NULL, "", bytes3, 0);
}

static void classes(void)
{
	trace_span_begin("outer", 0);
	trace_span_begin("inner", 1);
	trace_span_end("inner", 1);
	trace_span_end("outer", 0);
}

static int calls_a, calls_b;

static void probe_a(void *data, int n)
{
	(void)n;
	(*(int *)data)++;
}

static void probe_b(void *data, int n)
{
	(void)n;
	(*(int *)data)++;
}

static void condition(void)
{
	if (register_trace_odd_only(probe_a, &calls_a) || register_trace_odd_only(probe_b, &calls_b))
		perror("register_trace_odd_only");
	if (!register_trace_odd_only(probe_a, &calls_a))
		printf("registered twice\n");
	for (int n = 0; n < 10; n++) {
		if (n == 5 && unregister_trace_odd_only(probe_b, &calls_b))
			perror("unregister_trace_odd_only");
		trace_odd_only(n);
	}
	printf("probe a: %d\nprobe b: %d\n", calls_a, calls_b);
}

struct worker {
	pthread_t t;
	int index, count;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	for (int k = 0; k < w->count; k++)
		trace_all_kinds(w->index, (unsigned long long)k, "thread", "t", bytes3, 1);
	return NULL;
}

static void threads(int n, int m)
{
	struct worker *w = calloc((size_t)n, sizeof(*w));

	for (int i = 0; i < n; i++) {
		w[i].index = i;
		w[i].count = m;
		pthread_create(&w[i].t, NULL, work, &w[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(w[i].t, NULL);
	free(w);
}

static void forks(void)
{
	trace_all_kinds(1, 0, "parent before", "p", bytes3, 0);
	pid_t pid = fork();
	if (pid == 0) {
		trace_all_kinds(2, 0, "child", "c", bytes3, 0);
		trace_all_kinds(2, 1, "child", "c", bytes3, 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	trace_all_kinds(1, 1, "parent after", "p", bytes3, 0);
	printf("child %d\n", (int)pid);
}

static int load(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "ust_prog: %s\n", dlerror());
		return 1;
	}
	void (*call)(long) = (void (*)(long))dlsym(h, "ust_lib_call");
	if (!call)
		return 1;
	call(7);
	call(8);
	dlclose(h);
	return 0;
}

static void spin(void)
{
	struct timespec ms = { 0, 1000000 };

	printf("ready\n");
	fflush(stdout);
	for (unsigned long long k = 0;; k++) {
		trace_all_kinds(3, k, "spin", "s", bytes3, 1);
		if (k % 100 == 99) {
			printf("tick %llu\n", k + 1);
			fflush(stdout);
		}
		nanosleep(&ms, NULL);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "fields"))
		fields();
	else if (!strcmp(mode, "classes"))
		classes();
	else if (!strcmp(mode, "condition"))
		condition();
	else if (!strcmp(mode, "threads") && argc > 3)
		threads(atoi(argv[2]), atoi(argv[3]));
	else if (!strcmp(mode, "fork"))
		forks();
	else if (!strcmp(mode, "dlopen") && argc > 2)
		return load(argv[2]);
	else if (!strcmp(mode, "cxx") && argc > 2)
		ust_cxx_fire(atoi(argv[2]));
	else if (!strcmp(mode, "spin"))
		spin();
	else if (!strcmp(mode, "count") && argc > 2)
		for (long i = 0, n = atol(argv[2]); i < n; i++)
			trace_all_kinds((int)i, 0, "count", "n", bytes3, 0);
	else {
		fprintf(stderr, "usage: ust_prog fields|classes|condition|threads N M|fork|dlopen LIB|"
			"cxx N|spin|count N\n");
		return 2;
	}
	return 0;
}
