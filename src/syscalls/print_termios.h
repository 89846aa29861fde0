/* struct termios as strace prints it (ioctl TCGETS, TCSETS, TCSETSW, TCSETSF). */
#ifndef TRACEKIT_SYSCALLS_PRINT_TERMIOS_H
#define TRACEKIT_SYSCALLS_PRINT_TERMIOS_H

#include "decoder.h"

/* The kernel's struct termios (not glibc's, which is longer): what TCGETS copies out. */
#define SC_KTERMIOS_NCCS 19
struct sc_ktermios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[SC_KTERMIOS_NCCS];
};

/* The four flag words; with -v also c_line and c_cc ("..." without). */
void p_termios(struct sc_call *c, uint64_t addr);

#endif
