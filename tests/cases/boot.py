"""Boot: the banner, boot parameters, memory sizes, panics, the GRUB ISO.

The kernel prints (docs/abi.md, docs/testing.md):
    boot: staircase kernel, cpu vendor <V>, memory <N> MiB, cmdline "<...>"
    bootparam: <key>: bad value "<value>"      bootparam: unknown key "<key>"
    boot: done
and with then=poweroff powers off after "boot: done" as if init exited with
status 0, so QEMU exits with 1 (isa-debug-exit: (0 << 1) | 1).
"""
import re

from harness import Case

BANNER = (r'^boot: staircase kernel, cpu vendor (GenuineIntel|AuthenticAMD), '
          r'memory (\d+) MiB, cmdline "([^"]*)"')
DONE = r"^boot: done\b"

# SeaBIOS needs a little over 1 MiB (-m 1040K hangs in the BIOS, 1056K
# boots); the kernel and initrd must fit too, or the kernel can't even say it
# is short of memory. 4 MiB leaves ~2.5 MiB for them and is still far below
# what the kernel needs.
TOO_SMALL = "4M"


def mebibytes(size):
    """QEMU -m value ("128M", "1G") in MiB."""
    number, unit = re.fullmatch(r"(\d+)([MG])", size).groups()
    return int(number) * (1024 if unit == "G" else 1)


def banner_check(memory, append=None):
    """The banner reports about the RAM QEMU was given and the command line.

    The reported memory may leave out the first MiB and firmware areas, so
    anything from 90 % of -m up to -m passes. QEMU and GRUB put the kernel's
    path before the arguments, so the command line must *end* with append.
    """
    want = mebibytes(memory)

    def check(log):
        m = re.search(BANNER, log, re.M)
        vendor, mib, cmdline = m.group(1), int(m.group(2)), m.group(3)
        if not 0.9 * want <= mib <= want:
            return False, f"banner says {mib} MiB, QEMU has -m {memory}"
        if append is not None and not (cmdline == append or
                                       cmdline.endswith(" " + append)):
            return False, f"banner cmdline {cmdline!r} doesn't end in {append!r}"
        # issue 32: the task limit the boot computed, Linux's rule (an
        # eighth of the memory for 8 KiB stacks: 16 tasks a MiB), at most
        # the stacks' range (5,397)
        t = re.search(r"^tasks: threads-max (\d+) \((\d+) MiB\)", log, re.M)
        if not t:
            return False, "no 'tasks: threads-max N (M MiB)' line at boot"
        threads, tmib = int(t.group(1)), int(t.group(2))
        if abs(threads - min(5397, tmib * 16)) > 16:
            return False, f"threads-max {threads} at {tmib} MiB, want about {min(5397, tmib * 16)}"
        return True, f"{vendor}, {mib} MiB, threads-max {threads}"
    return check


def boots(name, memory="128M", append="tests=none then=poweroff", tags=("quick",)):
    return Case(name, memory=memory, append=append, tags=tags,
                expect_order=[BANNER, DONE],
                check=banner_check(memory, append))


def memory_panic_check(log):
    have, need = map(int, re.search(r"have (\d+) KiB, need (\d+) KiB", log)
                     .groups())
    if have >= need:
        return False, f"panicked although have {have} KiB >= need {need} KiB"
    if have > mebibytes(TOO_SMALL) * 1024:
        return False, f"have {have} KiB is more than -m {TOO_SMALL}"
    return True, f"have {have} KiB < need {need} KiB"


# init's run= reaches it whole however long it is (the kernel once cut it
# at 160 bytes without a word), and a command line too long for the
# kernel is reported, not cut in silence.
LONG_RUN = ",".join(["hello"] * 40)		# 239 bytes


def all_long_run_ran(text):
    n = sum(1 for l in text.splitlines() if l.rstrip("\r") == "init: running /bin/hello")
    return n == 40, f"{n} of the 40 programs of a {len(LONG_RUN)}-byte run= ran"


CASES = [
    boots("boot_banner"),
    # The GRUB menu's default entry; `make test` builds the ISO with
    # "tests=quick then=exit" (Makefile: TEST_ISO_APPEND), so the boot runs
    # the quick suite and QEMU exits with its verdict. In virtual time, as
    # the suite cases (tests/cases/suite.py says why).
    Case("boot_iso", iso=True, timeout=240, retry=True,
         qemu_args=["-icount", "shift=2,sleep=off"],
         expect_order=[BANNER, DONE, r"^tests: \d+ passed, 0 failed",
                       r"^init exited: status 0\b"],
         forbid=[r"^error: ", r"Failed to boot",        # GRUB's complaints
                 r"^not ok \d+ .*"]),
    Case("panic_backtrace", append="test=panic tests=none then=poweroff",
         tags=("quick",), expect_panic=True,
         expect_order=[r"^panic: ", r"^backtrace:",
                       r"^\s+#\d+ 0x[0-9a-f]{8} kmain\+0x[0-9a-f]+\b"]),
    # A kernel stack that overflows hits its unmapped guard page: the double
    # fault task says which process and where, instead of silent corruption.
    Case("kstack_overflow_hits_guard_page",
         append="tests=none run=/bin/kstack_overflow then=exit", expect_panic=True,
         expect_order=[r"^kernel stack overflow on cpu0: pid \d+ \(kstack_overflow\) "
                       r"touched 0x[0-9a-f]{8}, the guard page below its stack",
                       r"^\s+#\d+ 0x[0-9a-f]{8} overflow_stack\+0x",
                       r"^panic: kernel stack overflow"]),
    # iso_cpu=4294967346 once wrapped to 50 on i686 and was taken
    Case("bad_params", append="hz=abc nosuchkey=1 iso_cpu=4294967346 "
         "rr_interval=-2147483649 tests=none then=poweroff",
         tags=("quick",),
         expect_order=[BANNER,
                       r'^bootparam: hz: bad value "abc"',
                       r'^bootparam: unknown key "nosuchkey"',
                       DONE],
         expect=[r'^bootparam: iso_cpu: bad value "4294967346", keeping 70$',
                 r'^bootparam: rr_interval: bad value "-2147483649", keeping 10$']),
    Case("long_run_list", append=f"tests=none run={LONG_RUN} then=poweroff",
         tags=("quick",), timeout=60, check=all_long_run_ran),
    Case("cmdline_too_long", append="tests=none then=poweroff pad=" + "x" * 1100,
         expect=[r"^bootparam: the command line is 11\d\d bytes; only the first 1023 are read$"]),
    boots("mem_32M", memory="32M"),
    boots("mem_1G", memory="1G", tags=()),
    Case("mem_too_small", memory=TOO_SMALL, append="tests=none then=poweroff",
         expect_panic=True,
         expect=[r"^panic: not enough memory \(have \d+ KiB, need \d+ KiB\)"],
         forbid=[DONE], check=memory_panic_check),
]
