/*
 * Fuzz the probe grammar: any text is a definition or one error with a
 * column inside the text (or just past it).  A definition is translated
 * (fake-resolved) and evaluated on a memory that faults everywhere; one with
 * C args (perf probe's syntax) only parses here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_def.h"
#include "probe/translate.h"
#include "util/strbuf.h"

static int no_memory(void *opaque, uint64_t addr, void *buf, size_t len)
{
	(void)opaque, (void)addr, (void)buf, (void)len;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	struct probe_def d;
	struct pd_error e;
	if (pd_parse(spec, &d, &e) < 0) {
		if (e.col < 1 || (size_t)e.col > strlen(spec) + 1 || !memchr(e.msg, '\0', sizeof(e.msg)))
			abort();
		free(spec);
		return 0;
	}
	d.resolved = true;
	/* C args get their fetch from BTF/DWARF (fuzz_cexpr.c walks them); not here */
	for (size_t i = 0; i < d.nargs; i++)
		if (d.args[i].cexpr) {
			pd_free(&d);
			free(spec);
			return 0;
		}
	struct strbuf sb = STRBUF_INIT;
	char err[256];
	if (pd_translate(&d, NULL, NULL, &sb, err, sizeof(err)) < 0)
		abort();
	struct user_regs_struct regs = { 0 };
	struct pd_ctx ctx = { .regs = &regs, .comm = "fuzz", .read = no_memory };
	pd_format_head(&d, &ctx, &sb);
	pd_format_args(&d, &ctx, &sb);
	sb_free(&sb);
	pd_free(&d);
	free(spec);
	return 0;
}
