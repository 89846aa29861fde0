/*
 * The ELF the oops file:line tests decode against: a call chain with
 * functions the compiler must inline (so addresses have inlined frames) and
 * functions it must not (so frames have return addresses).  Built with -g;
 * also compiled alone into a relocatable object that stands in for a .ko.
 * It runs (and exits 0) like any program, but only its symbols matter.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * For naming the member behind NULL + offset: gadget_flags reads g->flags
 * through a pointer that arrives in a register.  Its other parameter points
 * to a struct with a member at the same offset, so only the faulting
 * instruction's base register tells which of the two was NULL.
 */
struct gadget {
	int id;
	char name[20];
	struct widget *owner;
	unsigned long flags;
};

struct gizmo {
	long a, b, c, d;	/* d at gadget's owner offset (x86_64, arm64) */
	long e;			/* e at gadget's flags offset */
};

__attribute__((noinline)) unsigned long gadget_flags(const struct gizmo *z, const struct gadget *g)
{
	unsigned long f = g->flags;
	__asm__ volatile("" : "+r"(f));
	return f + (unsigned long)z->a;
}

#ifndef OOPSPROG_NO_MAIN
/* As a vmlinux has it: the tests' reports name this release and build (#1). */
__attribute__((used)) const char linux_banner[] =
	"Linux version 6.1.0-test (tracekit@oopsprog) (cc) #1 SMP PREEMPT_DYNAMIC\n";

int main(int argc, char **argv)
{
	struct widget w = { .count = argc };
	if (argc > 1 && !strcmp(argv[1], "--offsets")) {
		/* What the member tests expect, from the compiler rather than written down. */
		printf("gadget.flags %zu\ngadget.owner %zu\ngadget.name %zu\ngizmo.e %zu\n"
		       "widget.count %zu\n",
		       offsetof(struct gadget, flags), offsetof(struct gadget, owner),
		       offsetof(struct gadget, name), offsetof(struct gizmo, e),
		       offsetof(struct widget, count));
		return 0;
	}
	struct gadget g = { .flags = (unsigned long)argc };
	struct gizmo z = { .a = 1 };
	printf("%d %lu\n", oops_top(&w), gadget_flags(&z, &g));
	return 0;
}
#endif
