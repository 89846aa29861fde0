/*
 * Inputs besides files and pipes: the live kernel log (/dev/kmsg) and pstore,
 * where the kernel saved the log of the crash before the reboot.  Both become
 * ordinary log text ("[  12.345678] message") for the parser.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oops/oops.h"
#include "util/die.h"

/*
 * A /dev/kmsg record: "PRI,SEQ,USEC,FLAGS[,caller=T12];message\n" and
 * " KEY=value" dictionary lines.  Non-printable bytes come escaped (\x0a).
 */
static void kmsg_record(struct strbuf *out, const char *rec, size_t n)
{
	const char *semi = memchr(rec, ';', n);
	if (!semi)
		return;
	unsigned long long usec = 0;
	char caller[32] = "";
	const char *p = memchr(rec, ',', (size_t)(semi - rec));
	if (p)
		p = memchr(p + 1, ',', (size_t)(semi - p - 1));
	if (p)
		usec = strtoull(p + 1, NULL, 10);
	const char *c = memmem(rec, (size_t)(semi - rec), "caller=", 7);
	if (c)
		snprintf(caller, sizeof(caller), "[%.*s] ", (int)(semi - c - 7), c + 7);
	const char *msg = semi + 1, *end = memchr(msg, '\n', n - (size_t)(msg - rec));
	if (!end)
		end = rec + n;
	sb_printf(out, "[%5llu.%06llu] %s", usec / 1000000, usec % 1000000, caller);
	for (const char *q = msg; q < end; q++) {
		unsigned v;
		if (q[0] == '\\' && q + 3 < end && q[1] == 'x' && sscanf(q + 2, "%2x", &v) == 1) {
			sb_addc(out, v == '\n' ? ' ' : (char)v);
			q += 3;
		} else {
			sb_addc(out, *q);
		}
	}
	sb_addc(out, '\n');
}

int oops_read_kmsg(const char *path, struct strbuf *out, char *err, size_t errsz)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s%s", path, strerror(errno),
			 errno == EACCES || errno == EPERM ? " (reading the kernel log needs root or "
			 "kernel.dmesg_restrict=0)" : "");
		return -1;
	}
	char rec[8192];
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec));
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading: go on with the next */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;		/* everything there is has been read */
		if (n < 0) {
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		kmsg_record(out, rec, (size_t)n);
	}
	close(fd);
	return 0;
}

/* pstore's dmesg files, e.g. dmesg-ramoops-0, dmesg-efi-168000000001 (".enc.z": compressed). */
static int dmesg_file(const struct dirent *e)
{
	return !strncmp(e->d_name, "dmesg-", 6);
}

/* Parts of one record are numbered from the end of the log: Part1 is the newest. */
static int part_of(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[256] = "";
	int part = 0;
	if (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, " Part");
		if (p)
			part = atoi(p + 5);
	}
	fclose(f);
	return part;
}

struct part {
	char path[4096];
	int part;
};

static int by_part_desc(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	if (x->part != y->part)
		return y->part - x->part;
	return strcmp(x->path, y->path);
}

int oops_read_pstore(const char *dir, struct strbuf *out, char *err, size_t errsz)
{
	struct dirent **names;
	int n = scandir(dir, &names, dmesg_file, alphasort);
	if (n < 0) {
		snprintf(err, errsz, "%s: %s (is pstore mounted? mount -t pstore pstore %s)", dir,
			 strerror(errno), dir);
		return -1;
	}
	struct part *parts = xcalloc((size_t)n + 1, sizeof(*parts));
	int np = 0, compressed = 0;
	for (int i = 0; i < n; i++) {
		if (strstr(names[i]->d_name, ".enc.z"))
			compressed++;
		else {
			snprintf(parts[np].path, sizeof(parts[np].path), "%s/%s", dir, names[i]->d_name);
			parts[np].part = part_of(parts[np].path);
			np++;
		}
		free(names[i]);
	}
	free(names);
	qsort(parts, (size_t)np, sizeof(*parts), by_part_desc);
	for (int i = 0; i < np; i++) {
		FILE *f = fopen(parts[i].path, "r");
		if (!f)
			continue;
		char buf[8192];
		size_t k;
		/* The "Oops#1 Part1" header is pstore's, not the log's. */
		if (fgets(buf, sizeof(buf), f) && !strstr(buf, " Part"))
			sb_add(out, buf);
		while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
			sb_addn(out, buf, k);
		fclose(f);
		if (out->len && out->buf[out->len - 1] != '\n')
			sb_addc(out, '\n');
	}
	free(parts);
	if (!np) {
		snprintf(err, errsz, "%s: no dmesg records%s", dir,
			 compressed ? " tracekit can read (only compressed .enc.z ones)" : "");
		return -1;
	}
	return 0;
}
