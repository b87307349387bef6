# ingo.wl - Ingo Molnar's workload (docs/staircase.md §10.5).
#
# Two tasks that each want most, but not all, of the CPU: run 4 ms, sleep
# 1 ms. Every sleep is a "real" sleep (longer than a tick of running), so
# each wake-up earns a burst and a fresh slice at the top stair, 120. The
# hog never sleeps, walks down the stairs, and almost never runs: the rule book's
# model says the hog gets 0 % over 60 s. A property of the staircase, not a
# bug in this kernel: see docs/simulator.md for the exercise.

cpus 1
duration 60s

# name   policy  nice  pattern             cpus
hog      normal  0     run                 all
ingo1    normal  0     run 4ms sleep 1ms   all
ingo2    normal  0     run 4ms sleep 1ms   all
