# idleprio_block.wl - IDLEPRIO has no run at 139 (lab policy, docs/labs/policy.md; docs/staircase.md §7.4).
#
# batch_block.wl with the second task made IDLEPRIO: both run 1 ms, then
# sleep 9 ms uninterruptibly. A NORMAL hog arrives at 1.005 s, while both
# are asleep. 'disk_b' (BATCH) wakes at 139 each time and runs about once
# per hog slice; 'disk_i' (IDLEPRIO) wakes at 140 and never runs again.

cpus 1
duration 10s

# name   policy    nice  pattern                     cpus
hog      normal    0     run start 1005ms            all
disk_b   batch     0     run 1ms block 9ms           all
disk_i   idleprio  0     run 1ms block 9ms           all
