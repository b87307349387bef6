# batch_block.wl - SCHED_BATCH after an uninterruptible sleep (docs/staircase.md §7.4; lab batch).
#
# One CPU. Two BATCH tasks run 1 ms at a time: 'disk' then sleeps 9 ms
# uninterruptibly (as if it waited for the disk, or held a kernel mutex),
# 'nap' sleeps 9 ms interruptibly. A NORMAL hog arrives at 1.005 s, while
# both are asleep. From then on 'nap' wakes at 140, below the hog, and never
# runs again (its longest wait is the rest of the run); 'disk' wakes at 139
# each time and runs once, when the hog comes down to 139, about once per
# hog slice (200 ms).

cpus 1
duration 10s

# name   policy  nice  pattern                     cpus
hog      normal  0     run start 1005ms            all
disk     batch   0     run 1ms block 9ms           all
nap      batch   0     run 1ms sleep 9ms           all
