# idleprio.wl - SCHED_IDLEPRIO runs only when nothing else wants the CPU (lab policy, docs/labs/policy.md).
#
# batch.wl with the hog of idle time made IDLEPRIO. One CPU. 'web' is busy
# half the time (run 20 ms, sleep 20 ms); 'idle' is an IDLEPRIO hog that
# gets the idle half and nothing more; 'hog' is a NORMAL hog that arrives
# at 5 s: from then on 'idle' gets nothing at all. The simulator knows a
# policy by its name in the scheduler's table, so without SCHED_IDLEPRIO
# this file is refused ("unknown policy 'idleprio'").

cpus 1
duration 10s

# name   policy    nice  pattern                     cpus
web      normal    0     run 20ms sleep 20ms         all
idle     idleprio  0     run                         all
hog      normal    0     run start 5s                all
