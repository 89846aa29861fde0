/*
 * probe_target: functions for the ptrace probe engine's tests and bench,
 * called a known number of times with known arguments, so a test can
 * compute what every hit must show.  Each mode prints its results, which
 * must be the same with probes as without.
 *
 *   probe_target loop N         hot("hello", i) and the asm functions, i = 0..N-1
 *   probe_target lib N          lib_add(i, 1000) from libprobelib.so (via the PLT)
 *   probe_target dlopen N LIB   dlopen(LIB), then dl_mul(i, 3)
 *   probe_target threads T N    T threads, each hot("thread", i) N times
 *   probe_target fork N         hot N times in the parent, then in a child, then again
 *   probe_target exec N PROG..  hot N times, then exec PROG.. (another probe_target)
 *   probe_target recurse N      fact(N): nested return probes
 *   probe_target wait N         print the pid, wait for a line on stdin, then loop N
 *
 * PROBE_TARGET_CPU=N pins it to CPU N first (the bench places tracer and
 * tracee the same way for every tool, whatever the tool does with affinity).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe_lib.h"

long counter = 40;

__attribute__((noinline)) int hot(const char *s, long n)
{
	__asm__ volatile("");
	return (int)strlen(s) + (int)n;
}

__attribute__((noinline)) long fact(long n)
{
	__asm__ volatile("");
	return n <= 1 ? 1 : n * fact(n - 1);
}

/*
 * Functions whose first instructions are the cases the engine relocates:
 * a rip-relative load, a conditional branch, a call.  Written in assembly
 * so the compiler cannot change them.
 */
long riprel_fn(long x);	/* counter + x: starts with mov rax, [rip + counter] */
long jcc_fn(long x);	/* x ? 1 : 2: test rdi, rdi; je (probe at +3) */
long call_fn(long x);	/* hot("call", x): push rbx; call hot (probe at +8) */
__asm__(".text\n"
	".globl riprel_fn\n.type riprel_fn,@function\nriprel_fn:\n"
	"	mov counter(%rip), %rax\n"
	"	add %rdi, %rax\n"
	"	ret\n"
	".size riprel_fn, .-riprel_fn\n"
	".globl jcc_fn\n.type jcc_fn,@function\njcc_fn:\n"
	"	test %rdi, %rdi\n"
	"	je 1f\n"
	"	mov $1, %eax\n"
	"	ret\n"
	"1:	mov $2, %eax\n"
	"	ret\n"
	".size jcc_fn, .-jcc_fn\n"
	".globl call_fn\n.type call_fn,@function\ncall_fn:\n"
	"	push %rbx\n"
	"	mov %rdi, %rsi\n"
	"	lea call_str(%rip), %rdi\n"
	"	call hot\n"
	"	pop %rbx\n"
	"	ret\n"
	".size call_fn, .-call_fn\n"
	".section .rodata\ncall_str: .string \"call\"\n.text\n");

static long loop(long n)
{
	long total = 0;
	for (long i = 0; i < n; i++) {
		total += hot("hello", i);
		total += riprel_fn(i);
		total += jcc_fn(i & 1);
		total += call_fn(i);
	}
	return total;
}

struct job {
	long n, total;
};

static void *thread_main(void *arg)
{
	struct job *j = arg;
	for (long i = 0; i < j->n; i++)
		j->total += hot("thread", i);
	return NULL;
}

static int run_threads(int t, long n)
{
	pthread_t th[64];
	struct job jobs[64];
	long total = 0;
	if (t > 64)
		t = 64;
	for (int i = 0; i < t; i++) {
		jobs[i] = (struct job){ .n = n };
		pthread_create(&th[i], NULL, thread_main, &jobs[i]);
	}
	for (int i = 0; i < t; i++) {
		pthread_join(th[i], NULL);
		total += jobs[i].total;
	}
	printf("threads total=%ld\n", total);
	return 0;
}

static int run_fork(long n)
{
	long before = loop(n);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		printf("child total=%ld\n", loop(n));
		return 0;
	}
	int st;
	waitpid(pid, &st, 0);
	printf("parent total=%ld %ld child status=%d\n", before, loop(n), WEXITSTATUS(st));
	return 0;
}

static int run_dlopen(long n, const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	long (*mul)(long, long) = (long (*)(long, long))dlsym(h, "dl_mul");
	long total = 0;
	for (long i = 0; i < n; i++)
		total += mul(i, 3);
	printf("dlopen total=%ld\n", total);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "loop";
	long n = argc > 2 ? atol(argv[2]) : 10;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("PROBE_TARGET_CPU")) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(atoi(getenv("PROBE_TARGET_CPU")), &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (!strcmp(mode, "loop")) {
		printf("loop total=%ld\n", loop(n));
	} else if (!strcmp(mode, "lib")) {
		long total = 0;
		for (long i = 0; i < n; i++)
			total += lib_add(i, 1000);
		printf("lib total=%ld\n", total);
	} else if (!strcmp(mode, "dlopen") && argc > 3) {
		return run_dlopen(n, argv[3]);
	} else if (!strcmp(mode, "threads") && argc > 3) {
		return run_threads((int)n, atol(argv[3]));
	} else if (!strcmp(mode, "fork")) {
		return run_fork(n);
	} else if (!strcmp(mode, "exec") && argc > 3) {
		printf("exec total=%ld\n", loop(n));
		execv(argv[3], argv + 3);
		perror(argv[3]);
		return 127;
	} else if (!strcmp(mode, "recurse")) {
		printf("fact=%ld\n", fact(n));
	} else if (!strcmp(mode, "wait")) {
		char line[16];
		printf("pid=%d\n", (int)getpid());
		if (!fgets(line, sizeof(line), stdin))
			return 1;
		printf("loop total=%ld\n", loop(n));
		if (!fgets(line, sizeof(line), stdin))
			return 1;
		printf("loop total=%ld\n", loop(n));
	} else {
		fprintf(stderr, "probe_target: unknown mode '%s'\n", mode);
		return 2;
	}
	return 0;
}
