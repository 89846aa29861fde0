/*
 * Edit distance (optimal string alignment: typos and swapped neighbours)
 * and a top-3 collector for "did you mean" hints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/editdist.h"

size_t edit_distance_n(const char *a, size_t la, const char *b, size_t lb)
{
	/* Three rows: the one before the previous is needed for swaps. */
	size_t *row = xmalloc(3 * (lb + 1) * sizeof(*row));
	size_t *pp = row, *prev = row + lb + 1, *cur = row + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			size_t d = sub < del ? sub : del;
			d = d < ins ? d : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			cur[j] = d;
		}
		size_t *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	size_t r = prev[lb];
	free(row);
	return r;
}

void closest_init(struct closest *c, size_t limit)
{
	memset(c, 0, sizeof(*c));
	c->limit = limit;
}

void closest_offer(struct closest *c, const char *want, size_t wlen, const char *cand)
{
	size_t clen = strlen(cand);
	/* Lengths alone bound the distance: skip hopeless candidates cheaply. */
	size_t gap = clen > wlen ? clen - wlen : wlen - clen;
	if (gap > c->limit || clen > 256)
		return;
	size_t d = edit_distance_n(want, wlen, cand, clen);
	if (d > c->limit)
		return;
	size_t pos = c->n;
	while (pos > 0 && (c->dist[pos - 1] > d ||
			   (c->dist[pos - 1] == d && strcmp(c->name[pos - 1], cand) > 0)))
		pos--;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], cand))
			return;
	if (pos >= CLOSEST_MAX)
		return;
	if (c->n == CLOSEST_MAX) {
		free(c->name[CLOSEST_MAX - 1]);
		c->n--;
	}
	memmove(&c->name[pos + 1], &c->name[pos], (c->n - pos) * sizeof(c->name[0]));
	memmove(&c->dist[pos + 1], &c->dist[pos], (c->n - pos) * sizeof(c->dist[0]));
	c->name[pos] = xstrdup(cand);
	c->dist[pos] = d;
	c->n++;
}

void closest_join(const struct closest *c, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < c->n && used < outlen; i++) {
		const char *sep = i == 0 ? "" : i == c->n - 1 ? " or " : ", ";
		int w = snprintf(out + used, outlen - used, "%s%s", sep, c->name[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void closest_free(struct closest *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	c->n = 0;
}
