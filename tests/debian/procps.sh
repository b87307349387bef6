# procps.sh - Debian's procps and util-linux (i386, dynamically linked,
# unchanged), run by busybox sh on this kernel and on Linux 6.1 in the
# same QEMU (tests/cases/debian.py; tests/debian/record-linux.sh records
# Linux's transcript, procps.linux.out). Each command's output goes
# between "=== COMMAND" and "--- status N"; tests/debian/shapes.py says
# which sections are compared line by line (pids masked) and which by
# format only (headers, columns, field shapes). Debian's programs are
# named by path: /bin has this kernel's own ps, chrt, sysctl... At the
# end dash runs a script, ipcs shows the System V objects /bin/sysvipc
# --make leaves (one of each kind: the same ids, sizes and counts on both
# kernels), and ipcrm takes them away.
U=/usr/bin
DASH=/bin/dash
[ -x $DASH ] || DASH=$U/dash
run() {
	echo "=== $1"
	eval "$1" 2>&1
	echo "--- status $?"
}
run "$U/chrt -p 1"
run "$U/chrt -f 10 /bin/busybox true"
run "$U/chrt -f 10 $U/chrt -p 0"
run "$U/chrt -r 5 $U/chrt -p 0"
run "$U/chrt -b 0 $U/chrt -p 0"
run "$U/chrt -o 0 $U/chrt -p 0"
run "$U/chrt -f 10 $U/ps -o cls,rtprio,ni,comm"
run "$U/chrt -b 0 $U/ps -o cls,rtprio,ni,comm"
run "$U/taskset -c 1 sh -c '$U/taskset -p \$\$'"
run "$U/taskset -c 1 sh -c '$U/taskset -cp \$\$'"
run "$U/taskset -p 1"
run "$U/ps -eLo pid,tid,cls,rtprio,ni,pri,psr,comm"
run "$U/ps -ef"
run "$U/top -b -n 1"
run "/usr/sbin/sysctl -a"
run "/usr/sbin/sysctl kernel.pid_max"
run "$U/free"
run "$U/uptime"
run "$U/uptime -s"
run "$U/pgrep init"
run "$U/pgrep -l busybox"
run "$U/pgrep -x no-such-process"
# Debian's dash (its /bin/sh) runs a script: external commands, pipes,
# $(...), a subshell, an exit status.
cat >/tmp/dash-script <<'EOF'
words=$(echo one two three | /bin/wc -w)
echo "words: $words"
echo "lines: $(printf 'a\nb\nc\n' | /bin/grep -c .)"
/bin/ls /bin | /bin/grep -c '^cat$'
for i in 1 2 3; do echo "n=$i"; done | /bin/cat
/bin/sh -c 'exit 3'; echo "status $?"
(cd /proc && echo "in $(pwd)")
EOF
run "$DASH /tmp/dash-script"
/bin/sysvipc --make
run "$U/ipcs"
run "$U/ipcs -l"
run "$U/ipcs -u"
run "$U/ipcrm --all"
run "$U/ipcs -a"
echo "=== end"
