/*
 * A stand-in for a recording that gets SIGKILLed: makes an ftrace session
 * with sched:sched_switch enabled and tracing on, prints the instance's name,
 * and waits to be killed.  test_list_reset.py then checks that
 * `tracekit reset` removes what it left.
 */
#include <stdio.h>
#include <unistd.h>

#include "ftrace/session.h"

int main(void)
{
	char err[512];
	struct ft_session *s = ft_session_new(err, sizeof(err));
	if (!s) {
		fprintf(stderr, "session_holder: %s\n", err);
		return 1;
	}
	if (ft_enable_events(s, "sched:sched_switch", err, sizeof(err)) < 0 ||
	    ft_tracing_on(s, true, err, sizeof(err)) < 0) {
		fprintf(stderr, "session_holder: %s\n", err);
		ft_session_destroy(s);
		return 1;
	}
	printf("%s\n", ft_instance_name(s));
	fflush(stdout);
	/* Waits for SIGKILL; a plain exit (stdin closed) cleans up as a recording would. */
	char c;
	while (read(0, &c, 1) > 0)
		;
	ft_session_destroy(s);
	return 0;
}
