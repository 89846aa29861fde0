/*
 * The stop signals of a tracekit run that owns kernel or tracee state
 * (instances, probes, breakpoints): SIGINT, SIGTERM and SIGHUP call fn, which
 * only sets a flag, so the run stops and cleans up; they do not restart
 * interrupted waits, so a poll or waitpid returns at once.  SIGPIPE is
 * ignored: a reader that went away (| head) or a held child that died before
 * it was released is a failed write the caller handles, never a death that
 * leaves that state behind.
 */
#ifndef TRACEKIT_UTIL_STOPSIG_H
#define TRACEKIT_UTIL_STOPSIG_H

void catch_stop_signals(void (*fn)(int));

/* SIGPIPE ignored in tracekit, its first disposition remembered for the commands it runs. */
void ignore_sigpipe(void);

/*
 * SIGCHLD at its default in tracekit, its first disposition remembered for
 * the commands it runs: inherited ignored (SIG_IGN, SA_NOCLDWAIT), children
 * would be reaped by the kernel and a wait for the command never return.
 */
void default_sigchld(void);

/*
 * In a forked child before it execs a user's command: the signals tracekit
 * ignores for itself back as tracekit found them (an ignored signal stays
 * ignored across exec, so `tracekit record -- yes | head` would never see its
 * SIGPIPE otherwise), and the stop signals at their defaults.
 */
void child_signals_as_inherited(void);

/*
 * The command was killed by sig: so are we, as strace does, so that whoever
 * waits for us sees the same death (without a core dump of our own).  Returns
 * for a signal that does not kill (SIGCHLD...): the exit status says it then.
 */
void die_of_signal(int sig);

#endif
