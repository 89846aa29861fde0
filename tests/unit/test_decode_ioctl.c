/*
 * ioctl: tty requests with their structs.  The expected lines are strace 6.1's
 * for the same values (stty on a pty: `stty size`, and stty setting every flag).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "syscalls/print_termios.h"
#include "tk_test.h"

/* A pty's defaults as stty sane leaves them. */
static struct sc_ktermios sane(void)
{
	struct sc_ktermios t = {
		.c_iflag = 0002400, .c_oflag = 0000005, .c_cflag = 0000277, .c_lflag = 0105073,
		.c_line = 0,
		.c_cc = { 0x3, 0x1c, 0x7f, 0x15, 0x4, 0, 0x1, 0, 0x11, 0x13, 0x1a, 0, 0x12, 0xf,
			  0x17, 0x16, 0 },
	};
	return t;
}

static const char sane_flags[] =
	"c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, "
	"c_cflag=B38400|CS8|CREAD, "
	"c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE";

static void test_tcgets_abbreviated(void)
{
	struct dh d;
	struct sc_ktermios t = sane();
	char want[512];
	dh_init(&d, SYS_ioctl, 0, 0x5401, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &t, sizeof(t));
	snprintf(want, sizeof(want), "ioctl(0, TCGETS, {%s, ...}) = 0", sane_flags);
	CHECK_STR(dh_run(&d, 0), want);
	dh_free(&d);
}

static void test_tcgets_verbose_has_line_and_cc(void)
{
	struct dh d;
	struct sc_ktermios t = sane();
	char want[1024];
	dh_init(&d, SYS_ioctl, 0, 0x5401, 0x1000, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_EXIT, 0x1000, &t, sizeof(t));
	snprintf(want, sizeof(want), "ioctl(0, TCGETS, {%s, c_line=N_TTY, c_cc=[[VINTR]=0x3, "
		 "[VQUIT]=0x1c, [VERASE]=0x7f, [VKILL]=0x15, [VEOF]=0x4, [VTIME]=0, [VMIN]=0x1, "
		 "[VSWTC]=0, [VSTART]=0x11, [VSTOP]=0x13, [VSUSP]=0x1a, [VEOL]=0, "
		 "[VREPRINT]=0x12, [VDISCARD]=0xf, [VWERASE]=0x17, [VLNEXT]=0x16, [VEOL2]=0, "
		 "[17]=0, [18]=0]}) = 0", sane_flags);
	CHECK_STR(dh_run(&d, 0), want);
	dh_free(&d);
}

/* Every flag stty can set, with delay fields at non-zero values and CS7. */
static void test_tcsetsw_every_flag(void)
{
	struct dh d;
	struct sc_ktermios t = sane();
	t.c_iflag = 0077777 & ~0040000u;	/* IGNBRK .. IMAXBEL */
	t.c_iflag |= 0040000;			/* IUTF8 */
	t.c_oflag = 0000377 | 0000400 | 0002000 | 0004000 | 0020000 | 0040000 | 0100000;
	t.c_cflag = 0000017 | 0000040 | 0000100 | 0000200 | 0000400 | 0001000 | 0002000 | 0004000 |
		    010000000000 | 020000000000;
	t.c_lflag = 0000001 | 0000002 | 0000004 | 0000010 | 0000020 | 0000040 | 0000100 |
		    0000200 | 0000400 | 0001000 | 0002000 | 0004000 | 0010000 | 0100000 | 0200000;
	dh_init(&d, SYS_ioctl, 0, 0x5403, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &t, sizeof(t));
	CHECK_STR(dh_run(&d, 0), "ioctl(0, SNDCTL_TMR_STOP or TCSETSW, {c_iflag=IGNBRK|BRKINT|"
		  "IGNPAR|PARMRK|INPCK|ISTRIP|INLCR|IGNCR|ICRNL|IUCLC|IXON|IXANY|IXOFF|IMAXBEL|"
		  "IUTF8, c_oflag=NL1|CR2|TAB1|BS1|VT1|FF1|OPOST|OLCUC|ONLCR|OCRNL|ONOCR|ONLRET|"
		  "OFILL|OFDEL, c_cflag=B38400|CS7|CSTOPB|CREAD|PARENB|PARODD|HUPCL|CLOCAL|CMSPAR|"
		  "CRTSCTS, c_lflag=ISIG|ICANON|XCASE|ECHO|ECHOE|ECHOK|ECHONL|NOFLSH|IEXTEN|"
		  "ECHOCTL|ECHOPRT|ECHOKE|FLUSHO|TOSTOP|EXTPROC, ...}) = 0");
	dh_free(&d);
}

/* Not a tty: the kernel wrote nothing, the struct is an address. */
static void test_tcgets_on_a_file_is_an_address(void)
{
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, 0x5401, 0x7ffc1000, 0, 0, 0);
	CHECK_STR(dh_run(&d, -ENOTTY),
		  "ioctl(3, TCGETS, 0x7ffc1000) = -1 ENOTTY (Inappropriate ioctl for device)");
	dh_free(&d);
}

static void test_tiocgwinsz(void)
{
	struct dh d;
	struct winsize ws = { 24, 80, 0, 0 };
	dh_init(&d, SYS_ioctl, 1, TIOCGWINSZ, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ws, sizeof(ws));
	CHECK_STR(dh_run(&d, 0),
		  "ioctl(1, TIOCGWINSZ, {ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_tcgets_abbreviated), TK_CASE(test_tcgets_verbose_has_line_and_cc),
	TK_CASE(test_tcsetsw_every_flag), TK_CASE(test_tcgets_on_a_file_is_an_address),
	TK_CASE(test_tiocgwinsz))
