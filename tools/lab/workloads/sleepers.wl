# sleepers.wl - a long sleeper comes back beside a hog (docs/cfs.md §4; lab sleepers).
#
# One CPU, under sched=cfs (staircase-sim --sched cfs). 'napper' runs 3 s
# of CPU, sleeps 2 s, and again; 'hog' never sleeps. While 'napper'
# sleeps, the hog runs alone and its vruntime goes 2 s ahead of the
# napper's. CFS's place_entity brings the napper back at most one
# sched_latency (20 ms) before min_vruntime, so the two share the CPU at
# once and the hog never waits much more than a latency. A scheduler
# that let the napper keep its old vruntime would run it alone for about
# 2 s, the hog waiting all that time.

cpus 1
duration 12s

# name   policy  nice  pattern            cpus
hog      normal  0     run                all
napper   normal  0     run 3s sleep 2s    all
