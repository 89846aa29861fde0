/* ptrace: requests, syscall info cut to the caller's size, register sets; lines from strace 6.1. */
#include <elf.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <linux/ptrace.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_unknown_request_and_pid(void)
{
	struct dh d;
	dh_init(&d, SYS_ptrace, 0xdeadbeeffffffeedULL, 0xdefaced000026b0ULL, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -3), "ptrace(0xdeadbeeffffffeed /* PTRACE_??? */, 9904, NULL, NULL) = "
		  "-1 ESRCH (No such process)");
	dh_free(&d);
}

static void test_cont_and_setoptions(void)
{
	struct dh d;
	dh_init(&d, SYS_ptrace, PTRACE_CONT, 42, 0, SIGUSR1, 0, 0);
	CHECK_STR(dh_run(&d, 0), "ptrace(PTRACE_CONT, 42, NULL, SIGUSR1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_ptrace, PTRACE_SETOPTIONS, 42, 0, PTRACE_O_TRACESYSGOOD, 0, 0);
	CHECK_STR(dh_run(&d, 0), "ptrace(PTRACE_SETOPTIONS, 42, NULL, PTRACE_O_TRACESYSGOOD) = 0");
	dh_free(&d);
}

/* Only the fields both the caller's size (addr) and the kernel's (the return) hold. */
static void test_syscall_info_cut_to_size(void)
{
	struct ptrace_syscall_info si;
	struct dh d;
	memset(&si, 0, sizeof(si));
	si.op = PTRACE_SYSCALL_INFO_EXIT;
	si.arch = 0xc000003e;
	si.instruction_pointer = 0x7efde56f7829;
	si.stack_pointer = 0x7ffde3fcadf8;
	si.exit.rval = -2;
	si.exit.is_error = 1;
	dh_init(&d, SYS_ptrace, PTRACE_GET_SYSCALL_INFO, 7, 16, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &si, 16);
	CHECK_STR(dh_run(&d, 33), "ptrace(PTRACE_GET_SYSCALL_INFO, 7, 16, {op=PTRACE_SYSCALL_INFO_EXIT, "
		  "arch=AUDIT_ARCH_X86_64, instruction_pointer=0x7efde56f7829}) = 33");
	dh_free(&d);
	dh_init(&d, SYS_ptrace, PTRACE_GET_SYSCALL_INFO, 7, 88, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &si, 88);
	CHECK_STR(dh_run(&d, 33), "ptrace(PTRACE_GET_SYSCALL_INFO, 7, 88, {op=PTRACE_SYSCALL_INFO_EXIT, "
		  "arch=AUDIT_ARCH_X86_64, instruction_pointer=0x7efde56f7829, stack_pointer=0x7ffde3fcadf8, "
		  "exit={rval=-ENOENT, is_error=1}}) = 33");
	dh_free(&d);
}

/* A regset prints the registers its length holds; a length the kernel changed shows both. */
static void test_getregset_partial_and_changed_length(void)
{
	struct user_regs_struct r;
	struct iovec before = { (void *)0x2000, 16 }, after = { (void *)0x2000, 8 };
	struct dh d;
	memset(&r, 0, sizeof(r));
	r.r15 = 0x559c3438b130;
	r.r14 = 0x13;
	dh_init(&d, SYS_ptrace, PTRACE_GETREGSET, 7, NT_PRSTATUS, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &before, sizeof(before));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &after, sizeof(after));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &r, sizeof(r));
	CHECK_STR(dh_run(&d, 0), "ptrace(PTRACE_GETREGSET, 7, NT_PRSTATUS, "
		  "{iov_base={r15=0x559c3438b130}, iov_len=16 => 8}) = 0");
	dh_free(&d);
	/* not a multiple of 8: the address */
	struct iovec odd = { (void *)0x2000, 9 };
	dh_init(&d, SYS_ptrace, PTRACE_SETREGSET, 7, NT_PRSTATUS, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &odd, sizeof(odd));
	CHECK_STR(dh_run(&d, -22), "ptrace(PTRACE_SETREGSET, 7, NT_PRSTATUS, {iov_base=0x2000, "
		  "iov_len=9}) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_unknown_request_and_pid),
	TK_CASE(test_cont_and_setoptions),
	TK_CASE(test_syscall_info_cut_to_size),
	TK_CASE(test_getregset_partial_and_changed_length))
