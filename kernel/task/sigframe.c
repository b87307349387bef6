/*
 * sigframe.c - a signal handler's way in and out (Linux i386's
 * arch/x86/kernel/signal.c): the alternate stack (sigaltstack), the frame
 * built on the user stack (sigcontext, the FPU state, siginfo and
 * ucontext for SA_SIGINFO, the return code), what an interrupted system
 * call does (restart, or EINTR), and sigreturn, which puts back what the
 * frame saved after checking it. kernel/task/signal.c decides which signal
 * is delivered and when.
 */
#include "sigframe.h"
#include "signal.h"
#include "lib/errno.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/debug/printk.h"
#include "proc.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/x86.h"
#include <uapi/unistd.h>	/* sigreturn's numbers, written into the frames' return code */

#define INT80_LEN		2	/* "int $0x80": eip -= 2 runs it again */

/* eflags bits a handler may change through its frame (Linux's FIX_EFLAGS). */
#define EFLAGS_USER	0x00050DD5u	/* AC RF OF DF TF SF ZF AF PF CF */
#define EFLAGS_TF	0x00000100u
#define EFLAGS_DF	0x00000400u
#define EFLAGS_RF	0x00010000u

/* ---- the alternate stack (sigaltstack) --------------------------------------- */

static bool on_altstack(const struct proc *p, uint32_t sp)
{
	return sp > p->sas_ss_sp && sp - p->sas_ss_sp <= p->sas_ss_size;
}

/* Linux's sas_ss_flags: where sp is, as sigaltstack reports it. */
static uint32_t altstack_flags(const struct proc *p, uint32_t sp)
{
	if (!p->sas_ss_size)
		return SS_DISABLE;
	return on_altstack(p, sp) ? SS_ONSTACK : 0;
}

/* Where a handler's frame goes: the alternate stack's top for an
 * SA_ONSTACK handler when one is set and not in use (Linux's
 * get_sigframe), else below the interrupted code's esp. */
static uint32_t signal_stack(const struct proc *p, uint32_t esp, const struct sigaction *ka)
{
	if ((ka->sa_flags & SA_ONSTACK) && altstack_flags(p, esp) == 0)
		return p->sas_ss_sp + p->sas_ss_size;
	return esp;
}

/* sigaltstack (186): Linux's do_sigaltstack. Not while running on it
 * (EPERM); ss_flags 0, SS_ONSTACK (taken as 0) or SS_DISABLE, with
 * SS_AUTODISARM beside; a stack under MINSIGSTKSZ is ENOMEM. An
 * SS_AUTODISARM stack is reported but not disarmed around handlers here,
 * and rt_sigreturn does not restore uc_stack: known shortcuts. */
int sys_sigaltstack(const stack_t *uss, stack_t *uoss)
{
	struct proc *p = current();
	uint32_t sp = p->tf->esp;
	stack_t old = { (void *)p->sas_ss_sp, (int)(altstack_flags(p, sp) | p->sas_ss_flags),
			p->sas_ss_size };
	if (uss) {
		stack_t ss;
		if (copy_from_user(&ss, uss, sizeof(ss)) < 0)
			return -EFAULT;
		if (on_altstack(p, sp))
			return -EPERM;
		uint32_t mode = (uint32_t)ss.ss_flags & ~SS_AUTODISARM;
		if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
			return -EINVAL;
		if (mode == SS_DISABLE) {
			ss.ss_sp = NULL;
			ss.ss_size = 0;
		} else if (ss.ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		p->sas_ss_sp = (uint32_t)ss.ss_sp;
		p->sas_ss_size = ss.ss_size;
		p->sas_ss_flags = (uint32_t)ss.ss_flags & SS_AUTODISARM;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)) < 0)
		return -EFAULT;
	return 0;
}

/* ---- the frames on the user stack (Linux i386's layouts) --------------------- */

/* For a handler without SA_SIGINFO. The unused FPU area keeps extramask
 * (the mask's upper half) where Linux has it: 624 bytes. */
struct sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	struct sigcontext sc;
	uint8_t fpstate_unused[624];
	uint32_t extramask;
	uint8_t retcode[8];
};

struct rt_sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo, puc;
	siginfo_t info;
	struct ucontext uc;
	uint8_t retcode[8];
};

_Static_assert(sizeof(struct sigcontext) == 88, "Linux's struct sigcontext");
_Static_assert(sizeof(siginfo_t) == 128, "Linux's siginfo_t");
_Static_assert(__builtin_offsetof(struct ucontext, uc_sigmask) == 108, "Linux's struct ucontext");

/* Where a frame goes: below the FPU state, which is below the
 * interrupted stack (Linux's order); fpstate is that state's address. */
struct place {
	uint32_t below;		/* the frame ends below this */
	uint32_t fpstate;
};

static void save_context(struct sigcontext *sc, const struct trapframe *tf, sigset64_t mask,
			 const struct place *at)
{
	*sc = (struct sigcontext){
		.gs = (uint16_t)tf->gs, .fs = (uint16_t)tf->fs,
		.es = (uint16_t)tf->es, .ds = (uint16_t)tf->ds,
		.edi = tf->edi, .esi = tf->esi, .ebp = tf->ebp, .esp = tf->esp,
		.ebx = tf->ebx, .edx = tf->edx, .ecx = tf->ecx, .eax = tf->eax,
		.trapno = tf->trapno, .err = tf->err, .eip = tf->eip, .cs = (uint16_t)tf->cs,
		.eflags = tf->eflags, .esp_at_signal = tf->esp, .ss = (uint16_t)tf->ss,
		.fpstate = at->fpstate, .oldmask = (uint32_t)mask,
		.cr2 = tf->trapno == T_PGFLT ? read_cr2() : 0,
	};
}

/* A frame of n bytes, placed so that the handler starts as if called
 * with a 16-byte aligned stack. */
static uint32_t frame_at(const struct place *at, uint32_t n)
{
	return ((at->below - n + 4) & ~15u) - 4;
}

/*
 * The interrupted code's FPU registers go on the user stack as Linux's
 * struct _fpstate_32 (624 bytes: a 112-byte fnsave-style header, then the
 * fxsave image; magic 0 says the fxsave part is there), and the handler
 * starts with the FPU as fninit leaves it. Returns the address, 0 if the
 * stack has no room.
 */
#define FPSTATE_SIZE	624
#define FPSTATE_FXSAVE	112
#define FPSTATE_MAGIC	110

static uint32_t push_fpstate(struct proc *p, uint32_t esp)
{
	uint8_t head[FPSTATE_FXSAVE];
	uint32_t at = (esp - FPSTATE_SIZE) & ~63u;

	fpu_save(&p->fpu);
	memset(head, 0, sizeof(head));
	memcpy(head, p->fpu.bytes, 4);		/* control and status words */
	if (copy_to_user((void *)at, head, sizeof(head)) < 0 ||
	    copy_to_user((void *)(at + FPSTATE_FXSAVE), p->fpu.bytes, FPU_STATE_SIZE) < 0)
		return 0;
	fpu_clean(&p->fpu);
	fpu_restore(&p->fpu);
	return at;
}

static void enter_handler(struct trapframe *tf, uint32_t sp, const struct sigaction *ka, int sig)
{
	tf->esp = sp;
	tf->eip = sa_addr(ka);
	tf->eax = (uint32_t)sig;
	tf->cs = UCODE_SEL;
	tf->ds = tf->es = tf->ss = UDATA_SEL;
	tf->eflags &= ~(EFLAGS_TF | EFLAGS_DF | EFLAGS_RF);
}

static const uint8_t rt_retcode[8] = { 0xb8, __NR_rt_sigreturn, 0, 0, 0, 0xcd, 0x80, 0 };
static const uint8_t retcode[8] = { 0x58, 0xb8, __NR_sigreturn, 0, 0, 0, 0xcd, 0x80 };

static void fill_siginfo(siginfo_t *si, int sig, const struct ksiginfo *info)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = info->code;
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) {
		if (info->code != SI_USER) {
			si->_sifields.fault.addr = (void *)info->addr;
			return;
		}
	}
	si->_sifields.chld.pid = info->pid;
	si->_sifields.chld.uid = (unsigned int)info->uid;
	si->_sifields.chld.status = info->status;
}

static int setup_rt_frame(struct trapframe *tf, int sig, const struct sigaction *ka,
			  const struct ksiginfo *info, sigset64_t mask, const struct place *at)
{
	struct proc *p = current();
	struct rt_sigframe32 f;
	uint32_t sp = frame_at(at, sizeof(f));
	struct rt_sigframe32 *uf = (struct rt_sigframe32 *)sp;

	memset(&f, 0, sizeof(f));
	f.sig = sig;
	f.pinfo = (uint32_t)&uf->info;
	f.puc = (uint32_t)&uf->uc;
	fill_siginfo(&f.info, sig, info);
	save_context(&f.uc.uc_mcontext, tf, mask, at);
	f.uc.uc_stack = (stack_t){ (void *)p->sas_ss_sp,
		(int)(altstack_flags(p, tf->esp) | p->sas_ss_flags), p->sas_ss_size };
	f.uc.uc_sigmask = sigset_of(mask);
	memcpy(f.retcode, rt_retcode, sizeof(f.retcode));
	f.pretcode = (ka->sa_flags & SA_RESTORER) ? sa_restorer_addr(ka) : (uint32_t)uf->retcode;
	if (copy_to_user(uf, &f, sizeof(f)) < 0)
		return -EFAULT;
	enter_handler(tf, sp, ka, sig);
	tf->edx = f.pinfo;
	tf->ecx = f.puc;
	return 0;
}

static int setup_frame(struct trapframe *tf, int sig, const struct sigaction *ka, sigset64_t mask,
		       const struct place *at)
{
	struct sigframe32 f;		/* 740 bytes: the kernel stack has 8 KiB */
	uint32_t sp = frame_at(at, sizeof(f));
	struct sigframe32 *uf = (struct sigframe32 *)sp;

	memset(&f, 0, sizeof(f));
	f.sig = sig;
	save_context(&f.sc, tf, mask, at);
	f.extramask = (uint32_t)(mask >> 32);
	memcpy(f.retcode, retcode, sizeof(f.retcode));
	f.pretcode = (ka->sa_flags & SA_RESTORER) ? sa_restorer_addr(ka) : (uint32_t)uf->retcode;
	if (copy_to_user(uf, &f, sizeof(f)) < 0)
		return -EFAULT;
	enter_handler(tf, sp, ka, sig);
	tf->edx = tf->ecx = 0;
	return 0;
}

/* ---- restarting interrupted calls ----------------------------------------- */

static bool restart_code(const struct proc *p, const struct trapframe *tf)
{
	return syscall_interrupted(tf, p->syscall_nr);
}

/* Before a handler runs: EINTR, or the call again (SA_RESTART). */
static void restart_for_handler(struct proc *p, struct trapframe *tf, const struct sigaction *ka)
{
	if (!restart_code(p, tf))
		return;
	int r = -(int)tf->eax;
	if (r == ERESTARTNOINTR || (r == ERESTARTSYS && (ka->sa_flags & SA_RESTART))) {
		tf->eax = (uint32_t)p->syscall_nr;
		tf->eip -= INT80_LEN;
	} else {
		tf->eax = (uint32_t)-EINTR;
	}
	p->syscall_nr = -1;
}

/* No handler ran: the call goes on as if nothing happened. */
void sigframe_restart_without_handler(struct proc *p, struct trapframe *tf)
{
	if (restart_code(p, tf)) {
		bool block = -(int)tf->eax == ERESTART_RESTARTBLOCK;
		tf->eax = block ? __NR_restart_syscall : (uint32_t)p->syscall_nr;
		tf->eip -= INT80_LEN;
		p->syscall_nr = -1;
	}
	if (p->sig_restore_mask) {
		spin_lock(&signal_lock);
		p->sig_blocked = p->sig_saved;
		p->sig_restore_mask = false;
		spin_unlock(&signal_lock);
	}
}

/* ---- entering a handler -------------------------------------------------- */

void sigframe_enter(struct trapframe *tf, int sig, const struct sigaction *ka,
		    const struct ksiginfo *info)
{
	struct proc *p = current();
	restart_for_handler(p, tf, ka);
	sigset64_t old = p->sig_restore_mask ? p->sig_saved : p->sig_blocked;
	struct place at = { 0, push_fpstate(p, signal_stack(p, tf->esp, ka)) };
	at.below = at.fpstate;
	int err = !at.fpstate ? -EFAULT :
		  (ka->sa_flags & SA_SIGINFO) ? setup_rt_frame(tf, sig, ka, info, old, &at)
					   : setup_frame(tf, sig, ka, old, &at);
	if (err < 0) {
		printk("pid %d (%s): no room on the user stack for signal %d's frame\n",
		       p->pid, p->name, sig);
		proc_exit_group(SIGSEGV);	/* the signal it could not take: Linux's force_sigsegv */
	}
	spin_lock(&signal_lock);
	p->sig_restore_mask = false;
	p->sig_blocked |= sigset_bits(ka->sa_mask);
	if (!(ka->sa_flags & SA_NODEFER))
		p->sig_blocked |= SIGBIT(sig);
	p->sig_blocked &= ~SIG_UNBLOCKABLE;
	spin_unlock(&signal_lock);
}

/* ---- returning from a handler ------------------------------------------------ */

/* Put back the registers the frame saved. The eflags bits a user may not
 * set are the kernel's, whatever the frame says. */
/*
 * Linux keeps the frame's code and stack selectors (with their privilege
 * forced to 3), so any other than the user ones fault on the way back and
 * kill the process. Here a GDT selector other than the user's flat ones
 * kills it at once, the same end without an iret that faults in the
 * kernel; an LDT one (modify_ldt: a program's own code or stack) is
 * kept, and if its entry is no segment for it, the iret faults: SIGILL,
 * as on Linux (kernel/arch/trapentry.asm's iret_fault).
 */
static bool frame_sel_ok(uint32_t sel, uint32_t flat)
{
	sel = (sel | 3) & 0xFFFF;
	return sel == flat || (sel & SEL_LDT);
}

static bool context_ok(const struct sigcontext *sc)
{
	return frame_sel_ok(sc->cs, UCODE_SEL) && frame_sel_ok(sc->ss, UDATA_SEL);
}

/* A data segment selector from a frame: kept if it asks for the user's
 * privilege (RPL 3: a GDT user or TLS slot) or names an LDT entry (all of
 * privilege 3, so any RPL reaches nothing more: Linux keeps an LDT
 * selector of RPL 0 too), else null. What it names is the CPU's to
 * check, at trapret's pop: an entry that is no segment (any more) is
 * popped as null there (kernel/arch/trap.c's return_fixup). */
static uint32_t frame_data_sel(uint32_t sel)
{
	return (sel & 3) == 3 || (sel & SEL_LDT) ? sel & 0xFFFF : 0;
}

/* The FPU registers the frame saved (none if fpstate is 0). */
static int restore_fpstate(struct proc *p, uint32_t fpstate)
{
	if (!fpstate)
		return 0;
	if (copy_from_user(p->fpu.bytes, (const void *)(fpstate + FPSTATE_FXSAVE),
			   FPU_STATE_SIZE) < 0)
		return -EFAULT;
	fpu_sanitize(&p->fpu);
	fpu_restore(&p->fpu);
	return 0;
}

static void restore_context(struct trapframe *tf, const struct sigcontext *sc)
{
	tf->edi = sc->edi;
	tf->esi = sc->esi;
	tf->ebp = sc->ebp;
	tf->esp = sc->esp;
	tf->ebx = sc->ebx;
	tf->edx = sc->edx;
	tf->ecx = sc->ecx;
	tf->eax = sc->eax;
	tf->eip = sc->eip;
	tf->cs = (sc->cs | 3) & 0xFFFF;		/* context_ok checked them */
	tf->ss = (sc->ss | 3) & 0xFFFF;
	tf->ds = frame_data_sel(sc->ds);
	tf->es = frame_data_sel(sc->es);
	tf->fs = frame_data_sel(sc->fs);
	tf->gs = frame_data_sel(sc->gs);
	tf->eflags = (tf->eflags & ~EFLAGS_USER) | (sc->eflags & EFLAGS_USER);
	current()->syscall_nr = -1;		/* never "restart" the sigreturn */
}

static void restore_mask(sigset64_t mask)
{
	struct proc *p = current();
	spin_lock(&signal_lock);
	p->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	spin_unlock(&signal_lock);
}

/* A frame the handler (or an attacker) spoiled: Linux kills with SIGSEGV. */
static int bad_frame(void)
{
	struct proc *p = current();
	printk("pid %d (%s): bad signal frame at esp=0x%08x\n", p->pid, p->name, p->tf->esp);
	proc_exit_group(SIGSEGV);
}

/* The handler returned through "popl %eax; sigreturn": esp is 8 bytes
 * past the frame's start (pretcode and sig popped). */
int sys_sigreturn(void)
{
	struct trapframe *tf = current()->tf;
	struct sigframe32 *uf = (struct sigframe32 *)(tf->esp - 8);
	struct sigcontext sc;
	uint32_t extramask;

	if (copy_from_user(&sc, &uf->sc, sizeof(sc)) < 0 ||
	    copy_from_user(&extramask, &uf->extramask, sizeof(extramask)) < 0)
		return bad_frame();
	if (!context_ok(&sc) || restore_fpstate(current(), sc.fpstate) < 0)
		return bad_frame();
	restore_mask(((sigset64_t)extramask << 32) | sc.oldmask);
	restore_context(tf, &sc);
	return (int)tf->eax;
}

/* The handler returned through rt_sigreturn: esp is 4 bytes past the
 * frame's start (pretcode popped by its ret). */
int sys_rt_sigreturn(void)
{
	struct trapframe *tf = current()->tf;
	struct rt_sigframe32 *uf = (struct rt_sigframe32 *)(tf->esp - 4);
	struct ucontext uc;

	if (copy_from_user(&uc, &uf->uc, sizeof(uc)) < 0)
		return bad_frame();
	if (!context_ok(&uc.uc_mcontext) || restore_fpstate(current(), uc.uc_mcontext.fpstate) < 0)
		return bad_frame();
	restore_mask(sigset_bits(uc.uc_sigmask));
	restore_context(tf, &uc.uc_mcontext);
	return (int)tf->eax;
}
