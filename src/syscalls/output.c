/* Trace line framing and destinations; see output.h. */
#include "output.h"

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/stopsig.h"
#include "util/tidmap.h"


/* One destination: stderr, the -o file, or with -ff one file per thread. */
struct stream {
	FILE *f;
	char *path;		/* NULL for stderr */
	unsigned long lines;	/* lines handed to f */
	pid_t open_tid;		/* whose call is half printed in line, 0: none */
	size_t written;		/* how much of line is out already (out_flush) */
	bool piped;		/* -o '|cmd': close with pclose */
	struct strbuf line;
};

struct sc_output {
	const struct sc_options *o;
	struct stream main;
	struct tidmap per_tid;	/* -ff: tid -> struct stream */
	struct tidmap comms;	/* -Y: tid -> its last command name */
	bool multi;
	bool pid_plain;		/* "N " rather than "[pid N] " (-o with -f) */
	struct timespec last;	/* -r: the previous line's time */
	bool have_last;
	unsigned long lost;	/* lines stderr refused */
	unsigned long lost_exact;	/* lines handed to trace files that are not in them */
	bool counted_exactly;
	int write_errno;
	struct strbuf tmp;
	long lead_nr;		/* -n: the syscall of the next line, -1: none */
	uint64_t lead_ip;	/* -i: the address of the next line */
};

struct sc_output *out_open(const struct sc_options *o, char *err, size_t errlen)
{
	struct sc_output *w = xcalloc(1, sizeof(*w));
	w->o = o;
	w->pid_plain = o->outfile && !o->ff && (o->follow || o->npids + (o->argv != NULL) > 1);
	if (o->outfile && (o->outfile[0] == '|' || o->outfile[0] == '!')) {
		/* strace's -o '|cmd' (or '!cmd'): the trace is cmd's standard input, a line at a time. */
		fflush(NULL);
		w->main.f = popen(o->outfile + 1, "we");
		if (!w->main.f) {
			snprintf(err, errlen, "cannot run '%s': %s", o->outfile + 1, strerror(errno));
			free(w);
			return NULL;
		}
		w->main.piped = true;
		setvbuf(w->main.f, NULL, _IOLBF, 0);
		/* The command may stop reading: a failed write, not a fatal SIGPIPE. */
		ignore_sigpipe();
	} else if (o->outfile && !o->ff) {
		w->main.f = fopen(o->outfile, o->append ? "ae" : "we");
		if (!w->main.f) {
			/* run as strace: its words, the file and the error */
			snprintf(err, errlen, o->as_strace ? "%s: %s" : "cannot write '%s': %s",
				 o->outfile, strerror(errno));
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
			snprintf(err, errlen, o->as_strace ? "%s: %s" : "cannot write '%s.PID': %s",
				 o->outfile, strerror(errno));
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
	s->f = fopen(path, w->o->append ? "ae" : "we");
	s->path = s->f ? xstrdup(path) : NULL;
	if (!s->f) {
		warnmsg("cannot write '%s': %s; its lines go to stderr", path, strerror(errno));
		s->f = stderr;
	}
	tidmap_put(&w->per_tid, tid, s);
	return s;
}

/* Write sb; of the stream's own line, only what out_flush() did not write yet. */
static void emit(struct sc_output *w, struct stream *s, const struct strbuf *sb)
{
	size_t from = sb == &s->line ? s->written : 0;
	if (sb == &s->line)
		s->written = 0;
	for (const char *p = sb_str(sb) + from; (p = strchr(p, '\n')); p++)
		s->lines++;
	if (fwrite(sb_str(sb) + from, 1, sb->len - from, s->f) != sb->len - from) {
		w->lost++;
		if (!w->write_errno)
			w->write_errno = errno ? errno : EIO;
	}
}

void out_set_multi(struct sc_output *w, bool multi)
{
	w->multi = multi;
}

static void flush_stream(struct sc_output *w, struct stream *s)
{
	if (s->open_tid && s->line.len > s->written) {
		if (fwrite(sb_str(&s->line) + s->written, 1, s->line.len - s->written, s->f) !=
		    s->line.len - s->written) {
			w->lost++;
			if (!w->write_errno)
				w->write_errno = errno ? errno : EIO;
		}
		s->written = s->line.len;
	}
	fflush(s->f);
}

void out_flush(struct sc_output *w)
{
	flush_stream(w, &w->main);
	tidmap_foreach(&w->per_tid, slot)
		flush_stream(w, slot->val);
}

void out_set_lead(struct sc_output *w, long nr, uint64_t ip)
{
	w->lead_nr = nr;
	w->lead_ip = ip;
}

/* -Y: "<comm>" after the pid, as /proc shows it now, or showed it last (gone at its exit). */
static void add_comm(struct sc_output *w, struct strbuf *sb, pid_t tid)
{
	char path[64], comm[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(comm, 1, sizeof(comm) - 1, f) : 0;
	if (f)
		fclose(f);
	if (n && comm[n - 1] == '\n')
		n--;	/* the kernel's line end, not part of the name */
	char *cached = tidmap_get(&w->comms, tid);
	if (n) {
		comm[n] = '\0';
		if (!cached || strcmp(cached, comm) != 0) {
			free(cached);
			tidmap_put(&w->comms, tid, xstrdup(comm));
		}
	} else if (cached) {
		n = strlen(cached);
		memcpy(comm, cached, n);
	} else {
		return;
	}
	sb_comm(sb, comm, n);
}

void out_remember_comm(struct sc_output *w, pid_t tid)
{
	struct strbuf tmp = STRBUF_INIT;
	if (w->o->decode_pids & SC_DPID_COMM)
		add_comm(w, &tmp, tid);
	sb_free(&tmp);
}

static long scale_of(int width)
{
	long scale = 1000000000L;
	while (width-- > 0)
		scale /= 10;
	return scale;
}

static void add_time_of_day(const struct sc_options *o, struct strbuf *sb, const struct timespec *real)
{
	char str[64];
	time_t t = real->tv_sec;
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(str, sizeof(str), o->ts.format, &tm))
		snprintf(str, sizeof(str), "%lld", (long long)t);
	if (o->ts.width)
		sb_printf(sb, "%s.%0*ld ", str, o->ts.width, real->tv_nsec / scale_of(o->ts.width));
	else
		sb_printf(sb, "%s ", str);
}

static void add_relative(struct sc_output *w, struct strbuf *sb, const struct timespec *mono)
{
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
	sb_printf(sb, "%s%6ld", w->o->ts.format ? "(+" : "", (long)d.tv_sec);
	if (w->o->rel_width)
		sb_printf(sb, ".%0*ld", w->o->rel_width, d.tv_nsec / scale_of(w->o->rel_width));
	sb_add(sb, w->o->ts.format ? ") " : " ");
}

/* strace's line leader: pid, -t time, -r delta, -n number, -i address. */
static void prefix(struct sc_output *w, struct stream *s, pid_t tid, const struct timespec *real,
		   const struct timespec *mono, struct strbuf *sb)
{
	(void)s;
	const struct sc_options *o = w->o;
	if (!(o->ff && o->outfile)) {
		if (w->pid_plain) {
			sb_printf(sb, o->decode_pids & SC_DPID_COMM ? "%d" : "%-5d", (int)tid);
			if (o->decode_pids & SC_DPID_COMM)
				add_comm(w, sb, tid);
			sb_addc(sb, ' ');
		} else if (w->multi) {
			sb_printf(sb, "[pid %5d", (int)tid);
			if (o->decode_pids & SC_DPID_COMM)
				add_comm(w, sb, tid);
			sb_add(sb, "] ");
		}
	}
	if (o->ts.format && real)
		add_time_of_day(o, sb, real);
	if (o->relative && mono)
		add_relative(w, sb, mono);
	if (o->nflag) {
		if (w->lead_nr >= 0)
			sb_printf(sb, "[%4ld] ", w->lead_nr);
		else
			sb_add(sb, "[ ?] ");
	}
	if (o->iflag && w->lead_ip == SC_IP_UNKNOWN)
		sb_add(sb, "[????????????????] ");
	else if (o->iflag)
		sb_printf(sb, "[%016" PRIx64 "] ", w->lead_ip);
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

static void pad_to_ret(struct strbuf *sb, size_t start, int acolumn)
{
	size_t col = sb->len - start, acol = (size_t)acolumn;
	if (col < acol) {
		sb_grow(sb, acol - col);
		memset(sb->buf + sb->len, ' ', acol - col);
		sb->len += acol - col;
		sb->buf[sb->len] = '\0';
		return;
	}
	sb_addc(sb, ' ');
}

/* ret starts with " = ": the column pad replaces its leading space. */
static void finish(struct sc_output *w, struct stream *s, struct strbuf *sb, size_t start,
		   const char *rest, const char *ret)
{
	sb_add(sb, rest);
	pad_to_ret(sb, start, w->o->acolumn);
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
	finish(w, s, &w->tmp, 0, no_return ? ")" : " <unfinished ...>)", " = ?");
}

void out_call_pid_changed(struct sc_output *w, pid_t tid, pid_t leader)
{
	struct stream *s = stream_for(w, tid);
	if (s->open_tid != tid)
		return;
	s->open_tid = 0;
	sb_printf(&s->line, " <pid changed to %d ...>\n", (int)leader);
	emit(w, s, &s->line);
	sb_reset(&s->line);
}

void out_call_detached(struct sc_output *w, pid_t tid)
{
	struct stream *s = stream_for(w, tid);
	if (s->open_tid != tid)
		return;
	s->open_tid = 0;
	sb_add(&s->line, " <detached ...>\n");
	emit(w, s, &s->line);
	sb_reset(&s->line);
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

/*
 * Lines that reached the file: after a write error, what the disk really
 * holds.  Only a regular file can be counted (/dev/full reads forever).
 */
static unsigned long lines_on_disk(const char *path, unsigned long handed)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return handed;
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
	if (s->piped) {
		pclose(s->f);
	} else if (s->f != stderr && fclose(s->f) != 0 && !w->write_errno) {
		w->write_errno = errno;
	}
	/* Buffered lines fail at flush time, not at fwrite: count from what the file holds. */
	if (s->path && (w->write_errno || before)) {
		unsigned long kept = lines_on_disk(s->path, s->lines);
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
	tidmap_foreach(&w->comms, slot)
		free(slot->val);
	tidmap_free(&w->comms);
	close_stream(w, &w->main);
	sb_free(&w->tmp);
	int rc = 0;
	if (w->write_errno && w->o->as_strace) {
		/* strace's words; the run's status stays the command's */
		errmsg("%s: %s", w->o->outfile ? w->o->outfile : "stderr", strerror(w->write_errno));
	} else if (w->write_errno) {
		unsigned long lost = w->counted_exactly ? w->lost_exact : w->lost;
		errmsg("writing the trace to '%s' failed: %s (%lu line%s lost)",
		       w->o->outfile ? w->o->outfile : "stderr", strerror(w->write_errno), lost,
		       lost == 1 ? "" : "s");
		rc = -1;
	}
	free(w);
	return rc;
}
