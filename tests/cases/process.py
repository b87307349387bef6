"""Processes in ring 3 (issue 4): user programs, faults, leaks.

Each case boots with tests=none and runs programs through init's run=
list; then=exit makes init exit with the number of programs that failed,
so a clean run ends with "init exited: status 0" and QEMU exit code 1.
"""
from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
SMT4 = "4,sockets=1,cores=2,threads=2"
CLEAN_EXIT = r"^init exited: status 0$"


# Virtual time (docs/testing.md): the guest's clock follows the
# instructions it ran, so sleep accuracy does not depend on how busy the
# host is.
ICOUNT = ["-icount", "shift=2,sleep=off"]


def programs(name, smp, run, expect=(), tags=("quick",), timeout=90):
    return Case(name, smp=smp, append=f"tests=none run={run} then=exit",
                expect=[CLEAN_EXIT, *expect], tags=tags, timeout=timeout,
                qemu_args=ICOUNT)


BASICS = "/bin/hello,/bin/forktree,/bin/pipetest,/bin/sleeptest:--strict"
BASICS_EXPECT = [r"^hello from pid \d+", r"^ok \d+ - .*",
                 r"^ok \d+ - sleep_ends_at_its_deadline_not_the_tick\b"]

CASES = [
    # A hello program, a 50-process fork/exec/wait tree, a pipe and
    # nanosleep accuracy, on one CPU and on two cores x two threads.
    programs("proc_basics_1cpu", ONE, BASICS, BASICS_EXPECT),
    programs("proc_basics_smt4", SMT4, BASICS, BASICS_EXPECT),
    # Each faulting program is killed with Linux's signal, seen by its
    # parent through wait4; the kernel reports it in one line and goes on.
    # Then memory (issue 25): mmap and friends, copy-on-write, shared
    # mappings, demand paging; its transcript is Linux 6.1's (linux-diff).
    programs("proc_faults", ONE, "/bin/faults,/bin/memmap", [
        r"^pid \d+ \(fault_null\): SIGSEGV at eip=0x[0-9a-f]+ addr=0x00000000",
        r"^pid \d+ \(fault_kwrite\): SIGSEGV at eip=0x[0-9a-f]+ addr=0xc0100000",
        r"^pid \d+ \(fault_cli\): SIGSEGV at eip=",
        r"^pid \d+ \(fault_div\): SIGFPE at eip=",
        r"^pid \d+ \(fault_ill\): SIGILL at eip=",
        r"^ok 46 - mmap_past_rlimit_as_is_enomem",
    ]),
    # Signals as Linux i386 gives them (issue 11): handlers and their frames,
    # masks, EINTR/SA_RESTART, SIGCHLD, stop/continue, default actions,
    # kill's targets and permissions, groups and sessions, caught faults.
    # init's clean exit means every check passed; tests/linux-diff.sh diffs
    # the transcript against Linux 6.1's (user/tests/expected/
    # signals.linux.ktap when no Linux can run). A section that hangs is
    # killed after 10 s of guest time, so the run ends either way.
    programs("proc_signals", ONE, "/bin/signals",
             [r"^1\.\.100$", r"^ok \d+ - handler_runs_with_its_signal_number\b",
              r"^ok \d+ - a_fault_in_the_sigsegv_handler_kills\b",
              r"^ok \d+ - proc_status_sigcgt_and_sigign_bits\b"],
             tags=("process",), timeout=240),
    # 1,000 fork+exit cycles leave the free-frame count where it started.
    programs("proc_no_leaks", SMT4, "/bin/leak",
             [r"^ok 1 - fork_exit_1000_cycles_free_no_frames",
              r"^ok 3 - grown_stack_and_heap_fork_copies_and_frees_all",
              # exec refuses a bss larger than memory before taking a
              # frame, and maps bss on demand (issue 46)
              r"^ok 4 - exec_of_a_bss_larger_than_memory_is_enomem",
              r"^ok 5 - exec_maps_bss_on_demand",
              # an initrd file's pages: one frame each for every mapping
              r"^ok 6 - initrd_pages_read_once_and_shared_by_every_mapping",
              r"^ok 7 - a_full_pipe_takes_a_frame_a_page"]),
    # Threads fork children whose own thread execs (de_thread), the
    # child's leader joined, exited or racing exit_group: every child ends
    # with the exec'd program's status, and the free frames are back
    # exactly after warm-up rounds (issue 46), while a thread reads every
    # /proc/PID file of the children: call 505 frees the /proc nodes no
    # one holds and the heap's wholly free pages, so a reader's higher
    # peak of tasks costs no frame (before: 2-5 frames off at random, and
    # a kernel page fault in procfs_pid_text at -smp 4, 2 boots in 5).
    programs("proc_exec_thread_no_leaks", ONE, "/bin/exec_thread_leak:3:2:1",
             [r"^ok 1 - exec_from_thread_children_all_end\b",
              r"^ok 2 - exec_from_thread_free_frames_back_to_baseline\b"],
             tags=("process",)),
    # Threads and mappings at random (issue 46): 8 threads of uid 1000 at
    # mmap/munmap/mprotect/mremap/madvise/brk/futex/clone/fork/exec and
    # /proc reads, 2 rounds (the second killed), free frames exact after
    # each; make stress runs it longer at -smp 1 and 4.
    programs("proc_mm_fuzz_no_leaks", "2,sockets=1,cores=2,threads=1", "/bin/fuzz_mm:2:3:11:8",
             [r"^ok 1 - mm_fuzz_kernel_survives\b",
              r"^ok 2 - mm_fuzz_free_frames_back_after_each_round\b"],
             tags=("process",), timeout=120),
    # More tasks than the old 256-slot table (issue 32): 1,000 children
    # asleep at once, each in /proc and /proc/loadavg, killed as one group
    # and all reaped by waitpid(-1); two CPUs, so stacks are freed with a
    # TLB shootdown while the other CPU runs.
    programs("proc_many_tasks", "2,sockets=1,cores=2,threads=1", "/bin/manytasks:1000",
             [r"^ok \d+ - %s\b" % n for n in (
                 "fork_all_children", "all_children_alive_at_once",
                 "proc_lists_every_child", "loadavg_counts_every_child",
                 "kill_minus_one_finds_them", "kill_the_group",
                 "waitpid_reaps_every_child")], tags=("process",), timeout=180),
    # A uid-1000 fork bomb: EAGAIN at RLIMIT_NPROC (64), root still forks
    # in the middle of it (slots kept for root), and root's 10 ms sleeps
    # end at most 50 ms late (--check): 46 us worst since a forked child
    # waits one stair below its parent (docs/staircase.md 6.6); 273 ms
    # before, when 64 children queued on the stair root wakes on.
    programs("proc_forkbomb", ONE, "/bin/forkbomb:--check",
             [r"^ok \d+ - %s\b" % n for n in (
                 "bomb_forks_fail_with_eagain",
                 "root_sleeps_stay_on_time_during_the_bomb",
                 "root_forks_during_the_bomb", "root_forks_after_the_bomb",
                 "ordinary_user_cannot_raise_its_hard_nproc_limit",
                 "soft_limit_above_hard_is_einval")], tags=("process",)),
    # The same bomb without RLIMIT_NPROC fills threads-max (2,039 at 128
    # MiB) but the 16 tasks kept for root: root forks, kill(-1, SIGKILL)
    # ends it, and every bomb task is reaped (issue 32).
    programs("proc_forkbomb_at_limit", ONE, "/bin/forkbomb:--at-limit",
             [r"^ok \d+ - %s\b" % n for n in (
                 "bomb_stops_at_threads_max_less_roots_reserve",
                 "root_forks_at_the_limit", "root_kills_the_bomb",
                 "the_whole_bomb_is_reaped")], tags=("process",), timeout=180),
    # A task asleep waiting for a kernel mutex dies when killed (TASK_KILLABLE):
    # reaped 0 ms after SIGKILL (before: 1899 ms, when the holder let go).
    programs("proc_mutex_kill", ONE, "/bin/mutex_kill",
             [r"^ok \d+ - mutex_waiter_dies_when_killed\b"], tags=("process",)),
    # The same binaries' ABI results (abicheck is also diffed against Linux).
    # abicheck asks for call 499, which no kernel has: -ENOSYS and one
    # console line naming it (kernel/syscall.c, syscall_unknown)
    programs("proc_abicheck", SMT4, "/bin/abicheck",
             [r"^syscall: unimplemented system call 499 \(not a Linux i386 call\) "
              r"from abicheck\[\d+\]; -ENOSYS \(logged once per number\)$"]),
]

CASES += [
    # init=/bin/prog starts that program as the first process, as on Linux.
    Case("proc_init_override", smp=ONE, append="init=/bin/hello",
         expect_order=[r"^init: started /bin/hello", r"^hello from pid 1$",
                       CLEAN_EXIT], tags=("quick",)),
    # The shell, driven over the serial line: a program by name, a bad
    # line that gets a clear error, then exit (sh is pid 1 by then).
    Case("proc_shell", smp=ONE, append="tests=none",
         send=[(r"^\$ ", b"hello\r"),
               (r"^hello from pid \d+", b"nosuchprogram\r"),
               (r"exit status 127\n\$ ", b"exit\r")],
         expect_order=[r"^hello from pid \d+", r"nosuchprogram: (not found|.*No such)",
                       CLEAN_EXIT], tags=("quick",), timeout=60),
]

CASES += [
    # Bad input never hurts the kernel: 100,000 random system calls with
    # random arguments from unprivileged children, on two CPUs (issue 14's
    # make-test stage; make stress runs 1,000,000 of several seeds at once).
    programs("proc_syscall_fuzz", "2,sockets=1,cores=2,threads=1",
             "/bin/fuzz_syscalls:100000",
             [r"^ok 1 - random_syscalls_leave_kernel_running",
              r"^ok 2 - random_syscalls_leak_no_memory"]),
]

CASES += [
    # The same from several threads of one process (issue 26): 4 threads
    # per child, one call in eight aimed at clone, futex, set_thread_area,
    # tgkill, per-thread masks and thread exit. Real time: under -icount
    # the vCPUs take turns, and a thread's munmap never lands between
    # another's page look-up and its copy (with seed 8 that panicked the
    # kernel twice in two runs before copy_to_user took the mm lock).
    Case("proc_syscall_fuzz_threads", smp=SMT4,
         append="tests=none run=/bin/fuzz_syscalls:40000:8:2:75:4 then=exit",
         timeout=120, tags=("process",),
         expect=[CLEAN_EXIT,
                 r"^ok 1 - random_syscalls_leave_kernel_running\b.* 0 wrong answers",
                 r"^ok 2 - random_syscalls_leak_no_memory"]),
]

CASES += [
    # A syscall aimed at a dying pid never lands on the process that gets
    # its slot next: test=slowfind widens the window to 500 us; before the
    # reference (proc_get), 90 of 300 victims found themselves BATCH.
    Case("proc_pid_reuse_race", smp="2,sockets=1,cores=2,threads=1",
         append="tests=none test=slowfind run=/bin/pid_reuse then=exit",
         timeout=90, tags=("process",),   # real time: under -icount the
         # two vCPUs take turns and the race never overlaps
         expect=[CLEAN_EXIT,
                 r"^ok \d+ - a_call_on_a_dying_pid_never_lands_on_its_slots_next_process\b"]),
    # Pids wrap to 300 (Linux's RESERVED_PIDS) past pid_max and skip live
    # tasks' pids and a process group that outlived its leader: 2,000
    # forks with pid_max 1,000. Booted with pid_max=2000 (Linux's boot
    # parameter), which the program lowers to 1,000 by writing
    # /proc/sys/kernel/pid_max as root (Linux's sysctl): both ways count.
    Case("proc_pid_wrap", smp=ONE, append="tests=none pid_max=2000 run=/bin/pid_reuse:--wrap then=exit",
         timeout=120, tags=("process",), qemu_args=ICOUNT,
         expect=[CLEAN_EXIT, r"^# pid_max 2000, set to 1000 by writing /proc/sys/kernel/pid_max$"] +
                [r"^ok \d+ - %s\b" % n for n in (
             "pids_wrap_to_300_past_pid_max", "a_wrapped_pid_is_never_a_live_tasks",
             "a_wrapped_pid_is_never_a_live_process_groups")]),
]

CASES += [
    # A CPU kept in kernel mode for 1.5 s (test call 503 KERNEL_SPIN) past
    # a 1 s threshold is reported by the watchdog with the process and a
    # backtrace, then goes on.
    Case("watchdog_reports_a_stuck_cpu", smp=ONE,
         append="tests=none watchdog_thresh=1 run=/bin/kernel_spin:1500 then=exit",
         qemu_args=ICOUNT, timeout=90, tags=("process",),
         expect_order=[r"^watchdog: cpu0 has run pid \d+ \(kernel_spin\) in kernel mode "
                       r"for \d+ ms without scheduling",
                       r"sys_test_mutex\+0x",
                       r"^ok 1 - kernel_spin_returns\b", CLEAN_EXIT]),
]
