/*
 * pkill - signal the tasks whose name contains PATTERN (procps' pkill).
 *
 *   pkill [-SIG | --signal SIG] [-e] [-x] [-i] [-n|-o] [-c] [-u UID,...] PATTERN
 *
 * SIG is a name or number (TERM, SIGKILL, 9: sig_from_name, the one table
 * of signal names); default TERM.  Never signals itself.  Exit status 0
 * if a task was signalled, 1 if none, 2 bad command line, 3 fatal.  The
 * matching is pgrep's, in user/lib/proclist.c.
 */
#include "proclist.h"

int main(int argc, char **argv)
{
	return pgrep_main(argc, argv, 1);
}
