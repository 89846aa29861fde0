/*
 * ioctls: one or two requests of each ioctl family tracekit decodes (evdev,
 * GPIO, seccomp notifications, tty, sockets, PTP, RTC, userfaultfd, KVM,
 * V4L2, HID and ZFS names, perf events)
 * on descriptor -1.  Every call fails with EBADF after the kernel has seen
 * the request, so the trace shows what the tracer decodes at entry (and a
 * getter's NULL at exit) with no device present and nothing changed.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termio.h>
#include <linux/gpio.h>
#include <linux/hiddev.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/perf_event.h>
#include <linux/ptp_clock.h>
#include <linux/rtc.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <linux/videodev2.h>

#include "progs.h"

/* Every request here must fail with EBADF: anything else means it reached a device. */
static void bad_fd(unsigned long req, void *arg, const char *what)
{
	check(ioctl(-1, req, arg) == -1 && errno == EBADF, what);
}

static void evdev(void)
{
	unsigned keycode[2] = { 30, KEY_ESC };
	struct ff_effect ff;

	memset(&ff, 0, sizeof(ff));
	ff.type = FF_CONSTANT;
	ff.id = 3;
	ff.u.constant.level = -100;
	bad_fd(EVIOCGVERSION, NULL, "EVIOCGVERSION");
	bad_fd(EVIOCGBIT(EV_KEY, 96), NULL, "EVIOCGBIT");
	bad_fd(EVIOCGABS(ABS_MT_SLOT), NULL, "EVIOCGABS");
	bad_fd(EVIOCSABS(0x3e), NULL, "EVIOCSABS");
	bad_fd(EVIOCSKEYCODE, keycode, "EVIOCSKEYCODE");
	bad_fd(EVIOCSFF, &ff, "EVIOCSFF");
	bad_fd(EVIOCGRAB, (void *)1, "EVIOCGRAB");
}

static void gpio(void)
{
	struct gpio_v2_line_values vals = { .bits = 0x5, .mask = 0xf };
	struct gpio_v2_line_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = GPIO_V2_LINE_FLAG_OUTPUT | GPIO_V2_LINE_FLAG_ACTIVE_LOW;
	cfg.num_attrs = 1;
	cfg.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
	cfg.attrs[0].attr.debounce_period_us = 500;
	cfg.attrs[0].mask = 0x3;
	bad_fd(GPIO_GET_CHIPINFO_IOCTL, NULL, "GPIO_GET_CHIPINFO_IOCTL");
	bad_fd(GPIO_V2_LINE_SET_VALUES_IOCTL, &vals, "GPIO_V2_LINE_SET_VALUES_IOCTL");
	bad_fd(GPIO_V2_LINE_SET_CONFIG_IOCTL, &cfg, "GPIO_V2_LINE_SET_CONFIG_IOCTL");
}

static void seccomp_notify(void)
{
	struct seccomp_notif_resp resp = { .id = 7, .val = -1, .error = -EPERM, .flags = 0 };
	struct seccomp_notif_addfd addfd = { .id = 7, .flags = SECCOMP_ADDFD_FLAG_SETFD,
					     .srcfd = 1, .newfd = 9, .newfd_flags = 02000000 };

	bad_fd(SECCOMP_IOCTL_NOTIF_RECV, NULL, "SECCOMP_IOCTL_NOTIF_RECV");
	bad_fd(SECCOMP_IOCTL_NOTIF_SEND, &resp, "SECCOMP_IOCTL_NOTIF_SEND");
	bad_fd(SECCOMP_IOCTL_NOTIF_ADDFD, &addfd, "SECCOMP_IOCTL_NOTIF_ADDFD");
}

static void tty_and_clocks(void)
{
	int lines = TIOCM_DTR | TIOCM_RTS;
	struct ptp_extts_request extts = { .index = 1, .flags = PTP_ENABLE_FEATURE | PTP_RISING_EDGE };
	struct ptp_perout_request perout;
	struct rtc_time tm = { .tm_sec = 5, .tm_min = 4, .tm_hour = 3, .tm_mday = 2, .tm_mon = 1,
			       .tm_year = 124 };
	struct rtc_param param = { .param = RTC_PARAM_CORRECTION, .svalue = -12, .index = 0 };

	memset(&perout, 0, sizeof(perout));
	perout.start.sec = 1700000000;
	perout.period.sec = 1;
	perout.index = 2;
	bad_fd(TIOCMBIS, &lines, "TIOCMBIS");
	bad_fd(TIOCMGET, NULL, "TIOCMGET");
	bad_fd(PTP_CLOCK_GETCAPS, NULL, "PTP_CLOCK_GETCAPS");
	bad_fd(PTP_EXTTS_REQUEST, &extts, "PTP_EXTTS_REQUEST");
	bad_fd(PTP_PEROUT_REQUEST, &perout, "PTP_PEROUT_REQUEST");
	bad_fd(RTC_AIE_ON, NULL, "RTC_AIE_ON");
	bad_fd(RTC_SET_TIME, &tm, "RTC_SET_TIME");
	bad_fd(RTC_PARAM_SET, &param, "RTC_PARAM_SET");
}

static void tty_structs_and_sockets(void)
{
	struct termio tio;
	struct ifreq ifr;
	int owner = 42;

	memset(&tio, 0, sizeof(tio));
	tio.c_iflag = ICRNL;
	tio.c_cflag = B9600 | CS8 | CREAD;
	tio.c_lflag = ICANON | ECHO;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_flags = IFF_UP | IFF_LOOPBACK;
	bad_fd(TCSETA, &tio, "TCSETA");
	bad_fd(TCGETA, NULL, "TCGETA");
	bad_fd(FIOSETOWN, &owner, "FIOSETOWN");
	bad_fd(SIOCSIFFLAGS, &ifr, "SIOCSIFFLAGS");
	bad_fd(SIOCGIFMTU, &ifr, "SIOCGIFMTU");
}

static void uffd_and_kvm(void)
{
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_THREAD_ID };
	struct uffdio_range range = { .start = 0x10000, .len = 0x2000 };
	struct kvm_userspace_memory_region region = { .slot = 1, .guest_phys_addr = 0x1000,
						       .memory_size = 4096, .userspace_addr = 0x7000 };
	struct kvm_regs regs;

	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 0x2;
	bad_fd(UFFDIO_API, &api, "UFFDIO_API");
	bad_fd(UFFDIO_WAKE, &range, "UFFDIO_WAKE");
	bad_fd(KVM_CHECK_EXTENSION, (void *)KVM_CAP_USER_MEMORY, "KVM_CHECK_EXTENSION");
	bad_fd(KVM_SET_USER_MEMORY_REGION, &region, "KVM_SET_USER_MEMORY_REGION");
	bad_fd(KVM_SET_REGS, &regs, "KVM_SET_REGS");
}

/* V4L2: a fourcc with its name, a window whose clips are behind a pointer, a control array. */
static void v4l2(void)
{
	struct v4l2_clip clips[2] = { { .c = { 1, 2, 30, 40 } }, { .c = { -5, 6, 70, 80 } } };
	struct v4l2_format pix, win;
	struct v4l2_ext_control ctrl = { .id = V4L2_CID_BRIGHTNESS, .value64 = 7 };
	struct v4l2_ext_controls ctrls = { .ctrl_class = V4L2_CTRL_CLASS_USER, .count = 1,
					   .controls = &ctrl };
	struct v4l2_control one = { .id = V4L2_CID_CONTRAST, .value = 3 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	memset(&pix, 0, sizeof(pix));
	pix.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	pix.fmt.pix.width = 640;
	pix.fmt.pix.height = 480;
	pix.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	pix.fmt.pix.field = V4L2_FIELD_NONE;
	pix.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
	memset(&win, 0, sizeof(win));
	win.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	win.fmt.win.w.width = 320;
	win.fmt.win.w.height = 240;
	win.fmt.win.clips = clips;
	win.fmt.win.clipcount = 2;
	bad_fd(VIDIOC_S_FMT, &pix, "VIDIOC_S_FMT pix");
	bad_fd(VIDIOC_TRY_FMT, &win, "VIDIOC_TRY_FMT win");
	bad_fd(VIDIOC_S_CTRL, &one, "VIDIOC_S_CTRL");
	bad_fd(VIDIOC_S_EXT_CTRLS, &ctrls, "VIDIOC_S_EXT_CTRLS");
	bad_fd(VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");
	bad_fd(VIDIOC_QUERYCAP, NULL, "VIDIOC_QUERYCAP");
}

/*
 * Requests named only, one number with two names (hiddev's and hidraw's),
 * a name carrying its length, ZFS's (not in the kernel's headers), and a
 * perf event's new attr.
 */
static void names_and_perf(void)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = PERF_ATTR_SIZE_VER5;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.sample_period = 1000;
	attr.exclude_kernel = 1;
	bad_fd(HIDIOCGVERSION, NULL, "HIDIOCGVERSION");
	bad_fd(HIDIOCGPHYS(8), NULL, "HIDIOCGPHYS");
	bad_fd('Z' << 8 | 'A', NULL, "ZFS_IOC_SEND_SPACE");
	bad_fd(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr, "PERF_EVENT_IOC_MODIFY_ATTRIBUTES");
}

int main(void)
{
	evdev();
	gpio();
	seccomp_notify();
	tty_and_clocks();
	tty_structs_and_sockets();
	uffd_and_kvm();
	v4l2();
	names_and_perf();
	/* A request no family knows: the number, and the argument in hex. */
	bad_fd(_IOC(_IOC_READ, 'E', 0xfe, 0xff), (void *)0x1234, "unknown request");
	return 0;
}
