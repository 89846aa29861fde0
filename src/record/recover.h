/*
 * When record cannot write its trace (a full disk), the per-CPU files stay
 * (OUTPUT.cpuN) with a note of what the trace needs beside them
 * (OUTPUT.recover: the events, clock, file version, notes, boot).  Once
 * there is room, `tracekit record --recover OUTPUT` assembles OUTPUT from
 * them with the event formats the running kernel still has.
 */
#ifndef TRACEKIT_RECORD_RECOVER_H
#define TRACEKIT_RECORD_RECOVER_H

struct ft_session;

/*
 * Write OUTPUT.recover for the session's enabled events, before recording
 * while there is room (best effort: errors are ignored).
 */
void rec_recover_note(struct ft_session *s, const char *const *notes, int nnotes,
		      const char *clock, int version, const char *output);
/* Remove OUTPUT.recover (the recording finished, or kept nothing). */
void rec_recover_forget(const char *output);
/* record --recover OUTPUT; returns tracekit's exit status. */
int rec_recover(const char *output);

#endif
