# user/user.mk - builds the user library, programs and boot tests.
#
# Included by the top-level Makefile (which sets CROSS and BUILD), or run
# alone from the repository root:  make -f user/user.mk user
#
# Interface for the rest of the build:
#   USER_PROGS   every program, as build/user/bin/<name> (installed as /bin/<name>)
#   USER_TESTS   the subset that are boot tests (also in USER_PROGS)
#   user         phony: build them all
#   user-clean   phony: remove build/user
#
# Every program is one .c file in user/bin/ or user/tests/, linked with
# crt0.o and libc.a (and testlib.o for tests).  To add one: drop the file
# in; the lists below are made from the folders.

CROSS ?= i686-linux-gnu-
BUILD ?= build

USER_CC := $(CROSS)gcc
USER_AR := $(CROSS)ar
USER_OUT := $(BUILD)/user

# -nostdinc keeps host headers out; gcc's own directory still gives us
# stddef.h, stdint.h and stdarg.h.
USER_CFLAGS := -std=gnu11 -ffreestanding -fno-pie -fno-stack-protector \
	-march=i686 -mgeneral-regs-only -O2 -g -Wall -Wextra -Werror \
	-nostdinc -Iuser/lib/include -Iuser/lib -Iinclude \
	-isystem $(shell $(USER_CC) -print-file-name=include 2>/dev/null) \
	-MMD -MP
USER_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none
USER_LIBGCC := $(shell $(USER_CC) -print-libgcc-file-name 2>/dev/null)

# Every .c file in user/bin and user/tests is one program: adding a file
# adds a program (installed as /bin/<name>). So is every .c file in
# user/glibc/, built with Debian's glibc (libc6-dev-i386-cross;
# tools/ensure-deps.sh glibc) when the cross compiler finds its libc.a,
# and left out when it does not: the kernel and the rest need no glibc.
USER_BIN_NAMES := $(basename $(notdir $(wildcard user/bin/*.c)))
USER_TEST_NAMES := $(filter-out testlib,$(basename $(notdir $(wildcard user/tests/*.c))))

USER_LIB_SRCS := $(wildcard user/lib/*.c)
USER_LIB_OBJS := $(USER_LIB_SRCS:user/lib/%.c=$(USER_OUT)/lib/%.o)
USER_CRT0 := $(USER_OUT)/lib/crt0.o
USER_LIBC := $(USER_OUT)/lib/libc.a
USER_TESTLIB := $(USER_OUT)/tests/testlib.o

USER_TESTS := $(USER_TEST_NAMES:%=$(USER_OUT)/bin/%)
USER_PROGS := $(USER_BIN_NAMES:%=$(USER_OUT)/bin/%) $(USER_TESTS)

USER_GLIBC_LIBC := $(shell $(USER_CC) -print-file-name=libc.a 2>/dev/null)
ifneq ($(USER_GLIBC_LIBC),libc.a)
USER_GLIBC_NAMES := $(basename $(notdir $(wildcard user/glibc/*.c)))
endif
USER_GLIBC_PROGS := $(USER_GLIBC_NAMES:%=$(USER_OUT)/bin/%)
USER_GLIBC_OBJS := $(USER_GLIBC_NAMES:%=$(USER_OUT)/glibc/%.o)
USER_GLIBC_ALL := $(if $(USER_GLIBC_NAMES),$(USER_OUT)/bin/glibctests)
USER_PROGS += $(USER_GLIBC_ALL) $(USER_GLIBC_PROGS)
# user/glibc-dyn/: linked dynamically, as the distribution's compiler links
# by default (a PIE with /lib/ld-linux.so.2 as interpreter). They run where
# Debian's libc6:i386 is in the initrd (make DEBS=libc6; tests/linux-diff.sh
# adds it); interp_missing and interp_notelf name interpreters that are not
# there or are not ELF (/usr/lib/notelf: tests/linux-diff.sh makes it, an
# executable text file), for dynamic's execve checks.
ifneq ($(USER_GLIBC_LIBC),libc.a)
USER_GLIBC_DYN := $(USER_OUT)/bin/dynamic $(USER_OUT)/bin/interp_missing $(USER_OUT)/bin/interp_notelf
endif
USER_PROGS += $(USER_GLIBC_DYN)
# user/scripts/: "#!" scripts, installed in /bin beside the programs (exec
# runs their interpreters: kernel/task/script.c), whose interpreters are
# programs above; /bin/hostile runs them.
USER_SCRIPTS := $(patsubst user/scripts/%,$(USER_OUT)/bin/%,$(wildcard user/scripts/*))
USER_PROGS += $(USER_SCRIPTS)

.PHONY: user user-clean
user: $(USER_PROGS)

user-clean:
	rm -rf $(USER_OUT)

$(USER_OUT)/lib/%.o: user/lib/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_OUT)/lib/%.o: user/lib/%.S
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(USER_CC) $(USER_CFLAGS) -c -o $@ $<


$(USER_OUT)/obj/%.o: user/bin/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_OUT)/obj/%.o: user/tests/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_TESTLIB): user/tests/testlib.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(USER_CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_LIBC): $(USER_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(USER_AR) rcs $@ $^

# crt0.o first; libc.a and libgcc last so they resolve everything above.
$(USER_BIN_NAMES:%=$(USER_OUT)/bin/%): $(USER_OUT)/bin/%: \
		$(USER_OUT)/obj/%.o $(USER_CRT0) $(USER_LIBC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(USER_CC) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $< $(USER_LIBC) $(USER_LIBGCC)

$(USER_TESTS): $(USER_OUT)/bin/%: $(USER_OUT)/obj/%.o $(USER_TESTLIB) \
		$(USER_CRT0) $(USER_LIBC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(USER_CC) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $< $(USER_TESTLIB) \
		$(USER_LIBC) $(USER_LIBGCC)

# glibc programs: the distribution's compiler driver as a student runs it
# (each file's comment gives the one-line command), but built into one
# static binary, /bin/glibctests, of which each program is a hard link:
# each file's main is renamed NAME_main and a generated main picks the one
# its argv[0] names. Twenty static programs of 800 KB each were 16 MB of
# the initrd, and -m 32M no longer booted; the one binary is 1.3 MB.
$(USER_OUT)/glibc/%.o: user/glibc/%.c $(wildcard user/glibc/*.h)
	@mkdir -p $(dir $@)
	@echo "  GLIBC   $@"
	@$(USER_CC) -c -pthread -O2 -Wall -Wextra -Werror -Dmain=$*_main -o $@ $<

# The dispatcher, written again only when the list of programs changes.
$(USER_OUT)/glibc/glibctests.c: FORCE
	@mkdir -p $(dir $@)
	@{ echo '#include <stdio.h>'; echo '#include <string.h>'; \
	  for n in $(USER_GLIBC_NAMES); do echo "int $${n}_main(int, char **);"; done; \
	  echo 'static const struct { const char *name; int (*main)(int, char **); } progs[] = {'; \
	  for n in $(USER_GLIBC_NAMES); do echo "	{ \"$$n\", $${n}_main },"; done; \
	  echo '};'; \
	  echo 'int main(int argc, char **argv)'; echo '{'; \
	  echo '	const char *name = strrchr(argv[0], 47) ? strrchr(argv[0], 47) + 1 : argv[0];'; \
	  echo '	for (unsigned i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)'; \
	  echo '		if (strcmp(name, progs[i].name) == 0)'; \
	  echo '			return progs[i].main(argc, argv);'; \
	  echo '	fprintf(stderr, "glibctests: %s is none of the programs (user/glibc/)\\n", name);'; \
	  echo '	return 127;'; echo '}'; } >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(USER_OUT)/bin/glibctests: $(USER_GLIBC_OBJS) $(USER_OUT)/glibc/glibctests.c
	@mkdir -p $(dir $@)
	@echo "  GLIBC   $@ ($(words $(USER_GLIBC_NAMES)) programs)"
	@$(USER_CC) -static -pthread -O2 -s -Wall -Wextra -Werror -o $@ $^

$(USER_GLIBC_PROGS): $(USER_OUT)/bin/%: $(USER_OUT)/bin/glibctests
	@ln -f $< $@

$(USER_SCRIPTS): $(USER_OUT)/bin/%: user/scripts/%
	@mkdir -p $(dir $@)
	@echo "  SCRIPT  $@"
	@install -m 755 $< $@

$(USER_OUT)/bin/dynamic: user/glibc-dyn/dynamic.c
	@mkdir -p $(dir $@)
	@echo "  GLIBC   $@ (dynamic)"
	@$(USER_CC) -pthread -O2 -s -Wall -Wextra -Werror -o $@ $<
$(USER_OUT)/bin/interp_missing $(USER_OUT)/bin/interp_notelf: user/glibc-dyn/interp.c
	@mkdir -p $(dir $@)
	@echo "  GLIBC   $@ (dynamic)"
	@$(USER_CC) -O2 -s -Wl,--dynamic-linker=$(if $(findstring missing,$@),/no/such/ld.so,/usr/lib/notelf) -o $@ $<

-include $(shell find $(USER_OUT) -name '*.d' 2>/dev/null)
