/*
 * `tracekit help VERB` on a terminal opens the manual page tracekit-VERB(1) when
 * one is installed, as `git help` does.  Piped, or without the page or man(1), the
 * caller prints the built-in text, so scripts and the completion keep reading it.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/* `man -w PAGE` succeeds: the page is installed (and man is there). */
static bool man_page_installed(const char *page)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "man", "-w", (char *)page, NULL };
	pid_t pid;
	int st, rc;

	if (posix_spawn_file_actions_init(&fa))
		return false;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "man", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return false;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

void help_open_man(const char *verb)
{
	char page[64];

	if (!isatty(STDOUT_FILENO))
		return;
	if (snprintf(page, sizeof(page), "tracekit-%s", verb) >= (int)sizeof(page))
		return;
	if (!man_page_installed(page))
		return;
	fflush(NULL);
	execlp("man", "man", page, (char *)NULL);
}
