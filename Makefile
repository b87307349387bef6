# Makefile - build, run and test the staircase teaching kernel.
#
#   make            kernel (build/kernel.elf) and initrd (build/initrd.tar)
#   make run        boot it in QEMU; quit with Ctrl-A X
#   make test       everything: host unit tests, then QEMU cases
#   make test-quick the edit-run loop subset (under 2 minutes)
#   make iso        a GRUB rescue ISO (build/staircase.iso); make run-iso
#   make gdb        QEMU stopped, waiting for gdb (see README)
#   make sim        the host simulator build/sim/staircase-sim (docs/simulator.md)
#   make trace      record the stairs example in virtual time: build/trace/stairs.{log,ftrace,json,html}
#   make trace PROG=/bin/sched_rr [LIVE=1]   record one program: build/trace/sched_rr.* (docs/trace.md)
#   make replay TRACE=build/trace/stairs.log [CHECK=1] [SET="rr_interval=50 nice:PID=+5 policy:PID=batch"] [SCHED=cfs]
#                   replay a recorded trace in the simulator, what-if (docs/simulator.md);
#                   both runs one above the other: build/trace/stairs.replay.html
#   make mutate     mutation check of sched/ against the host unit tests (not in make test)
#   make stress     random stress on 8 and 4 CPUs for STRESS_S s (60) and 1M-call fuzzers (not in make test)
#   make bench-field  Debian's cyclictest, hackbench, stress-ng on both kernels (docs/bench.md)
#   make bench      path lengths and scheduling quality beside Linux 6.1 in the same QEMU: bench/results/latest.md (docs/bench.md; not in make test)
#   make ltp        LTP's scheduling/process syscalls tests and Open POSIX sched interfaces on both kernels: bench/results/ltp.md
#                   (LTP_SRC=dir: a tree of the pinned release, default build/ltp-src; docs/testing.md; about 15 minutes, not in make test)
#   make lineage    every scheduler of lineage mode and Linux 6.1 on the same workloads: bench/results/lineage.md (docs/lineage.md §5; about 5 minutes, not in make test)
#   make profile PROG=/bin/pathlen ARGS="yield 100"   instructions by kernel function (docs/bench.md)
#   make profile ... ANNOTATE="sched_schedule"         and each instruction of these functions, counted
#   make lab LAB=batch [DEST=../batch-lab] [CLEAN=1]   a student tree for one lab (docs/labs.md;
#                   files git does not track are copied with a warning, CLEAN=1 leaves them out)
#   make grade [LAB=batch] [QUICK=1] [STRICT=1]   a lab's tests and its score (in a student tree:
#                   its lab); STRICT=1: exit status 1 below full marks, for autograders
#   make clean
#
# Variables (make run CPUS=4, make run SOCKETS=2 CORES=2 THREADS=2, ...):
#   SOCKETS CORES THREADS  topology; CPUS alone means CPUS cores of 1 socket
#   MEM=128M  APPEND="hz=100 ..."  CPU_MODEL=max  KVM=0|1  GUI=1  DEBUG=0|1
#   TRACE=file  (make run) the second serial port, where `trace run` streams
#   CROSS=i686-elf-  (default: i686-elf- if installed, else i686-linux-gnu-)

CROSS ?= $(shell command -v i686-elf-gcc >/dev/null 2>&1 && echo i686-elf- || echo i686-linux-gnu-)
CC      := $(CROSS)gcc
LD      := $(CROSS)ld
NM      := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
NASM    ?= nasm
HOSTCC  ?= gcc
PYTHON  ?= python3
BUILD   := build
DEBUG   ?= 1

KERNEL_CFLAGS := -std=gnu11 -m32 -march=i686 -mgeneral-regs-only \
	-ffreestanding -fno-pie -fno-stack-protector -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
	-fno-asynchronous-unwind-tables -nostdinc -I. -Iinclude \
	-isystem $(shell $(CC) -print-file-name=include 2>/dev/null) \
	-Wall -Wextra -Werror -g -O2 -MMD -MP
ifeq ($(DEBUG),1)
KERNEL_CFLAGS += -DLOCK_DEBUG
endif
# POISON=1: fill freed frames and heap blocks with 0x6b (kernel/mm/pmm.h), so
# a use after free shows; off by default (it costs every free a memset).
ifeq ($(POISON),1)
KERNEL_CFLAGS += -DPOISON_FREE
endif
LIBGCC = $(shell $(CC) -print-libgcc-file-name 2>/dev/null)

KERNEL_SRCS := $(wildcard kernel/*.c kernel/*/*.c kernel/*/*/*.c lib/*.c drivers/*.c sched/*.c)
KERNEL_ASM  := $(wildcard boot/entry.asm boot/trampoline.asm kernel/*/*.asm drivers/*.asm)
KERNEL_OBJS := $(KERNEL_SRCS:%.c=$(BUILD)/obj/%.o) $(KERNEL_ASM:%.asm=$(BUILD)/obj/%.o) \
	$(BUILD)/obj/syscall_names.o $(BUILD)/obj/faces.o
# Every folder's face header (tests/host-tools/test_layout.py finds them),
# compiled once together so that a face that no file includes still builds.
FACE_HDRS := $(shell grep -l 'Face of this folder' $(wildcard lib/*.h drivers/*.h sched/*.h kernel/*.h kernel/*/*.h kernel/*/*/*.h))
$(BUILD)/gen/faces.c: $(FACE_HDRS) Makefile
	@mkdir -p $(dir $@)
	@for h in $(FACE_HDRS); do echo "#include \"$$h\""; done > $@
$(BUILD)/obj/faces.o: $(BUILD)/gen/faces.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

.PHONY: FORCE all build kernel initrd run run-iso iso gdb test test-all test-quick test-unit mutate stress bench bench-field profile paths sim replay lab grade clean deps-build deps-run
# make first installs missing tools, then builds in a fresh make: paths
# such as the cross compiler's libgcc are looked up when make starts.
all: deps-build
	@$(MAKE) --no-print-directory build
build: kernel initrd

deps-build:
	@tools/ensure-deps.sh cc nasm

kernel: $(BUILD)/kernel.elf

# Linux's i386 call names, for "unimplemented system call N (name)"
# (kernel/syscall.c), from the cross toolchain's header at build time.
SYSCALL_HDR = /usr/i686-linux-gnu/include/asm/unistd_32.h
$(BUILD)/gen/syscall_names.c: tools/mksyscallnames.sh $(SYSCALL_HDR)
	@mkdir -p $(dir $@)
	@tools/mksyscallnames.sh $(SYSCALL_HDR) > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/syscall_names.o: $(BUILD)/gen/syscall_names.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

# Flags live here: a change to the Makefile rebuilds everything.
$(KERNEL_OBJS): Makefile

-include user/user.mk

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	@$(NASM) -f elf32 -g -F dwarf -I$(dir $<) -MD $(@:.o=.d) $< -o $@

# Two link passes: the first finds every function's address, the second
# adds that list as the symbol table for backtraces (kernel/debug/ksyms.c). The
# table sits after .data (linker.ld), so the second pass moves no function;
# the cmp below proves it.
$(BUILD)/ksyms0.asm:
	@mkdir -p $(BUILD)
	@tools/mksyms.sh $(NM) > $@
$(BUILD)/kernel0.elf: $(KERNEL_OBJS) $(BUILD)/ksyms0.o linker.ld
	@echo "  LD      $@"
	@$(LD) -m elf_i386 -T linker.ld -nostdlib -z noexecstack -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms0.o $(LIBGCC)
$(BUILD)/ksyms.asm: $(BUILD)/kernel0.elf tools/mksyms.sh
	@tools/mksyms.sh $(NM) $< > $@
$(BUILD)/ksyms0.o $(BUILD)/ksyms.o: $(BUILD)/%.o: $(BUILD)/%.asm
	@$(NASM) -f elf32 $< -o $@
$(BUILD)/kernel.elf: $(BUILD)/kernel0.elf $(BUILD)/ksyms.o
	@echo "  LD      $@"
	@$(LD) -m elf_i386 -T linker.ld -nostdlib -z noexecstack -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o $(LIBGCC)
	@$(NM) -n $(BUILD)/kernel0.elf | grep ' [tT] ' > $(BUILD)/syms0.txt
	@$(NM) -n $@ | grep ' [tT] ' > $(BUILD)/syms1.txt
	@cmp -s $(BUILD)/syms0.txt $(BUILD)/syms1.txt || { echo "ksyms: second link moved functions"; rm -f $@; exit 1; }

# The initrd: a ustar archive of build/initrd/ (user programs in /bin,
# user/etc's files in /etc: passwd and group, for ps and ls).
# EXTRA="prog1 dir/prog2": any static i386 programs of your own, at
# /bin/prog1, /bin/prog2 (docs/userland.md). BUSYBOX=1: Debian's
# busybox-static (i386, fetched once by tools/get-deb.sh into build/debs)
# at /bin/busybox. The list is remembered in build/initrd.extra, so
# changing it rebuilds the initrd.
# DEBS="procps util-linux ...": Debian's i386 packages and the libraries
# they depend on, recursively (fetched once by tools/get-deb.sh -r into
# build/debs, nothing installed) unpacked into the initrd at their own
# paths, symbolic links kept; their documentation left out. Their /bin and
# /sbin go to /usr/bin and /usr/sbin, as on a merged-/usr Debian: /bin is
# this kernel's own programs (ps, kill, chrt... keep their names there),
# Debian's are /usr/bin/ps, /usr/sbin/sysctl (docs/userland.md).
EXTRA ?=
BUSYBOX ?= 0
DEBS ?=
BUSYBOX_BIN := $(if $(filter 1,$(BUSYBOX)),$(BUILD)/busybox/busybox)
INITRD_EXTRA := $(EXTRA) $(BUSYBOX_BIN)
DEB_EXCLUDE := --exclude=./usr/share/doc --exclude=./usr/share/man --exclude=./usr/share/lintian \
	--exclude=./usr/share/info --exclude=./usr/share/locale
DEB_MOVE := --transform='s:^\./\(s\{0,1\}bin\)\(/\|$$\):./usr/\1\2:S'
# What every Debian system has (Essential) and programs assume without
# saying so: ncurses-base's terminfo (top -b needs "dumb"; without it top
# exits 1 without a word, on Linux too).
DEB_ESSENTIAL := ncurses-base
# $(call unpack_debs,PACKAGES,DIR): the packages and their libraries, unpacked.
unpack_debs = debs=$$(tools/get-deb.sh -r $(1) $(DEB_ESSENTIAL)) || { echo "make: DEBS=\"$(1)\": see above"; exit 1; }; \
	for deb in $$debs; do echo "  DEB     $$deb"; \
	dpkg-deb --fsys-tarfile "$$deb" | tar -x -C $(2) $(DEB_EXCLUDE) $(DEB_MOVE) || exit 1; done
# make deb-module DEBS="procps util-linux" DEB_MODULE=build/debian/x.tar
# [DEB_MODULE_BIN="prog..."]: the same packages as a ustar of their own, a
# second multiboot module beside the usual initrd (later modules win), with
# DEB_MODULE_BIN's files in its /bin: how test cases add Debian's programs
# without rebuilding the initrd (tests/cases/debian.py).
DEB_MODULE ?= $(BUILD)/debian/debs.tar
DEB_MODULE_BIN ?=
.PHONY: deb-module print-debs print-essential
deb-module:
	@test -n "$(strip $(DEBS))" || { echo "make deb-module: no DEBS given"; exit 2; }
	@rm -rf $(DEB_MODULE).d && mkdir -p $(DEB_MODULE).d/bin
	@$(call unpack_debs,$(DEBS),$(DEB_MODULE).d)
	@$(if $(strip $(DEB_MODULE_BIN)),cp $(DEB_MODULE_BIN) $(DEB_MODULE).d/bin/)
	@tar --format=ustar --owner=0 --group=0 -cf $(DEB_MODULE).tmp -C $(DEB_MODULE).d $$(ls $(DEB_MODULE).d) && \
		mv $(DEB_MODULE).tmp $(DEB_MODULE) && rm -rf $(DEB_MODULE).d
	@echo "  TAR     $(DEB_MODULE)"
initrd: $(BUILD)/initrd.tar
FORCE:
$(BUILD)/initrd.extra: FORCE
	@mkdir -p $(BUILD)
	@echo "$(INITRD_EXTRA) debs: $(DEBS)" | cmp -s - $@ || echo "$(INITRD_EXTRA) debs: $(DEBS)" > $@
$(BUILD)/busybox/busybox:
	@deb=$$(tools/get-deb.sh busybox-static) && rm -rf $(BUILD)/busybox.x && \
		dpkg-deb -x "$$deb" $(BUILD)/busybox.x && mkdir -p $(dir $@) && \
		mv $(BUILD)/busybox.x/bin/busybox $@ && rm -rf $(BUILD)/busybox.x
	@echo "  DEB     $@ (Debian busybox-static, i386)"
# /elf: the ELF loader's test programs (tests/elf/mkelf.py), which
# /bin/elfrun execs, in multiboot modules of their own beside the initrd
# (later modules add files; made by the tests that use them, with
# python3): build/elf-cases.tar (/elf/cases and the loaders in /elf/i,
# for make test) and, for make stress's fuzzer,
# build/elf-fuzz-SEED.tar (/elf/fuzz-SEED, ELF_FUZZ_N programs).
ELF_CASES := tests/elf/mkelf.py tests/elf/tiny.asm $(wildcard tests/elf/*.linux)
ELF_FUZZ_N ?= 700
$(BUILD)/elf-cases.tar: $(ELF_CASES)
	@rm -rf $(BUILD)/elf-cases && mkdir -p $(BUILD)/elf-cases/elf
	@python3 tests/elf/mkelf.py $(BUILD)/elf-cases/elf
	@tar --format=ustar --owner=0 --group=0 -cf $@ -C $(BUILD)/elf-cases elf
	@echo "  TAR     $@"
$(BUILD)/elf-fuzz-%.tar: $(ELF_CASES)
	@rm -rf $(BUILD)/elf-fuzz-$* && mkdir -p $(BUILD)/elf-fuzz-$*/elf
	@python3 tests/elf/mkelf.py --fuzz $* $(ELF_FUZZ_N) $(BUILD)/elf-fuzz-$*/elf
	@tar --format=ustar --owner=0 --group=0 -cf $@ -C $(BUILD)/elf-fuzz-$* elf
	@echo "  TAR     $@"
$(BUILD)/initrd.tar: $(USER_PROGS) $(wildcard user/etc/*) $(BUILD)/initrd.extra $(INITRD_EXTRA)
	@rm -rf $(BUILD)/initrd && mkdir -p $(BUILD)/initrd/bin $(BUILD)/initrd/etc
	@$(if $(strip $(DEBS)),$(call unpack_debs,$(DEBS),$(BUILD)/initrd))
	@cp --preserve=links $(USER_PROGS) $(INITRD_EXTRA) $(BUILD)/initrd/bin/	# the glibc programs' hard links too
	@cp user/etc/* $(BUILD)/initrd/etc/
	@echo "  TAR     $@"
	@tar --format=ustar --owner=0 --group=0 -cf $@ -C $(BUILD)/initrd $$(ls $(BUILD)/initrd)

# The field's benchmarks (issue 28): Debian's i386 rt-tests (cyclictest,
# hackbench) and stress-ng with the libraries they load, as a second
# initrd module (tools/debs-tar.sh), for the rt_tests cases and make
# bench-field; DEBS= above puts the same packages into the initrd itself.
# The library lists are stress-ng's and rt-tests' i386 Depends, closed
# over the libraries' own NEEDED entries.
RT_DEBS := libc6 libgcc-s1 rt-tests libnuma1
STRESS_DEBS := stress-ng libapparmor1 libbsd0 libmd0 libcrypt1 libegl1 libglvnd0 \
	libgbm1 libdrm2 libwayland-server0 libexpat1 libffi8 libgles2 libjpeg62-turbo \
	libjudydebian1 libkmod2 liblzma5 libzstd1 libssl3 libsctp1 libxxhash0 zlib1g
# Every package the cases and linux-diff unpack (tools/prefetch.sh fetches
# them in one apt session).
print-debs:
	@echo $(RT_DEBS) $(STRESS_DEBS)
print-essential:
	@echo $(DEB_ESSENTIAL)
$(BUILD)/rt-tests.tar:
	@tools/debs-tar.sh $@ $(RT_DEBS)
	@echo "  TAR     $@ ($(RT_DEBS))"
$(BUILD)/field.tar:
	@tools/debs-tar.sh $@ $(RT_DEBS) $(STRESS_DEBS)
	@echo "  TAR     $@ (rt-tests, stress-ng and their libraries)"

# ---- running ---------------------------------------------------------------
SOCKETS ?= 1
THREADS ?= 1
ifeq ($(origin CPUS),undefined)
CORES ?= 1
CPUS := $(shell echo $$(( $(SOCKETS) * $(CORES) * $(THREADS) )))
else
CORES ?= $(shell echo $$(( $(CPUS) / ($(SOCKETS) * $(THREADS)) )))
endif
SMP     ?= $(CPUS),sockets=$(SOCKETS),cores=$(CORES),threads=$(THREADS)
MEM     ?= 128M
APPEND  ?=
# SCHED=cfs: boot that scheduler (sched=NAME, docs/lineage.md); default the staircase
SCHED   ?=
override APPEND := $(strip $(APPEND) $(if $(SCHED),sched=$(SCHED)))
KVM     ?= $(shell test -d /sys/module/kvm_intel -o -d /sys/module/kvm_amd && echo 1 || echo 0)
ACCEL   := $(if $(filter 1,$(KVM)),-accel kvm,-accel tcg)
DISPLAY_FLAGS := $(if $(filter 1,$(GUI)),,-display none)
QEMU_FLAGS = -m $(MEM) -smp $(SMP) $(ACCEL) $(if $(CPU_MODEL),-cpu $(CPU_MODEL)) \
	-serial mon:stdio $(if $(TRACE),-serial file:$(TRACE)) $(DISPLAY_FLAGS) -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
# isa-debug-exit makes QEMU exit with (status << 1) | 1: 1 means "init exited 0".
QEMU_STATUS = code=$$?; [ $$code -eq 0 ] || [ $$code -eq 1 ] || { echo "qemu exit code $$code"; exit $$code; }

deps-run:
	@tools/ensure-deps.sh cc nasm qemu

run: deps-run
	@$(MAKE) --no-print-directory build
	qemu-system-i386 $(QEMU_FLAGS) -kernel $(BUILD)/kernel.elf -initrd $(BUILD)/initrd.tar \
		-append "$(APPEND)"; $(QEMU_STATUS)

gdb: deps-run
	@$(MAKE) --no-print-directory build
	@echo "QEMU is stopped at the first instruction. In another terminal: gdb -x tools/gdbinit"
	qemu-system-i386 $(QEMU_FLAGS) -s -S -kernel $(BUILD)/kernel.elf -initrd $(BUILD)/initrd.tar \
		-append "$(APPEND)"; $(QEMU_STATUS)

# make trace PROG=/bin/sched_rr [SMP=2] [APPEND=...]: boot in virtual time
# (-icount, as the test cases: the numbers do not depend on the host's load)
# on one CPU; with SMP=2 or more in real time: QEMU 7.2's icount runs the
# vCPUs round-robin and can hold one at an APIC timer write for as long as
# the other is busy (docs/trace.md, "Two CPUs"),
# record PROG with `trace run -m` (the events kept in memory, sent to COM2
# after PROG has exited; LIVE=1: streamed while it runs), then write the
# raw log and its exports beside it (docs/trace.md). Arguments go after colons, as in
# run=: PROG=/bin/spin:2. The console scrolls by as usual.
# Without PROG, a named example (EXAMPLE=stairs, the default): a hog, a
# nice 10 hog and a sleeper on one CPU, the first trace to look at: the
# hogs walk down the stairs, the nice 10 one on shorter slices, the
# sleeper stays on top (trace_crosscheck_1x1x1 records the same line).
TRACE_EXAMPLE_stairs := /bin/spin:3:+:/bin/nice:-n:10:/bin/spin:3:+:/bin/sleeper:1:9:3
EXAMPLE ?= stairs
TRACE_PROG = $(if $(PROG),$(PROG),$(TRACE_EXAMPLE_$(EXAMPLE)))
TRACE_NAME = $(if $(PROG),$(notdir $(firstword $(subst :, ,$(PROG)))),$(EXAMPLE))
TRACE_OUT = $(BUILD)/trace/$(TRACE_NAME)
comma := ,
TRACE_CLOCK = $(if $(filter 1,$(firstword $(subst $(comma), ,$(SMP)))),-icount shift=2$(comma)sleep=off)
.PHONY: trace
trace: deps-run
	@test -n "$(TRACE_PROG)" || { echo "make trace: no example called '$(EXAMPLE)' (there is: stairs); or PROG=/bin/sched_rr [SMP=2] [APPEND=...]"; exit 2; }
	@$(MAKE) --no-print-directory build
	@mkdir -p $(BUILD)/trace
	qemu-system-i386 -display none -monitor none -serial stdio -serial file:$(TRACE_OUT).log \
		-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg $(TRACE_CLOCK) \
		-m $(MEM) -smp $(SMP) $(if $(CPU_MODEL),-cpu $(CPU_MODEL)) \
		-kernel $(BUILD)/kernel.elf -initrd $(BUILD)/initrd.tar \
		-append "tests=none $(APPEND) run=/bin/trace:run:$(if $(LIVE),,-m:)$(TRACE_PROG) then=poweroff"; $(QEMU_STATUS)
	@$(PYTHON) tools/traceview.py $(TRACE_OUT).log -o $(TRACE_OUT).html \
		--ftrace $(TRACE_OUT).ftrace --json $(TRACE_OUT).json

# ---- the GRUB ISO ----------------------------------------------------------
ISO_APPEND ?=
ISO_TIMEOUT ?= 3
# GRUB's BIOS modules: Debian's grub-pc-bin, or where Debian has none for
# the host (arm64) the same files unpacked by tools/get-grub-pc.sh
# (tools/ensure-deps.sh iso runs it; docs/testing.md "Hosts").
GRUB_PC_DIR = $(if $(wildcard /usr/lib/grub/i386-pc/modinfo.sh),/usr/lib/grub/i386-pc,$(BUILD)/grub/i386-pc)
iso: $(BUILD)/staircase.iso
$(BUILD)/%.iso: $(BUILD)/kernel.elf $(BUILD)/initrd.tar tools/grub.cfg.in
	@tools/ensure-deps.sh iso
	@rm -rf $(BUILD)/iso-$* && mkdir -p $(BUILD)/iso-$*/boot/grub
	cp $(BUILD)/kernel.elf $(BUILD)/initrd.tar $(BUILD)/iso-$*/boot/
	sed -e 's|@APPEND@|$(ISO_APPEND)|g' -e 's|@TIMEOUT@|$(ISO_TIMEOUT)|g' tools/grub.cfg.in > $(BUILD)/iso-$*/boot/grub/grub.cfg
	grub-mkrescue -d $(GRUB_PC_DIR) -o $@ $(BUILD)/iso-$* 2>$(BUILD)/grub-mkrescue.log || { cat $(BUILD)/grub-mkrescue.log; exit 1; }

run-iso: deps-run $(BUILD)/staircase.iso
	qemu-system-i386 $(QEMU_FLAGS) -cdrom $(BUILD)/staircase.iso; $(QEMU_STATUS)

# ---- tests -----------------------------------------------------------------
# The QEMU cases under pytest (tests/cases/conftest.py; tests/run-all.sh
# adds the selection, -n and the JUnit XML).
QEMU_TESTS = tools/pytest tests/cases --kernel $(BUILD)/kernel.elf \
	--initrd $(BUILD)/initrd.tar --iso $(BUILD)/test.iso
# The test ISO boots straight into the quick suite and exits with its
# verdict (boot_iso in tests/cases/boot.py). Rebuilt every time: its command
# line is not a file make could compare.
TEST_ISO_APPEND = tests=quick then=exit

# make test-all: everything make test runs, plus the cases tagged "all"
# (they repeat what other cases check: docs/testing.md) and every lab's boot.
test test-all:
	@tools/ensure-deps.sh cc nasm qemu iso python pytest hostcc cpio glibc
	@echo "i386 programs on this host: $$(tools/run-i386 --setup) (tools/run-i386; docs/testing.md)"
	@$(MAKE) --no-print-directory all
	@rm -f $(BUILD)/test.iso
	@$(MAKE) --no-print-directory $(BUILD)/test.iso ISO_APPEND="$(TEST_ISO_APPEND)" ISO_TIMEOUT=0
	@tests/run-all.sh $(if $(filter test-all,$@),all,full) "$(QEMU_TESTS)"

test-quick:
	@tools/ensure-deps.sh cc nasm qemu python pytest hostcc
	@$(MAKE) --no-print-directory build
	@tests/run-all.sh quick "$(QEMU_TESTS)"

test-unit:
	@tests/run-all.sh unit

# Mutation check: one-line mutants of sched/ (tools/mutate/mutants.txt),
# each built in a copy under build/mutate/ and run against the unit tests;
# every mutant must be killed or listed in tools/mutate/equivalent.txt,
# and every exercise of the docs (tools/mutate/exercises.txt) killed by the
# test the docs name. Not part of `make test` (a few minutes on 2 cores;
# docs/testing.md); make test checks only that the exercises still apply.
mutate:
	@tools/mutate/run.sh

# Stress (tests/stress.py, the cases in tests/stress/): smp_stress's full
# mix for STRESS_S seconds on 2x2x2 and 1x2x2, then three fuzz runs of
# 1,000,000 calls, and the ELF loader's fuzzer (4,200 mutated programs
# against Linux 6.1's recorded outcomes, ~35 s); seeds from STRESS_SEED (default: the clock), printed
# with every failure. STRESS_CASES picks cases by name (harness globs).
# Not part of `make test` (2.5 minutes with STRESS_S=60; docs/testing.md).
STRESS_S ?= 60
STRESS_SEED ?=
STRESS_CASES ?=
stress:
	@tools/ensure-deps.sh cc nasm qemu python
	@$(MAKE) --no-print-directory build
	@STRESS_S="$(STRESS_S)" STRESS_SEED="$(STRESS_SEED)" $(PYTHON) tests/stress.py \
		--kernel $(BUILD)/kernel.elf --initrd $(BUILD)/initrd.tar $(STRESS_CASES)

# Path lengths of this kernel (default and DEBUG=0) and Linux 6.1 in the
# same QEMU under -icount (tools/bench/run.sh), and the scheduling-quality,
# boot and memory figures (tools/bench/sched.sh): bench/results/latest.md,
# latest.svg, latest-*.svg. Not part of `make test` (about 5 minutes;
# docs/bench.md). SCALE=1 adds tools/bench/scale.sh (operations per
# second at k = 1..SCALE_CPUS (8) CPUs on both kernels, and the lock
# statistics: bench/results/scale.md). Wall-clock columns under KVM only with KVM=1 given here
# (and hardware KVM: not with kvm_pvm).
bench:
	@tools/ensure-deps.sh cc nasm qemu python cpio
	@BENCH_KVM=$(if $(filter command line,$(origin KVM)),$(KVM),0) tools/bench/run.sh
	@$(if $(filter 1,$(SCALE)),SCALE_CPUS=$(or $(SCALE_CPUS),8) tools/bench/scale.sh)
	@tools/bench/field.sh || echo "bench: the field's benchmarks were not run (above: why)"
	@tools/bench/lineage.sh || echo "bench: the lineage table was not written (above: why)"

# LTP beside Linux 6.1 (tools/ltp/run.sh): LTP's syscalls tests of the
# scheduling, process and memory directories and Open POSIX's sched
# interfaces, built static i386 from LTP_SRC (tools/ltp/build.sh), run on
# both kernels in the same QEMU: bench/results/ltp.md. Not part of make
# test (it needs the LTP tree; docs/testing.md, "make ltp").
.PHONY: ltp
ltp: build
	@tools/ensure-deps.sh cc nasm qemu python cpio glibc autotools
	@tools/ltp/run.sh $(TESTS)

# Lineage mode's table (tools/bench/lineage.sh): staircase, o1, sd, cfs
# (also with Linux 6.1's tunables), eevdf and Linux 6.1 on /bin/lineage's
# workloads and hackbench, one boot each under -icount:
# bench/results/lineage.md and lineage.svg (docs/lineage.md §5).
# LINEAGE_MS=3000: each workload's length. Also run at the end of make bench.
.PHONY: lineage
lineage:
	@tools/ensure-deps.sh cc nasm qemu python cpio
	@LINEAGE_MS=$(or $(LINEAGE_MS),3000) tools/bench/lineage.sh

# The field's benchmarks alone (tools/bench/field.sh): Debian's cyclictest,
# hackbench and stress-ng on both kernels, the "field" section of
# bench/results/latest.md (docs/bench.md, "The field's benchmarks").
bench-field:
	@tools/ensure-deps.sh cc nasm qemu python cpio
	@tools/bench/field.sh

# Where one program's kernel instructions go, by function (tools/bench/profile.sh).
# (Its default PROG is its own: make trace without PROG records an example.)
PROFILE_PROG = $(or $(PROG),/bin/pathlen)
ARGS ?= yield 100
profile:
	@tools/ensure-deps.sh cc nasm qemu python
	@$(MAKE) --no-print-directory build
	@tools/bench/profile.sh $(addprefix --annotate=,$(ANNOTATE)) $(PROFILE_PROG) $(ARGS)

# The files a real timer tick and a real sched_setscheduler run code in,
# measured (tools/bench/paths.py: make profile's log, twice), written
# into docs/scheduler.md's "Two paths". About 2 minutes.
paths:
	@tools/ensure-deps.sh cc nasm qemu python
	@$(MAKE) --no-print-directory build
	@$(PYTHON) tools/bench/paths.py

# The scheduler of sched/ on simulated CPUs, on the host (tools/sim).
sim:
	@$(MAKE) --no-print-directory -C tools/sim

# A trace make trace recorded, replayed on the simulator (docs/simulator.md,
# "Replaying a kernel trace"): CHECK=1 the round trip (exit status 1 when it
# does not hold); SET's words NAME=VALUE set a tunable, nice:PID=DELTA and
# policy:PID=POLICY change the recorded pid's; SCHED=cfs another scheduler.
# The replay's events go to build/trace/NAME.replay.log, and the recording
# and the replay one above the other to NAME.replay.html (the viewer) and
# NAME.replay.json (Perfetto: two processes, recorded and replayed).
REPLAY_ARGS = $(if $(CHECK),--check) $(if $(SCHED),--sched $(SCHED)) \
	$(foreach w,$(SET),$(if $(filter nice:%,$(w)),--nice $(w:nice:%=%),$(if $(filter policy:%,$(w)),--policy $(w:policy:%=%),--set $(w))))
# A TRACE ending in .gz is unpacked to build/trace/NAME.log first.
REPLAY_NAME = $(patsubst %.log,%,$(patsubst %.gz,%,$(notdir $(TRACE))))
REPLAY_IN = $(if $(filter %.gz,$(TRACE)),$(BUILD)/trace/$(REPLAY_NAME).log,$(TRACE))
REPLAY_OUT = $(BUILD)/trace/$(REPLAY_NAME).replay
replay: sim
	@test -n "$(TRACE)" || { echo "make replay: TRACE=FILE, a log make trace wrote (build/trace/*.log)"; exit 2; }
	@mkdir -p $(BUILD)/trace
	@$(if $(filter %.gz,$(TRACE)),gzip -dc $(TRACE) > $(REPLAY_IN))
	@build/sim/staircase-sim --replay $(REPLAY_IN) $(REPLAY_ARGS) --trace-out $(REPLAY_OUT).log; \
	status=$$?; [ $$status -ge 2 ] || $(PYTHON) tools/traceview.py --compare $(REPLAY_IN) $(REPLAY_OUT).log \
		-o $(REPLAY_OUT).html --json $(REPLAY_OUT).json || status=2; exit $$status

# Labs (tools/lab, docs/labs.md): make lab writes a student tree with one
# lab's code cut out; make grade runs that lab's unit tests, simulator
# checks and (without QUICK=1) QEMU cases in virtual time, and prints
# "Score: N/M" (exit status 0 only at full marks).
LAB ?=
DEST ?=
QUICK ?=
lab:
	@$(PYTHON) tools/lab/lab.py $(LAB) $(if $(DEST),--dest $(DEST)) $(if $(filter 1,$(CLEAN)),--clean)

# A score below full marks is a result, not a failed build: make grade
# exits 0 for it (a failing recipe would end in make's "*** [grade] Error
# 1", which students read as a broken build). STRICT=1, for autograders,
# keeps grade.py's status: 1 below full marks. 2 (cannot grade) fails always.
grade:
	@tools/ensure-deps.sh python hostcc cc $(if $(QUICK),,nasm qemu)
	@$(PYTHON) tools/lab/grade.py $(if $(LAB),--lab $(LAB)) $(if $(QUICK),--quick); \
	st=$$?; if [ $$st -eq 1 ] && [ "$(STRICT)" != 1 ]; then exit 0; fi; exit $$st

clean:
	rm -rf $(BUILD)
	@$(MAKE) --no-print-directory -C tests/unit clean 2>/dev/null || true

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
