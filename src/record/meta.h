/* What a trace.dat carries beside the data: headers, formats, symbols, names. */
#ifndef TRACEKIT_RECORD_META_H
#define TRACEKIT_RECORD_META_H

#include "ftrace/session.h"
#include "tracefile/writer.h"

struct rec_meta {
	struct tf_meta m;
	/* storage behind m's pointers */
	struct tf_format *formats;
	char **texts;
	int ntexts;
	char uname[512];
};

/* Gather from tracefs and /proc for the session's enabled events. */
int rec_meta_gather(struct ft_session *s, struct rec_meta *rm, char *err, size_t errlen);
void rec_meta_free(struct rec_meta *rm);

#endif
