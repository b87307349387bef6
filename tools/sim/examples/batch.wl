# batch.wl - SCHED_BATCH runs only when nothing else wants the CPU (docs/staircase.md §1, §7.4).
#
# One CPU. 'web' is busy half the time (run 20 ms, sleep 20 ms); 'build' is a
# BATCH hog that gets the idle half and nothing more; 'hog' is a NORMAL hog
# that arrives at 5 s: from then on the BATCH task gets nothing at all,
# while 'web' and 'hog' share the CPU. The BATCH task waits at priority 140,
# below every stair.

cpus 1
duration 10s

# name   policy  nice  pattern                     cpus
web      normal  0     run 20ms sleep 20ms         all
build    batch   0     run                         all
hog      normal  0     run start 5s                all
