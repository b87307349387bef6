"""The scheduler trace (docs/trace.md): record a run, read it back.

    trace_rr_1x2x1   2 CPUs; `trace run /bin/sched_rr` records the two
                     SCHED_RR hogs of sched_rr on CPU 0. The dump must
                     parse with tools/traceview.py (no malformed line, none
                     lost), show switches on both CPUs, and on CPU 0 the
                     RR rule itself (staircase.md §7.2): consecutive switches between
                     the hogs alternate, one quantum (10 ms) apart.

Virtual time (-icount), as the suite cases: the 10 ms is the guest's own
clock, whatever the host's load. The case also leaves the drawing of its
trace beside its log: build/test-logs/trace_rr_1x2x1.html.
"""
import os
import re
import sys

from harness import Case, REPO

sys.path.insert(0, os.path.join(REPO, "tools"))
import traceview  # noqa: E402

ICOUNT = ["-icount", "shift=2,sleep=off"]
QUANTUM_MS = 10         # RR at hz=1000 (docs/staircase.md §4)


def rr_trace_check(name):
    def check(log):
        warnings = []
        blocks = traceview.parse(log.splitlines(), name, warnings.append)
        if len(blocks) != 1:
            return False, f"want one trace block, found {len(blocks)}"
        if warnings:
            return False, "; ".join(warnings[:3])
        b = blocks[0]
        if b.lost:
            return False, f"{b.lost} events lost (ring too small for this run?)"
        switches = [e for e in b.events if e["ev"] == "switch"]
        cpus = sorted({e["cpu"] for e in switches})
        if cpus != [0, 1]:
            return False, f"switch events on cpus {cpus}, want [0, 1]"

        rr = [e for e in switches if e["cpu"] == 0 and e["policy"] == "rr"]
        if len(rr) < 80:
            return False, f"{len(rr)} switches to RR tasks on cpu0 in 1 s, want >= 80"
        repeats = sum(x["pid"] == y["pid"] for x, y in zip(rr, rr[1:]))
        gaps = sorted(y["t"] - x["t"] for x, y in zip(rr, rr[1:]))
        median_ms = gaps[len(gaps) // 2] / 1e6
        msg = (f"{len(rr)} RR switches on cpu0, {repeats} not alternating, "
               f"median turn {median_ms:.2f} ms (want {QUANTUM_MS})")
        if repeats > 2:
            return False, msg
        if abs(median_ms - QUANTUM_MS) > 0.5:
            return False, msg
        out = os.path.join(REPO, "build", "test-logs", name + ".html")
        with open(out, "w") as f:
            traceview.write_html(blocks, name, f)
        return True, msg
    return check


CASES = [
    Case("trace_rr_1x2x1", smp="2,sockets=1,cores=2,threads=1",
         append="tests=none run=/bin/trace:run:/bin/sched_rr then=exit",
         expect=[r"^init exited: status 0\b", r"^trace: begin \d+ events",
                 r"^ok 1 - rr_hogs_alternate_each_quantum\b"],
         expect_order=[r"^trace: begin ", r"^trace: end$",
                       r"^trace run: /bin/sched_rr exited with status 0$"],
         forbid=[r"^not ok "], check=rr_trace_check("trace_rr_1x2x1"),
         qemu_args=ICOUNT, timeout=120, tags=("trace",)),
]
