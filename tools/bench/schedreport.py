"""schedreport.py - make bench's scheduling-quality, boot and memory
sections and plots (issue 12, docs/bench.md "Scheduling quality"), for
report.py. Python 3's standard library only.

Inputs, in the directory tools/bench/sched.sh writes (build/bench):
  sb-ours-icount0-N.txt, sb-linux-icount0-N.txt   boot, mem, picknext
                                (N = 1..SB_REPS: the median of each figure)
  sb-ours-icount2.txt, sb-linux-icount2.txt       latency, periodic, fair, ingo
  sb-ours-pipe2.txt, sb-linux-pipe2.txt           pipe2, several runs: median
  sb-ours-procfork.txt, sb-linux-procfork.txt     procfork, several runs: median
  sim-fair.txt, sim-ingo.txt    the simulator's report on the same workloads
  sizes.txt                     kernel.elf's sections, the bzImage's size
  sb-params.txt                 the sizes sched.sh used (counts, seconds)
  kvm.txt (+ kvm-ours.txt, kvm-linux.txt)   make bench KVM=1

sections(dir, linux_version) returns the Markdown; svgs(dir, prefix,
linux_version) writes PREFIX-picknext.svg, PREFIX-latency.svg and
PREFIX-shares.svg and returns their file names.
"""
import glob
import html
import math
import os
import re

LINE = re.compile(r"^([a-z][a-z0-9_]*) (\S+)(?: (.*))?$")
HZ = 1000           # the runs use the default hz (no hz= on the command line)
TICK_US = 1000000 // HZ
MEM_MIB = 128       # every schedbench boot has -m 128M
PICKNEXT_TARGET = 1.2
CASES = [("normal", "NORMAL"), ("iso", "ISO (policy 4)"), ("fifo", "FIFO 50")]
LOADS = [("idle", "idle"), ("hogs2", "beside 2 hogs")]
KINDS = [("audio", "audio, 5 % every 50 ms"), ("video", "video, 40 % at 60 Hz")]
NICES = [0, 5, 10, 19]
SLICES = {0: 20, 5: 15, 10: 10, 19: 1}     # full slices in quanta (staircase.md §4)
CFS_WEIGHTS = {0: 1024, 5: 335, 10: 110, 19: 15}   # Linux's sched_prio_to_weight
OURS_COLOR, LINUX_COLOR, SIM_COLOR = "#d95f02", "#1b9e77", "#7570b3"


class Figures:
    """name -> values from one or more schedbench output files."""

    def __init__(self, paths):
        self.vals, self.na = {}, {}
        self.files = 0
        for path in paths:
            try:
                with open(path) as f:
                    lines = f.read().splitlines()
            except OSError:
                continue
            self.files += 1
            for line in lines:
                m = LINE.match(line)
                if not m:
                    continue
                name, value, rest = m.groups()
                if value == "n/a":
                    self.na[name] = rest or ""
                else:
                    self.vals.setdefault(name, []).append((value, rest or ""))

    def num(self, name):
        """The median of the numeric values of name (the lower middle one
        of an even count), or None."""
        nums = sorted(int(v) for v, _ in self.vals.get(name, [])
                      if re.fullmatch(r"-?\d+", v))
        return nums[(len(nums) - 1) // 2] if nums else None

    def all(self, name):
        return sorted(int(v) for v, _ in self.vals.get(name, [])
                      if re.fullmatch(r"-?\d+", v))

    def word(self, name):
        v = self.vals.get(name)
        return v[0][0] if v else None

    def note(self, name):
        v = self.vals.get(name)
        return v[0][1] if v else None

    def __bool__(self):
        return bool(self.vals or self.na)


def load_kv(path):
    out = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and re.fullmatch(r"-?\d+", parts[1]):
                    out[parts[0]] = int(parts[1])
    except OSError:
        pass
    return out


def load_sim(path):
    """The simulator's report: task name -> cpu% (a float)."""
    rows = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 6 and p[1].isdigit() and p[5].endswith("%"):
                    rows[p[0]] = float(p[5][:-1])
    except OSError:
        pass
    return rows


def fmt(v, unit=""):
    if v is None:
        return "-"
    return f"{v:,}{unit}"


def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"


def pm(v):
    return "-" if v is None else f"{v / 10:.1f} %"


class Data:
    def __init__(self, d):
        self.dir = d
        self.ours0 = Figures(sorted(glob.glob(os.path.join(d, "sb-ours-icount0-*.txt"))))
        self.linux0 = Figures(sorted(glob.glob(os.path.join(d, "sb-linux-icount0-*.txt"))))
        self.ours2 = Figures([os.path.join(d, "sb-ours-icount2.txt")])
        self.linux2 = Figures([os.path.join(d, "sb-linux-icount2.txt")])
        self.ours_p2 = Figures([os.path.join(d, "sb-ours-pipe2.txt")])
        self.linux_p2 = Figures([os.path.join(d, "sb-linux-pipe2.txt")])
        self.ours_pf = Figures([os.path.join(d, "sb-ours-procfork.txt")])
        self.linux_pf = Figures([os.path.join(d, "sb-linux-procfork.txt")])
        self.sim_fair = load_sim(os.path.join(d, "sim-fair.txt"))
        self.sim_ingo = load_sim(os.path.join(d, "sim-ingo.txt"))
        self.sizes = load_kv(os.path.join(d, "sizes.txt"))
        self.params = load_kv(os.path.join(d, "sb-params.txt"))
        self.kvm = ""
        try:
            with open(os.path.join(d, "kvm.txt")) as f:
                self.kvm = f.read().strip()
        except OSError:
            pass

    def any(self):
        return any((self.ours0, self.linux0, self.ours2, self.linux2,
                    self.ours_p2, self.linux_p2, self.ours_pf, self.linux_pf))


def picknext_points(fig):
    """[(hogs, runnable or None, insn)] sorted by hogs."""
    pts = []
    for name in fig.vals:
        m = re.fullmatch(r"picknext_(\d+)", name)
        if m:
            n = int(m.group(1))
            pts.append((n, fig.num(f"picknext_{n}_runnable"), fig.num(name)))
    return sorted(pts)


def picknext_verdict(fig):
    """(text, met) for cost at the most hogs against the cost at 1."""
    pts = picknext_points(fig)
    if not pts or pts[0][0] != 1:
        return "not measured", None
    base, (n, _, top) = pts[0][2], pts[-1]
    r = top / base
    text = f"{top:,} at {n} hogs / {base:,} at 1 = {r:.2f}x"
    if n < 4000:
        limit = fig.num("picknext_limit")
        text += (f" (4000 not reachable: fork stopped at {limit} hogs, "
                 "threads-max; judged at the most it reached)"
                 if limit else f" (measured up to {n} only)")
    return text, r <= PICKNEXT_TARGET


def iso_audio_verdict(fig):
    pol = fig.word("periodic_audio_iso_policy")
    periods, met = fig.num("periodic_audio_iso_periods"), fig.num("periodic_audio_iso_met")
    mx = fig.num("periodic_audio_iso_max")
    if periods is None or met is None or mx is None:
        return "not measured", None
    ok = pol == "ISO" and met == periods and mx <= TICK_US
    return (f"{pol}: {met}/{periods} deadlines ({100 * met / periods:.1f} %), "
            f"max latency {mx:,} us", ok)


def yesno(ok):
    return "not measured" if ok is None else ("yes" if ok else "**no**")


def targets_table(dat):
    pk, pk_ok = picknext_verdict(dat.ours0)
    au, au_ok = iso_audio_verdict(dat.ours2)
    lpk, _ = picknext_verdict(dat.linux0)
    lau, _ = iso_audio_verdict(dat.linux2)
    return "\n".join([
        f"| target (issue 12) | this kernel | met? | Linux {dat.lv}, for comparison |",
        "|---|---|---|---|",
        f"| pick-next cost at 1000 and 4000 runnable <= {PICKNEXT_TARGET}x the cost at 1 "
        f"| {pk} | {yesno(pk_ok)} | {lpk} |",
        f"| ISO audio beside 4 hogs: 100 % of deadlines and max wake latency <= 1 tick "
        f"({TICK_US:,} us at HZ {HZ}) | {au} | {yesno(au_ok)} | {lau} (Linux refuses "
        "policy 4) |",
    ])


def boot_table(dat):
    o, l, s = dat.ours0, dat.linux0, dat.sizes
    used = lambda free: None if free is None else MEM_MIB * 1024 - free  # noqa: E731
    rows = [f"| figure | this kernel | Linux {dat.lv} | ratio | how |",
            "|---|---:|---:|---:|---|"]

    def row(label, a, b, how, unit="", with_ratio=True):
        r = ratio(a, b) if with_ratio else "-"
        rows.append(f"| {label} | {fmt(a, unit)} | {fmt(b, unit)} | {r} | {how} |")

    row("reset to the first program, virtual ns = instructions + idle ns",
        o.num("boot_tsc_at_first_program"), l.num("boot_tsc_at_first_program"),
        "the TSC when `schedbench boot` starts, init's first program, under "
        "`-icount shift=0,sleep=off`: waiting in a busy loop counts as "
        "instructions, idle time (hlt) at 1 per ns")
    row("of that, the kernel's own clock (us)", o.num("boot_clock_at_first_program"),
        l.num("boot_clock_at_first_program"),
        "CLOCK_MONOTONIC at that moment: ours starts after the timer "
        "calibration, Linux's at timekeeping init (after decompression)",
        with_ratio=False)
    row("idle until then (ms)", o.num("boot_idle"), l.num("boot_idle"),
        "ours: idle ticks (call 501); Linux: /proc/uptime's second field",
        with_ratio=False)
    rows.append(f"| kernel image | text {fmt(s.get('kernel_text'))}, data "
                f"{fmt(s.get('kernel_data'))}, bss {fmt(s.get('kernel_bss'))} bytes "
                f"(build/kernel.elf, {fmt(s.get('kernel_elf_file'))} bytes as a file) "
                f"| bzImage {fmt(s.get('linux_bzimage'))} bytes (compressed) | - | "
                "ours: the ELF's sections as binutils' `size` counts them "
                "(tools/bench/elfsize.py); Linux: the file QEMU boots |")
    row(f"free memory after boot, of {MEM_MIB} MiB (KiB)", o.num("mem_free_after_boot"),
        l.num("mem_free_after_boot"), "ours: free frames x 4 KiB (call 505); "
                                      "Linux: MemFree in /proc/meminfo")
    row(f"in use after boot: {MEM_MIB} MiB - free (KiB)",
        used(o.num("mem_free_after_boot")), used(l.num("mem_free_after_boot")),
        "everything not free: firmware holes, kernel image, its tables, the initrd "
        "(ours keeps the tar; Linux unpacks the cpio into its page cache)")
    kids = o.num("mem_per_process_children") or l.num("mem_per_process_children")
    row("memory per process (KiB)", o.num("mem_per_process"), l.num("mem_per_process"),
        f"free memory before and while {kids or '?'} forked children of schedbench "
        "sleep in read(), divided by their number: both share pages copy-on-write "
        "at fork; enough children that Linux's per-CPU free lists, which MemFree "
        "does not count, are a small part (docs/bench.md, Memory)")
    return "\n".join(rows)


def picknext_table(dat):
    o, l = picknext_points(dat.ours0), picknext_points(dat.linux0)
    if not o and not l:
        return "(picknext was not measured in this run)"
    od, ld = {p[0]: p for p in o}, {p[0]: p for p in l}
    ob = od[1][2] if 1 in od else None
    lb = ld[1][2] if 1 in ld else None
    rows = ["| NORMAL hogs | this kernel: runnable | insn per yield | x cost at 1 "
            f"| Linux {dat.lv}: runnable | insn per yield | x cost at 1 |",
            "|---:|---:|---:|---:|---:|---:|---:|"]
    for n in sorted(set(od) | set(ld)):
        cells = []
        for d, base in ((od, ob), (ld, lb)):
            p = d.get(n)
            if p:
                cells += [fmt(p[1]), fmt(p[2]), ratio(p[2], base)]
            else:
                cells += ["-", "-", "-"]
        rows.append(f"| {n:,} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def latency_table(dat):
    o, l = dat.ours2, dat.linux2
    rows = [f"| sleeper, 1 ms sleeps | this kernel: policy granted, min / avg / p99 / max us "
            f"late | Linux {dat.lv}: policy granted, min / avg / p99 / max us late |",
            "|---|---|---|"]
    for load, lname in LOADS:
        for case, cname in CASES:
            k = f"lat_{load}_{case}"
            cells = []
            for fig in (o, l):
                v = [fig.num(f"{k}_{w}") for w in ("min", "avg", "p99", "max")]
                if k in fig.na:
                    cells.append(f"n/a {fig.na[k]}")
                elif None in v:
                    cells.append("-")
                else:
                    cells.append(f"{fig.word(k + '_policy')}: " + " / ".join(f"{x:,}" for x in v))
            rows.append(f"| {cname}, {lname} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


def periodic_table(dat):
    rows = [f"| task beside 4 NORMAL hogs | this kernel: policy, deadlines met, latency mean / "
            f"p99 / max us | Linux {dat.lv}: policy, deadlines met, latency mean / p99 / max us |",
            "|---|---|---|"]
    for kind, kname in KINDS:
        for case, cname in CASES:
            k = f"periodic_{kind}_{case}"
            cells = []
            for fig in (dat.ours2, dat.linux2):
                per, met = fig.num(k + "_periods"), fig.num(k + "_met")
                v = [fig.num(f"{k}_{w}") for w in ("mean", "p99", "max")]
                if k in fig.na:
                    cells.append(f"n/a {fig.na[k]}")
                elif None in v or not per:
                    cells.append("-")
                else:
                    pol = (fig.word(k + "_policy") or "?").replace("_", " ")
                    cells.append(f"{pol}: {met:,}/{per:,} ({100 * met / per:.1f} %), "
                                 + " / ".join(f"{x:,}" for x in v))
            rows.append(f"| {kname}, asking for {cname} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


def shares_table(dat):
    o, l, sim = dat.ours2, dat.linux2, dat.sim_fair
    tot_s = sum(SLICES.values())
    tot_w = sum(CFS_WEIGHTS.values())
    rows = ["| hog | this kernel | staircase prediction (simulator) | difference | rule book: "
            f"full slices | Linux {dat.lv} | CFS weights (Linux's model) |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    sums = [0, 0.0, 0]
    for n in NICES:
        ov, lv_ = o.num(f"fair_nice{n}"), l.num(f"fair_nice{n}")
        sv = sim.get(f"nice{n}")
        diff = f"{ov / 10 - sv:+.1f} points" if ov is not None and sv is not None else "-"
        sums[0] += ov or 0
        sums[1] += sv or 0
        sums[2] += lv_ or 0
        rows.append(f"| nice {n} | {pm(ov)} | {'-' if sv is None else f'{sv:.1f} %'} | {diff} "
                    f"| {100 * SLICES[n] / tot_s:.1f} % ({SLICES[n]} quant{'um' if SLICES[n] == 1 else 'a'}) | {pm(lv_)} "
                    f"| {100 * CFS_WEIGHTS[n] / tot_w:.1f} % (weight {CFS_WEIGHTS[n]}) |")
    rows.append(f"| sum | {pm(sums[0])} | {sums[1]:.1f} % | | 100 % | {pm(sums[2])} | 100 % |")
    return "\n".join(rows)


def ingo_table(dat):
    o, l, sim = dat.ours2, dat.linux2, dat.sim_ingo
    rows = [f"| task | this kernel | staircase prediction (simulator) | Linux {dat.lv} |",
            "|---|---:|---:|---:|"]
    for name, simname in (("hog", "hog"), ("task1", "ingo1"), ("task2", "ingo2")):
        sv = sim.get(simname)
        rows.append(f"| {name}: share of the CPU | {pm(o.num(f'ingo_{name}_share'))} | "
                    f"{'-' if sv is None else f'{sv:.1f} %'} | {pm(l.num(f'ingo_{name}_share'))} |")
    rows.append(f"| hog: longest time without the CPU (us) | {fmt(o.num('ingo_hog_maxgap'))} | "
                f"- | {fmt(l.num('ingo_hog_maxgap'))} |")
    for t in ("task1", "task2"):
        rows.append(f"| {t}: wake-up after its 1 ms sleep, avg / max us late | "
                    f"{fmt(o.num(f'ingo_{t}_wakeavg'))} / {fmt(o.num(f'ingo_{t}_wakemax'))} | - | "
                    f"{fmt(l.num(f'ingo_{t}_wakeavg'))} / {fmt(l.num(f'ingo_{t}_wakemax'))} |")
    return "\n".join(rows)


def pipe2_table(dat):
    o, l = dat.ours_p2, dat.linux_p2
    rows = [f"| figure | this kernel | Linux {dat.lv} | ratio |", "|---|---:|---:|---:|"]
    for name, label in (("pipe2cpu_ns", "1-byte pipe round trip, CPU 0 <-> CPU 1 (ns, median)"),
                        ("pipe2cpu_tsc", "the same in host TSC ticks (median)")):
        a, b = o.num(name), l.num(name)
        rows.append(f"| {label} | {fmt(a)} | {fmt(b)} | {ratio(a, b)} |")
    ra, rb = o.all("pipe2cpu_ns"), l.all("pipe2cpu_ns")
    rows.append(f"| runs (each the median of 9 x 200 round trips), ns | "
                f"{', '.join(f'{x:,}' for x in ra) or '-'} | {', '.join(f'{x:,}' for x in rb) or '-'} | |")
    if "pipe2cpu" in o.na or "pipe2cpu" in l.na:
        rows.append(f"| n/a | {o.na.get('pipe2cpu', '')} | {l.na.get('pipe2cpu', '')} | |")
    return "\n".join(rows)


PROCFORK_TARGET = 0.5     # issue 46: at least half as many forks as Linux


def procfork_table(dat):
    o, l = dat.ours_pf, dat.linux_pf
    a, b = o.num("procfork_forks"), l.num("procfork_forks")
    met = "-" if a is None or not b else (
        f"{'met' if a / b >= PROCFORK_TARGET else 'MISSED'} (target >= {PROCFORK_TARGET:.1f}x)")
    rows = [f"| figure | this kernel | Linux {dat.lv} | ratio |", "|---|---:|---:|---:|",
            f"| forks beside 2 /proc readers (median of the runs) | {fmt(a)} | {fmt(b)} | "
            f"{ratio(a, b)}: {met} |",
            f"| runs, forks | {', '.join(f'{x:,}' for x in o.all('procfork_forks')) or '-'} | "
            f"{', '.join(f'{x:,}' for x in l.all('procfork_forks')) or '-'} | |",
            f"| the readers' file reads (median) | {fmt(o.num('procfork_reads'))} | "
            f"{fmt(l.num('procfork_reads'))} | |"]
    return "\n".join(rows)


def kvm_section(dat):
    if not dat.kvm.startswith("kvm ok"):
        why = dat.kvm[len("kvm n/a"):].strip() if dat.kvm.startswith("kvm n/a") else dat.kvm
        why = why[1:-1] if why.startswith("(") and why.endswith(")") else why
        return (f"Not measured in this run ({why or 'no record'}). `make bench KVM=1` adds wall-clock "
                "columns (pathlen under `-accel kvm`, TSC ticks) only where hardware KVM "
                "(kvm_intel or kvm_amd) can run this 32-bit kernel; on this project's "
                "hosts /dev/kvm is kvm_pvm, which cannot (docs/hardware-notes.md §7), "
                "so make bench says so and goes on without them.")
    o, l = (load_kv(os.path.join(dat.dir, f)) for f in ("kvm-ours.txt", "kvm-linux.txt"))
    rows = [f"| figure (TSC ticks per operation, -accel kvm) | this kernel | Linux {dat.lv} | ratio |",
            "|---|---:|---:|---:|"]
    for k in ("getpid", "yield", "pipe", "fork", "exec"):
        rows.append(f"| {k} | {fmt(o.get(k))} | {fmt(l.get(k))} | {ratio(o.get(k), l.get(k))} |")
    return "\n".join(rows)


def summary(d, linux_version):
    """The targets table alone, for report.py's output on the terminal."""
    dat = Data(d)
    dat.lv = linux_version
    return targets_table(dat) if dat.any() else "(/bin/schedbench was not run)"


def sections(d, linux_version, svg_base="latest"):
    dat = Data(d)
    dat.lv = linux_version
    if not dat.any():
        return "## Scheduling quality, boot and memory\n\n(/bin/schedbench was not run)\n"
    p = dat.params
    reps = p.get("reps", dat.ours0.files)
    out = ["## Scheduling quality, boot and memory (/bin/schedbench)\n",
           "/bin/schedbench (user/tests/schedbench.c), the same static binary on both "
           "kernels, run by tools/bench/sched.sh; how each figure is measured and how to "
           "read it: [docs/bench.md](../../docs/bench.md), \"Scheduling quality\". Boot, "
           f"memory and pick-next under `-icount shift=0,sleep=off -smp 1` (instructions), "
           f"the median of {reps} boots of each kernel; latency, audio/video, nice and "
           f"Ingo's workload in virtual time, `-icount shift=2,sleep=off -smp 1` (4 ns per "
           f"instruction), one boot each; the 2-CPU pipe in real time. Every boot has "
           f"-m {MEM_MIB}M. ISO is asked for as policy 4, which Linux refuses: the "
           "policy each task was granted is shown beside its figures.\n",
           "### Targets\n", targets_table(dat) + "\n",
           "### Boot, image size and memory\n", boot_table(dat) + "\n",
           "### Pick-next cost against runnable tasks\n",
           "sched_yield between two FIFO 50 tasks on CPU 0 beside N NORMAL hogs "
           "(`schedbench picknext`): every yield picks the other FIFO task over all the "
           "hogs, so a pick that grows with the run queue shows here. Instructions per "
           "call (a call covers both tasks' yields and two switches, as pathlen's "
           "yield), median of 9 x 500. Runnable: ours, CPU 0's nr_running (call 501); "
           "Linux, /proc/loadavg's running count.\n",
           picknext_table(dat) + "\n", f"![pick-next cost]({svg_base}-picknext.svg)\n",
           "### Wake-up latency per policy\n",
           f"`schedbench latency {p.get('lat_count', '?')}`: "
           f"{fmt(p.get('lat_count'))} sleeps of 1 ms per case (cyclictest-style, on "
           "CPU 0, as root), idle and beside 2 NORMAL hogs; how late each sleep ended, "
           "in us.\n", latency_table(dat) + "\n", f"![latency]({svg_base}-latency.svg)\n",
           "### Audio and video beside 4 hogs (interbench-style)\n",
           f"`schedbench periodic {p.get('periodic_s', '?')}`: /bin/periodic for "
           f"{p.get('periodic_s', '?')} s per case beside 4 NORMAL hogs on CPU 0. A "
           "deadline is met when the period's work is done before the next period "
           "starts; latency is how late each period's wake-up was.\n",
           periodic_table(dat) + "\n",
           "### Nice levels: shares against the staircase's prediction\n",
           f"`schedbench fair {p.get('fair_ms', '?')}`: 4 NORMAL hogs at nice 0, 5, 10, "
           f"19 on CPU 0 for {fmt(p.get('fair_ms'))} ms. The prediction is the "
           "simulator (tools/sim, the sched/ code on a simulated CPU) on the same "
           "workload for the same time (tools/bench/fair.wl); the rule book's model "
           "(docs/staircase.md §4, §10.3) is each hog's full slice over their sum.\n",
           shares_table(dat) + "\n",
           "### Ingo Molnar's workload\n",
           f"`schedbench ingo {p.get('ingo_ms', '?')}`: two NORMAL tasks that run 4 ms and "
           f"sleep 1 ms beside a NORMAL hog, CPU 0, {fmt(p.get('ingo_ms'))} ms "
           "(docs/staircase.md §10.5); prediction: the simulator on "
           "tools/sim/examples/ingo.wl for the same time.\n",
           ingo_table(dat) + "\n", f"![shares]({svg_base}-shares.svg)\n",
           "### Pipe round trip between 2 CPUs (real time)\n",
           f"`schedbench pipe2`, parent on CPU 0, partner on CPU 1, `-smp 2` **without "
           f"icount** (both vCPUs run at once, so virtual time would not mean much): "
           f"wall-clock ns on a shared host, the median of {p.get('pipe2_runs', '?')} runs "
           "in one boot. Both kernels halt an idle CPU, so most of a round trip is QEMU "
           "waking a halted vCPU thread; the figure is not comparable with the "
           "instruction counts above.\n",
           pipe2_table(dat) + "\n",
           "### Forks beside /proc readers (real time)\n",
           f"`procfork {p.get('procfork_s', '?')} 2` (user/tests/procfork.c), `-smp 2` without "
           "icount: one process forks children that exit at once and reaps each, while two "
           "threads of another process read every file of /proc/PID of the newest child, as a "
           "monitor does; the median of "
           f"{p.get('procfork_runs', '?')} runs in one boot. What `top` does all day must not "
           "stall the others (issue 46): the target is at least half of Linux's forks.\n",
           procfork_table(dat) + "\n",
           "### Wall clock under KVM\n", kvm_section(dat) + "\n"]
    return "\n".join(out)


# ---- SVG -----------------------------------------------------------------

def _svg(w, h, title, body):
    return "\n".join([f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                      'font-family="sans-serif" font-size="12">',
                      f'<rect width="{w}" height="{h}" fill="white"/>',
                      f'<text x="10" y="20" font-size="14" font-weight="bold">'
                      f'{html.escape(title)}</text>'] + body + ["</svg>"]) + "\n"


def _legend(items, x, y):
    body = []
    for name, color in items:
        body.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{color}"/>')
        body.append(f'<text x="{x + 16}" y="{y}">{html.escape(name)}</text>')
        x += 18 + 7 * len(name) + 20
    return body


def svg_picknext(dat, path):
    series = [("this kernel", picknext_points(dat.ours0), OURS_COLOR),
              (f"Linux {dat.lv}", picknext_points(dat.linux0), LINUX_COLOR)]
    left, top, pw, ph = 70, 60, 520, 260
    ymax = max([p[2] for _, pts, _ in series for p in pts] + [1]) * 1.25
    xlog = lambda n: left + pw * math.log10(max(n, 1)) / math.log10(4000)  # noqa: E731  1..4000
    ylin = lambda v: top + ph - ph * v / ymax               # noqa: E731
    body = _legend([(s[0], s[2]) for s in series], 10, 44)
    body.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>')
    body.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>')
    for n in (1, 10, 100, 1000, 4000):
        x = xlog(n)
        body.append(f'<line x1="{x:.1f}" y1="{top + ph}" x2="{x:.1f}" y2="{top + ph + 5}" stroke="black"/>')
        body.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{n}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{top + ph + 36}" text-anchor="middle">NORMAL '
                'hogs beside the two FIFO yielders (log scale)</text>')
    step = 10 ** math.floor(math.log10(ymax / 2)) if ymax > 10 else 1
    for i in range(0, int(ymax / step) + 1):
        v = i * step
        if v > ymax or (ymax / step > 12 and i % 2):
            continue
        y = ylin(v)
        body.append(f'<line x1="{left - 5}" y1="{y:.1f}" x2="{left}" y2="{y:.1f}" stroke="black"/>')
        body.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{int(v):,}</text>')
    body.append(f'<text x="16" y="{top + ph / 2}" transform="rotate(-90 16 {top + ph / 2})" '
                'text-anchor="middle">instructions per yield</text>')
    ours = series[0][1]
    if ours and ours[0][0] == 1:
        t = ours[0][2] * PICKNEXT_TARGET
        y = ylin(t)
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="black" '
                    'stroke-width="1.5" stroke-dasharray="5,3"/>')
        body.append(f'<text x="{left + pw - 4}" y="{y - 5:.1f}" text-anchor="end">target for this '
                    f'kernel: {PICKNEXT_TARGET}x its cost at 1 ({int(t):,})</text>')
    for s, (_, pts, color) in enumerate(series):
        if not pts:
            continue
        d = " ".join(f"{xlog(n):.1f},{ylin(v):.1f}" for n, _, v in pts)
        body.append(f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2"/>')
        for i, (n, _, v) in enumerate(pts):
            # this kernel's labels below its line, Linux's above; every
            # other one further away (253 and 100 are close on a log axis)
            dy = (15 + 13 * (i % 2)) if s == 0 else -(8 + 13 * (i % 2))
            body.append(f'<circle cx="{xlog(n):.1f}" cy="{ylin(v):.1f}" r="4" fill="{color}"/>')
            body.append(f'<text x="{xlog(n) + 5:.1f}" y="{ylin(v) + dy:.1f}" fill="{color}">'
                        f'{v:,} ({n})</text>')
    with open(path, "w") as f:
        f.write(_svg(left + pw + 110, top + ph + 50,
                     "Pick-next cost against runnable tasks (-icount shift=0, 1 CPU)", body))


def svg_latency(dat, path):
    rows = []
    for load, lname in LOADS:
        for case, cname in CASES:
            for who, fig, color in (("this kernel", dat.ours2, OURS_COLOR),
                                    (f"Linux {dat.lv}", dat.linux2, LINUX_COLOR)):
                k = f"lat_{load}_{case}"
                v = [fig.num(f"{k}_{w}") for w in ("min", "avg", "p99", "max")]
                pol = fig.word(k + "_policy") or "?"
                rows.append((f"{lname}, {cname}: {who} ({pol})", v, color))
    left, top, pw, rh = 330, 60, 460, 20
    lo, hi = 0, 6                       # 1 us .. 1 s, log scale
    xl = lambda v: left + pw * (math.log10(max(v, 1)) - lo) / (hi - lo)  # noqa: E731
    h = top + rh * len(rows) + 50
    body = [f'<text x="10" y="44">bar: min to p99; line: to max; tick: avg (us late, log '
            'scale)</text>']
    for e in range(lo, hi + 1):
        x = xl(10 ** e)
        body.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + rh * len(rows)}" '
                    'stroke="#ddd"/>')
        body.append(f'<text x="{x:.1f}" y="{top + rh * len(rows) + 16}" text-anchor="middle">'
                    f'{10 ** e:,}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{top + rh * len(rows) + 34}" '
                'text-anchor="middle">microseconds late</text>')
    for i, (label, v, color) in enumerate(rows):
        y = top + i * rh
        body.append(f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{html.escape(label)}</text>')
        if None in v:
            body.append(f'<text x="{left + 4}" y="{y + 13}">not measured</text>')
            continue
        mn, avg, p99, mx = v
        body.append(f'<line x1="{xl(p99):.1f}" y1="{y + 9}" x2="{xl(mx):.1f}" y2="{y + 9}" '
                    f'stroke="{color}" stroke-width="2"/>')
        body.append(f'<rect x="{xl(mn):.1f}" y="{y + 3}" width="{max(xl(p99) - xl(mn), 2):.1f}" '
                    f'height="12" fill="{color}"/>')
        body.append(f'<line x1="{xl(avg):.1f}" y1="{y}" x2="{xl(avg):.1f}" y2="{y + 18}" '
                    'stroke="black" stroke-width="2"/>')
        body.append(f'<text x="{xl(mx) + 4:.1f}" y="{y + 13}">{mx:,}</text>')
    with open(path, "w") as f:
        f.write(_svg(left + pw + 70, h, "Wake-up latency of 1 ms sleeps per policy "
                     "(-icount shift=2, 1 CPU)", body))


def svg_shares(dat, path):
    groups = [(f"nice {n}", dat.ours2.num(f"fair_nice{n}"), dat.sim_fair.get(f"nice{n}"),
               dat.linux2.num(f"fair_nice{n}")) for n in NICES]
    groups += [(f"Ingo: {t}", dat.ours2.num(f"ingo_{t}_share"), dat.sim_ingo.get(s),
                dat.linux2.num(f"ingo_{t}_share"))
               for t, s in (("hog", "hog"), ("task1", "ingo1"), ("task2", "ingo2"))]
    left, top, pw, bh, gap = 110, 60, 460, 14, 12
    gh = 3 * bh + gap
    h = top + gh * len(groups) + 30
    xs = lambda pct: left + pw * pct / 100  # noqa: E731
    body = _legend([("this kernel", OURS_COLOR), ("staircase prediction (simulator)", SIM_COLOR),
                    (f"Linux {dat.lv}", LINUX_COLOR)], 10, 44)
    for pct in range(0, 101, 20):
        x = xs(pct)
        body.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + gh * len(groups)}" '
                    'stroke="#ddd"/>')
        body.append(f'<text x="{x:.1f}" y="{top + gh * len(groups) + 16}" '
                    f'text-anchor="middle">{pct} %</text>')
    for g, (label, o, s, l) in enumerate(groups):
        y0 = top + g * gh
        body.append(f'<text x="{left - 8}" y="{y0 + bh * 1.5 + 4}" text-anchor="end">'
                    f'{html.escape(label)}</text>')
        for i, (v, color) in enumerate(((None if o is None else o / 10, OURS_COLOR),
                                        (s, SIM_COLOR),
                                        (None if l is None else l / 10, LINUX_COLOR))):
            y = y0 + i * bh
            bw = 0 if v is None else pw * v / 100
            body.append(f'<rect x="{left}" y="{y}" width="{bw:.1f}" height="{bh - 2}" fill="{color}"/>')
            body.append(f'<text x="{left + bw + 4:.1f}" y="{y + bh - 3}">'
                        f'{"-" if v is None else f"{v:.1f} %"}</text>')
    with open(path, "w") as f:
        f.write(_svg(left + pw + 80, h, "Shares of one CPU: nice 0/5/10/19 hogs, and Ingo's "
                     "workload (-icount shift=2)", body))


def svgs(d, prefix, linux_version):
    dat = Data(d)
    dat.lv = linux_version
    paths = [f"{prefix}-picknext.svg", f"{prefix}-latency.svg", f"{prefix}-shares.svg"]
    svg_picknext(dat, paths[0])
    svg_latency(dat, paths[1])
    svg_shares(dat, paths[2])
    return paths
