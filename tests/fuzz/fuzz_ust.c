/*
 * Fuzz the readers of user tracepoint descriptions: any bytes as a binary's
 * "tracekit_events" section (list --binary), and as a process's events file
 * of struct tk_udesc records (record).  Every event read back must have a
 * class that passed the checks, and its format text must be one the
 * kernel's syntax allows: a name line and a print fmt line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ust/abi.h"
#include "ust/binary.h"
#include "ust/format.h"
#include "util/strbuf.h"

static void check_format(const struct tk_event_desc *ev, const struct tk_class_desc *cls)
{
	struct strbuf sb = STRBUF_INIT;

	ust_format_text(ev, cls, 60000, &sb);
	if (strncmp(sb_str(&sb), "name: ", 6) || !strstr(sb_str(&sb), "\nprint fmt: "))
		abort();
	sb_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ust_bin b;
	char why[128];

	ust_bin_parse(data, size, &b);
	for (int i = 0; i < b.nevents; i++) {
		if (!ust_desc_valid(&b.events[i].ev, b.events[i].cls, why, sizeof(why)))
			abort();
		check_format(&b.events[i].ev, b.events[i].cls);
	}
	ust_bin_free(&b);
	for (size_t off = 0; off + sizeof(struct tk_udesc) <= size; off += sizeof(struct tk_udesc)) {
		struct tk_udesc d;

		memcpy(&d, data + off, sizeof(d));
		if (ust_desc_valid(&d.ev, &d.cls, why, sizeof(why)))
			check_format(&d.ev, &d.cls);
	}
	return 0;
}
