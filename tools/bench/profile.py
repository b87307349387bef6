#!/usr/bin/env python3
"""profile.py - make profile: where a path's instructions go, by kernel
function (issue 12, docs/bench.md).

    tools/bench/profile.py [--top N] [--kernel ELF] PROG [ARGS...]
    make profile PROG=/bin/pathlen ARGS="yield 100"

Boots build/kernel.elf in stock QEMU under -icount shift=0,sleep=off -smp 1
with "tests=none run=PROG:ARGS then=exit PATHLEN_WAIT=1". The program
(/bin/pathlen FIGURE COUNT) prints "pathlen: begin", then waits for one
byte on its stdin (the serial console). This script then turns on, through
the HMP monitor, one instruction per translation block ("singlestep on")
and "log exec,nochain", so QEMU writes one "Trace" line per executed
instruction; it sends the byte; at "pathlen: end" it turns the log off
again. The log's program counters are counted, and the kernel's
(>= 0xc0000000) are mapped to functions with `nm -n` of the kernel image.
Prints the top functions with instructions per operation, percentages and
calls per operation (how often its first instruction ran: a loop that
jumps back to a function's first instruction would count too);
writes build/profile/NAME.txt (the full list). The log itself is deleted.
"""
import argparse
import bisect
import collections
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACE = re.compile(rb"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbols(kernel, nm):
    out = subprocess.run([nm, "-n", kernel], capture_output=True, text=True,
                         check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            addrs.append(int(parts[0], 16))
            names.append(parts[2])
    return addrs, names


class Monitor:
    def __init__(self, path):
        for _ in range(100):
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("profile: cannot connect to the QEMU monitor")
        self.read_prompt()

    def read_prompt(self):
        buf = b""
        while b"(qemu)" not in buf:
            chunk = self.s.recv(4096)
            if not chunk:
                break
            buf += chunk
        return buf

    def cmd(self, line):
        self.s.sendall(line.encode() + b"\n")
        return self.read_prompt()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--kernel", default="build/kernel.elf")
    ap.add_argument("--initrd", default="build/initrd.tar")
    ap.add_argument("--nm", default=os.environ.get("NM", "i686-linux-gnu-nm"))
    ap.add_argument("--annotate", action="append", default=[], metavar="FUNCTION",
                    help="also print FUNCTION's disassembly with each "
                         "instruction's count per operation (like perf annotate)")
    ap.add_argument("--shift", type=int, default=0,
                    help="QEMU's -icount shift (0: one instruction a ns; "
                         "make paths' tick figure uses 7, so that a tick "
                         "comes every ~8,000 instructions)")
    ap.add_argument("--files", metavar="OUT",
                    help="also write the source files the kernel ran code in "
                         "(inlined functions' files too, by addr2line -i), with "
                         "instructions per operation, to OUT")
    ap.add_argument("prog")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    os.chdir(ROOT)
    if subprocess.run(["which", a.nm], capture_output=True).returncode:
        a.nm = "nm"
    objdump = a.nm[:-2] + "objdump"
    if subprocess.run(["which", objdump], capture_output=True).returncode:
        objdump = "objdump"
    name = "-".join([os.path.basename(a.prog)] + a.args)
    out = os.path.join("build", "profile")
    os.makedirs(out, exist_ok=True)
    log, mon = os.path.join(out, name + ".log"), os.path.join(out, name + ".mon")
    for f in (log, mon):
        if os.path.exists(f):
            os.unlink(f)
    while int(subprocess.run("pgrep -c qemu-system || true", shell=True,
                             capture_output=True, text=True).stdout or 0) >= 2:
        print("profile: 2 or more QEMUs running, waiting")
        time.sleep(20)
    run = ":".join([a.prog] + a.args)
    qemu = subprocess.Popen(
        ["qemu-system-i386", "-display", "none", "-no-reboot",
         "-serial", "stdio", "-monitor", f"unix:{mon},server=on,wait=off",
         "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-accel", "tcg",
         "-icount", f"shift={a.shift},sleep=off", "-smp", "1", "-m", "128M",
         "-D", log, "-dfilter", "0x0..0xffffffff",
         "-kernel", a.kernel, "-initrd", a.initrd,
         "-append", f"tests=none run={run} then=exit PATHLEN_WAIT=1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    m = Monitor(mon)
    began = ended = False
    per_op = None
    count = 1
    deadline = time.time() + 600
    for raw in qemu.stdout:
        line = raw.decode(errors="replace").rstrip("\r\n")
        if line.startswith("pathlen:") or line.startswith("init: /bin"):
            print("  guest: " + line)
        if time.time() > deadline:
            break
        if not began and line.startswith("pathlen: begin"):
            count = int(line.split()[-1])
            m.cmd("singlestep on")
            m.cmd("log exec,nochain")
            qemu.stdin.write(b"\n")
            qemu.stdin.flush()
            began = True
        elif began and line.startswith("pathlen: end"):
            m.cmd("log none")
            m.cmd("singlestep off")
            ended = True
            mm = re.search(r"\((\d+) insn/op\)", line)
            per_op = int(mm.group(1)) if mm else None
        elif line.startswith("init: exiting"):
            break
    qemu.kill()
    qemu.wait()
    if not ended:
        sys.exit("profile: the program never printed 'pathlen: begin' and "
                 "'pathlen: end' (it must be /bin/pathlen FIGURE COUNT)")

    addrs, names = symbols(a.kernel, a.nm)
    by_pc = collections.Counter()
    with open(log, "rb") as f:
        for l in f:
            mt = TRACE.match(l)
            if mt:
                by_pc[int(mt.group(1), 16)] += 1
    os.unlink(log)
    funcs, calls = collections.Counter(), collections.Counter()
    user = 0
    for pc, n in by_pc.items():
        if pc < 0xc0000000:
            user += n
            continue
        i = bisect.bisect_right(addrs, pc) - 1
        fn = names[i] if i >= 0 else hex(pc)
        funcs[fn] += n
        if i >= 0 and pc == addrs[i]:
            calls[fn] += n	# its first instruction: one entry (a call, or a jump to it)
    kernel = sum(funcs.values())
    total = kernel + user
    lines = [f"profile of {run} on {a.kernel}: {count} operations, "
             f"{total:,} instructions logged ({total / count:,.0f} per operation; "
             f"pathlen's rdtsc says {per_op if per_op is not None else '?'}), "
             f"kernel {kernel:,} ({100 * kernel / max(total, 1):.1f} %), "
             f"user {user:,}",
             f"{'function':<32} {'insn/op':>10} {'%':>6} {'calls/op':>9}"]
    for fn, n in funcs.most_common():
        lines.append(f"{fn:<32} {n / count:>10,.0f} {100 * n / max(total, 1):>6.1f} "
                     f"{calls[fn] / count:>9,.1f}")
    lines.append(f"{'(user mode)':<32} {user / count:>10,.0f} {100 * user / max(total, 1):>6.1f}")
    with open(os.path.join(out, name + ".txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[:2 + a.top]))
    print(f"{'(user mode)':<32} {user / count:>10,.0f} {100 * user / max(total, 1):>6.1f}")
    if per_op and total / count < 0.95 * per_op:
        print(f"profile: note: {per_op - total / count:,.0f} instructions per operation "
              f"that icount counted are not in the log: most likely iterations of "
              f"rep string instructions (memcpy/memset's rep movsl/stosl), which "
              f"QEMU logs once per block entry but icount counts once per "
              f"iteration (docs/bench.md)")
    for fn in a.annotate:
        print(annotate(a.kernel, objdump, addrs, names, fn, by_pc, count))
    if a.files:
        write_files(a.files, a.kernel, a.nm[:-2] + "addr2line", by_pc, count, run)
    print(f"profile: full list in {os.path.join(out, name + '.txt')}")


def source_files(kernel, addr2line, pcs):
    """pc -> the repository-relative files of its line and of every
    function it is inlined into (addr2line -a -f -i)."""
    if subprocess.run(["which", addr2line], capture_output=True).returncode:
        addr2line = "addr2line"
    out = subprocess.run([addr2line, "-a", "-f", "-i", "-e", kernel],
                         input="\n".join(f"{pc:#x}" for pc in pcs),
                         capture_output=True, text=True, check=True).stdout
    files, pc = collections.defaultdict(set), None
    for line in out.splitlines():
        if line.startswith("0x"):
            pc = int(line, 16)
        elif ":" in line and pc is not None:
            path = line.split(":")[0]
            if path.startswith(ROOT + "/"):
                rel = os.path.relpath(path, ROOT)
                # NASM's line records name the file as it was given, joined
                # to the directory once more: keep the tail that exists.
                parts = rel.split("/")
                while len(parts) > 1 and not os.path.exists(os.path.join(ROOT, *parts)):
                    parts = parts[1:]
                files[pc].add("/".join(parts))
    return files


def write_files(out, kernel, addr2line, by_pc, count, run):
    """The files a path runs code in, most instructions first."""
    pcs = sorted(pc for pc in by_pc if pc >= 0xc0000000)
    per_file = collections.Counter()
    for pc, files in source_files(kernel, addr2line, pcs).items():
        for f in files:
            per_file[f] += by_pc[pc]
    lines = [f"# files the kernel ran code in: {run}, {count} operations, "
             f"instructions in all (tools/bench/profile.py --files; inlined "
             f"code counts for its own file)"]
    for f, n in sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"{f} {n}")
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"profile: {len(per_file)} files ran code: {out}")


def annotate(kernel, objdump, addrs, names, fn, by_pc, count):
    """fn's disassembly, each instruction with its executions per operation."""
    if fn not in names:
        return f"profile: --annotate: no function {fn} in {kernel}"
    i = names.index(fn)
    start, end = addrs[i], addrs[i + 1] if i + 1 < len(addrs) else addrs[i] + 4096
    dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                          f"--stop-address={end:#x}", kernel],
                         capture_output=True, text=True).stdout
    out = [f"{fn}: executions per operation of each instruction"]
    for line in dis.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s*(.*)$", line)
        if m:
            n = by_pc.get(int(m.group(1), 16), 0)
            out.append(f"{n / count:>8.1f}  {m.group(1)}  {m.group(2)}")
    return "\n".join(out)


if __name__ == "__main__":
    main()
