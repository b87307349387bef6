/*
 * uapi/tls.h - set_thread_area (243) and get_thread_area (244): the
 * GDT slots a thread may fill. Their struct user_desc is modify_ldt's
 * (uapi/ldt.h, Linux's asm/ldt.h).
 */
#ifndef UAPI_TLS_H
#define UAPI_TLS_H

#include <stdint.h>
#include "ldt.h"

/* GDT slots a thread may fill, as Linux i386 (GDT_ENTRY_TLS_MIN..MAX):
 * glibc loads %gs with (6 << 3) | 3 = 0x33 after asking for entry -1. */
#define GDT_ENTRY_TLS_MIN	6
#define GDT_ENTRY_TLS_ENTRIES	3
#define GDT_ENTRY_TLS_MAX	(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)

#endif
