/* picknext.h - staircase-sim --picknext (tools/sim/picknext.c). */
#ifndef SIM_PICKNEXT_H
#define SIM_PICKNEXT_H

#include "../../tests/unit/fake_machine.h"

#define PICKNEXT_MAX (FAKE_MAX_PROCS - 8)	/* hogs at most: the fake machine's table */

/* Prints one line per count; 0, or 1 for a bad list (said on stderr). */
int sim_picknext(const char *list);

#endif
