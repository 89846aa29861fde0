/*
 * Fuzz several trace files read as one (tracefile/merge.c): the input is two files, the
 * first's length in its first 4 bytes (little-endian), the second the rest.  Their GUEST
 * and TIME_SHIFT options pair them (or not), the vCPU map is searched in their events, and
 * every merged event is printed; any bytes give events or one error line, never a crash.
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
#include "tracefile/merge.h"

#define MAX_EVENTS 20000

static int file_of(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-merge.dat", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char a[64], b[64], err[1024];
	const char *paths[2] = { a, b };
	uint32_t first;

	if (size < 4)
		return 0;
	memcpy(&first, data, 4);
	first = le32toh(first);
	if (first > size - 4)
		first = (uint32_t)(size - 4);
	int fa = file_of(data + 4, first, a, sizeof(a));
	int fb = file_of(data + 4 + first, size - 4 - first, b, sizeof(b));
	if (fa < 0 || fb < 0)
		goto out;
	err[0] = '\0';
	struct tf_merge *m = tf_merge_open(paths, 2, err, sizeof(err));
	if (!m) {
		if (!memchr(err, '\0', sizeof(err)) || strchr(err, '\n') ||
		    (!strstr(err, a) && !strstr(err, b)))
			abort();	/* one line naming the file */
		goto out;
	}
	if (tf_merge_find_vcpus(m, err, sizeof(err)) == 0) {
		struct trace_seq s;
		struct tf_event ev;
		trace_seq_init(&s);
		for (int n = 0; n < MAX_EVENTS && tf_merge_next(m, &ev, err, sizeof(err)) > 0; n++) {
			const struct tf_machine *x = tf_merge_machine(m, ev.machine);
			trace_seq_reset(&s);
			rp_format_line(tf_reader_tep(x->r), ev.record, ev.event, ev.cpu, true, &s);
			for (int k = 0; x->host >= 0 && k < x->nvcpu; k++)
				if (x->vcpu_pid[k] < 0)
					abort();	/* a pid the map must not hold */
		}
		trace_seq_destroy(&s);
	}
	tf_merge_close(m);
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return 0;
}
