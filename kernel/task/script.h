/*
 * script.h - "#!" scripts for execve (kernel/task/script.c; Linux's
 * binfmt_script).
 */
#ifndef KERNEL_SCRIPT_H
#define KERNEL_SCRIPT_H

#include <stdbool.h>

struct initrd_file;

#define BINPRM_BUF_SIZE	256	/* the bytes of a file exec reads for its "#!" line (Linux's) */
#define ARG_MAX_COUNT	64	/* strings in argv or envp that execve takes */
#define EXEC_MAX_HOPS	5	/* interpreters exec follows before ELOOP (Linux's exec_binprm) */

/* Does f start with "#!"? */
bool script_is(const struct initrd_file *f);

/* f, reached as file, is a script run with argv: fill out[] with the
 * interpreter's argv (its strings in line[], file's and argv's), and
 * *interp with the interpreter's path. 0, -ENOEXEC or -E2BIG. */
int script_rewrite(const struct initrd_file *f, const char *file, char line[BINPRM_BUF_SIZE],
		   char *const argv[], char *out[ARG_MAX_COUNT + 1], const char **interp);

#endif
