#!/usr/bin/env python3
"""make bench's scheduling-quality pieces on the host (issue 12,
docs/bench.md "Scheduling quality"):

- /bin/schedbench's command line, natively (the same static i386 binary
  as on our kernel, as test_sh.py runs the shell): a bad subcommand or
  number prints one reason line and the usage on stderr, nothing on
  stdout, exit status 2; -h prints the usage on stdout, status 0;
  `schedbench boot` prints well-formed lines.
- tools/bench/schedreport.py on fixed inputs: medians over boots, the two
  targets judged both ways, every table present, the three SVGs valid XML.
- tools/bench/elfsize.py against binutils' size, when there is one.
- tools/bench/lineagereport.py (make lineage, docs/lineage.md §5): the
  fluid scheduler's shares it judges the exploit rows by, and cfs judged
  against Linux 6.1 on fixed serial logs, both ways; its SVG valid XML.

The QEMU side is tests/cases/bench.py. One line per test, then "N passed,
N failed". Standard library only; builds nothing (make -s user first).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

sys.path.insert(0, os.path.join(hostlib.REPO, "tools", "bench"))
import schedreport  # noqa: E402
import lineagereport  # noqa: E402

SB = os.path.join(hostlib.REPO, "build", "user", "bin", "schedbench")
ELFSIZE = os.path.join(hostlib.REPO, "tools", "bench", "elfsize.py")
USAGE = "usage: schedbench boot | mem [K] | picknext [MAX] | latency [COUNT] |"
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(*args):
    p = subprocess.run([*hostlib.host_cmd(SB), *args], capture_output=True, text=True, timeout=20)
    return p.returncode, p.stdout, p.stderr.splitlines()


@test
def bad_command_lines_say_why_on_stderr_with_status_2():
    cases = [((), None),
             (("bogus",), "schedbench: unknown subcommand 'bogus'"),
             (("latency", "abc"), "schedbench: latency: bad number 'abc' (1..50000)"),
             (("latency", "0"), "schedbench: latency: bad number '0' (1..50000)"),
             (("latency", "12x"), "schedbench: latency: bad number '12x' (1..50000)"),
             (("mem", "513"), "schedbench: mem: bad number '513' (1..512)"),
             (("picknext", "4001"), "schedbench: picknext: bad number '4001' (1..4000)"),
             (("boot", "3"), "schedbench: boot: too many arguments"),
             (("fair", "500", "6"), "schedbench: fair: too many arguments"),
             (("scalefork", "33"), "schedbench: scalefork: bad number '33' (1..32)"),
             (("scalepipe", "0"), "schedbench: scalepipe: bad number '0' (1..32)"),
             (("-x",), "schedbench: unknown subcommand '-x'")]
    for args, why in cases:
        rc, out, err = run(*args)
        assert rc == 2, f"{args}: status {rc}"
        assert out == "", f"{args}: stdout {out!r}"
        want = ([why] if why else []) + [USAGE]
        assert err[:len(want)] == want, f"{args}: stderr {err!r}"
        assert len(err) == len(want) + 2, f"{args}: stderr {err!r}"


@test
def help_prints_the_usage_on_stdout_with_status_0():
    for flag in ("-h", "--help"):
        rc, out, err = run(flag)
        assert rc == 0 and err == [], (flag, rc, err)
        assert out.splitlines()[0] == USAGE, out


@test
def boot_prints_well_formed_lines():
    rc, out, err = run("boot")
    assert rc == 0 and err == [], (rc, err)
    lines = [ln for ln in out.splitlines() if not ln.startswith("#")]
    names = [ln.split()[0] for ln in lines]
    assert names == ["boot_tsc_at_first_program", "boot_clock_at_first_program",
                     "boot_idle"], names
    for ln in lines:
        assert re.fullmatch(r"[a-z_]+ (\d+ (tsc|us|ms)|n/a \(.*\))", ln), ln


FIXTURE = {
    # three boots: the report takes the median (the middle one)
    "sb-ours-icount0-1.txt": "boot_tsc_at_first_program 300 tsc\nmem_per_process 80 kib\n"
                             "picknext_1 2000 insn\npicknext_1_runnable 3 tasks\n"
                             "picknext_limit 253 hogs (fork refused hog 255 of 4000: x)\n"
                             "picknext_253 2300 insn\n",
    "sb-ours-icount0-2.txt": "boot_tsc_at_first_program 100 tsc\nmem_per_process 70 kib\n"
                             "picknext_1 2000 insn\npicknext_253 2300 insn\n",
    "sb-ours-icount0-3.txt": "boot_tsc_at_first_program 200 tsc\nmem_per_process 90 kib\n"
                             "picknext_1 2000 insn\npicknext_253 2500 insn\n",
    "sb-linux-icount0-1.txt": "picknext_1 3000 insn\npicknext_1000 3100 insn\n",
    "sb-ours-icount2.txt": "periodic_audio_iso_policy ISO policy\n"
                           "periodic_audio_iso_periods 100 periods\n"
                           "periodic_audio_iso_met 100 periods\n"
                           "periodic_audio_iso_mean 10 us\nperiodic_audio_iso_p99 12 us\n"
                           "periodic_audio_iso_max 13 us\n"
                           "lat_idle_iso_policy ISO policy\nlat_idle_iso_min 1 us\n"
                           "lat_idle_iso_avg 2 us\nlat_idle_iso_p99 3 us\nlat_idle_iso_max 4 us\n"
                           "fair_nice0 431 permille\nfair_nice5 329 permille\n"
                           "fair_nice10 219 permille\nfair_nice19 17 permille\n",
    "sb-linux-icount2.txt": "periodic_audio_iso_policy NORMAL policy\n"
                            "periodic_audio_iso_periods 100 periods\n"
                            "periodic_audio_iso_met 100 periods\n"
                            "periodic_audio_iso_mean 70 us\nperiodic_audio_iso_p99 72 us\n"
                            "periodic_audio_iso_max 72 us\n",
    "sb-ours-pipe2.txt": "pipe2cpu_ns 30 ns\npipe2cpu_ns 10 ns\npipe2cpu_ns 20 ns\n",
    "sb-linux-pipe2.txt": "pipe2cpu n/a (1 CPU)\n",
    "sim-fair.txt": "task pid policy nice cpus cpu% runs\n"
                    "nice0 1 normal 0 all 43.1% 36\nnice5 2 normal 5 all 32.9% 35\n"
                    "nice10 3 normal 10 all 21.9% 30\nnice19 4 normal 19 all 2.1% 21\n",
    "sb-params.txt": "reps 3\nlat_count 10000\nperiodic_s 5\nfair_ms 5000\n",
    "kvm.txt": "kvm n/a (/dev/kvm here is kvm_pvm)\n",
}


def report_of(files):
    d = tempfile.mkdtemp()
    try:
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        md = schedreport.sections(d, "6.1")
        svgs = schedreport.svgs(d, os.path.join(d, "t"), "6.1")
        for path in svgs:
            ET.parse(path)          # well-formed XML, or it raises
        return md
    finally:
        shutil.rmtree(d)


@test
def report_takes_medians_and_judges_the_targets():
    md = report_of(FIXTURE)
    for title in ("### Targets", "### Boot, image size and memory",
                  "### Pick-next cost", "### Wake-up latency per policy",
                  "### Audio and video", "### Nice levels", "### Ingo Molnar",
                  "### Pipe round trip", "### Wall clock under KVM"):
        assert title in md, title
    assert "| reset to the first program, virtual ns = instructions + idle ns | 200 |" in md
    assert "| memory per process (KiB) | 80 |" in md
    # 2,300 (the median of 2,300, 2,300, 2,500) / 2,000 = 1.15x <= 1.2x
    assert re.search(r"2,300 at 253 hogs / 2,000 at 1 = 1\.15x \(4000 not reachable: "
                     r"fork stopped at 253 hogs.*\| yes \|", md), md
    assert re.search(r"ISO: 100/100 deadlines \(100\.0 %\), max latency 13 us \| yes \|", md)
    assert "| nice 0 | 43.1 % | 43.1 % | +0.0 points |" in md
    assert "| nice 19 | 1.7 % | 2.1 % | -0.4 points |" in md
    assert "| 1-byte pipe round trip, CPU 0 <-> CPU 1 (ns, median) | 20 | - |" in md
    assert "kvm_pvm" in md


@test
def report_says_no_when_a_target_is_missed():
    files = dict(FIXTURE)
    files["sb-ours-icount0-3.txt"] = files["sb-ours-icount0-3.txt"].replace("2500", "2600")
    files["sb-ours-icount0-2.txt"] = files["sb-ours-icount0-2.txt"].replace("2300", "2600")
    files["sb-ours-icount2.txt"] = files["sb-ours-icount2.txt"].replace(
        "periodic_audio_iso_max 13 us", "periodic_audio_iso_max 1001 us")
    md = report_of(files)
    assert re.search(r"= 1\.30x .*\| \*\*no\*\* \|", md), md
    assert re.search(r"max latency 1,001 us \| \*\*no\*\* \|", md), md


@test
def report_without_inputs_says_not_run():
    assert "was not run" in report_of({})


@test
def elfsize_agrees_with_binutils_size():
    out = subprocess.run([sys.executable, ELFSIZE, SB], capture_output=True, text=True,
                         check=True).stdout
    got = dict((ln.split()[0], int(ln.split()[1])) for ln in out.splitlines())
    assert got["kernel_text"] > 0 and got["kernel_elf_file"] == os.path.getsize(SB), got
    size = shutil.which("size")
    if size:
        text, data, bss = subprocess.run([size, SB], capture_output=True, text=True,
                                         check=True).stdout.splitlines()[1].split()[:3]
        assert (got["kernel_text"], got["kernel_data"], got["kernel_bss"]) == \
            (int(text), int(data), int(bss)), (got, text, data, bss)


@test
def lineage_fluid_shares_are_the_ideal_schedulers():
    # Ingo's: the hog gets 4 + 1 ms of each 3 x 4 + 1; fiftyp 20 of 40;
    # thud in 3 s: alone 1 s, a quarter of 0.8 s, alone 1 s, a quarter of 0.2 s
    got = {k: lineagereport.fluid_hog_pm(v, 3000) for k, v in lineagereport.SLEEPERS.items()}
    assert got == {"ingo": 386, "fiftyp_10ms": 500, "fiftyp_1ms": 503, "thud": 750}, got


LINEAGE_FIGS = {
    "linux": "nice_0v5_nice0_share 752 permille\nnice_0v5_nice5_share 245 permille\n"
             "interactive_p50 72 us\ninteractive_p99 87 us\ninteractive_max 87 us\n"
             "interactive_alone_p50 69 us\ninteractive_alone_p99 70 us\n"
             "interactive_alone_max 80 us\ningo_hog_share 339 permille\n"
             "fiftyp_10ms_hog_share 448 permille\nthud_hog_share 748 permille\nTime: 1.063\n",
    "cfs": "nice_0v5_nice0_share 754 permille\nnice_0v5_nice5_share 244 permille\n"
           "interactive_p50 14 us\ninteractive_p99 17 us\ninteractive_max 19 us\n"
           "interactive_alone_p50 9 us\ninteractive_alone_p99 9 us\n"
           "interactive_alone_max 13 us\ningo_hog_share 333 permille\n"
           "fiftyp_10ms_hog_share 334 permille\nthud_hog_share 738 permille\nTime: 0.609\n"
           "T: 0 (    6) P: 0 I:1000 C:   2000 Min:     13 Act:   13 Avg:   21 Max:    6955\n",
}


def lineage_report_of(figs, smp=None):
    d = tempfile.mkdtemp()
    try:
        for col, text in figs.items():
            with open(os.path.join(d, f"{col}.serial.log"), "w") as f:
                f.write(text)
        for col, text in (smp or {}).items():     # the real-time boots on 2 CPUs
            with open(os.path.join(d, f"{col}.smp.serial.log"), "w") as f:
                f.write(text)
        md, svg = os.path.join(d, "l.md"), os.path.join(d, "l.svg")
        subprocess.run([sys.executable, os.path.join(hostlib.REPO, "tools", "bench",
                                                     "lineagereport.py"), "--dir", d, "--md", md,
                        "--svg", svg], check=True, capture_output=True)
        ET.parse(svg)
        with open(md) as f:
            return f.read()
    finally:
        shutil.rmtree(d)


@test
def lineage_report_judges_cfs_against_linux():
    md = lineage_report_of(LINEAGE_FIGS)
    for title in ("## Interactive", "## Nice", "### Ingo's", "### thud", "## cyclictest",
                  "## Fork storm and hackbench", "## Faithfulness"):
        assert title in md, title
    assert "Not measured (no figures in build/lineage): o1, staircase, sd, cfs61, eevdf." in md
    assert "| cfs (2.6.24) | nice 0 : 5, the nice-5 hog | 24.4 % | 24.5 % | yes |" in md, md
    # the hogs' part of the wake-up: 14 - 9 against 72 - 69 us
    assert "| cfs (2.6.24) | interactive wake-up p50, beside hogs minus alone, us | 5 | 3 | yes |" in md
    # 14 against 72 us: at most twice Linux's, lower being the kernel's path
    assert "| cfs (2.6.24) | interactive wake-up p50, us | 14 | 72 | yes, faster |" in md
    assert re.search(r"\| cfs \(2\.6\.24\) \| fiftyp_10ms: ahead \(hog 33\.4 % : 44\.8 %\) \| "
                     r"sleepers \| sleepers \| yes \|", md), md
    assert "| 21 / 6,955 | - / - |" in md and "| 609 |" in md


@test
def lineage_report_has_the_smp_row_from_the_smp_boots():
    smp = {"cfs": "smp_hog1_part 336 permille\nsmp_hog1_moves 29 moves\n"
                  "smp_hog2_part 330 permille\nsmp_hog2_moves 28 moves\n"
                  "smp_hog3_part 333 permille\nsmp_hog3_moves 29 moves\nsmp_spread 6 permille\n"}
    md = lineage_report_of(LINEAGE_FIGS, smp)
    assert "## SMP: 3 hogs on 2 CPUs" in md, md
    assert "| cfs (2.6.24) | 33.6 % / 33.0 % / 33.3 % | 0.6 % | 29 / 28 / 29 |" in md, md
    assert "| Linux 6.1 | - / - / - | - | - / - / - |" in md, md


@test
def lineage_report_has_the_picknext_row_from_the_simulator():
    d = tempfile.mkdtemp()
    try:
        with open(os.path.join(d, "eevdf.picknext.log"), "w") as f:
            f.write("# picknext: host ns\n" + "".join(
                f"picknext {n} runnable: {t} ns per yield (1.00x the first)\n"
                for n, t in ((1, 300), (10, 200), (100, 900), (1000, 6000), (4000, 40000))))
        md, svg = os.path.join(d, "l.md"), os.path.join(d, "l.svg")
        subprocess.run([sys.executable, os.path.join(hostlib.REPO, "tools", "bench",
                                                     "lineagereport.py"), "--dir", d, "--md", md,
                        "--svg", svg], check=True, capture_output=True)
        with open(md) as f:
            text = f.read()
    finally:
        shutil.rmtree(d)
    assert "## Pick-next" in text, text
    assert "| eevdf (6.6) | 300 | 200 | 900 | 6,000 | 40,000 | 200.0x |" in text, text


@test
def lineage_report_says_no_when_cfs_strays():
    figs = dict(LINEAGE_FIGS)
    figs["cfs"] = figs["cfs"].replace("nice5_share 244", "nice5_share 200").replace(
        "fiftyp_10ms_hog_share 334", "fiftyp_10ms_hog_share 480").replace(
        "interactive_p50 14 us", "interactive_p50 150 us")
    md = lineage_report_of(figs)
    assert "| cfs (2.6.24) | interactive wake-up p50, us | 150 | 72 | **no** |" in md, md
    assert "| cfs (2.6.24) | nice 0 : 5, the nice-5 hog | 20.0 % | 24.5 % | **no** |" in md, md
    assert re.search(r"fiftyp_10ms: ahead \(hog 48\.0 % : 44\.8 %\) \| fair \| sleepers \| "
                     r"\*\*no\*\* \|", md), md


if __name__ == "__main__":
    sys.exit(hostlib.run_tests_of(SB, TESTS))
