#!/usr/bin/env python3
"""make stress: the cases of tests/stress/ through the QEMU harness.

    STRESS_S=60 STRESS_SEED=N python3 tests/stress.py [harness options] [glob ...]

The harness (tests/harness.py) boots each case of tests/stress/cases.py one
at a time (-j 1 unless told otherwise: the smp cases have 8 and 4 vCPUs of
busy tasks each) and prints its usual lines, ending with "N passed, N
failed". What this adds: the seeds. STRESS_SEED (default: taken from the
clock) is printed first, and below every FAIL line the case's own seed and
the two ways to run it again: `make stress` with the same STRESS_S and
STRESS_SEED for that case, or one boot of `make run` with the same
command line.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    os.environ.setdefault("STRESS_S", "60")
    if not os.environ.get("STRESS_SEED"):
        os.environ["STRESS_SEED"] = str(int(time.time() * 1000) % 1000000000)
    secs, seed = os.environ["STRESS_S"], os.environ["STRESS_SEED"]
    if not secs.isdigit() or int(secs) < 1 or not seed.isdigit():
        print(f"stress: STRESS_S={secs!r} and STRESS_SEED={seed!r} must be "
              "whole numbers (STRESS_S >= 1)", file=sys.stderr)
        return 2
    sys.path.insert(0, HERE)
    import harness                  # the case module imports it by this name

    plain_report = harness.report

    def report(result, out=sys.stdout):
        plain_report(result, out)
        case = result.case
        if result.status == "FAIL" and getattr(case, "seed", None) is not None:
            print(f"    seed {case.seed}; again: make stress STRESS_S={secs} "
                  f"STRESS_SEED={seed} STRESS_CASES={case.name}", file=out)
            print(f"    or one boot: {case.again}", file=out)
            out.flush()

    harness.report = report
    args = ["--cases", os.path.join(HERE, "stress")]
    if not any(a == "-j" or a.startswith("--jobs") or
               (a.startswith("-j") and a[2:].isdigit()) for a in argv):
        args += ["-j", "1"]
    print(f"stress: STRESS_S={secs} STRESS_SEED={seed}", flush=True)
    return harness.main(args + argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
