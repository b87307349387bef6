# nice.wl - three CPU hogs at nice 0, 10 and 19 on one CPU (docs/staircase.md §4, §10.3).
#
# The staircase has no expired array: a task's share comes from the length
# of its slice, RR x (40 - user_prio) ... for nice 0 that is 20 RR (200 ms),
# for nice 10 10 RR, for nice 19 1 RR. Expect shares of about 20:10:1,
# i.e. nice 0 : nice 10 = 2:1 and nice 0 : nice 19 = 20:1.

cpus 1
duration 20s

# name   policy  nice  pattern  cpus
nice0    normal  0     run      all
nice10   normal  10    run      all
nice19   normal  19    run      all
