/* struct termios, termios2 and termio as strace prints them (ioctl TCGETS, TCSETS2, TCGETA, ...). */
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

/* struct termios2 (TCGETS2/TCSETS2): termios and the two speeds. */
struct sc_ktermios2 {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[SC_KTERMIOS_NCCS];
	uint32_t c_ispeed, c_ospeed;
};

/* The old struct termio (TCGETA/TCSETA): 16-bit flag words, 8 control characters. */
#define SC_KTERMIO_NCC 8
struct sc_ktermio {
	uint16_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[SC_KTERMIO_NCC];
};

/* The four flag words; with -v also c_line and c_cc ("..." without). */
void p_termios(struct sc_call *c, uint64_t addr);
/* The same for struct termios2 (and its speeds with -v) and struct termio. */
void p_termios2(struct sc_call *c, uint64_t addr);
void p_termio(struct sc_call *c, uint64_t addr);

#endif
