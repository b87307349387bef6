# smt_nice.wl - the dependent-sleeper rule between two NORMAL tasks (docs/staircase.md §8.3; lab smt).
#
# One core with two hyperthreads. A nice 0 hog on cpu0, a nice 19 hog on
# cpu1. The nice 19 task's whole slice (10 ms) is small next to what its
# sibling has left of its slice (up to 200 ms, less per_cpu_gain's 25 %), so
# cpu1 runs idle instead, and lets it in only near the end of each of the
# sibling's slices. Without the rule both run all the time.

cpus 2 cores 1 threads 2
duration 10s

# name   policy  nice  pattern  cpus
nice0    normal  0     run      0
nice19   normal  19    run      1
