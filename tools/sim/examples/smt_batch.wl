# smt_batch.wl - BATCH never shares a physical core with other work (docs/staircase.md §8.3).
#
# One core with two hyperthreads: cpu0 and cpu1 are siblings. A NORMAL hog
# is pinned to cpu0 and a BATCH hog to cpu1. Hyperthreads share one core's
# execution units, so BATCH work beside a NORMAL task would slow it down:
# the dependent-sleeper rule makes cpu1 run idle instead ('smt_idle' in the
# trace). The BATCH task gets nothing although its CPU is free; run
# with --trace and look for smt_idle events.

cpus 2 cores 1 threads 2
duration 10s

# name   policy  nice  pattern  cpus
normal   normal  0     run      0
batch    batch   0     run      1
