# spread.wl - two hogs on a 2-core, 2-thread machine (docs/staircase.md §8.1, §8.4).
#
# cpu0 and cpu1 are the two threads of core 0, cpu2 and cpu3 those of
# core 1. Both hogs start on cpu0 (as if forked there). Balancing moves one
# off cpu0, and the package-level balance then puts the two on different
# cores, where each has a whole core to itself: each gets ~100 % of a CPU,
# and the busy CPUs are one thread of each core.

cpus 4 cores 2 threads 2
duration 10s

# name   policy  nice  pattern  cpus
hog1     normal  0     run      all
hog2     normal  0     run      all
