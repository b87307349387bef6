/*
 * pgrep - the pids of the tasks whose name contains PATTERN (procps' pgrep).
 *
 *   pgrep [-l] [-x] [-i] [-n|-o] [-c] [-v] [-d DELIM] [-u UID,...] PATTERN
 *
 * The processes and their names come from /proc, as procps' (proclist.h);
 * the pattern is a substring (-x: the whole name).  Exit status as procps:
 * 0 something matched, 1 nothing, 2 bad command line, 3 fatal (no /proc).
 * All the work is in user/lib/proclist.c, shared with pkill.
 */
#include "proclist.h"

int main(int argc, char **argv)
{
	return pgrep_main(argc, argv, 0);
}
