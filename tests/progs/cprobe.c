/*
 * The C-expression probes' target (tests/e2e/test_probe_c.py): structs with
 * a string, an embedded struct, bitfields, a char array, a short array and a
 * pointer to another request.  Each call of handle() prints every value the
 * tests probe, so a probe's values are checked against the program's own.
 * Built -g at -O0 and at -O2 (tests/progs/meson.build).
 *
 *	cprobe [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stats {
	unsigned long bytes;
	int errors;
	unsigned flags : 3;
	unsigned level : 5;
};

struct request {
	const char *path;
	int id;
	struct stats st;
	char tag[8];
	short codes[4];
	struct request *next;
};

int calls;	/* a global, read by name */

__attribute__((noinline)) long handle(struct request *r, int round)
{
	long total = (long)r->st.bytes * 2 + round;
	calls++;
	printf("handle path=%s id=%d bytes=%lu errors=%d flags=%u level=%u tag=%s "
	       "codes={%d,%d,%d,%d} next_id=%d round=%d total=%ld calls=%d\n",
	       r->path, r->id, r->st.bytes, r->st.errors, r->st.flags, r->st.level, r->tag,
	       r->codes[0], r->codes[1], r->codes[2], r->codes[3], r->next ? r->next->id : -1,
	       round, total, calls);
	fflush(stdout);
	return total;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	static const char *const paths[] = { "/etc/hostname", "/srv/data/a b", "" };
	struct request other = { .path = "other", .id = 99 };
	long sum = 0;
	for (int i = 0; i < rounds; i++) {
		struct request r = {
			.path = paths[i % 3],
			.id = 1000 + i,
			.st = { .bytes = 4096ul * (unsigned long)(i + 1), .errors = -i,
				.flags = (unsigned)(i + 5) & 7, .level = (unsigned)(17 + i) & 31 },
			.codes = { (short)(-1 - i), 2, (short)(300 + i), -32768 },
			.next = i % 2 ? &other : NULL,
		};
		snprintf(r.tag, sizeof(r.tag), "t%d", i % 1000);
		sum += handle(&r, i);
	}
	printf("sum=%ld\n", sum);
	return 0;
}
