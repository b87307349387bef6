# fair.wl - the staircase's prediction for make bench's fairness figure
# (tools/bench/sched.sh, docs/bench.md): /bin/schedbench fair runs four
# NORMAL hogs at nice 0, 5, 10 and 19 on CPU 0; this is the same workload
# on the simulator (docs/simulator.md), the sched/ code on a simulated CPU.
# sched.sh runs it with --duration set to the measured window.
#
# The rule book's model (docs/staircase.md §4, §10.3): each hog's share
# follows its full slice, 20, 15, 10 and 1 quanta: 43.5 / 32.6 / 21.7 /
# 2.2 %. The simulator says 43.1 / 32.9 / 21.9 / 2.1 % over 10 s.

cpus 1
duration 10s

# name   policy  nice  pattern  cpus
nice0    normal  0     run      0
nice5    normal  5     run      0
nice10   normal  10    run      0
nice19   normal  19    run      0
