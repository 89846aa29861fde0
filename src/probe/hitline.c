/*
 * The hit line's common handling for both backends; see hitline.h.
 */
#include "probe/hitline.h"

#include <stdlib.h>
#include <string.h>

#include "probe/elfsym.h"
#include "util/json.h"
#include "util/strbuf.h"

/* "name+0x1/0x10" for a run-time address of pid, through its maps; -1 if unknown. */
static int symbolize_pid(int pid, uint64_t addr, struct strbuf *out)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int rc = -1;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &lo, &hi, &off, &name_at) < 3 ||
		    addr < lo || addr >= hi || !name_at || line[name_at] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		char err[256];
		struct es_file *ef = es_open(line + name_at, err, sizeof(err));
		uint64_t vaddr;
		if (ef && es_offset_to_vaddr(ef, addr - lo + off, &vaddr) == 0)
			rc = es_symbolize(ef, vaddr, out);
		es_close(ef);
		break;
	}
	fclose(f);
	return rc;
}

int ph_symbolize(const struct probe_def *def, uint64_t bias, int pid, uint64_t v,
		 struct strbuf *out)
{
	char err[256];
	struct es_file *ef = es_open(def->path, err, sizeof(err));
	int rc = ef ? es_symbolize(ef, v - bias, out) : -1;
	es_close(ef);
	return rc == 0 ? 0 : symbolize_pid(pid, v, out);
}

int ph_line_pid(const char *line)
{
	const char *br = strstr(line, " [");
	if (!br)
		return -1;
	const char *p = br;
	while (p > line && p[-1] == ' ')
		p--;
	const char *dash = p;
	while (dash > line && dash[-1] != '-')
		dash--;
	return dash > line ? atoi(dash) : -1;
}

int ph_unknown_comm_tid(const char *line)
{
	const char *at = line + strspn(line, " ");
	return strncmp(at, "<...>-", 6) ? 0 : atoi(at + 6);
}

void ph_set_comm(const char *line, const char *comm, struct strbuf *out)
{
	const char *at = line + strspn(line, " ");
	if (strncmp(at, "<...>-", 6)) {
		sb_add(out, line);
		return;
	}
	sb_printf(out, "%*s", (int)(at - line) + 5, comm);
	sb_add(out, at + 5);
}

/* {"pid": N, "event": ..., "fields": "...", "line": ...} -- the facts of the text line. */
static void print_json(const char *line, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *colon = strstr(line, ": ");
	const char *evs = colon ? colon + 2 : "";
	const char *eve = strchr(evs, ':');
	sb_add(&sb, "{\"pid\":");
	sb_printf(&sb, "%d,\"event\":", ph_line_pid(line));
	json_strn(&sb, evs, eve ? (size_t)(eve - evs) : 0);
	sb_add(&sb, ",\"fields\":");
	const char *f = eve ? eve + 1 : "";
	while (*f == ' ')
		f++;
	json_strn(&sb, f, strlen(f));
	sb_add(&sb, ",\"line\":");
	json_strn(&sb, line, strlen(line));
	sb_add(&sb, "}\n");
	fputs(sb_str(&sb), out);
	sb_free(&sb);
}

void ph_emit(const char *line, bool json, FILE *out)
{
	if (json)
		print_json(line, out);
	else
		fprintf(out, "%s\n", line);
}
