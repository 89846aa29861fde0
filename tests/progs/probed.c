/*
 * probed: the program the dynamic-probe tests and bench/probes.sh probe.
 * A PIE linked with libprobedlib.so; each iteration i calls
 *   parse_line("line <i>", len, i + 1)          returns len * (i + 1)
 *   lib_hash("line <i>", i)                     in the shared library
 *   take_rec(&rec)                              rec = { i, 0xa5, "rec<i%10>", {i, i+1, i+2, i+3} }
 *   sum8(i, 2, 3, 4, 5, 6, 7, 8)                seven and eight arguments: on the stack
 *   the USDT probe probed:tick(i, line)         only when its semaphore is set
 * Globals for @SYM fetches: probed_banner (a string), probed_counter (a long, 42).
 *
 *   probed [-n ITERATIONS] [-t THREADS] [-d DELAY_MS] [-c CPU]
 * With -t each thread runs the loop; its lines are "t<k> line <i>".
 * -d waits before the loop (lets a tracer attach); -c pins the program to one CPU (the bench
 * places tracer and tracee); the one output line is on stderr at the end.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "usdt_note.h"

unsigned lib_hash(const char *s, int seed);

struct rec {
	int id;
	unsigned flags;		/* 0xa5: bits 0-3 = 5, bits 4-7 = 0xa */
	char name[8];
	short vals[4];
};

char probed_banner[] = "probed banner";
long probed_counter = 42;
unsigned short probed_tick_semaphore __attribute__((section(".probes"), used));

static long iterations = 10;

__attribute__((noinline)) long parse_line(const char *line, int len, long mult)
{
	__asm__ __volatile__("" :: "r"(line) : "memory");
	return (long)len * mult;
}

__attribute__((noinline)) int take_rec(const struct rec *r)
{
	__asm__ __volatile__("" ::: "memory");
	return r->id + r->vals[3];
}

__attribute__((noinline)) long sum8(long a, long b, long c, long d, long e, long f, long g, long h)
{
	__asm__ __volatile__("" ::: "memory");
	return a + b + c + d + e + f + g + h;
}

static void *run(void *arg)
{
	long k = (long)arg, total = 0;
	for (long i = 0; i < iterations; i++) {
		char line[32];
		int len = k < 0 ? snprintf(line, sizeof(line), "line %ld", i)
				: snprintf(line, sizeof(line), "t%ld line %ld", k, i);
		struct rec r = { (int)i, 0xa5, "rec", { (short)i, (short)(i + 1), (short)(i + 2),
							(short)(i + 3) } };
		r.name[3] = (char)('0' + i % 10);
		total += parse_line(line, len, i + 1);
		total += lib_hash(line, (int)i);
		total += take_rec(&r);
		total += sum8(i, 2, 3, 4, 5, 6, 7, 8);
		if (probed_tick_semaphore)
			TK_USDT2(probed, tick, "probed_tick_semaphore", i, line);
	}
	return (void *)total;
}

int main(int argc, char **argv)
{
	long threads = 0, delay = 0;
	int opt;
	while ((opt = getopt(argc, argv, "n:t:d:c:")) != -1) {
		if (opt == 'n')
			iterations = atol(optarg);
		else if (opt == 't')
			threads = atol(optarg);
		else if (opt == 'd')
			delay = atol(optarg);
		else if (opt == 'c') {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(atoi(optarg), &set);
			if (sched_setaffinity(0, sizeof(set), &set) < 0)
				perror("probed: sched_setaffinity");
		}
		else
			return 2;
	}
	if (delay)
		usleep((useconds_t)delay * 1000);
	long total = 0;
	if (threads <= 0) {
		total = (long)run((void *)-1L);
	} else {
		pthread_t t[64];
		if (threads > 64)
			threads = 64;
		for (long k = 0; k < threads; k++)
			pthread_create(&t[k], NULL, run, (void *)k);
		for (long k = 0; k < threads; k++) {
			void *r;
			pthread_join(t[k], &r);
			total += (long)r;
		}
	}
	fprintf(stderr, "probed: %s %ld total %ld\n", probed_banner, probed_counter, total);
	return 0;
}
