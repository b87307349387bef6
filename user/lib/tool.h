/*
 * tool.h - what the util-linux-style tools (chrt, taskset, setpriv, sysctl)
 * share: option parsing that words its errors as glibc's getopt_long does,
 * and running a command the way they run one after execvp.
 *
 * Not getopt_long itself (the names stay out of the way of a real one):
 * only what the tools use.  Options come first; parsing stops at the first
 * word that is not one (util-linux's "+"), or after "--".  Short options
 * may be clustered (-cp) and take an argument glued or as the next word
 * (-n10, -n 10); long ones may be abbreviated to a unique prefix and take
 * it as --name=VALUE or --name VALUE.
 */
#ifndef USER_LIB_TOOL_H
#define USER_LIB_TOOL_H

struct tool_opt {
	const char *name;	/* long name without "--"; NULL: short only */
	int key;		/* the letter, or >= 256 for a long-only option */
	int has_arg;		/* 1: takes an argument */
};

struct tool_opts {
	const char *prog;		/* for messages: "chrt" */
	const struct tool_opt *opts;	/* ends with a { 0 } entry */
	int argc;
	char **argv;
	int ind;			/* next word; start at 1 */
	const char *cluster;		/* the rest of "-abc" being read */
	const char *arg;		/* the current option's argument */
};

#define TOOL_OPTS_END  (-1)	/* no more options: the operands start at ind */
#define TOOL_OPTS_BAD  '?'	/* the message is printed (stderr, one line) */

/* The next option's key, TOOL_OPTS_END or TOOL_OPTS_BAD. */
int tool_next_opt(struct tool_opts *o);

/* util-linux's second line after a usage error; returns 1, its status. */
int tool_try_help(const char *prog);

/* Run argv (argv[0] a name or a path) like execvp, looking beside `self`
 * (our argv[0]) first: the programs live together (docs/userland.md), in
 * /bin here and ./build/user/bin on the host; then $PATH, then /bin.
 * argv[0] becomes the path found, so the program finds its siblings too.
 * Returns only on failure, after printing util-linux's
 * "PROG: failed to execute NAME: why": 127 if not found, else 126. */
int tool_exec(const char *prog, const char *self, char **argv);

#endif
