/*
 * scribble: calls whose memory it changes right after they return, for
 * --kernel's promise that a line shows what the call saw (the BPF program
 * reads it during the call; nothing is read from the process later).  Also
 * prints its own TracerPid, which stays 0 under --kernel.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char buf[8] = "before";
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return 1;
	for (int i = 0; i < 3; i++) {
		syscall(SYS_write, fd, buf, 6);
		memcpy(buf, "AFTER!", 6);
		syscall(SYS_ioctl, -1, TIOCSWINSZ, &ws);
		ws.ws_row = 99;
		ws.ws_col = 99;
		/* Back, for the next round: each call must show the bytes of its own moment. */
		memcpy(buf, "before", 6);
		ws.ws_row = 24;
		ws.ws_col = 80;
	}
	char status[4096];
	int sfd = open("/proc/self/status", O_RDONLY);
	ssize_t n = sfd < 0 ? -1 : read(sfd, status, sizeof(status) - 1);
	if (n <= 0)
		return 1;
	status[n] = 0;
	const char *t = strstr(status, "TracerPid:");
	printf("%.*s\n", t ? (int)strcspn(t, "\n") : 0, t ? t : "");
	return 0;
}
