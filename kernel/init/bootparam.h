/*
 * bootparam.h - key=value boot parameters from the kernel command line.
 *
 * The command line is split once at boot; each subsystem then asks for
 * the keys it owns (bootparam_int("hz", 1000, 100, 1000)). A bad value is
 * reported when it is asked for, and the default kept. Keys nobody asked
 * for are reported as unknown by bootparam_report_unknown() at the end of
 * boot. Keys meant for init (run=, then=, tests=) are handed to it as
 * environment variables, as Linux does.
 */
#ifndef KERNEL_BOOTPARAM_H
#define KERNEL_BOOTPARAM_H

#include <stdbool.h>

#define BOOTPARAM_MAX 32
/* The longest command line read, terminator included; a longer one is
 * reported and read up to there. A value is never longer. */
#define BOOTPARAM_LINE_MAX 1024

void bootparam_parse(const char *cmdline);
/* The value of key, or NULL when absent. Marks the key as known. */
const char *bootparam_str(const char *key);
/* An integer in [min, max]; a missing key gives dflt, a bad one reports
 * "bootparam: KEY: bad value "V" (want MIN..MAX), keeping DFLT". */
int bootparam_int(const char *key, int dflt, int min, int max);
void bootparam_report_unknown(void);

/* The command line as given, less the boot image path. */
const char *bootparam_cmdline(void);

/* Pure parsing helper, also used by the unit tests: a decimal integer
 * with optional sign, whole string; false if it is not one. */
bool parse_int(const char *s, int *out);

#endif
