# iso_cap.wl - the ISO cap, iso_cpu (docs/staircase.md §7.5, [beyond]).
#
# Two hostile SCHED_ISO tasks (Ingo's pattern: run 4 ms, sleep 1 ms) beside
# a NORMAL hog on one CPU. ISO needs no privilege, so without a cap any
# user could take the whole CPU. With iso_cpu 70 the CPU runs its ISO tasks
# as BATCH whenever they have had more than 70 % of it (averaged over ~5 s)
# until they are back under 63 %: the rule book's model (§10.6) gives hog 31 %, ISO 69 %.
# With the seed's behaviour (no cap) the hog gets 0 %:
#
#   staircase-sim --tunable iso_cpu=100 tools/sim/examples/iso_cap.wl

cpus 1
duration 60s
tunable iso_cpu 70

# name   policy  nice  pattern             cpus
hog      normal  0     run                 all
iso1     iso     0     run 4ms sleep 1ms   all
iso2     iso     0     run 4ms sleep 1ms   all
