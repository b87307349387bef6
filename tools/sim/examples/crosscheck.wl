# crosscheck.wl - the simulator against the kernel (docs/trace.md, "The simulator
# and the kernel agree").
#
# One CPU: two CPU hogs at nice 0 and nice 10 and an interactive task that
# runs 1 ms and sleeps 9 ms. The QEMU case trace_crosscheck_1x1x1
# (tests/cases/trace.py) runs the same programs on the real kernel, in
# virtual time:
#
#   trace run spin 3 + nice -n 10 spin 3 + sleeper 1 9 3
#
# and wants each task's share of the CPU within 10 points of this run's.

cpus 1
duration 3s

# name     policy  nice  pattern            cpus
hog        normal  0     run                all
nicehog    normal  10    run                all
sleeper    normal  0     run 1ms sleep 9ms  all
