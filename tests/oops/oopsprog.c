/*
 * The ELF the oops file:line tests decode against: a call chain with
 * functions the compiler must inline (so addresses have inlined frames) and
 * functions it must not (so frames have return addresses).  Built with -g;
 * also compiled alone into a relocatable object that stands in for a .ko.
 * It runs (and exits 0) like any program, but only its symbols matter.
 */
#include <stdio.h>
#include <stdlib.h>

struct widget {
	long pad[2];
	int count;		/* at offset 0x10: what a NULL widget's ->count reads */
};

static inline __attribute__((always_inline)) int widget_count(const struct widget *w)
{
	int c = w->count;
	__asm__ volatile("" : "+r"(c));	/* keeps the load an instruction of its own */
	return c;
}

static inline __attribute__((always_inline)) int widget_weight(const struct widget *w, int k)
{
	return widget_count(w) * k + 1;
}

__attribute__((noinline)) int oops_fault(const struct widget *w, int k)
{
	int v = widget_weight(w, k);
	__asm__ volatile("" : "+r"(v));
	return v;
}

__attribute__((noinline)) int oops_middle(const struct widget *w, int k)
{
	int r = oops_fault(w, k);
	__asm__ volatile("" : "+r"(r));
	return r + oops_fault(w, k + 1);
}

__attribute__((noinline)) int oops_top(const struct widget *w)
{
	int r = oops_middle(w, 3);
	__asm__ volatile("" : "+r"(r));
	return r;
}

#ifndef OOPSPROG_NO_MAIN
int main(int argc, char **argv)
{
	struct widget w = { .count = argc };
	(void)argv;
	printf("%d\n", oops_top(&w));
	return 0;
}
#endif
