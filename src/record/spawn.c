/* The held command of record and probe trace (see spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"

int rec_spawn_held(char **argv, struct rec_child *c, char *err, size_t errlen)
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
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(go[0], &b, 1) != 1)
			_exit(127);	/* the recording was abandoned */
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


int rec_release_held(struct rec_child *c, const char *name, char *err, size_t errlen)
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
