/* unistd.h - processes, file descriptors, identity, memory. */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#define STDIN_FILENO  0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

extern char **environ;

pid_t fork(void);		/* flushes stdout first */
int execve(const char *path, char *const argv[], char *const envp[]);
void _exit(int status) __attribute__((noreturn));

ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
int pipe(int fds[2]);
int dup2(int oldfd, int newfd);
int chdir(const char *path);
char *getcwd(char *buf, size_t size);	/* buf, or NULL and errno (ERANGE) */
ssize_t readlink(const char *path, char *buf, size_t n);	/* no NUL added */

pid_t getpid(void);
pid_t getppid(void);
pid_t gettid(void);
uid_t getuid(void);		/* the 32-bit calls: 199, 201, 213 */
uid_t geteuid(void);
int setuid(uid_t uid);
int setreuid(uid_t ruid, uid_t euid);
int setresuid(uid_t ruid, uid_t euid, uid_t suid);
int getresuid(uid_t *ruid, uid_t *euid, uid_t *suid);
gid_t getgid(void);
gid_t getegid(void);
int setgid(gid_t gid);
int setregid(gid_t rgid, gid_t egid);
int setresgid(gid_t rgid, gid_t egid, gid_t sgid);
int getresgid(gid_t *rgid, gid_t *egid, gid_t *sgid);

/* Process groups, sessions and the terminal. */
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
pid_t setsid(void);
pid_t getsid(pid_t pid);
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pgrp);
int isatty(int fd);
int pause(void);
int nice(int inc);		/* returns the new nice value, like glibc */

int brk(void *addr);
void *sbrk(long inc);

unsigned int sleep(unsigned int seconds);
int usleep(unsigned long usec);

#endif
