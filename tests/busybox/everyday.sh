# everyday.sh - a day's shell work in Debian's busybox (busybox-static,
# i386, unchanged), run by tests/linux-diff.sh on Linux 6.1 and on this
# kernel: every line must be the same. Nothing here may print a pid, a
# time or anything else that differs between two runs of one kernel.
echo "pipe: $(echo hello world | tr a-z A-Z | cut -d' ' -f2)"
x=$(echo 6); y=$((x * 7)); echo "subst: $x $y"
for i in 1 2 3; do printf '%s.' "$i"; done; echo
i=0; while [ $i -lt 5 ]; do i=$((i + 1)); done; echo "while: $i"
case "staircase" in stair*) echo "case: stair" ;; *) echo "case: other" ;; esac
printf 'pear\napple\nfig\n' | sort | tr '\n' ' '; echo
printf '3\n10\n2\n' | sort -n | tr '\n' ' '; echo
echo "a b c d" | awk '{ print $3, NF }'
seq 1 100 | awk '{ s += $1 } END { print "sum:", s }'
echo staircase | md5sum
echo staircase | wc -c
(exit 3) & wait $!; echo "wait: $?"
# ash says "Terminated" only if wait itself reaps the job, not if it was
# reaped before wait ran: a race on either kernel, so stderr is dropped.
sleep 5 & p=$!; kill $p; wait $p 2>/dev/null; echo "killed: $?"
sleep 5 & p=$!; kill -9 $p; wait $p 2>/dev/null; echo "killed -9: $?"
true & false & wait; echo "wait all: $?"
trap 'echo "trap: USR1"' USR1; kill -USR1 $$; trap - USR1
taskset 1 sh -c 'taskset -p $$' | sed 's/pid [0-9]*/pid N/'
echo "read: $(echo 'one two' | { read a b; echo "$b $a"; })"
f() { return 7; }; f; echo "function: $?"
set -- x y z; echo "args: $# $2"
test -d /bin && echo "test -d: yes"
test -e /no/such/file || echo "test -e: no"
cat /no/such/file 2>/dev/null || echo "cat: status $?"
echo "devnull" > /dev/null && echo "redirect: ok"
echo "$(( 1 << 10 )) $(( 17 % 5 )) $(( -7 / 2 ))"
# /proc as busybox's tools read it (issue 27): counts and formats, not
# the values two kernels differ in (the name, pids, times).
echo "stat words: $(cat /proc/self/stat | wc -w)"
echo "uptime: $(cut -d' ' -f1 /proc/uptime | grep -c '^[0-9]*\.[0-9][0-9]$')"
echo "nproc: $(nproc)"
sysctl kernel.ostype | sed 's/= .*/= NAME/'
echo "pidof init: $(pidof init)"
ls /proc/self/ | grep -E '^(cmdline|comm|cwd|environ|exe|limits|root|sched|schedstat|stat|statm|status|task|wchan)$' | tr '\n' ' '; echo
readlink /proc/self/exe
echo "self task: $(ls /proc/self/task | wc -l)"
test -L /proc/self && echo "self: $(readlink /proc/self | grep -c '^[1-9][0-9]*$')"
cut -d' ' -f2,3 /proc/self/stat
cat /proc/self/comm
ps | head -n 1
ps -o pid,ppid,comm | head -n 1
ps -o pid,ppid,comm | awk '$3 == "ps" { print "ps row:", NF, ($1 > 1), ($2 > 1) }'
ps -T | head -n 1
ps -T -o pid,comm | awk '$2 == "ps" { n++ } END { print "ps -T rows of ps:", n }'
free | head -n 1
# A writable /tmp (issue 44; Linux's side has a tmpfs there from init, as
# systemd mounts one): what a day's work writes, nothing that differs.
cd /tmp && mkdir -p w/a/b && echo hi > w/a/f && cp -a w w2 && mv w2 w3 && ln -s w3/a/f lnk
echo "cp, mv, ln: $(cat lnk) $(readlink lnk) $(find w3 | sort | tr '\n' ' ')"
sed -i s/hi/bye/ w/a/f; echo "sed -i: $(cat w/a/f)"
tar -cf t.tar w && mkdir x && tar -C x -xf t.tar && echo "tar: $(find x -type f | sort)"
df /tmp | awk 'NR == 2 { print "df:", $1, $6 }'
stat -f -c 'stat -f: %T %S %l' /tmp
rm -r w w3 x t.tar lnk && echo "rm -r: $(ls -d w w3 x 2>&1 | wc -l)"
mkdir m && mount -t tmpfs -o size=64k small m && df m | awk 'NR == 2 { print "mount:", $1, $2, $6 }'
umount m && rmdir m && echo "umount: $(grep -c ' /tmp/m ' /proc/mounts)"
# /proc/PID/fd as ls -l shows it: the console, a pipe (its number varies)
ls -l /proc/self/fd 2>/dev/null | awk '$9 ~ /^[0-2]$/ { sub(/[0-9]+/, "N", $11); print "fd:", $1, $9, $10, $11 }'
echo x | ls -l /proc/self/fd/ 2>/dev/null | awk 'NF > 9 && $9 == "0" { sub(/[0-9]+/, "N", $11); print "fd 0:", $1, $11 }'
# A program and a script run from tmpfs (its pages mapped), by path and by PATH.
cp /bin/busybox busybox && ./busybox echo "exec from /tmp: ok" && (PATH=/tmp; busybox echo "PATH: ok")
printf '#!/bin/sh\necho "script in /tmp: $0"\n' > s.sh && chmod +x s.sh && ./s.sh && rm busybox s.sh
cd /
exit 0
