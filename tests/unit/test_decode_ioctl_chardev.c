/*
 * ioctl families of character devices and the like (evdev, GPIO, userfaultfd,
 * RTC, KVM) on success, what the strace-vs-tracekit e2e test cannot reach
 * with descriptor -1: what the kernel wrote back, printed at exit.  The
 * expected lines are strace 6.1's for the same values (its test suite's
 * ioctl_*-success programs).
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/gpio.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/rtc.h>
#include <linux/userfaultfd.h>

#include "decode_harness.h"
#include "tk_test.h"

/* EVIOCGBIT's bitmap: as many bytes as the call returned; -X raw the words, -X verbose both. */
static void test_evdev_key_bitmap_in_three_styles(void)
{
	static const char *const want[] = {
		"ioctl(-1, EVIOCGBIT(EV_KEY, 96), [KEY_1 KEY_2 KEY_F12]) = 16",
		"ioctl(-1, 0x80604521, [0xc, 0x1000000]) = 16",
		"ioctl(-1, 0x80604521 /* EVIOCGBIT(EV_KEY, 96) */, [0x2 /* KEY_1 */ 0x3 /* KEY_2 */ "
		"0x58 /* KEY_F12 */] /* [0xc, 0x1000000] */) = 16",
	};
	static const enum xlat_style styles[] = { XLAT_STYLE_ABBREV, XLAT_STYLE_RAW,
						  XLAT_STYLE_VERBOSE };
	uint64_t bits[12] = { 1u << KEY_1 | 1u << KEY_2, 1ull << (KEY_F12 - 64) };
	for (int i = 0; i < 3; i++) {
		struct dh d;
		dh_init(&d, SYS_ioctl, (uint64_t)-1, EVIOCGBIT(EV_KEY, 96), 0x1000, 0, 0, 0);
		dh_mem(&d, SC_AT_EXIT, 0x1000, bits, sizeof(bits));
		xlat_style = styles[i];
		CHECK_STR(dh_run(&d, 16), want[i]);
		xlat_style = XLAT_STYLE_ABBREV;
		dh_free(&d);
	}
}

/* What the kernel filled in comes after " => ", the offset asked for before it. */
static void test_gpio_line_info_before_and_after(void)
{
	struct dh d;
	struct gpioline_info in = { .line_offset = 5 }, out = in;
	out.flags = GPIOLINE_FLAG_IS_OUT | GPIOLINE_FLAG_ACTIVE_LOW;
	strcpy(out.name, "led0");
	strcpy(out.consumer, "heartbeat");
	dh_init(&d, SYS_ioctl, 3, GPIO_GET_LINEINFO_IOCTL, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &out, sizeof(out));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, GPIO_GET_LINEINFO_IOCTL, {line_offset=5} => "
		  "{flags=GPIOLINE_FLAG_IS_OUT|GPIOLINE_FLAG_ACTIVE_LOW, name=\"led0\", "
		  "consumer=\"heartbeat\"}) = 0");
	dh_free(&d);
}

/* UFFDIO_API: the features print again only when the kernel changed them. */
static void test_uffdio_api_features_changed(void)
{
	struct dh d;
	struct uffdio_api in = { .api = UFFD_API }, out = in;
	out.features = UFFD_FEATURE_EVENT_FORK;
	out.ioctls = 1ull << _UFFDIO_API;
	dh_init(&d, SYS_ioctl, 3, UFFDIO_API, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &out, sizeof(out));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, UFFDIO_API, {api=0xaa, features=0 => "
		  "features=UFFD_FEATURE_EVENT_FORK, ioctls=1<<_UFFDIO_API}) = 0");
	dh_free(&d);
}

/* RTC_PARAM_GET: the parameter asked for at entry, its value at exit. */
static void test_rtc_param_get_value(void)
{
	struct dh d;
	struct rtc_param in = { .param = RTC_PARAM_FEATURES }, out = in;
	out.uvalue = 1u << RTC_FEATURE_ALARM | 1u << RTC_FEATURE_UPDATE_INTERRUPT;
	dh_init(&d, SYS_ioctl, 3, RTC_PARAM_GET, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &out, sizeof(out));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, RTC_PARAM_GET, {param=RTC_PARAM_FEATURES, index=0} => "
		  "{uvalue=1<<RTC_FEATURE_ALARM|1<<RTC_FEATURE_UPDATE_INTERRUPT}) = 0");
	dh_free(&d);
}

/* KVM_GET_REGS: without -v the general registers between rax and rsp are elided. */
static void test_kvm_get_regs_abbreviated(void)
{
	struct dh d;
	struct kvm_regs r;
	memset(&r, 0, sizeof(r));
	r.rax = 2;
	r.rip = 0x1000;
	r.rflags = 2;
	dh_init(&d, SYS_ioctl, 5, KVM_GET_REGS, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &r, sizeof(r));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, KVM_GET_REGS, {rax=0x2, ..., rsp=0, rbp=0, ..., "
		  "rip=0x1000, rflags=0x2}) = 0");
	dh_free(&d);
}

/* A getter that failed shows where its struct would have gone. */
static void test_failed_getter_is_an_address(void)
{
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, KVM_GET_REGS, 0x7ffc1000, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EFAULT), "ioctl(5, KVM_GET_REGS, 0x7ffc1000) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_evdev_key_bitmap_in_three_styles), TK_CASE(test_gpio_line_info_before_and_after),
	TK_CASE(test_uffdio_api_features_changed), TK_CASE(test_rtc_param_get_value),
	TK_CASE(test_kvm_get_regs_abbreviated), TK_CASE(test_failed_getter_is_an_address))
