/*
 * sigframe.h - what kernel/task/signal.c asks of kernel/task/sigframe.c (the
 * signal subsystem's face is signal.h).
 */
#ifndef KERNEL_SIGFRAME_H
#define KERNEL_SIGFRAME_H

#include "proc.h"
#include "signal.h"

/* Run the handler ka for sig on the way back to user mode: the frame on
 * its stack (or its alternate one), its mask; an interrupted call is
 * restarted or answers EINTR (SA_RESTART). No room for the frame ends
 * the process with SIGSEGV. */
void sigframe_enter(struct trapframe *tf, int sig, const struct sigaction *ka,
		    const struct ksiginfo *info);
/* No handler ran: an interrupted call starts again (restart_syscall for
 * the sleeps). */
void sigframe_restart_without_handler(struct proc *p, struct trapframe *tf);

#endif
