/* pgrp.h - process groups and sessions (kernel/task/pgrp.c). */
#ifndef KERNEL_PGRP_H
#define KERNEL_PGRP_H

#include <stdbool.h>

/* Is there a live process in group pgid of session sid? (tcsetpgrp) */
bool pgrp_in_session(int pgid, int sid);
int sys_setpgid(int pid, int pgid);
int sys_getpgid(int pid);
int sys_getpgrp(void);
int sys_setsid(void);
int sys_getsid(int pid);

#endif
