// SPDX-License-Identifier: GPL-2.0
/*
 * oops: a module whose init stores through a NULL pointer, to read a real oops.
 *
 * Loading it kills insmod with an oops (the kernel goes on, tainted D; with
 * oops=panic or panic_on_oops=1 it panics).  Decode the log with:
 *
 *   dmesg | tracekit oops --modules examples/kernel/oops
 *
 * gcc drops a store through a pointer it can prove NULL (a static never written,
 * a literal 0), so the pointer comes from a module parameter it cannot see
 * through: 0 unless given.  Do not load this on a machine you care about.
 */
#include <linux/kernel.h>
#include <linux/module.h>

struct my_data {
	long count;
	int flags;	/* the store below lands here: NULL + 8 */
};

static unsigned long target;
module_param(target, ulong, 0444);
MODULE_PARM_DESC(target, "the address my_oops_init writes to (default 0: NULL)");

static int __init my_oops_init(void)
{
	struct my_data *d = (struct my_data *)target;

	pr_info("oops: writing through %px\n", d);
	d->flags = 1;
	return 0;
}

static void __exit my_oops_exit(void)
{
	pr_info("oops: unloaded\n");
}

module_init(my_oops_init);
module_exit(my_oops_exit);
MODULE_DESCRIPTION("stores through a NULL pointer at load, for oops decoding");
MODULE_LICENSE("GPL");
