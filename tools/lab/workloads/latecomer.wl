# latecomer.wl - a new task beside a hog that has run for 3 s (docs/cfs.md §5; lab sleepers).
#
# One CPU, under sched=cfs (staircase-sim --sched cfs). 'hog' runs from
# the start; 'late' is created at 3 s. CFS's place_entity starts a new
# task one vslice after min_vruntime (START_DEBIT), so the hog goes on
# sharing the CPU and waits no longer than a period. A new task that
# started from its creator's vruntime (here 0) would run alone for about
# 3 s.

cpus 1
duration 6s

# name   policy  nice  pattern            cpus
hog      normal  0     run                all
late     normal  0     run start 3s       all
