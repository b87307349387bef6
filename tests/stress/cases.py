"""make stress (issue 14): long random runs, not part of make test.

    stress_smp_2x2x2, stress_smp_1x2x2
        /bin/smp_stress in its full mix (user/tests/smp_stress.c) for
        STRESS_S seconds (default 60) on 8 CPUs (2 sockets x 2 cores x 2
        threads) and on 2 cores x 2 threads, in real time (TCG, no icount):
        TASKS tasks in turns, LIVE at once, with random policies (NORMAL,
        BATCH, ISO; FIFO/RR briefly or with sleeps), nice values, affinities,
        sleeps, yields, forks, pipes and kills. Every task started is
        reaped, masks hold, pipe data arrive intact, killed tasks end by
        their signal, the free frames come back (call 505).
    stress_fuzz_*
        /bin/fuzz_syscalls, 1,000,000 calls each from several unprivileged
        fuzzers at once, each fuzzer its own seed: three in four calls
        aimed at the implemented numbers (4 fuzzers on 2 cores x 2 threads,
        8 on 8 CPUs), and every number alike (4 fuzzers); and 4 fuzzers
        whose children are thread groups of 4 threads each (issue 26:
        clone, futex, TLS, tgkill, per-thread masks, thread exit).
    stress_elf_fuzz_1 ... _6, stress_elf_fuzz_new_seed
        /bin/elfrun over 700 mutated ELF programs each (tests/elf/mkelf.py
        --fuzz SEED, a module of its own), exec'd as uid 1000: seeds 1-6
        compared outcome by outcome with Linux 6.1's recorded run
        (tests/elf/fuzz-N.linux; deliberate differences allowed, said on
        the line), and one seed from STRESS_SEED that no Linux ran: the
        kernel must live and every exec end. Then /bin/elf_leak execs the
        set again: the free frames must come back exactly (call 505).
    stress_exec_thread_1, stress_exec_thread_1x2x2
        /bin/exec_thread_leak for 30 s at -smp 1 and on 2 cores x 2
        threads: 4 threads fork children whose thread execs and 2 read
        their /proc/PID files (issue 46);
    stress_fs_1x2x2
        /bin/fs_stress (issue 44): 4 workers for STRESS_S seconds at random
        tmpfs calls (write, append, holes, truncate up and down, rename
        and link over names, unlink, shared directories made and removed
        by all, readdir; in /tmp also mmap, MAP_SHARED written through
        and sometimes truncated under, MAP_PRIVATE written and the file
        unchanged) in /tmp and in a 64 KiB mount that fills up (ENOSPC),
        each checking every read against its own copy of its files; then
        the free frames exact (call 505, after a warm-up round of the same
        load).
    stress_mm_fuzz_1, stress_mm_fuzz_1x2x2
        /bin/fuzz_mm: 8 threads of uid 1000 at random memory calls,
        clone, fork, exec and /proc reads, 5 rounds of STRESS_S / 5
        seconds, the free frames exact after each (issue 46);
        every child must end and the free frames come back exactly (call
        505, after warm-up rounds).

Every case fails on a panic (a KASSERT of the DEBUG=1 build, a spinlock
lockup), a watchdog report or a silent console (the timeout). The seeds
come from STRESS_SEED (default: the clock), case by case SEED + offset;
tests/stress.py prints them with every failure. The environment is read
when the harness loads this module: STRESS_S, STRESS_SEED.
"""
import glob
import os
import re
import shutil
import subprocess
import time

from harness import Case

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

STRESS_S = int(os.environ.get("STRESS_S") or 60)
BASE_SEED = int(os.environ.get("STRESS_SEED") or
                int(time.time() * 1000) % 1000000000)
TASKS = 300             # about this many start over the run ...
LIVE = 100              # ... this many at once
FUZZ_CALLS = 1000000

TOPO = {
    "1": ("1,sockets=1,cores=1,threads=1", "CPUS=1"),
    "2x2x2": ("8,sockets=2,cores=2,threads=2", "SOCKETS=2 CORES=2 THREADS=2"),
    "1x2x2": ("4,sockets=1,cores=2,threads=2", "CORES=2 THREADS=2"),
}
INIT_OK = r"^init exited: status 0\b"
ALWAYS_FORBID = [r"^not ok \d+", r"^watchdog:"]   # and panic:, always
SMP_OKS = ["stress_every_task_exits_and_is_reaped",
           "stress_tasks_stay_inside_their_masks",
           "stress_pipe_data_arrives_intact",
           "stress_killed_tasks_end_as_killed",
           "stress_free_frames_back_to_baseline"]
FUZZ_OKS = ["random_syscalls_leave_kernel_running",
            "random_syscalls_leak_no_memory"]
EXEC_THREAD_S = 30
EXEC_THREAD_OKS = ["exec_from_thread_children_all_end",
                   "exec_from_thread_free_frames_back_to_baseline"]
FS_OKS = ["fs_stress_every_byte_reads_back", "fs_stress_free_frames_back_to_baseline"]
MM_FUZZ_ROUNDS = 5
MM_FUZZ_OKS = ["mm_fuzz_kernel_survives", "mm_fuzz_free_frames_back_after_each_round"]


def ok_line(log, name):
    m = re.search(r"^ok \d+ - %s # (.*)$" % name, log, re.M)
    return m.group(1) if m else None


def smp_check(log):
    reaped, frames = (ok_line(log, n) for n in
                      ("stress_every_task_exits_and_is_reaped",
                       "stress_free_frames_back_to_baseline"))
    if reaped is None or frames is None:
        return False, "an ok line is missing"
    m = re.match(r"(\d+) started, (\d+) reaped \((\d+) killed", reaped)
    ops = re.search(r"(\d+) operations", reaped)
    fr = re.match(r"free frames before (\d+), after (\d+)", frames)
    if not (m and ops and fr) or m.group(1) != m.group(2):
        return False, f"cannot read the figures: {reaped!r} {frames!r}"
    return True, (f"{m.group(1)} tasks started = reaped ({m.group(3)} killed), "
                  f"{ops.group(1)} operations, free frames {fr.group(1)} -> "
                  f"{fr.group(2)}")


def fuzz_check(log):
    calls, frames = (ok_line(log, n) for n in FUZZ_OKS)
    if calls is None or frames is None:
        return False, "an ok line is missing"
    m = re.match(r"(\d+) calls in (\d+) children: (\d+) died of a fault, "
                 r"(\d+) were stuck", calls)
    rate = re.search(r"(\d+) ms, (\d+) calls/s", calls)
    fr = re.match(r"free frames before (\d+), after (\d+)", frames)
    if not (m and rate and fr) or int(m.group(1)) < FUZZ_CALLS:
        return False, f"cannot read the figures: {calls!r} {frames!r}"
    return True, (f"{m.group(1)} calls in {m.group(2)} children ({m.group(3)} "
                  f"faulted, {m.group(4)} stuck and killed), {rate.group(1)} ms, "
                  f"{rate.group(2)} calls/s, free frames {fr.group(1)} -> "
                  f"{fr.group(2)}")


def stress_case(name, topo, run, oks, check, timeout, forbid=()):
    smp, make_topo = TOPO[topo]
    append = f"tests=none run={run} then=exit"
    case = Case(name, smp=smp, append=append, timeout=timeout,
                expect=[INIT_OK] + [r"^ok \d+ - %s\b" % o for o in oks],
                forbid=ALWAYS_FORBID + list(forbid), check=check,
                tags=("stress",))
    case.again = (f'make run {make_topo} KVM=0 APPEND="{append}"')
    return case


def smp(topo, offset):
    seed = BASE_SEED + offset
    case = stress_case(
        f"stress_smp_{topo}", topo,
        f"/bin/smp_stress:{TASKS}:{STRESS_S}:{seed}:{LIVE}", SMP_OKS,
        smp_check, timeout=STRESS_S + 90,
        # a task that faults is a kernel bug here (the fuzzers' may fault)
        forbid=[r"^pid \d+ \(\w+\): SIG"])
    case.seed = seed
    return case


def fuzz(name, topo, offset, fuzzers, aim, threads=1):
    seed = BASE_SEED + offset
    case = stress_case(
        name, topo,
        f"/bin/fuzz_syscalls:{FUZZ_CALLS}:{seed}:{fuzzers}:{aim}:{threads}",
        FUZZ_OKS, fuzz_check, timeout=300)
    case.seed = seed
    return case


def exec_thread_check(log):
    ended, frames = (ok_line(log, n) for n in EXEC_THREAD_OKS)
    if ended is None or frames is None:
        return False, "an ok line is missing"
    return True, f"{ended}; {frames}"


def exec_thread(topo):
    """4 threads forking children that exec from a thread, for
    EXEC_THREAD_S seconds, while 2 threads read the children's /proc/PID
    files (issue 46)."""
    return stress_case(
        f"stress_exec_thread_{topo}", topo,
        f"/bin/exec_thread_leak:{EXEC_THREAD_S}:4:2", EXEC_THREAD_OKS,
        exec_thread_check, timeout=EXEC_THREAD_S + 120)


def fs_check(log):
    content, frames = (ok_line(log, n) for n in FS_OKS)
    if content is None or frames is None:
        return False, "an ok line is missing"
    return True, f"{content}; {frames}"


def fs_stress(topo, offset):
    """4 workers at random tmpfs calls for STRESS_S seconds, every byte
    checked, the free frames exact after (issue 44)."""
    seed = BASE_SEED + offset
    case = stress_case(f"stress_fs_{topo}", topo, f"/bin/fs_stress:{STRESS_S}:{seed}:4",
                       FS_OKS, fs_check, timeout=STRESS_S + 120)
    case.seed = seed
    return case


def mm_fuzz_check(log):
    calls, frames = (ok_line(log, n) for n in MM_FUZZ_OKS)
    if calls is None or frames is None:
        return False, "an ok line is missing"
    return True, f"{calls}; {frames}"


def mm_fuzz(topo, offset):
    """8 threads of uid 1000 at random mmap/munmap/mprotect/mremap/
    madvise/brk/futex/clone/fork/exec and /proc reads, MM_FUZZ_ROUNDS
    rounds of STRESS_S / MM_FUZZ_ROUNDS seconds (every other one killed),
    the free frames exact after each (issue 46); STRESS_S=300 makes it
    5 x 60 s."""
    seed = BASE_SEED + offset
    secs = max(1, STRESS_S // MM_FUZZ_ROUNDS)
    case = stress_case(
        f"stress_mm_fuzz_{topo}", topo, f"/bin/fuzz_mm:{MM_FUZZ_ROUNDS}:{secs}:{seed}:8",
        MM_FUZZ_OKS, mm_fuzz_check, timeout=MM_FUZZ_ROUNDS * (secs + 10) + 120)
    case.seed = seed
    return case


ELF_FUZZ_SEEDS = (1, 2, 3, 4, 5, 6)     # recorded on Linux 6.1: tests/elf/fuzz-N.linux
ELF_FUZZ_OK = r"^ok \d+ - elf_outcomes_match_linux # run-dependent: (\d+) programs"


def elf_module(seed):
    """prepare() for an ELF fuzz case: build its module (make); an
    unrecorded seed's (1000 and up) replaces the last run's."""
    def prepare():
        target = f"build/elf-fuzz-{seed}.tar"
        if seed >= 1000:
            for old in glob.glob(os.path.join(REPO, "build", "elf-fuzz-*")):
                m = re.search(r"elf-fuzz-(\d+)", old)
                if m and int(m.group(1)) >= 1000 and int(m.group(1)) != seed:
                    shutil.rmtree(old) if os.path.isdir(old) else os.remove(old)
        if subprocess.call(["make", "--no-print-directory", "-s", target],
                           cwd=REPO, stdout=subprocess.DEVNULL) != 0:
            return f"make {target} failed"
        return None
    return prepare


def elf_check(log):
    m = re.search(r"^ok \d+ - elf_outcomes_match_linux # run-dependent: (.*)$", log, re.M)
    leak = ok_line(log, "elf_exec_frees_every_frame")
    if not m or leak is None:
        return False, "an ok line is missing"
    fr = re.search(r"(free frames .*)$", leak)
    return True, f"{m.group(1)}; {fr.group(1) if fr else leak}"


def elf_fuzz(seed, recorded):
    """ELF_FUZZ_N (700) mutations of tests/elf/mkelf.py's base programs
    (static, PIE, with an ET_DYN or ET_EXEC loader), exec'd as uid 1000
    by /bin/elfrun: each outcome must be Linux 6.1's (tests/elf/fuzz-N.linux)
    or the deliberate refusal; never a panic or a hang. A seed with no
    recorded Linux run (STRESS_SEED's) only checks that the kernel lives
    and every exec ends."""
    case = Case(f"stress_elf_fuzz_{seed}" if recorded else "stress_elf_fuzz_new_seed",
                smp=TOPO["1x2x2"][0], timeout=300,
                append=f"tests=none run=/bin/elfrun:/elf/fuzz-{seed},"
                       f"/bin/elf_leak:/elf/fuzz-{seed} then=exit",
                modules=[f"build/elf-fuzz-{seed}.tar"], prepare=elf_module(seed),
                expect=[INIT_OK, ELF_FUZZ_OK, r"^ok \d+ - elf_exec_frees_every_frame\b"],
                forbid=ALWAYS_FORBID, check=elf_check,
                tags=("stress",))
    case.seed = seed
    case.again = (f"make build/elf-fuzz-{seed}.tar && python3 tests/stress.py "
                  f"{case.name}")
    return case


CASES = [
    smp("2x2x2", 0),
    smp("1x2x2", 1),
    fuzz("stress_fuzz_aimed_1x2x2", "1x2x2", 10, 4, 75),
    fuzz("stress_fuzz_aimed_2x2x2", "2x2x2", 20, 8, 75),
    fuzz("stress_fuzz_uniform_1x2x2", "1x2x2", 30, 4, 0),
    fuzz("stress_fuzz_threads_1x2x2", "1x2x2", 40, 4, 75, threads=4),
    exec_thread("1"),
    exec_thread("1x2x2"),
    mm_fuzz("1", 50),
    mm_fuzz("1x2x2", 51),
    fs_stress("1x2x2", 52),
] + [elf_fuzz(s, True) for s in ELF_FUZZ_SEEDS] + [elf_fuzz(1000 + BASE_SEED % 100000, False)]
