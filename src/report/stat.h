/* --stat: events per type and per CPU, and what was lost, counted while streaming. */
#ifndef TRACEKIT_REPORT_STAT_H
#define TRACEKIT_REPORT_STAT_H

#include <stdio.h>

struct rp_stat;
struct tf_event;
struct tf_reader;

struct rp_stat *rp_stat_new(void);
void rp_stat_free(struct rp_stat *st);
void rp_stat_add(struct rp_stat *st, const struct tf_event *ev);
void rp_stat_print(const struct rp_stat *st, struct tf_reader *r, FILE *out);

#endif
