/*
 * prctl.c - prctl (172), the options real programs and LTP use:
 * PR_SET_NAME / PR_GET_NAME (a process's name as ps, top and trace show
 * it: busybox and glibc's pthread_setname_np set it), PR_SET_DUMPABLE /
 * PR_GET_DUMPABLE (core files: kernel/task/coredump.c), PR_SET_PDEATHSIG
 * / PR_GET_PDEATHSIG (stress-ng's workers: the signal the parent's end
 * sends), the TSC mode, timer slack, child subreapers, no_new_privs, the
 * THP flag (kept and reported: this kernel has no huge pages), the timing
 * kind, and the capability options (kernel/task/capability.c).
 * Every other option is -EINVAL, as Linux answers an option it does not
 * know, with one console line per option so a program's needs show up.
 * Arguments an option does not take must be 0 where Linux says so.
 */
#include "prctl.h"
#include "lib/errno.h"
#include "kernel/debug/printk.h"
#include "proc.h"
#include "kernel/arch/cpu.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/prctl.h>

/* Linux's SUID_DUMP_DISABLE and SUID_DUMP_USER: the values SET takes. */
#define DUMP_DISABLE	0
#define DUMP_USER	1

/* Linux copies at most 15 bytes and always ends the name: a longer name is
 * cut, not refused. The copy is made under the table lock, so that ps
 * (call 507) never reads half a name. */
/* PR_SET_NAME and PR_GET_NAME copy a whole name, never half of one. */
static struct spinlock name_lock = SPINLOCK_INIT("name");

static int set_name(const char *uname)
{
	char name[PROC_NAME_MAX];
	uint32_t n = 0;
	for (; n < sizeof(name) - 1; n++) {
		if (copy_from_user(&name[n], uname + n, 1) < 0)
			return -EFAULT;
		if (name[n] == '\0')
			break;
	}
	name[n] = '\0';
	spin_lock(&name_lock);
	memcpy(current()->name, name, sizeof(name));
	spin_unlock(&name_lock);
	return 0;
}

static int get_name(char *uname)
{
	char name[PROC_NAME_MAX];
	spin_lock(&name_lock);
	memcpy(name, current()->name, sizeof(name));
	spin_unlock(&name_lock);
	return copy_to_user(uname, name, sizeof(name)) < 0 ? -EFAULT : 0;
}

static void log_unknown(uint32_t option)
{
	static uint32_t logged[2];	/* options 0..63; the rest share bit 63 */
	uint32_t bit = option < 64 ? option : 63;
	if (__atomic_fetch_or(&logged[bit / 32], 1u << (bit % 32), __ATOMIC_RELAXED) &
	    (1u << (bit % 32)))
		return;
	printk("prctl: option %u not implemented; -EINVAL (logged once)\n", option);
}

/* The options of the process as a whole and of this thread's state;
 * -ENOSYS for one that is not here. */
static int task_option(uint32_t option, uint32_t arg2)
{
	struct proc *p = current()->group_leader;	/* dumpable is the process's */
	switch (option) {
	case PR_SET_NAME:
		return set_name((const char *)arg2);
	case PR_GET_NAME:
		return get_name((char *)arg2);
	case PR_SET_PDEATHSIG:		/* the thread's, not the process's */
		if (arg2 > NSIG)
			return -EINVAL;
		current()->pdeath_signal = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return copy_to_user((int *)arg2, &current()->pdeath_signal, sizeof(int)) < 0 ? -EFAULT : 0;
	case PR_SET_TSC:
		if (arg2 != PR_TSC_ENABLE && arg2 != PR_TSC_SIGSEGV)
			return -EINVAL;
		push_cli();			/* this CPU's CR4, not another's */
		current()->tsc_sigsegv = arg2 == PR_TSC_SIGSEGV;
		cpu_tsc_user(mycpu(), current()->tsc_sigsegv);
		pop_cli();
		return 0;
	case PR_GET_TSC: {
		int v = current()->tsc_sigsegv ? PR_TSC_SIGSEGV : PR_TSC_ENABLE;
		return copy_to_user((int *)arg2, &v, sizeof(v)) < 0 ? -EFAULT : 0;
	}
	case PR_SET_CHILD_SUBREAPER:
		__atomic_store_n(&p->child_subreaper, arg2 != 0, __ATOMIC_RELAXED);
		return 0;
	case PR_GET_CHILD_SUBREAPER: {
		int v = p->child_subreaper;
		return copy_to_user((int *)arg2, &v, sizeof(v)) < 0 ? -EFAULT : 0;
	}
	case PR_SET_TIMERSLACK:		/* 0: back to the value the thread began with */
		current()->timer_slack_ns = arg2 ? arg2 : current()->default_timer_slack_ns;
		return 0;
	case PR_GET_TIMERSLACK:
		return (int)current()->timer_slack_ns;
	case PR_GET_DUMPABLE:
		return p->group->dumpable;
	case PR_SET_DUMPABLE:
		if (arg2 != DUMP_DISABLE && arg2 != DUMP_USER)
			return -EINVAL;
		p->group->dumpable = (uint8_t)arg2;
		return 0;
	case PR_GET_TIMING:
		return PR_TIMING_STATISTICAL;
	case PR_SET_TIMING:		/* the other kind, timestamps, never was built */
		return arg2 == PR_TIMING_STATISTICAL ? 0 : -EINVAL;
	default:
		return -ENOSYS;
	}
}

/* The flags whose calls take no argument past what they say. */
static int flag_option(uint32_t option, uint32_t arg2, uint32_t arg3, uint32_t arg4, uint32_t arg5)
{
	struct thread_group *g = current()->group;
	switch (option) {
	case PR_SET_NO_NEW_PRIVS:	/* for good: nothing takes it off */
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		current()->caps.no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return current()->caps.no_new_privs;
	case PR_SET_THP_DISABLE:
		if (arg3 || arg4 || arg5)
			return -EINVAL;
		g->thp_disable = arg2 != 0;
		return 0;
	case PR_GET_THP_DISABLE:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return g->thp_disable;
	default:
		return -ENOSYS;
	}
}

/* Linux's order: the capability options (its security hook) first. */
int sys_prctl(uint32_t option, uint32_t arg2, uint32_t arg3, uint32_t arg4, uint32_t arg5)
{
	int r = caps_prctl(option, arg2, arg3, arg4, arg5);
	if (r == -ENOSYS)
		r = task_option(option, arg2);
	if (r == -ENOSYS)
		r = flag_option(option, arg2, arg3, arg4, arg5);
	if (r == -ENOSYS) {
		log_unknown(option);
		r = -EINVAL;
	}
	return r;
}
