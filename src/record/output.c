/* record's output file: checked first, the trace written aside, renamed (see output.h). */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ftrace/session.h"
#include "meta.h"
#include "tracefile/writer.h"
#include "ust.h"

void rec_part_path(const char *output, char *buf, size_t len)
{
	snprintf(buf, len, "%s.part", output);
}

int rec_check_output(const char *output, char *err, size_t errlen)
{
	char part[4200];
	struct stat st;

	if (stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-o %s is a directory: give a file name (e.g. -o %s/trace.dat)",
			 output, output);
		return -1;
	}
	/* The same directory entry the staging files and the temporary file need. */
	rec_part_path(output, part, sizeof(part));
	int fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 0;	/* left by a killed run; overwritten at the end */
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s (-o takes a file in a writable directory)",
			 output, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(part);
	return 0;
}

int rec_commit_output(const char *output, char *err, size_t errlen)
{
	char part[4200];

	rec_part_path(output, part, sizeof(part));
	if (rename(part, output) == 0)
		return 0;
	snprintf(err, errlen, "cannot rename %s to %s: %s", part, output, strerror(errno));
	unlink(part);
	return -1;
}

int rec_write_file(struct ft_session *s, const char *const *notes, int nnotes, const char *clock,
		   int version, const struct tf_cpu_data *data, int ncpu, struct ust_rec *u,
		   const struct tf_option *opts, int nopts, const char *output, char *err,
		   size_t errlen)
{
	struct rec_meta rm;
	if (rec_meta_gather(s, &rm, err, errlen) < 0)
		return -1;
	rm.m.notes = notes;
	rm.m.nnotes = nnotes;
	rm.m.clock = clock;
	rm.m.version = TRACEKIT_VERSION;
	rm.m.options = opts;
	rm.m.noptions = nopts;

	int rc = -1;
	int ndata = ncpu;
	struct tf_meta meta = rm.m;	/* rm keeps its own arrays to free */
	if (u) {
		ust_rec_meta(u, &meta);
		data = ust_rec_cpu_data(u, data, ncpu, &ndata);
	}
	char part[4200];
	rec_part_path(output, part, sizeof(part));
	struct tf_writer *w = tf_writer_open(part, version, err, errlen);
	/* The kernel's per-CPU stats, so trace-cmd report --stat shows overruns too. */
	for (int i = 0; w && i < ncpu; i++) {
		char rel[64];
		size_t len = 0;
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", i);
		char *text = ft_read_file(s, rel, &len);
		if (text)
			tf_add_cpu_stats(w, i, text, len, NULL, 0);
		free(text);
	}
	if (w && u)
		ust_rec_cpu_stats(u, w);
	if (w && tf_write_meta(w, &meta, err, errlen) == 0 &&
	    tf_write_cpu_data(w, data, ndata, err, errlen) == 0) {
		rc = tf_writer_close(w, err, errlen);
		w = NULL;
	}
	if (w)
		tf_writer_close(w, NULL, 0);
	if (rc == 0)
		rc = rec_commit_output(output, err, errlen);
	else
		unlink(part);
	rec_meta_free(&rm);
	return rc;
}
