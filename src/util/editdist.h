/*
 * Edit distance for "did you mean" hints, and a small collector of the
 * closest candidates seen while walking a list (symbols, registers).
 */
#ifndef TRACEKIT_UTIL_EDITDIST_H
#define TRACEKIT_UTIL_EDITDIST_H

#include <stddef.h>

/* Insertions, deletions, substitutions and swaps of neighbours between a[0..la) and b[0..lb). */
size_t edit_distance_n(const char *a, size_t la, const char *b, size_t lb);

#define CLOSEST_MAX 3

/* The up-to-CLOSEST_MAX best candidates offered, each copied, best first. */
struct closest {
	char *name[CLOSEST_MAX];
	size_t dist[CLOSEST_MAX];
	size_t n;
	size_t limit;		/* candidates farther than this are ignored */
};

void closest_init(struct closest *c, size_t limit);
void closest_offer(struct closest *c, const char *want, size_t wlen, const char *cand);
/* "a, b or c" into out ("" when nothing was close). */
void closest_join(const struct closest *c, char *out, size_t outlen);
void closest_free(struct closest *c);

#endif
