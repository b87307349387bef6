#!/usr/bin/env python3
"""report.py - bench/results/ltp.md from make ltp's results (tools/ltp/run.sh).

    tools/ltp/report.py OUT_DIR RESULT_MD

OUT_DIR holds ours.results and linux.results (a line per test: SUITE NAME
RESULT DETAIL), tests.list and seconds. The reason for each difference
comes from tools/ltp/reasons.txt ("NAME [NAME...]: reason" lines; '#'
comments); a difference with none is marked "(not yet explained)". The expected
differences (EXPECTED below) are the ones the done-when allows: the ISO
rule and the policies 5 and 6 this kernel refuses.
"""
import os
import sys

COLUMNS = ["pass", "fail", "brok", "warn", "conf", "timeout", "other"]
CLASS = {"PASS": "pass", "FAIL": "fail", "BROK": "brok", "UNRESOLVED": "brok",
         "WARN": "warn", "CONF": "conf", "UNSUPPORTED": "conf",
         "UNTESTED": "conf", "TIMEOUT": "timeout"}
EXPECTED = {"sched_setscheduler02", "sched_setparam_23-6",
            "sched_get_priority_max01", "sched_get_priority_min01",
            "sched_setscheduler03", "sched_setattr01", "sched_getattr01"}
SUITES = {"syscalls": "LTP syscalls", "posix": "Open POSIX interfaces"}


def results(path):
    out = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3:
                out[(w[0], w[1])] = (w[2], " ".join(w[3:]))
    return out


def reasons(path):
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#") and ":" in line:
                    names, why = line.split(":", 1)
                    for name in names.split():
                        out[name] = why.strip()
    return out


def summary(tests, res, suite):
    counts = dict.fromkeys(COLUMNS, 0)
    for s, n in tests:
        if s == suite:
            counts[CLASS.get(res.get((s, n), ("LOST", ""))[0], "other")] += 1
    return counts


def cell(text):
    """Text for a table cell: a '|' in it would end the cell."""
    return text.replace("|", "\\|")


def ms(detail):
    for w in detail.split():
        if w.startswith("ms="):
            return "%.1f" % (int(w[3:]) / 1000)
    return ""


def main():
    out_dir, md = sys.argv[1], sys.argv[2]
    ours = results(os.path.join(out_dir, "ours.results"))
    linux = results(os.path.join(out_dir, "linux.results"))
    why = reasons(os.path.join(os.path.dirname(__file__), "reasons.txt"))
    tests = []
    with open(os.path.join(out_dir, "tests.list")) as f:
        for line in f:
            w = line.split()
            tests.append((w[0], w[1]))
    version = open("build/ltp/version").read().strip()
    seconds = open(os.path.join(out_dir, "seconds")).read().strip()
    try:
        linux_version = open("build/linux/version").read().strip()
    except OSError:
        linux_version = "6.1"
    lines = ["# LTP: our kernel beside Linux 6.1", "",
             "Written by `make ltp` (tools/ltp/; docs/testing.md, \"make ltp\"): "
             "LTP %s, static i386 glibc binaries, run by tools/ltp/ltprun.c "
             "as root in QEMU TCG (-smp 2 -m 512M) on our kernel and on "
             "Debian's Linux %s (linux-image-686), one kernel after the other; "
             "the whole run took %s s. "
             "Result classes: LTP's TPASS/TFAIL/TBROK/TWARN/TCONF exit bits; "
             "Open POSIX's UNRESOLVED counts as brok, UNSUPPORTED and "
             "UNTESTED as conf; other = killed by a signal or lost." % (version, linux_version,
                                                                       seconds),
             "", "## Summary", "",
             "| suite | kernel | " + " | ".join(COLUMNS) + " | total |",
             "|---|---|" + "---|" * (len(COLUMNS) + 1)]
    for suite, title in SUITES.items():
        for name, res in (("Linux 6.1", linux), ("ours", ours)):
            c = summary(tests, res, suite)
            lines.append("| %s | %s | %s | %d |" % (
                title, name, " | ".join(str(c[k]) for k in COLUMNS), sum(c.values())))
    diff = [(s, n) for s, n in tests
            if linux.get((s, n), ("LOST",))[0] != ours.get((s, n), ("LOST",))[0]]
    missing = [(s, n) for s, n in tests
               if linux.get((s, n), ("",))[0] == "PASS"
               and ours.get((s, n), ("",))[0] != "PASS" and n not in EXPECTED]
    lines += ["", "## Differences (%d)" % len(diff), "",
              "Tests that pass on Linux 6.1 and not here, beyond the seven "
              "expected ones (the ISO rule: sched_setscheduler02, "
              "sched_setparam_23-6; policies 5 and 6: "
              "sched_get_priority_max01/min01, sched_setscheduler03, "
              "sched_setattr01, sched_getattr01): %s." %
              (", ".join(n for s, n in missing) if missing else "none"), "",
              "| suite | test | Linux 6.1 | ours | why |", "|---|---|---|---|---|"]
    for s, n in diff:
        lines.append("| %s | %s | %s | %s | %s |" % (
            s, n, linux.get((s, n), ("LOST",))[0], ours.get((s, n), ("LOST",))[0],
            cell(why.get(n, "(not yet explained)"))))
    lines += ["", "## Every test", "",
              "Seconds are wall-clock in the guest, under TCG.", "",
              "| suite | test | Linux 6.1 | s | ours | s | note |",
              "|---|---|---|---|---|---|---|"]
    for s, n in tests:
        lr, ld = linux.get((s, n), ("LOST", ""))
        orr, od = ours.get((s, n), ("LOST", ""))
        note = why.get(n, "") if (lr != orr or lr != "PASS") else ""
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            s, n, lr, ms(ld), orr, ms(od), cell(note)))
    with open(md, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("ltp: %s written: %d tests, %d differ, %d pass on Linux only "
          "(beyond the expected)" % (md, len(tests), len(diff), len(missing)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
