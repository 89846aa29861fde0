/*
 * Why the kernel refused a kernel probe, in more words than error_log's.
 *
 * The kernel says "Failed to register probe event" both for a function on
 * its kprobe blacklist (code kprobes itself runs: do_int3, kprobe_*) and for
 * a data symbol, and "Invalid probed address or symbol" for a name it does
 * not have.  /proc/kallsyms and debugfs's kprobes/blacklist tell them apart;
 * for a missing name, kallsyms's closest function names are the hint.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kexplain.h"
#include "util/editdist.h"
#include "util/strbuf.h"

#define KALLSYMS "/proc/kallsyms"
#define BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

struct ksym {
	bool found;
	char type;		/* kallsyms's letter: t/T code, d/D/b/B/r/R data */
	char near[512];		/* closest function names when not found */
};

static bool is_code(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* "ADDR TYPE NAME [MODULE]": the name matches, and the module when one was given. */
static bool line_matches(const char *name, const char *mod, const char *sym, const char *owner)
{
	if (strcmp(sym, name))
		return false;
	if (!mod)
		return true;
	size_t n = strlen(mod);
	return owner && owner[0] == '[' && !strncmp(owner + 1, mod, n) && owner[n + 1] == ']';
}

static void look_up(const char *name, const char *mod, struct ksym *k)
{
	FILE *f = fopen(KALLSYMS, "re");
	char line[512], type, sym[256], owner[128];
	struct closest c;
	size_t nlen = strlen(name);

	memset(k, 0, sizeof(*k));
	if (!f)
		return;
	closest_init(&c, nlen / 3 + 2);
	while (fgets(line, sizeof(line), f)) {
		owner[0] = '\0';
		if (sscanf(line, "%*s %c %255s %127s", &type, sym, owner) < 2)
			continue;
		if (line_matches(name, mod, sym, owner[0] ? owner : NULL)) {
			k->found = true;
			k->type = type;
			if (is_code(type))
				break;
		} else if (is_code(type)) {
			closest_offer(&c, name, nlen, sym);
		}
	}
	fclose(f);
	closest_join(&c, k->near, sizeof(k->near));
	closest_free(&c);
}

/* 1 when name is on the kprobe blacklist, 0 when not, -1 when the list cannot be read. */
static int blacklisted(const char *name)
{
	FILE *f = fopen(BLACKLIST, "re");
	char line[512], sym[256];
	int hit = 0;
	if (!f)
		return -1;
	while (!hit && fgets(line, sizeof(line), f))
		hit = sscanf(line, "%*s %255s", sym) == 1 && !strcmp(sym, name);
	fclose(f);
	return hit;
}

void pk_explain_kernel(const struct probe_def *def, struct strbuf *why)
{
	struct ksym k;
	if (def->target != PD_KERNEL || !def->symbol)
		return;
	look_up(def->symbol, def->module, &k);
	if (!k.found) {
		sb_printf(why, ": this kernel has no function %s%s%s", def->module ? def->module : "",
			  def->module ? ":" : "", def->symbol);
		if (k.near[0])
			sb_printf(why, " (did you mean %s?)", k.near);
		return;
	}
	if (!is_code(k.type)) {
		sb_printf(why, ": %s is data ('%c' in " KALLSYMS "), not code: a probe goes on a "
			  "function; read data with a fetch arg such as @%s", def->symbol, k.type,
			  def->symbol);
		return;
	}
	int bl = blacklisted(def->symbol);
	if (bl > 0)
		sb_printf(why, ": %s is on the kernel's kprobe blacklist (" BLACKLIST "): code that "
			  "kprobes itself runs cannot be probed", def->symbol);
	else if (bl < 0)
		sb_printf(why, ": %s may be on the kernel's kprobe blacklist (mount debugfs and see "
			  BLACKLIST ")", def->symbol);
}
