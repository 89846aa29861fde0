/*
 * V4L2 and SIOCGIFCONF on success, what the strace-vs-tracekit e2e test
 * cannot reach with descriptor -1: the driver's answer at exit and arrays
 * behind pointers in the argument (window clips, the interface list).  The
 * expected lines follow strace 6.1's format for the same values (its
 * ioctl_v4l2-success and ioctl_sock_gifconf tests).
 */
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/syscall.h>
#include <linux/sockios.h>
#include <linux/videodev2.h>

#include "decode_harness.h"
#include "tk_test.h"

/* The kernel version as a macro call, flags by name; -X raw numbers, -X verbose both. */
static void test_querycap_in_three_styles(void)
{
	static const char *const want[] = {
		"ioctl(3, VIDIOC_QUERYCAP, {driver=\"uvcvideo\", card=\"Cam\", bus_info=\"usb-1\", "
		"version=KERNEL_VERSION(6, 1, 0), capabilities=V4L2_CAP_VIDEO_CAPTURE|"
		"V4L2_CAP_STREAMING|V4L2_CAP_DEVICE_CAPS, device_caps=V4L2_CAP_VIDEO_CAPTURE|"
		"V4L2_CAP_STREAMING}) = 0",
		"ioctl(3, 0x80685600, {driver=\"uvcvideo\", card=\"Cam\", bus_info=\"usb-1\", "
		"version=0x60100, capabilities=0x84000001, device_caps=0x4000001}) = 0",
		"ioctl(3, 0x80685600 /* VIDIOC_QUERYCAP */, {driver=\"uvcvideo\", card=\"Cam\", "
		"bus_info=\"usb-1\", version=0x60100 /* KERNEL_VERSION(6, 1, 0) */, "
		"capabilities=0x84000001 /* V4L2_CAP_VIDEO_CAPTURE|V4L2_CAP_STREAMING|"
		"V4L2_CAP_DEVICE_CAPS */, device_caps=0x4000001 /* V4L2_CAP_VIDEO_CAPTURE|"
		"V4L2_CAP_STREAMING */}) = 0",
	};
	static const enum xlat_style styles[] = { XLAT_STYLE_ABBREV, XLAT_STYLE_RAW,
						  XLAT_STYLE_VERBOSE };
	struct v4l2_capability caps;
	memset(&caps, 0, sizeof(caps));
	strcpy((char *)caps.driver, "uvcvideo");
	strcpy((char *)caps.card, "Cam");
	strcpy((char *)caps.bus_info, "usb-1");
	caps.version = 0x060100;
	caps.capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS;
	caps.device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	for (int i = 0; i < 3; i++) {
		struct dh d;
		dh_init(&d, SYS_ioctl, 3, VIDIOC_QUERYCAP, 0x1000, 0, 0, 0);
		dh_mem(&d, SC_AT_EXIT, 0x1000, &caps, sizeof(caps));
		xlat_style = styles[i];
		CHECK_STR(dh_run(&d, 0), want[i]);
		xlat_style = XLAT_STYLE_ABBREV;
		dh_free(&d);
	}
}

/* TRY_FMT: the window asked for, its clips behind a pointer, then what the driver made of it. */
static void test_try_fmt_window_clips_and_answer(void)
{
	struct dh d;
	struct v4l2_clip clip = { .c = { 1, 2, 30, 40 } };
	struct v4l2_format in, out;
	memset(&in, 0, sizeof(in));
	in.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	in.fmt.win.w.width = 320;
	in.fmt.win.w.height = 240;
	in.fmt.win.clips = (struct v4l2_clip *)0x2000;
	in.fmt.win.clipcount = 1;
	out = in;
	out.fmt.win.w.width = 160;
	out.fmt.win.w.height = 120;
	dh_init(&d, SYS_ioctl, 3, VIDIOC_TRY_FMT, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &clip, sizeof(clip));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &out, sizeof(out));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, VIDIOC_TRY_FMT, {type=V4L2_BUF_TYPE_VIDEO_OVERLAY, "
		  "fmt.win={w={left=0, top=0, width=320, height=240}, field=V4L2_FIELD_ANY, "
		  "chromakey=0, clips=[{c={left=1, top=2, width=30, height=40}}], clipcount=1, "
		  "bitmap=NULL}} => {fmt.win={w={left=0, top=0, width=160, height=120}, "
		  "field=V4L2_FIELD_ANY, chromakey=0, clips=[{c={left=1, top=2, width=30, "
		  "height=40}}], clipcount=1, bitmap=NULL}}) = 0");
	dh_free(&d);
}

/* A clip array that stops being readable: what was read, then where it stopped. */
static void test_clips_cut_where_memory_ends(void)
{
	struct dh d;
	struct v4l2_clip clip = { .c = { 1, 2, 30, 40 } };
	struct v4l2_format in;
	memset(&in, 0, sizeof(in));
	in.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	in.fmt.win.clips = (struct v4l2_clip *)0x2000;
	in.fmt.win.clipcount = 2;
	dh_init(&d, SYS_ioctl, -1, VIDIOC_S_FMT, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &clip, sizeof(clip));
	CHECK_STR(dh_run(&d, -9), "ioctl(-1, VIDIOC_S_FMT, {type=V4L2_BUF_TYPE_VIDEO_OVERLAY, "
		  "fmt.win={w={left=0, top=0, width=0, height=0}, field=V4L2_FIELD_ANY, "
		  "chromakey=0, clips=[{c={left=1, top=2, width=30, height=40}}, ... /* 0x2018 */], "
		  "clipcount=2, bitmap=NULL}}) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

/* A fake tracee: SPACE_LEN bytes at SPACE, nothing readable past them. */
#define SPACE 0x5000u
#define SPACE_LEN 0x130u
static unsigned char space[SPACE_LEN];

static long read_space(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr < SPACE || addr >= SPACE + SPACE_LEN)
		return -1;
	size_t n = SPACE + SPACE_LEN - addr < len ? SPACE + SPACE_LEN - addr : len;
	memcpy(buf, space + (addr - SPACE), n);
	return (long)n;
}

/* The engine's copy of the ioctl spec follows the clip pointer: two clips, then the end of memory. */
static void test_engine_follows_clip_pointer(void)
{
	struct dh d;
	struct v4l2_format f;
	struct v4l2_clip clips[2] = { { .c = { 1, 2, 3, 4 } }, { .c = { 5, 6, 7, 8 } } };
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	f.fmt.win.clips = (struct v4l2_clip *)(uintptr_t)(SPACE + 0x100);
	f.fmt.win.clipcount = 3;
	memcpy(space, &f, sizeof(f));
	memcpy(space + 0x100, clips, sizeof(clips));
	dh_init(&d, SYS_ioctl, (uint64_t)-1, VIDIOC_TRY_FMT, SPACE, 0, 0, 0);
	d.c.ent = sc_by_nr(SYS_ioctl);	/* what an engine sets before it copies */
	sc_mem_fetch(&d.c, SC_AT_ENTRY, read_space, NULL);
	CHECK_STR(dh_run(&d, -9), "ioctl(-1, VIDIOC_TRY_FMT, {type=V4L2_BUF_TYPE_VIDEO_OVERLAY, "
		  "fmt.win={w={left=0, top=0, width=0, height=0}, field=V4L2_FIELD_ANY, "
		  "chromakey=0, clips=[{c={left=1, top=2, width=3, height=4}}, {c={left=5, top=6, "
		  "width=7, height=8}}, ... /* 0x5130 */], clipcount=3, bitmap=NULL}}) = "
		  "-1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

/* SIOCGIFCONF: the interfaces the kernel wrote behind ifc_buf. */
static void test_ifconf_interface_array(void)
{
	struct dh d;
	struct ifreq reqs[2];
	struct ifconf in = { .ifc_len = sizeof(reqs), .ifc_buf = (char *)0x2000 }, out = in;
	memset(reqs, 0, sizeof(reqs));
	for (int i = 0; i < 2; i++) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&reqs[i].ifr_addr;
		strcpy(reqs[i].ifr_name, i ? "eth0" : "lo");
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(i ? 0xc0000202 : INADDR_LOOPBACK);
	}
	out.ifc_len = sizeof(reqs[0]);
	dh_init(&d, SYS_ioctl, 3, SIOCGIFCONF, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &out, sizeof(out));
	dh_mem(&d, SC_AT_EXIT, 0x2000, reqs, sizeof(reqs));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, SIOCGIFCONF, {ifc_len=80 /* 2 * sizeof(struct ifreq) */ "
		  "=> 40 /* 1 * sizeof(struct ifreq) */, ifc_buf=[{ifr_name=\"lo\", ifr_addr={sa_family=AF_INET, "
		  "sin_port=htons(0), sin_addr=inet_addr(\"127.0.0.1\")}}]}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_querycap_in_three_styles), TK_CASE(test_try_fmt_window_clips_and_answer),
	TK_CASE(test_clips_cut_where_memory_ends), TK_CASE(test_engine_follows_clip_pointer),
	TK_CASE(test_ifconf_interface_array))
