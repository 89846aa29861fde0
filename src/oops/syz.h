/*
 * syzkaller-compatible titles: the tables (syz_table.c) and the engine that
 * applies them to a report's lines (syz.c).
 */
#ifndef TRACEKIT_OOPS_SYZ_H
#define TRACEKIT_OOPS_SYZ_H

#include <stdbool.h>
#include <stddef.h>

#include "oops/oops.h"

/* A step of a stack recipe: a regex (groups fn, fn2 are frames; 0: none), or STACK when re is NULL. */
struct syz_part {
	const char *re;
	int fn, fn2;
};

enum syz_extract { SYZ_FIRST, SYZ_STALL, SYZ_HANG };

struct syz_format {
	const char *title;	/* ERE on one line; names the report */
	const char *cont;	/* ERE that must also match the title line; adds captures */
	const char *after;	/* ERE that must match a later line; adds captures */
	const char *after2;	/* ... and then a line after that one */
	const char *fmt;	/* %1..%9: the captures, then the frames */
	enum oops_kind kind;	/* the kind of a report only this table recognises */
	struct syz_part parts[3], parts2[3];
	size_t nparts, nparts2;
	const char *skip;	/* frames this kind also skips */
	enum syz_extract extract;
	bool corrupted;		/* a title of a report whose head was lost */
	bool no_stack;
};

struct syz_group {
	const char *header;	/* found anywhere in the line */
	const struct syz_format *formats;
	size_t nformats;
	const char *suppress;	/* ERE of lines that hold the header but are no report */
};

extern const struct syz_group syz_groups[];
extern const size_t syz_ngroups;
extern const char *const syz_skip_frames[];
extern const char *const syz_strip_prefixes[];
extern const char *const syz_stall_anchors[];
extern const char *const syz_report_continuations[];

/* The group whose header the line holds (and does not suppress), or NULL. */
const struct syz_group *syz_match_header(const char *line);
/*
 * A header ending in ':' is followed by a space or the end ("BUG: foo",
 * "[ INFO: bar ]", not "BUG:foo" as in a mail's subject line).
 */
bool syz_header_stands_alone(const char *line, const struct syz_group *g);
/* The kind the first format of g whose title matches line names; OK_OTHER if none. */
enum oops_kind syz_line_kind(const char *line, const struct syz_group *g);
/* A line that holds a header but continues the report before it ("Kernel panic"). */
bool syz_is_continuation(const char *line);

struct syz_title {
	char *title;		/* sanitized as syzkaller does: ADDR, NUM, LINE */
	char *frame;		/* the guilty frame as printed (not stripped), NULL when none */
	enum oops_kind kind;	/* OK_NONE when the format does not say */
	bool corrupted;
};

/*
 * Title the report whose headline is ls->v[start].  False when no header is
 * there.  fallback (may be NULL) names the frame where syzkaller's recipe
 * finds none and would say "corrupted".
 */
bool syz_title_report(const struct oops_lines *ls, size_t start, const char *fallback,
		      struct syz_title *t);
void syz_title_free(struct syz_title *t);

#endif
