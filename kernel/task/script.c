/*
 * script.c - "#!" scripts: exec of a file that names its interpreter on
 * its first line (Linux's fs/binfmt_script.c, whose rules these are).
 *
 * The first BINPRM_BUF_SIZE bytes of the file are the line: "#!", blanks,
 * the interpreter's path up to the next blank, blanks, and at most one
 * argument, the rest of the line less its trailing blanks (blanks: space
 * and tab). The program then run is the interpreter with
 *	argv = { interpreter, [argument,] the script's path, argv[1], ... }
 * and the interpreter may itself be a script: exec follows at most
 * EXEC_MAX_HOPS of them (Linux's exec_binprm), then it is ELOOP.
 * Errors, as Linux's: no interpreter on the line, or a line with no end
 * in the first 256 bytes whose interpreter path may be cut short, is
 * ENOEXEC; a missing interpreter ENOENT; too many arguments E2BIG.
 */
#include "script.h"
#include "lib/errno.h"
#include "kernel/fs/initrd.h"
#include "lib/string.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

bool script_is(const struct initrd_file *f)
{
	char magic[2];
	return node_read(f, magic, 2, 0) == 2 && magic[0] == '#' && magic[1] == '!';
}

/* The first line of f in line[], NUL-terminated, trailing blanks cut.
 * false where Linux says ENOEXEC: no newline in the buffer and no blank
 * or end after the interpreter's first letter (its path may go on). */
static bool first_line(const struct initrd_file *f, char line[BINPRM_BUF_SIZE])
{
	memset(line, 0, BINPRM_BUF_SIZE);
	node_read(f, line, BINPRM_BUF_SIZE, 0);

	char *end = memchr(line, '\n', BINPRM_BUF_SIZE);
	if (!end) {
		char *last = line + BINPRM_BUF_SIZE - 1, *c = line + 2;
		while (c <= last && blank(*c))
			c++;
		while (c <= last && *c && !blank(*c))
			c++;
		if (c > last)
			return false;	/* the interpreter's path is cut short */
		end = last;
	}
	*end = '\0';
	while (end > line && blank(end[-1]))
		*--end = '\0';
	return true;
}

/* Split the line into the interpreter's path and its one argument. */
static int parse(char *line, char **interp, char **arg)
{
	char *c = line + 2;
	while (blank(*c))
		c++;
	if (!*c)
		return -ENOEXEC;	/* no interpreter named */
	*interp = c;
	while (*c && !blank(*c))
		c++;
	while (blank(*c))
		*c++ = '\0';
	*arg = *c ? c : NULL;
	return 0;
}

int script_rewrite(const struct initrd_file *f, const char *file, char line[BINPRM_BUF_SIZE],
		   char *const argv[], char *out[ARG_MAX_COUNT + 1], const char **interp)
{
	char *name, *arg;
	if (!first_line(f, line))
		return -ENOEXEC;
	int err = parse(line, &name, &arg);
	if (err < 0)
		return err;
	int n = 0;
	out[n++] = name;
	if (arg)
		out[n++] = arg;
	out[n++] = (char *)file;
	/* argv[0] goes (Linux's remove_arg_zero); the rest follow */
	for (int i = argv && argv[0] ? 1 : 0; argv && argv[i]; i++) {
		if (n == ARG_MAX_COUNT)
			return -E2BIG;
		out[n++] = argv[i];
	}
	out[n] = NULL;
	*interp = name;
	return 0;
}
