/*
 * clear - clear the terminal screen (ncurses' clear, for TERM=xterm and
 * linux alike: the serial console of QEMU and a VGA text screen).
 *
 *   clear [-x]
 *
 * Writes "ESC [H ESC [2J" (cursor home, erase the screen) and, unless -x,
 * "ESC [3J" (erase the scrollback), as ncurses' clear does on an xterm.
 * -h for this text.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int keep_scrollback = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-x") == 0) {
			keep_scrollback = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			printf("Usage: clear [options]\n\nOptions:\n"
			       "  -x       do not try to clear scrollback\n");
			return 0;
		} else {
			fprintf(stderr, "clear: invalid option -- '%s'\n"
				"Usage: clear [options]\n", argv[i][0] == '-' ? argv[i] + 1 : argv[i]);
			return 1;
		}
	}
	const char *seq = keep_scrollback ? "\033[H\033[2J" : "\033[H\033[2J\033[3J";
	return write(1, seq, strlen(seq)) < 0;
}
