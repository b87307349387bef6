# files.sh - Debian's coreutils, findutils, tar, sed and sqlite3 (i386,
# dynamically linked, unchanged) writing into /tmp's tmpfs, run by busybox
# sh on this kernel and on Linux 6.1 in the same QEMU
# (tests/cases/debian.py, debian_files; tests/debian/record-linux.sh files
# records Linux's transcript, files.linux.out). Each command's output goes
# between "=== COMMAND" and "--- status N"; tests/debian/shapes.py compares
# most line by line and df, ls -l and find / by format. Debian's programs
# are named by path: /bin has this kernel's own ls, cat...
U=/usr/bin
W=/tmp/files
run() {
	echo "=== $1"
	eval "$1" 2>&1
	echo "--- status $?"
}
run "$U/mkdir -p $W/a/b && echo hello >$W/a/b/f && $U/chmod 640 $W/a/b/f && $U/stat -c '%n %s %a %F %h' $W/a/b/f"
run "$U/cp -a $W/a $W/c && $U/stat -c '%n %s %a %F' $W/c/b/f $W/c/b"
run "$U/mv $W/c $W/d && $U/ls $W"
run "$U/ln -s a/b/f $W/link && $U/readlink $W/link && $U/cat $W/link && $U/stat -c '%F' $W/link"
run "$U/ln $W/a/b/f $W/hard && $U/stat -c '%h' $W/a/b/f"
run "$U/mv $W/d $W/a/b/f"
run "$U/sed -i 's/hello/bye/' $W/a/b/f && $U/cat $W/hard"
run "$U/tar -C $W -cf /tmp/t.tar a && $U/mkdir $W/x && $U/tar -C $W/x -xvf /tmp/t.tar | $U/sort"
run "$U/find $W | $U/sort"
run "$U/sqlite3 /tmp/db 'create table t(a int, b text); insert into t values (1, \"one\"), (2, \"two\"); select * from t order by a desc;'"
run "$U/sqlite3 /tmp/db 'select count(*) from t;' && $U/stat -c '%F' /tmp/db"
run "$U/stat -f -c '%T' /tmp"
run "$U/df /tmp"
run "$U/ls -l /proc/self/fd"
# /home: this kernel mounts a tmpfs on /home/student at boot; Linux's
# initramfs has no /home. /bin: the project's programs, a list each new
# test program would change
run "$U/find / -maxdepth 2 -path /proc -prune -o -path /home -prune -o -path /bin -prune -o -print | $U/sort"
run "/bin/busybox mount -t tmpfs -o size=1m files $W/x && /bin/busybox mount | /bin/busybox grep ' $W/x '"
run "echo data >$W/x/y && $U/df $W/x | $U/tail -n 1 | $U/tr -s ' ' | $U/cut -d ' ' -f 2"
run "/bin/busybox umount $W/x && $U/ls $W/x"
run "$U/rm -r $W /tmp/db /tmp/t.tar && $U/ls /tmp"
echo "=== end"
