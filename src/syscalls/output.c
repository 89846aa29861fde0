/* Trace line framing and destinations; see output.h. */
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/tidmap.h"

#define RET_COLUMN 40	/* strace aligns " = ret" here */

/* One destination: stderr, the -o file, or with -ff one file per thread. */
struct stream {
	FILE *f;
	char *path;		/* NULL for stderr */
	unsigned long lines;	/* lines handed to f */
	pid_t open_tid;		/* whose call is half printed in line, 0: none */
	struct strbuf line;
};

struct sc_output {
	const struct sc_options *o;
	struct stream main;
	struct tidmap per_tid;	/* -ff: tid -> struct stream */
	bool multi;
	bool pid_plain;		/* "N " rather than "[pid N] " (-o with -f) */
	struct timespec last;	/* -r: the previous line's time */
	bool have_last;
	unsigned long lost;	/* lines stderr refused */
	unsigned long lost_exact;	/* lines handed to trace files that are not in them */
	bool counted_exactly;
	int write_errno;
	struct strbuf tmp;
};

struct sc_output *out_open(const struct sc_options *o, char *err, size_t errlen)
{
	struct sc_output *w = xcalloc(1, sizeof(*w));
	w->o = o;
	w->pid_plain = o->outfile && o->follow && !o->ff;
	if (o->outfile && !o->ff) {
		w->main.f = fopen(o->outfile, "we");
		if (!w->main.f) {
			snprintf(err, errlen, "cannot write '%s': %s", o->outfile, strerror(errno));
			free(w);
			return NULL;
		}
		w->main.path = xstrdup(o->outfile);
		/* Big blocks: a trace file is written in bulk, not line by line. */
		setvbuf(w->main.f, NULL, _IOFBF, 1 << 16);
	} else {
		w->main.f = stderr;
	}
	if (o->ff && o->outfile) {
		/* Fail now, not at the first process, if the directory is not writable. */
		char probe[4096];
		snprintf(probe, sizeof(probe), "%s.probe%d", o->outfile, (int)getpid());
		FILE *f = fopen(probe, "w");
		if (!f) {
			snprintf(err, errlen, "cannot write '%s.PID': %s", o->outfile, strerror(errno));
			free(w);
			return NULL;
		}
		fclose(f);
		unlink(probe);
	}
	return w;
}

static struct stream *stream_for(struct sc_output *w, pid_t tid)
{
	if (!(w->o->ff && w->o->outfile))
		return &w->main;
	struct stream *s = tidmap_get(&w->per_tid, tid);
	if (s)
		return s;
	s = xcalloc(1, sizeof(*s));
	char path[4096];
	snprintf(path, sizeof(path), "%s.%d", w->o->outfile, (int)tid);
	s->f = fopen(path, "we");
	s->path = s->f ? xstrdup(path) : NULL;
	if (!s->f) {
		warnmsg("cannot write '%s': %s; its lines go to stderr", path, strerror(errno));
		s->f = stderr;
	}
	tidmap_put(&w->per_tid, tid, s);
	return s;
}

static void emit(struct sc_output *w, struct stream *s, const struct strbuf *sb)
{
	for (const char *p = sb_str(sb); (p = strchr(p, '\n')); p++)
		s->lines++;
	if (fwrite(sb_str(sb), 1, sb->len, s->f) != sb->len) {
		w->lost++;
		if (!w->write_errno)
			w->write_errno = errno ? errno : EIO;
	}
}

void out_set_multi(struct sc_output *w, bool multi)
{
	w->multi = multi;
}

static void prefix(struct sc_output *w, struct stream *s, pid_t tid, const struct timespec *real,
		   const struct timespec *mono, struct strbuf *sb)
{
	(void)s;
	if (!(w->o->ff && w->o->outfile)) {
		if (w->pid_plain)
			sb_printf(sb, "%-5d ", (int)tid);
		else if (w->multi)
			sb_printf(sb, "[pid %5d] ", (int)tid);
	}
	if (w->o->relative && mono) {
		struct timespec d = { 0, 0 };
		if (w->have_last) {
			d.tv_sec = mono->tv_sec - w->last.tv_sec;
			d.tv_nsec = mono->tv_nsec - w->last.tv_nsec;
			if (d.tv_nsec < 0) {
				d.tv_sec--;
				d.tv_nsec += 1000000000L;
			}
		}
		w->last = *mono;
		w->have_last = true;
		sb_printf(sb, "%6ld.%06ld ", (long)d.tv_sec, d.tv_nsec / 1000);
	}
	if (w->o->tstamp != SC_TS_NONE && real) {
		if (w->o->tstamp == SC_TS_EPOCH) {
			sb_printf(sb, "%ld.%06ld ", (long)real->tv_sec, real->tv_nsec / 1000);
		} else {
			struct tm tm;
			char hms[16];
			localtime_r(&real->tv_sec, &tm);
			strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
			if (w->o->tstamp == SC_TS_USEC)
				sb_printf(sb, "%s.%06ld ", hms, real->tv_nsec / 1000);
			else
				sb_printf(sb, "%s ", hms);
		}
	}
}

/* Close a half-printed call of another thread: " <unfinished ...>". */
static void interrupt(struct sc_output *w, struct stream *s)
{
	if (!s->open_tid)
		return;
	sb_add(&s->line, " <unfinished ...>\n");
	emit(w, s, &s->line);
	sb_reset(&s->line);
	s->open_tid = 0;
}

void out_call_entry(struct sc_output *w, pid_t tid, const struct timespec *real,
		    const struct timespec *mono, const char *text)
{
	struct stream *s = stream_for(w, tid);
	interrupt(w, s);
	sb_reset(&s->line);
	prefix(w, s, tid, real, mono, &s->line);
	sb_add(&s->line, text);
	s->open_tid = tid;
}

static void pad_to_ret(struct strbuf *sb, size_t start)
{
	size_t col = sb->len - start;
	if (col < RET_COLUMN) {
		sb_grow(sb, RET_COLUMN - col);
		while (col++ < RET_COLUMN)
			sb_addc(sb, ' ');
		return;
	}
	sb_addc(sb, ' ');
}

/* ret starts with " = ": the column pad replaces its leading space. */
static void finish(struct sc_output *w, struct stream *s, struct strbuf *sb, size_t start,
		   const char *rest, const char *ret)
{
	sb_add(sb, rest);
	pad_to_ret(sb, start);
	sb_add(sb, ret[0] == ' ' ? ret + 1 : ret);
	sb_addc(sb, '\n');
	emit(w, s, sb);
	sb_reset(sb);
}

void out_call_exit(struct sc_output *w, pid_t tid, const struct timespec *real,
		   const struct timespec *mono, const char *name, const char *rest, const char *ret)
{
	struct stream *s = stream_for(w, tid);
	if (s->open_tid == tid) {
		s->open_tid = 0;
		finish(w, s, &s->line, 0, rest, ret);
		return;
	}
	interrupt(w, s);
	sb_reset(&w->tmp);
	prefix(w, s, tid, real, mono, &w->tmp);
	sb_printf(&w->tmp, "<... %s resumed>", name);
	finish(w, s, &w->tmp, 0, rest, ret);
}

void out_call_gone(struct sc_output *w, pid_t tid, const char *name, bool no_return)
{
	struct stream *s = stream_for(w, tid);
	if (s->open_tid == tid) {
		s->open_tid = 0;
		/* exit_group(0) = ? reads naturally; any other call was cut short. */
		finish(w, s, &s->line, 0, no_return ? ")" : " <unfinished ...>)", " = ?");
		return;
	}
	interrupt(w, s);
	sb_reset(&w->tmp);
	prefix(w, s, tid, NULL, NULL, &w->tmp);
	sb_printf(&w->tmp, "<... %s resumed>", name);
	finish(w, s, &w->tmp, 0, ")", " = ?");
}

void out_event(struct sc_output *w, pid_t tid, const struct timespec *real,
	       const struct timespec *mono, const char *text)
{
	struct stream *s = stream_for(w, tid);
	interrupt(w, s);
	sb_reset(&w->tmp);
	prefix(w, s, tid, real, mono, &w->tmp);
	sb_add(&w->tmp, text);
	sb_addc(&w->tmp, '\n');
	emit(w, s, &w->tmp);
}

void out_raw(struct sc_output *w, pid_t tid, const char *line)
{
	struct stream *s = stream_for(w, tid);
	sb_reset(&w->tmp);
	sb_add(&w->tmp, line);
	sb_addc(&w->tmp, '\n');
	emit(w, s, &w->tmp);
}

void out_text(struct sc_output *w, pid_t tid, const char *text)
{
	struct stream *s = stream_for(w, tid);
	interrupt(w, s);
	sb_reset(&w->tmp);
	sb_add(&w->tmp, text);
	emit(w, s, &w->tmp);
}

FILE *out_main(struct sc_output *w)
{
	return w->main.f;
}

/* Lines that reached the file: after a write error, what the disk really holds. */
static unsigned long lines_on_disk(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long n = 0;
	for (int ch; f && (ch = getc(f)) != EOF;)
		n += ch == '\n';
	if (f)
		fclose(f);
	return n;
}

static int close_stream(struct sc_output *w, struct stream *s)
{
	int before = w->write_errno;
	interrupt(w, s);
	sb_free(&s->line);
	if (fflush(s->f) != 0 && !w->write_errno)
		w->write_errno = errno;
	if (s->f != stderr && fclose(s->f) != 0 && !w->write_errno)
		w->write_errno = errno;
	/* Buffered lines fail at flush time, not at fwrite: count from what the file holds. */
	if (s->path && (w->write_errno || before)) {
		unsigned long kept = lines_on_disk(s->path);
		if (s->lines > kept)
			w->lost_exact += s->lines - kept;
		w->counted_exactly = true;
	}
	free(s->path);
	return 0;
}

int out_close(struct sc_output *w)
{
	if (!w)
		return 0;
	tidmap_foreach(&w->per_tid, slot) {
		close_stream(w, slot->val);
		free(slot->val);
	}
	tidmap_free(&w->per_tid);
	close_stream(w, &w->main);
	sb_free(&w->tmp);
	int rc = 0;
	if (w->write_errno) {
		unsigned long lost = w->counted_exactly ? w->lost_exact : w->lost;
		errmsg("writing the trace to '%s' failed: %s (%lu line%s lost)",
		       w->o->outfile ? w->o->outfile : "stderr", strerror(w->write_errno), lost,
		       lost == 1 ? "" : "s");
		rc = -1;
	}
	free(w);
	return rc;
}
