/*
 * Fuzz the -F check (src/tracefile/filtercheck.c): any filter text against two
 * known events gives 0 or one error line; then libtraceevent's own filter
 * parser gets the text the check let through, as report does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tracefile/filtercheck.h"

static const char switch_fmt[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";
static const char wakeup_fmt[] =
	"name: sched_wakeup\nID: 373\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static struct tep_handle *tep;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];

	if (!tep) {
		tep = tep_alloc();
		if (!tep)
			return 0;
		tep_set_loglevel(TEP_LOG_NONE);
		tep_parse_event(tep, switch_fmt, sizeof(switch_fmt) - 1, "sched");
		tep_parse_event(tep, wakeup_fmt, sizeof(wakeup_fmt) - 1, "sched");
	}
	char *filter = malloc(size + 1);
	if (!filter)
		return 0;
	memcpy(filter, data, size);
	filter[size] = '\0';
	err[0] = '\0';
	if (tf_filter_check(tep, filter, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();	/* the error must be a line */
	} else {
		struct tep_event_filter *f = tep_filter_alloc(tep);
		if (f) {
			tep_filter_add_filter_str(f, filter);
			tep_filter_free(f);
		}
	}
	free(filter);
	return 0;
}
