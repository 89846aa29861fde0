/*
 * polling: readiness and event fds — poll, ppoll, select, pselect6, epoll
 * (create1/ctl/wait/pwait), eventfd2, timerfd and signalfd.  Every wait has
 * something ready or a short timeout, so the program never blocks for long.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "progs.h"

static void poll_family(int rfd, int wfd)
{
	struct pollfd pfd[2] = { { rfd, POLLIN, 0 }, { wfd, POLLOUT, 0 } };
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct timeval tv = { 0, 10 * 1000 };
	fd_set rset, wset;

	check(poll(pfd, 2, 100) == 1, "poll");
	check(ppoll(pfd, 1, &ts, NULL) == 0, "ppoll timeout");
	FD_ZERO(&rset);
	FD_ZERO(&wset);
	FD_SET(rfd, &rset);
	FD_SET(wfd, &wset);
	check(select(wfd + 1, &rset, &wset, NULL, &tv) == 1, "select");
	FD_ZERO(&rset);
	FD_SET(rfd, &rset);
	check(pselect(rfd + 1, &rset, NULL, NULL, &ts, NULL) == 0, "pselect6 timeout");
}

static void epoll_family(int efd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 42 }, out[2];
	uint64_t one = 1;
	int ep;

	ep = epoll_create1(EPOLL_CLOEXEC);
	check(ep >= 0, "epoll_create1");
	check(epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev) == 0, "epoll_ctl");
	check(epoll_wait(ep, out, 2, 0) == 0, "epoll_wait empty");
	check(write(efd, &one, sizeof(one)) == sizeof(one), "eventfd write");
	check(epoll_pwait(ep, out, 2, 100, NULL) == 1 && out[0].data.u64 == 42, "epoll_pwait");
	check(read(efd, &one, sizeof(one)) == sizeof(one), "eventfd read");
	check(epoll_ctl(ep, EPOLL_CTL_DEL, efd, NULL) == 0, "epoll_ctl del");
	close(ep);
}

static void timer_and_signal_fds(void)
{
	struct itimerspec its = { { 0, 0 }, { 0, 20 * 1000 * 1000 } };
	struct itimerval alarm_in = { { 0, 0 }, { 0, 10 * 1000 } };
	struct signalfd_siginfo si;
	uint64_t ticks;
	sigset_t set;
	int tfd, sfd;

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	check(tfd >= 0, "timerfd_create");
	check(timerfd_settime(tfd, 0, &its, NULL) == 0, "timerfd_settime");
	check(read(tfd, &ticks, sizeof(ticks)) == sizeof(ticks), "timerfd read");
	close(tfd);

	/*
	 * SIGALRM from a timer, not kill(): the siginfo then carries no pid, and
	 * the bytes read are the same on every run.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "sigprocmask");
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	check(sfd >= 0, "signalfd");
	check(setitimer(ITIMER_REAL, &alarm_in, NULL) == 0, "setitimer");
	check(read(sfd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGALRM, "signalfd read");
	close(sfd);
}

int main(void)
{
	int pfd[2], efd;

	check(pipe(pfd) == 0, "pipe");
	poll_family(pfd[0], pfd[1]);
	close(pfd[0]);
	close(pfd[1]);

	efd = eventfd(0, EFD_CLOEXEC);
	check(efd >= 0, "eventfd2");
	epoll_family(efd);
	close(efd);

	timer_and_signal_fds();
	return 0;
}
