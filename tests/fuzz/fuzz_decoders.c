/*
 * Fuzz every decoder with tracee memory it cannot trust: a syscall number,
 * six arguments, a return value and bytes placed at the addresses the
 * arguments point to.  A decoder must print something for any input, never
 * read outside the snapshot, never crash or hang.
 */
#include <stdint.h>
#include <string.h>

#include "../unit/decode_harness.h"

#define BASE 0x10000u	/* fuzz bytes live here; pointer args are steered near it */

static uint64_t take(const uint8_t **p, size_t *n, size_t k)
{
	uint64_t v = 0;
	size_t m = *n < k ? *n : k;
	memcpy(&v, *p, m);
	*p += m;
	*n -= m;
	return v;
}

/* Sockets are netlink ones of protocol fd when the input says so: the netlink decoders run too. */
static int fuzz_nl_on;

static int fuzz_nl_proto(pid_t tid, int fd)
{
	(void)tid;
	return fuzz_nl_on && fd >= 0 && fd < 32 ? fd : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data;
	size_t n = size;
	long nr = (long)(take(&p, &n, 2) % (uint64_t)sc_table_len);
	uint64_t a[6];
	uint8_t ptrmask = (uint8_t)take(&p, &n, 1);
	for (int i = 0; i < 6; i++) {
		a[i] = take(&p, &n, 4);
		/* Half the time, make an argument point into (or just past) the fuzz bytes. */
		if (ptrmask & (1u << i))
			a[i] = BASE + (a[i] % 4096);
	}
	int64_t ret = (int64_t)(int32_t)take(&p, &n, 4);
	uint8_t opts = (uint8_t)take(&p, &n, 1);

	struct dh d;
	dh_init(&d, nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	d.fmt.strsize = (opts & 1) ? 4 : 32;
	d.fmt.verbose = opts & 2;
	d.fmt.xflag = (opts >> 2) & 3;
	fuzz_nl_on = opts & 0x10;
	d.fmt.nl_proto = fuzz_nl_proto;
	if (n) {
		dh_mem(&d, SC_AT_ENTRY, BASE, p, n);
		dh_mem(&d, SC_AT_EXIT, BASE, p, n);
	}
	dh_run(&d, ret);
	dh_free(&d);
	return 0;
}
