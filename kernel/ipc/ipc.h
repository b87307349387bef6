/*
 * kernel/ipc/ - System V IPC as Linux 6.1 has it: message queues (msg),
 * semaphore arrays (sem), shared memory segments (shm), their common
 * part (util: ids, keys, permissions, /proc/sysvipc), the system calls'
 * entries (the ipc multiplexer and the direct calls, syscall) and the
 * /proc/sys/kernel files of their limits (sysctl).
 * Locks: each kind's table has one spinlock (struct ipc_ids) that guards
 * the table and every object of that kind; nothing sleeps or touches user
 * memory under it. An attached segment's region calls back under its mm
 * lock, which is therefore taken before the shm table's, never after.
 *
 * Face of this folder. May call: lib, kernel/arch, kernel/fs/proc, kernel/mm, kernel/sync, kernel/task, kernel/time.
 *
 * ipc.h - what the rest of the kernel calls.
 */
#ifndef KERNEL_IPC_IPC_H
#define KERNEL_IPC_IPC_H

#include <stdbool.h>
#include <stdint.h>

struct pbuf;
struct vm_area;

/* 117: ipc(call, first, second, third, ptr, fifth), i386 glibc's way in. */
int sys_ipc(uint32_t call, int first, uint32_t second, uint32_t third, uint32_t ptr, int fifth);
/* 393-402 and 420: the direct calls (always the IPC_64 structs). */
int sys_semget(int key, int nsems, int semflg);
int sys_semctl(int semid, int semnum, int cmd, uint32_t arg);
int sys_semtimedop_time64(int semid, uint32_t usops, uint32_t nsops, uint32_t utimeout);
int sys_shmget(int key, uint32_t size, int shmflg);
int sys_shmctl(int shmid, int cmd, uint32_t ubuf);
int sys_shmat(int shmid, uint32_t shmaddr, int shmflg);
int sys_shmdt(uint32_t shmaddr);
int sys_msgget(int key, int msgflg);
int sys_msgsnd(int msqid, uint32_t umsgp, uint32_t msgsz, int msgflg);
int sys_msgrcv(int msqid, uint32_t umsgp, uint32_t msgsz, int msgtyp, int msgflg);
int sys_msgctl(int msqid, int cmd, uint32_t ubuf);

/* Is region a an attached segment? Then its id and key (/proc/PID/maps
 * names it /SYSV<key> (deleted), as Linux's shm file). Under its mm lock. */
bool shm_region_name(const struct vm_area *a, int *id, int32_t *key);

/* A thread group's end (kernel/task/exit.c): its SEM_UNDO adjustments
 * are applied, as Linux's exit_sem. */
void sem_exit(int tgid);

/* /proc/sysvipc/msg, sem and shm, in Linux's formats (what ipcs reads). */
enum { SYSVIPC_MSG, SYSVIPC_SEM, SYSVIPC_SHM };
void ipc_proc_text(int which, struct pbuf *b);

/* /proc/sys/kernel's IPC files (kernel/ipc/sysctl.c), in name order as
 * Linux lists them (msg_next_id ... shmmni): the limits, Linux's defaults
 * at boot, and the next ids; root writes them (a write 0 or -EINVAL). */
#define IPC_SYSCTL_NR 11
const char *ipc_sysctl_name(int i);
int ipc_sysctl_mode(int i);
void ipc_sysctl_text(int i, struct pbuf *b);
int ipc_sysctl_write(int i, const char *text, uint32_t len);

#endif
