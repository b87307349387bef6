/*
 * bss_lazy - a 96 MiB bss (three quarters of a 128 MiB machine), touched
 * in one page only: exec maps bss on demand (kernel/task/exec.c), so starting
 * it costs a few frames, not 24,576. argv[1]: the free frames its parent
 * saw before the fork; exits 0 when at least that many less 256 are still
 * free once it has run, 1 when not (leak's exec_maps_bss_on_demand).
 */
#include <stdlib.h>

#include "kernel_calls.h"

static char bss[96u << 20];

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	bss[sizeof(bss) / 2] = 1;
	return free_frames() >= atoi(argv[1]) - 256 && bss[0] == 0 ? 0 : 1;
}
