"""Lock statistics (kernel/sync/lockstat.c, /bin/lockstat; docs/kernel.md "Lock
statistics"), on 2 CPUs in virtual time.

lockstat_2x1x1: /bin/lockstat_rules first (a lock two CPUs fight over shows
contentions, one CPU's use none, a mutex slept on one contention, a fork +
exit + wait no global lock, the call's errors, the on/off switch), then the tool through the shell: lockstat
on, its /proc/lock_stat header and a row, lockstat reset as root, one bad
input per form (its one-line message), and the note that counting is off.
"""
from harness import Case

TWO = "2,sockets=1,cores=2,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "
ICOUNT = ["-icount", "shift=2,sleep=off"]

CASES = [
    Case("lockstat_2x1x1", smp=TWO, append="tests=none", timeout=90,
         qemu_args=ICOUNT, tags=("console", "locks"),
         send=[(r"^\$ ", b"lockstat_rules\r"),
               (r"^ok 14 " + PROMPT_AFTER, b"lockstat on\r"),
               (r"lockstat on\n\$ ", b"lockstat -n 3\r"),
               (r"holdtime-avg" + PROMPT_AFTER, b"lockstat reset\r"),
               (r"lockstat reset\n\$ ", b"lockstat -n 0\r"),
               (r"invalid number" + PROMPT_AFTER, b"lockstat bogus\r"),
               (r"unexpected argument" + PROMPT_AFTER, b"lockstat -x\r"),
               (r"invalid option" + PROMPT_AFTER, b"lockstat -h\r"),
               (r"^Usage: lockstat" + PROMPT_AFTER, b"lockstat off\r"),
               (r"lockstat off\n\$ ", b"lockstat -n 1\r"),
               (r"not counting now" + PROMPT_AFTER, b"exit\r")],
         expect_order=[
             r"^ok 4 - contended_lock_shows_contention # 400 acquisitions, [1-9]\d* contentions",
             r"^ok 6 - fork_exit_wait_take_no_global_lock # 200 fork \+ exit \+ wait: signal ",
             r"^ok 14 - switched_off_counts_nothing # 1 then 1 acquisitions$",
             r"^lock_stat version 0\.4$",
             r"^ +class name +con-bounces +contentions +waittime-min +waittime-max "
             r"+waittime-total +waittime-avg +acq-bounces +acquisitions +holdtime-min "
             r"+holdtime-max +holdtime-total +holdtime-avg$",
             r"^ +\S.*: +\d+ +\d+ +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d +\d+ +[1-9]\d* "
             r"+\d+\.\d\d +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d$",
             r"^lockstat: invalid number of classes: '0'$",
             r"^lockstat: unexpected argument 'bogus'$",
             r"^lockstat: invalid option -- 'x'$",
             r"^Usage: lockstat \[-n N\] \[-a\]$",
             r"^lockstat: not counting now \(`lockstat on` starts it\)$",
             r"^init exited: status 0$"],
         forbid=[r"^not ok ", r"killed by signal"]),
]
