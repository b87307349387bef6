# rotate.wl - twelve CPU hogs on eight CPUs (docs/staircase.md §8.2, issue 31).
# Balancing spreads them as four pairs and four alone; the split is within
# the imbalance threshold, so pulling alone would leave four hogs at 100 %
# and eight at 50 % for ever (try --tunable sched_rotate=0: Jain's index
# 0.889). Rotation keeps changing who is alone: each gets 2/3 of a CPU
# (66.5-67.0 %, Jain 1.000, about 16 migrations a second).
cpus 8
duration 20s
hog1   normal 0 run all
hog2   normal 0 run all
hog3   normal 0 run all
hog4   normal 0 run all
hog5   normal 0 run all
hog6   normal 0 run all
hog7   normal 0 run all
hog8   normal 0 run all
hog9   normal 0 run all
hog10  normal 0 run all
hog11  normal 0 run all
hog12  normal 0 run all
