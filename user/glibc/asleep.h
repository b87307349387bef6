/*
 * asleep.h - for the glibc programs (user/glibc/) that must know another
 * task is asleep before they act on it: the guest orders the events, not
 * a guessed delay.
 */
#ifndef USER_GLIBC_ASLEEP_H
#define USER_GLIBC_ASLEEP_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Until the task whose /proc stat file is stat_path sleeps (state S), for
 * up to 5 s. */
static inline void wait_stat_asleep(const char *stat_path)
{
	for (int i = 0; i < 5000; i++) {
		char buf[256];
		FILE *f = fopen(stat_path, "r");
		int asleep = f && fgets(buf, sizeof(buf), f) && strstr(buf, ") S ");
		if (f)
			fclose(f);
		if (asleep)
			return;
		usleep(1000);
	}
}

#endif
