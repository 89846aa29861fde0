/* Stop signals for runs that must clean up; see stopsig.h. */
#include "util/stopsig.h"

#include <signal.h>

void catch_stop_signals(void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
