#!/usr/bin/env python3
"""include/uapi/, the ABI the kernel, sched/ and the small libc share
(docs/abi.md): every number there is Linux's i386 number, checked against
Linux's own headers (the cross toolchain's /usr/i686-linux-gnu/include,
Debian's linux-libc-dev-i386-cross), and nothing the kernel or the libc
defines again.

    python3 tests/host-tools/test_uapi.py

One line per test, then "N passed, N failed". Needs i686-linux-gnu-gcc
(tools/ensure-deps.sh cc); skipped with the reason without it.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

CC = "i686-linux-gnu-gcc"
UAPI = os.path.join(hostlib.REPO, "include", "uapi")
LINUX_HEADERS = ["asm/errno.h", "asm/signal.h", "asm-generic/siginfo.h", "linux/wait.h",
                 "asm/ioctls.h", "linux/sched.h", "asm/unistd_32.h", "asm/mman.h",
                 "linux/mman.h", "linux/resource.h", "asm/resource.h", "linux/stat.h",
                 "linux/fcntl.h", "asm/fcntl.h", "linux/time.h", "asm/termbits.h",
                 "linux/reboot.h", "linux/prctl.h", "linux/fs.h", "asm/poll.h",
                 "linux/futex.h", "linux/signal.h", "linux/utsname.h", "linux/sysinfo.h",
                 "linux/capability.h", "linux/securebits.h", "linux/ioprio.h", "linux/mqueue.h", "linux/sched/types.h", "linux/net.h",
                 "sys/socket.h", "linux/limits.h", "linux/magic.h", "linux/eventpoll.h",
                 "linux/socket.h", "linux/ipc.h", "linux/msg.h", "linux/sem.h", "linux/shm.h",
                 "asm/ldt.h"]
# Ours only: the -ck patches' policy, glibc's name for SCHED_NORMAL (and
# the project's own calls, __NR_* from 500 up: docs/abi.md §4, OUR_CALLS).
NOT_LINUX = {"SCHED_ISO", "SCHED_OTHER",
             # Linux's too (6 and 3), but in the kernel's own
             # arch/x86/include/asm/segment.h, not in its uapi headers
             "GDT_ENTRY_TLS_MIN", "GDT_ENTRY_TLS_ENTRIES", "GDT_ENTRY_TLS_MAX"} | set(
             # Linux's too (include/linux/fs_types.h), not in its uapi
             # headers: glibc's <dirent.h> has them, checked by
             # d_type_values_are_glibcs below
             ["DT_UNKNOWN", "DT_FIFO", "DT_CHR", "DT_DIR", "DT_REG", "DT_LNK"]) | set(
             # Linux's too: glibc's <sys/mount.h> and <sys/statvfs.h> have
             # them as enum constants (umount2's flags, statfs's f_flags),
             # which the preprocessor does not see; ST_VALID is in the
             # kernel's own include/linux/statfs.h
             ["MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW",
              "ST_RDONLY", "ST_NOSUID", "ST_NODEV", "ST_NOEXEC", "ST_NOATIME",
              "ST_RELATIME", "ST_VALID"]) | set(
             # Linux's too (include/linux/syslog.h, not uapi: man 2 syslog
             # gives the numbers, which glibc's klogctl passes through)
             ["SYSLOG_ACTION_" + n for n in (
                 "CLOSE", "OPEN", "READ", "READ_ALL", "READ_CLEAR", "CLEAR",
                 "CONSOLE_OFF", "CONSOLE_ON", "CONSOLE_LEVEL", "SIZE_UNREAD",
                 "SIZE_BUFFER")]) | set(
             # Linux's too: glibc's <sys/socket.h> has them as enum
             # constants, which the preprocessor does not see, and
             # SOCK_MAX, SOCK_TYPE_MASK are in the kernel's own
             # include/linux/net.h (user/glibc/sockets.c uses glibc's)
             ["MSG_CTRUNC", "MSG_TRUNC", "MSG_CMSG_CLOEXEC", "SCM_RIGHTS", "SCM_CREDENTIALS",
              "MSG_DONTWAIT", "MSG_NOSIGNAL", "MSG_OOB", "MSG_PEEK", "MSG_WAITALL",
              "SHUT_RD", "SHUT_RDWR", "SHUT_WR", "SOCK_CLOEXEC", "SOCK_DGRAM", "SOCK_MAX",
              "SOCK_NONBLOCK", "SOCK_PACKET", "SOCK_RAW", "SOCK_RDM", "SOCK_SEQPACKET",
              "SOCK_STREAM", "SOCK_TYPE_MASK"]) | set(
             # Linux's too, in its own include/linux/shm.h (not uapi):
             # shm_perm.mode's bits above the permissions, which ipcs reads
             ["SHM_DEST", "SHM_LOCKED"]) | set(
             # Linux's too, but written as a cast ((__kernel_key_t) 0) and
             # a conditional expression, which defines() does not evaluate
             ["IPC_PRIVATE", "MSGSEG"]) | set(
             # Linux's too (linux/eventpoll.h), but written there as
             # (__force __poll_t)0x001, which the preprocessor cannot
             # value; glibc's <sys/epoll.h> has them as enum constants
             ["EPOLL" + n for n in (
                 "ERR", "HUP", "IN", "MSG", "NVAL", "OUT", "PRI", "RDBAND", "RDHUP",
                 "RDNORM", "WRBAND", "WRNORM")]) | set(
             # Linux's too, in linux/uio.h, whose struct iovec glibc's
             # <sys/socket.h> defines again
             ["UIO_MAXIOV"]) | set(
             # Linux's too, in the kernel's own include/net/scm.h
             ["SCM_MAX_FD"]) | set(
             # Linux's too, as enum constants in linux/ioprio.h, which the
             # preprocessor does not see
             ["IOPRIO_CLASS_" + n for n in ("NONE", "RT", "BE", "IDLE")] +
             ["IOPRIO_WHO_" + n for n in ("PROCESS", "PGRP", "USER")])
# The calls only we have exchange these (500 and up): all ours.
OURS_ONLY = "ourcalls.h"
# Layout and struct names, not numbers.
SKIP = re.compile(r"^(UAPI_.*_H|LOCK_STAT_.*)$")
OUR_CALLS = 500
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def defines(source, extra=()):
    """Every object-like #define with an integer value, as the cross
    compiler's preprocessor sees it after `source`."""
    r = subprocess.run([CC, "-E", "-dM", "-x", "c", *extra, "-"], input=source,
                       capture_output=True, text=True, check=True)
    out, exprs = {}, {}
    for name, value in re.findall(r"^#define (\w+) (.+)$", r.stdout, re.M):
        v = value.strip().strip("()").rstrip("uUlL")
        if re.fullmatch(r"-?0[0-7]+", v):      # C's octal: 0170000
            v = v.replace("0", "0o", 1)
        try:
            out[name] = int(v, 0)
        except ValueError:
            exprs[name] = value
    # Sums of names, as (F_LINUX_SPECIFIC_BASE + 6): their values.
    for name, value in exprs.items():
        e = re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: str(out.get(m.group(1), "?")), value)
        if re.fullmatch(r"[\d\s()+\-*|<>]+", e):
            try:
                out[name] = int(eval(e, {"__builtins__": {}}))   # digits and operators only
            except (SyntaxError, ValueError):
                pass
    return out


def ours(hdrs=None):
    hdrs = hdrs or sorted(glob.glob(os.path.join(UAPI, "*.h")))
    src = "".join(f'#include "{h}"\n' for h in hdrs)
    flags = ["-I", os.path.join(hostlib.REPO, "include")]
    base = defines("#include <stdint.h>\n", flags)     # the compiler's and libc's own
    return {k: v for k, v in defines(src, flags).items()
            if not SKIP.match(k) and k not in base}


def sources(tops=("include", "kernel", "sched", "drivers", "user", "boot")):
    """(path relative to the repository, text) of every .c and .h under
    tops, but user/glibc/: a student's program there uses glibc's own."""
    for top in tops:
        for path in glob.glob(os.path.join(hostlib.REPO, top, "**", "*.[ch]"), recursive=True):
            rel = os.path.relpath(path, hostlib.REPO)
            if not rel.startswith("user/glibc"):
                with open(path, errors="replace") as f:
                    yield rel, f.read()


@test
def every_number_is_linux_i386s():
    mine = ours()
    theirs = defines("".join(f"#include <{h}>\n" for h in LINUX_HEADERS))
    wrong = {k: (v, theirs[k]) for k, v in mine.items() if k in theirs and theirs[k] != v}
    ours_only = {k for k, v in mine.items() if k.startswith("__NR_") and v >= OUR_CALLS}
    ours_only |= set(ours([os.path.join(UAPI, OURS_ONLY)]))
    unknown = sorted(k for k in mine if k not in theirs and k not in NOT_LINUX | ours_only)
    last = max(v for k, v in theirs.items() if k.startswith("__NR_"))
    assert last < OUR_CALLS, f"Linux's calls reach {last}: ours from {OUR_CALLS} would collide"
    assert not wrong, f"differ from Linux (ours, Linux's): {wrong}"
    assert not unknown, f"not in Linux's headers and not listed as ours: {unknown}"
    assert len(mine) > 100, f"only {len(mine)} numbers found in include/uapi"


@test
def nothing_is_defined_again_outside_include():
    names = set(ours())
    again = []
    for top in ("kernel", "sched", "drivers", "user", "boot"):
        for path in glob.glob(os.path.join(hostlib.REPO, top, "**", "*.[ch]"), recursive=True):
            with open(path, errors="replace") as f:
                for n in re.findall(r"^\s*#\s*define\s+(\w+)\b", f.read(), re.M):
                    if n in names:
                        again.append(f"{os.path.relpath(path, hostlib.REPO)}: {n}")
    assert not again, "defined again: " + ", ".join(again[:10])


# Linux's names that two files define on purpose, each for its own side.
TWICE_ON_PURPOSE = {
    "NSIG",     # the kernel's count of signals (64) vs libc's bound (65, glibc's)
    "SIG_DFL", "SIG_IGN",   # a number in the kernel, a handler pointer in libc
}


@test
def no_linux_name_defined_twice():
    """A name Linux's i386 headers define (the LINUX_HEADERS above) is
    defined in at most one file of the tree: the second copy of a number
    is how the two sides drift apart."""
    linux = set(defines("".join(f"#include <{h}>\n" for h in LINUX_HEADERS)))
    where = {}
    for rel, text in sources():
        for n in set(re.findall(r"^\s*#\s*define\s+(\w+)\s+\S", text, re.M)):
            if n in linux and n not in TWICE_ON_PURPOSE:
                where.setdefault(n, []).append(rel)
    twice = {n: ps for n, ps in where.items() if len(ps) > 1}
    assert not twice, "defined in several files: " + ", ".join(
        f"{n} ({', '.join(ps)})" for n, ps in sorted(twice.items())[:8])


@test
def call_numbers_only_in_unistd_h():
    """The kernel's table and the libc's wrappers name calls by __NR_*; no
    other file writes a call's number (user/glibc/ uses glibc's own
    <sys/syscall.h>, as a student's program does)."""
    bad = []
    calls = {k[len("__NR_"):] for k in defines("#include <asm/unistd_32.h>\n") if k.startswith("__NR_")}
    for rel, text in sources(("kernel", "sched", "drivers", "user", "boot")):
        for m in re.finditer(r"^\s*#\s*define\s+((?:SYS|__NR)_\w+)", text, re.M):
            bad.append(f"{rel}: #define {m.group(1)}")
        for m in re.finditer(r"^\s*#\s*define\s+(\w*NR_(\w+))\s+\d", text, re.M):
            if m.group(2).lower() in calls:     # NR_SIGRETURN 119
                bad.append(f"{rel}: #define {m.group(1)} <number>")
        for m in re.finditer(r"SYSCALL\(\s*\d", text):
            bad.append(f"{rel}: a table entry by number")
        for m in re.finditer(r"syscall\d\(\s*\d", text):
            bad.append(f"{rel}: a call by number")
    assert not bad, "call numbers outside include/uapi/unistd.h: " + ", ".join(bad[:10])
    with open(os.path.join(hostlib.REPO, "kernel", "syscall.c")) as f:
        n = len(re.findall(r"SYSCALL\(__NR_\w+,", f.read()))
    assert n > 100, f"only {n} entries by name in kernel/syscall.c's table"


# The structs the calls exchange: ours (include/uapi/, as the kernel and the
# small libc see them) against Linux's i386 headers, field by field. Each
# row: our type, Linux's type, the fields whose offsets must agree, and
# whether the sizes must (ucontext: Linux's uapi sigset_t there is the old
# 4-byte one, so only the offsets before it count; sigaction: Linux's
# uapi header gives i386 programs the old sigaction, the kernel's
# rt_sigaction layout is written out below).
STRUCTS = [
    ("struct timespec32", "struct __kernel_old_timespec", "tv_sec tv_nsec", True),
    ("struct timeval32", "struct __kernel_old_timeval", "tv_sec tv_usec", True),
    ("struct rlimit", "struct rlimit", "rlim_cur rlim_max", True),
    ("struct rusage", "struct rusage", "ru_utime ru_stime ru_maxrss ru_minflt ru_nvcsw ru_nivcsw", True),
    ("struct stat64", "struct stat64", "st_dev __st_ino st_mode st_nlink st_uid st_gid st_rdev "
     "st_size st_blksize st_blocks st_atime st_atime_nsec st_mtime st_mtime_nsec st_ctime "
     "st_ctime_nsec st_ino", True),
    ("struct utsname", "struct new_utsname", "sysname nodename release version machine domainname", True),
    ("struct sysinfo", "struct sysinfo", "uptime loads totalram freeram procs totalhigh freehigh mem_unit", True),
    ("struct tms", "struct tms", "tms_utime tms_stime tms_cutime tms_cstime", True),
    ("struct winsize", "struct winsize", "ws_row ws_col ws_xpixel ws_ypixel", True),
    ("struct sched_param", "struct sched_param", "sched_priority", True),
    ("struct sched_attr", "struct sched_attr", "size sched_policy sched_flags sched_nice "
     "sched_priority sched_runtime sched_deadline sched_period sched_util_min sched_util_max", True),
    ("struct pollfd", "struct pollfd", "fd events revents", True),
    ("struct epoll_event", "struct epoll_event", "events data", True),
    ("struct user_desc", "struct user_desc", "entry_number base_addr limit", True),
    ("struct sigcontext", "struct sigcontext", "gs fs es ds edi esi ebp esp ebx edx ecx eax trapno err "
     "eip cs eflags esp_at_signal ss fpstate oldmask cr2", True),
    ("siginfo_t", "siginfo_t", "si_signo si_errno si_code _sifields", True),
    ("struct ucontext", "struct ucontext", "uc_flags uc_link uc_stack uc_mcontext uc_sigmask", False),
    ("struct ipc64_perm", "struct ipc64_perm", "key uid gid cuid cgid mode seq", True),
    ("struct ipc_perm", "struct ipc_perm", "key uid gid cuid cgid mode seq", True),
    ("struct ipc_kludge", "struct ipc_kludge", "msgp msgtyp", True),
    ("struct msqid64_ds", "struct msqid64_ds", "msg_perm msg_stime msg_rtime msg_ctime msg_cbytes "
     "msg_qnum msg_qbytes msg_lspid msg_lrpid", True),
    ("struct msqid_ds", "struct msqid_ds", "msg_perm msg_stime msg_rtime msg_ctime msg_lcbytes "
     "msg_lqbytes msg_cbytes msg_qnum msg_qbytes msg_lspid msg_lrpid", True),
    ("struct msginfo", "struct msginfo", "msgpool msgmap msgmax msgmnb msgmni msgssz msgtql msgseg", True),
    ("struct sembuf", "struct sembuf", "sem_num sem_op sem_flg", True),
    ("struct semid64_ds", "struct semid64_ds", "sem_perm sem_otime sem_ctime sem_nsems", True),
    ("struct semid_ds", "struct semid_ds", "sem_perm sem_otime sem_ctime sem_nsems", True),
    ("struct seminfo", "struct seminfo", "semmap semmni semmns semmnu semmsl semopm semume semusz "
     "semvmx semaem", True),
    ("struct shmid64_ds", "struct shmid64_ds", "shm_perm shm_segsz shm_atime shm_dtime shm_ctime "
     "shm_cpid shm_lpid shm_nattch", True),
    ("struct shmid_ds", "struct shmid_ds", "shm_perm shm_segsz shm_atime shm_dtime shm_ctime "
     "shm_cpid shm_lpid shm_nattch", True),
    ("struct shminfo64", "struct shminfo64", "shmmax shmmin shmmni shmseg shmall", True),
    ("struct shminfo", "struct shminfo", "shmmax shmmin shmmni shmseg shmall", True),
    ("struct shm_info", "struct shm_info", "used_ids shm_tot shm_rss shm_swp swap_attempts "
     "swap_successes", True),
]
LINUX_STRUCT_HEADERS = ["stddef.h", "asm/stat.h", "linux/time_types.h", "linux/resource.h",
                        "linux/utsname.h", "linux/sysinfo.h", "linux/times.h", "asm/termios.h",
                        "asm/sigcontext.h", "asm-generic/siginfo.h", "asm/signal.h",
                        "asm-generic/ucontext.h", "linux/sched/types.h", "linux/poll.h", "asm/ldt.h",
                        "linux/eventpoll.h", "linux/ipc.h", "linux/msg.h", "linux/sem.h",
                        "linux/shm.h"]
# rt_sigaction's struct on i386 (kernel/task/signal.c reads it; Linux's
# arch/x86/include/asm/signal.h, not in its uapi): offsets and size.
SIGACTION = {"sa_handler": 0, "sa_flags": 4, "sa_restorer": 8, "sa_mask": 12, "size": 20}


def compiled_values(headers, exprs, flags=()):
    """{key: value} of {key: C expression}, as the i386 compiler computes
    them after `headers`: read from its assembly of `unsigned v = expr;`."""
    keys = list(exprs)
    src = "".join(f"#include <{h}>\n" for h in headers) + "".join(
        f"unsigned v{i} = {exprs[k]};\n" for i, k in enumerate(keys))
    r = subprocess.run([CC, "-S", "-O0", "-o", "-", "-x", "c", *flags, "-"], input=src,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    # A 0 is ".zero 4" in .bss, anything else ".long N".
    got = {keys[int(i)]: int(n) if kind == "long" else 0 for i, kind, n in
           re.findall(r"^v(\d+):\s*\n\s*\.(long|zero)\s+(\d+)", r.stdout, re.M)}
    assert len(got) == len(keys), f"read {len(got)} of {len(keys)} values"
    return got


def layout(headers, rows, flags=()):
    """{(type, field or 'size'): offset or size} for rows of (type, fields, size?)."""
    exprs = {}
    for t, fields, size in rows:
        for f in fields.split() + (["size"] if size else []):
            exprs[(t, f)] = f"sizeof({t})" if f == "size" else f"__builtin_offsetof({t}, {f})"
    return compiled_values(headers, exprs, flags)


@test
def abi_structs_match_linux_i386_field_by_field():
    uapi = sorted(os.path.relpath(h, os.path.join(hostlib.REPO, "include"))
                  for h in glob.glob(os.path.join(UAPI, "*.h")))
    mine = layout(["stddef.h", *uapi], [(o, f, s) for o, _, f, s in STRUCTS] +
                  [("struct sigaction", " ".join(k for k in SIGACTION if k != "size"), True)],
                  ["-I", os.path.join(hostlib.REPO, "include")])
    theirs = layout(LINUX_STRUCT_HEADERS, [(l, f, s) for _, l, f, s in STRUCTS])
    wrong = []
    for o, l, fields, size in STRUCTS:
        for f in fields.split() + (["size"] if size else []):
            if mine.get((o, f)) != theirs.get((l, f)):
                wrong.append(f"{o}.{f}: {mine.get((o, f))} (Linux's {l}: {theirs.get((l, f))})")
    for f, v in SIGACTION.items():
        if mine.get(("struct sigaction", f)) != v:
            wrong.append(f"struct sigaction.{f}: {mine.get(('struct sigaction', f))} (rt_sigaction's: {v})")
    assert len(mine) > 80, f"only {len(mine)} offsets read"
    assert not wrong, "layouts differ: " + "; ".join(wrong[:8])


@test
def d_type_values_are_glibcs():
    names = ["DT_UNKNOWN", "DT_FIFO", "DT_CHR", "DT_DIR", "DT_REG", "DT_LNK"]
    mine = ours([os.path.join(UAPI, "dirent.h")])
    got = compiled_values(["dirent.h"], {n: n for n in names})
    assert all(mine.get(n) == got[n] for n in names), f"ours {mine}, glibc's {got}"


def struct_definitions():
    """{name: [files]} of every `struct NAME {` and `typedef struct NAME {`."""
    where = {}
    for rel, text in sources():
        for n in re.findall(r"^(?:typedef\s+)?struct\s+(\w+)\s*\{", text, re.M):
            where.setdefault(n, []).append(rel)
    return where


@test
def abi_structs_defined_once_in_include_uapi():
    """Every struct of STRUCTS (and sigaction) is defined in include/uapi/
    and nowhere else; no other file defines a struct under a name Linux's
    headers give one (a kernel-side copy under a new name is what
    abi_structs_match_linux_i386_field_by_field cannot see, so this test
    also lists the names such copies had)."""
    where = struct_definitions()
    ours = {o.split()[-1] for o, _, _, _ in STRUCTS if o.startswith("struct ")} | {
        "sigaction", "siginfo", "linux_dirent64"}
    bad = []
    for n in sorted(ours):
        files = where.get(n, [])
        if len(files) != 1 or not files[0].startswith("include/uapi/"):
            bad.append(f"struct {n}: {files}")
    linux = set(re.findall(r"^(?:typedef\s+)?struct\s+(\w+)\s*\{", subprocess.run(
        [CC, "-E", "-x", "c", "-"], input="".join(f"#include <{h}>\n" for h in LINUX_STRUCT_HEADERS),
        capture_output=True, text=True).stdout, re.M))
    old_copies = {"ksigaction", "siginfo32", "sigcontext32", "ucontext32", "rusage32", "rlimit32",
                  "sysinfo32", "k_sigcontext", "k_ucontext"}
    for n, files in sorted(where.items()):
        outside = [f for f in files if not f.startswith("include/uapi/")]
        if outside and (n in linux or n in old_copies):
            bad.append(f"struct {n} outside include/uapi: {outside}")
    assert not bad, "; ".join(bad[:8])


if __name__ == "__main__":
    if not shutil.which(CC):
        for fn in TESTS:
            print(f"ok - {fn.__name__} # SKIP no {CC} (tools/ensure-deps.sh cc)")
        print(f"0 passed, 0 failed, {len(TESTS)} skipped")
        sys.exit(0)
    sys.exit(hostlib.run_tests(TESTS))
