/* The held command of record, probe trace, the tracers and syscalls --kernel (see spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spawn.h"
#include "util/stopsig.h"
#include "util/strbuf.h"

int held_spawn(const char *path, char **argv, struct held_child *c, char *err, size_t errlen)
{
	int go[2], failed[2];
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(failed, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (c->pid == 0) {
		char b;
		close(go[1]);
		close(failed[0]);
		child_signals_as_inherited();
		if (read(go[0], &b, 1) != 1)
			_exit(127);	/* the recording was abandoned */
		if (path)
			execv(path, argv);
		else
			execvp(argv[0], argv);
		int e = errno;
		if (write(failed[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(failed[1]);
	c->go = go[1];
	c->failed = failed[0];
	return 0;
}


int held_release(struct held_child *c, const char *name, char *err, size_t errlen)
{
	char go = 1;
	if (write(c->go, &go, 1) != 1) {
		snprintf(err, errlen, "cannot start '%s'", name);
		return -1;
	}
	close(c->go);
	c->go = -1;
	return 0;
}

/* One file's mappings while reading /proc/PID/maps. */
struct mapped {
	char path[4096];
	uint64_t base, end;
};

static void flush_mapped(struct strbuf *sb, struct mapped *m)
{
	struct stat st;

	if (m->path[0] && !strchr(m->path, ';') && stat(m->path, &st) == 0)
		sb_printf(sb, "%s%" PRIx64 "-%" PRIx64 " %lld %s", sb->len ? ";" : "", m->base,
			  m->end, (long long)st.st_mtime, m->path);
	m->path[0] = '\0';
}

char *held_exec_maps(const struct held_child *c)
{
	struct pollfd p = { .fd = c->failed, .events = POLLIN };
	char name[64], line[4096 + 128];

	/* The exec closes the error pipe (close-on-exec) without writing to it. */
	if (c->pid <= 0 || c->failed < 0 || poll(&p, 1, 1000) != 1 || (p.revents & POLLIN))
		return NULL;
	snprintf(name, sizeof(name), "/proc/%d/maps", (int)c->pid);
	FILE *f = fopen(name, "re");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	struct mapped *m = calloc(1, sizeof(*m));
	while (m && fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, off;
		int pathat = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &lo, &hi, &off,
			   &pathat) < 3)
			continue;
		char *path = line + pathat;
		path[strcspn(path, "\n")] = '\0';
		if (path[0] != '/') {
			if (m->path[0] && !path[0] && lo == m->end)
				m->end = hi;	/* the .bss after the file's data */
			else
				flush_mapped(&sb, m);
			continue;
		}
		if (strcmp(path, m->path) != 0) {
			flush_mapped(&sb, m);
			snprintf(m->path, sizeof(m->path), "%s", path);
			m->base = lo - off;
		}
		m->end = hi;
	}
	if (m)
		flush_mapped(&sb, m);
	free(m);
	fclose(f);
	if (!sb.len) {
		sb_free(&sb);
		return NULL;
	}
	return sb.buf;
}

void spawn_release_standard_fds(void)
{
	for (int fd = 0; fd <= 1; fd++) {
		/*
		 * Only what the command inherited: started with fd 0 or 1 closed,
		 * the tracer's own files may be there now (close-on-exec, all of them).
		 */
		int flags = fcntl(fd, F_GETFD);
		if (flags < 0 || (flags & FD_CLOEXEC))
			continue;
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0)
			return;
		close(p[1]);
		if (p[0] != fd) {
			dup3(p[0], fd, O_CLOEXEC);
			close(p[0]);
		}
	}
}
