# config.sh - what make ltp builds and runs (sourced by tools/ltp/build.sh
# and tools/ltp/run.sh).

# The pinned LTP release: its tree is LTP_SRC (default build/ltp-src), a
# copy of this tag, never committed (docs/testing.md, "make ltp").
LTP_TAG=20260529

# LTP's syscalls directories (testcases/kernel/syscalls/DIR): the tests
# run are their lines of runtest/syscalls.
LTP_SYSCALL_DIRS="alarm clock_nanosleep clone fork futex getpid getpriority
getrusage gettid kill mmap mprotect munmap nanosleep nice pipe prctl
sched_get_priority_max sched_get_priority_min sched_getaffinity
sched_getattr sched_getparam sched_getscheduler sched_rr_get_interval
sched_setaffinity sched_setattr sched_setparam sched_setscheduler
sched_yield setpriority wait4 waitpid"

# Open POSIX conformance/interfaces directories, as an extended regex.
LTP_POSIX_DIRS='^(sched_.*|pthread_.*sched.*|nanosleep|clock_nanosleep)$'

# Seconds a test may run before the runner reports it hung and kills it.
LTP_LIMIT_S=${LTP_LIMIT_S:-150}

# Environment of single tests, "NAME:VAR=VALUE ...": fork13 loops for its
# runtime, 600 s (pid wrap-around), cut to 60 s on both kernels.
LTP_TEST_ENV="fork13:LTP_RUNTIME_MUL=0.1"
