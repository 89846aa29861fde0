/*
 * The decoder test harness; see decode_harness.h.  Memory given by the test
 * stands in for what an engine would have copied: the decoder cannot tell.
 */
#include "decode_harness.h"

#include <stdlib.h>
#include <string.h>

#include "util/die.h"

void dh_init(struct dh *d, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
	     uint64_t a4, uint64_t a5)
{
	memset(d, 0, sizeof(*d));
	d->fmt.strsize = 32;
	d->c.fmt = &d->fmt;
	d->c.out = &d->line;
	d->c.tid = 1000;
	d->c.nr = nr;
	uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };
	memcpy(d->c.args, a, sizeof(a));
	sc_call_reset(&d->c);
}

void dh_mem(struct dh *d, unsigned when, uint64_t addr, const void *data, size_t len)
{
	struct sc_snapshot *s = &d->c.mem;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->r = xrealloc(s->r, s->cap * sizeof(*s->r));
	}
	struct sc_region *r = &s->r[s->n++];
	*r = (struct sc_region){ .addr = addr, .len = (uint32_t)len, .when = (unsigned char)when };
	r->data = xmalloc(len);
	memcpy(r->data, data, len);
}

void dh_mem_str(struct dh *d, unsigned when, uint64_t addr, const char *s)
{
	dh_mem(d, when, addr, s, strlen(s) + 1);
}

const char *dh_entry(struct dh *d)
{
	sb_reset(&d->line);
	sc_decode_entry(&d->c);
	return sb_str(&d->line);
}

const char *dh_run(struct dh *d, int64_t ret)
{
	dh_entry(d);
	d->c.ret = ret;
	sc_decode_exit(&d->c);
	sb_reset(&d->ret);
	sc_format_ret(&d->c, &d->ret, false);
	sb_add(&d->line, sb_str(&d->ret));
	return sb_str(&d->line);
}

const struct sc_mem_spec *dh_spec(long nr)
{
	const struct sc_entry *e = sc_by_nr(nr);
	return e && e->dec ? e->dec->mem : NULL;
}

void dh_free(struct dh *d)
{
	sc_call_reset(&d->c);
	sc_mem_free(&d->c.mem);
	sb_free(&d->line);
	sb_free(&d->ret);
}
