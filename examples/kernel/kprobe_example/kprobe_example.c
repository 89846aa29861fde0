// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_example: a kprobe with pre- and post-handlers, and a kretprobe, from a module.
 *
 * The kprobe sits on kernel_clone (the work behind fork, clone and vfork; do_fork before
 * 5.10).  Its pre-handler runs before the probed instruction, its post-handler after it
 * was single-stepped; each prints where it is.  The kretprobe on the same function prints
 * what it returned: the new task's pid, as the parent sees it.
 *
 *   insmod kprobe_example.ko [symbol=FUNCTION]
 *   sh -c 'true & wait'; dmesg | grep kprobe_example
 *   rmmod kprobe_example
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

static char symbol[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "the function to probe (default kernel_clone)");

static int pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	pr_info("kprobe_example: <%s> pre_handler: p->addr = 0x%px, ip = %lx, flags = 0x%lx\n",
		p->symbol_name, p->addr, regs->ip, regs->flags);
	return 0;	/* 0: go on and run the probed instruction */
}

static void post_handler(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	pr_info("kprobe_example: <%s> post_handler: p->addr = 0x%px, flags = 0x%lx\n",
		p->symbol_name, p->addr, regs->flags);
}

static struct kprobe kp = {
	.pre_handler = pre_handler,
	.post_handler = post_handler,
};

static int ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	pr_info("kprobe_example: <%s> returned %ld to %s[%d]\n", symbol,
		(long)regs_return_value(regs), current->comm, current->pid);
	return 0;
}

static struct kretprobe krp = {
	.handler = ret_handler,
	.maxactive = 16,	/* forks in flight at once before misses are counted */
};

static int __init kprobe_example_init(void)
{
	int ret;

	kp.symbol_name = symbol;
	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("kprobe_example: register_kprobe(%s) failed: %d\n", symbol, ret);
		return ret;
	}
	krp.kp.symbol_name = symbol;
	ret = register_kretprobe(&krp);
	if (ret < 0) {
		pr_err("kprobe_example: register_kretprobe(%s) failed: %d\n", symbol, ret);
		unregister_kprobe(&kp);
		return ret;
	}
	pr_info("kprobe_example: planted a kprobe at %px and a kretprobe on %s\n", kp.addr, symbol);
	return 0;
}

static void __exit kprobe_example_exit(void)
{
	unregister_kretprobe(&krp);
	unregister_kprobe(&kp);
	pr_info("kprobe_example: removed; the kretprobe missed %d calls\n", krp.nmissed);
}

module_init(kprobe_example_init);
module_exit(kprobe_example_exit);
MODULE_DESCRIPTION("kprobe and kretprobe with handlers, on kernel_clone");
MODULE_LICENSE("GPL");
