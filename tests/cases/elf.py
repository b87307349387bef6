"""The ELF loader answers as Linux 6.1's (issue 46 item 6; docs/userland.md,
"Exec").

/bin/elfrun (user/glibc/elfrun.c) execs, as uid 1000, each of the named
programs of /elf/cases (tests/elf/mkelf.py: one rule of load_elf_binary
each, hand-built ELF files of a few hundred bytes, in a module of their
own: build/elf-cases.tar) and compares the
outcome (execve's errno, the exit status, the killing signal) with the
one recorded on Debian's Linux 6.1 (tests/elf/cases.linux). Where Linux
kills with SIGSEGV after exec's point of no return, this kernel may
refuse with an errno instead (the deliberate difference, said on the
line). Then /bin/elf_leak (user/tests/elf_leak.c) execs them all again
and the kernel's free frames must come back exactly. Before this loader 23 of the 67 differed (EM_486, e_ident's class
and byte order, 40 and 128 program headers, a 150-byte PT_INTERP, an
ET_EXEC interpreter, unaligned segments loaded, a non-writable data
segment's tail, a text segment's zero-filled tail, PROT_NONE text...).
"""
import os
import subprocess

from harness import Case

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE = "build/elf-cases.tar"


def prepare():
    """make builds the module (make build does too)."""
    if subprocess.call(["make", "--no-print-directory", "-s", MODULE], cwd=REPO,
                       stdout=subprocess.DEVNULL) != 0:
        return f"make {MODULE} failed"
    return None


CASES = [
    Case("exec_elf_rules_as_linux", smp="2,sockets=1,cores=2,threads=1", timeout=60,
         append="tests=none run=/bin/elfrun,/bin/elf_leak then=exit", tags=("process", "quick"),
         modules=[MODULE], prepare=prepare,
         expect=[r"^init exited: status 0$",
                 r"^ok \d+ - elf_outcomes_match_linux # run-dependent: 67 programs",
                 r"^ok \d+ - elf_exec_frees_every_frame # 67 programs"],
         forbid=[r"^not ok \d+ .*"]),
]
