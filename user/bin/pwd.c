/*
 * pwd - print the working directory (GNU coreutils' pwd).
 *
 *   pwd [-L | -P]
 *
 * There are no symbolic links on the initrd, so -L and -P print the same
 * path: getcwd()'s. --help for this text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "logical", 'L', 0 }, { "physical", 'P', 0 }, { "help", 256, 0 }, { 0 } };
	struct tool_opts o = { .prog = "pwd", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	char buf[256];
	int key;

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		if (key == 256) {
			printf("Usage: pwd [-LP]\nPrint the full filename of the current working directory.\n"
			       "  -L, -P   the same here: the initrd has no symbolic links\n");
			return 0;
		}
		if (key != 'L' && key != 'P')
			return tool_try_help("pwd");
	}
	if (o.ind < argc)
		fprintf(stderr, "pwd: ignoring non-option arguments\n");
	if (!getcwd(buf, sizeof(buf))) {
		fprintf(stderr, "pwd: error retrieving current directory: %s\n", strerror(errno));
		return 1;
	}
	printf("%s\n", buf);
	return 0;
}
