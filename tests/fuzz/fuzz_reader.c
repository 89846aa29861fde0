/*
 * Fuzz the trace.dat reader: any bytes give a reader that yields events, or one
 * error line naming the file; never a crash or a hang.  The input goes to a memfd
 * (libtracecmd opens files by path: /proc/self/fd/N), and every event is printed
 * both as text and as JSON, so the printers see what a corrupt file holds too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "report/report.h"
#include "tracefile/reader.h"

#define MAX_EVENTS 20000

static void iterate(struct tf_reader *r)
{
	struct tf_event ev;
	struct trace_seq s;
	char err[512];

	trace_seq_init(&s);
	for (int n = 0; n < MAX_EVENTS && tf_reader_next(r, &ev, err, sizeof(err)) > 0; n++) {
		trace_seq_reset(&s);
		rp_format_line(tf_reader_tep(r), ev.record, ev.event, ev.cpu,
			       tf_reader_info(r)->ts_usecs, &s);
		trace_seq_reset(&s);
		rp_format_json(tf_reader_tep(r), ev.record, ev.event, ev.cpu, &s);
	}
	trace_seq_destroy(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024];
	int fd = memfd_create("fuzz-trace.dat", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	struct tf_reader *r = tf_reader_open(path, err, sizeof(err));
	if (r) {
		iterate(r);
		tf_reader_close(r);
	} else if (!memchr(err, '\0', sizeof(err)) || strchr(err, '\n') || !strstr(err, path)) {
		abort();	/* the error must be one line naming the file */
	}
	close(fd);
	return 0;
}
