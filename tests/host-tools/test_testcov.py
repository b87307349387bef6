#!/usr/bin/env python3
"""tools/testcov.py, which chooses what moves to make test-all
(docs/testing.md, "The time budget"): its usage, its errors, and that
"only it" counts what no other case ran.

    python3 tests/host-tools/test_testcov.py

One line per test, then "N passed, N failed". Standard library only;
needs build/kernel.elf (its symbols name the functions).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

TOOL = os.path.join(hostlib.REPO, "tools", "testcov.py")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(*args, cov=None):
    env = dict(os.environ)
    if cov:
        env["TESTCOV_DIR"] = cov
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True,
                       env=env, timeout=60)
    return p.returncode, p.stdout + p.stderr


@test
def usage_without_a_command_exits_2():
    rc, out = run()
    assert rc == 2 and "testcov.py run" in out, (rc, out[:200])


@test
def help_exits_0():
    rc, out = run("-h")
    assert rc == 0 and "testcov.py report" in out, (rc, out[:200])


@test
def report_without_logs_says_so_and_exits_2():
    with tempfile.TemporaryDirectory() as d:
        rc, out = run("report", cov=d)
    assert rc == 2 and "no logs" in out, (rc, out)


@test
def report_of_an_unknown_case_exits_2():
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "a.log"), "w").write("0xc0101000:  nop\n")
        rc, out = run("report", "nosuch", cov=d)
    assert rc == 2 and "no log for nosuch" in out, (rc, out)


@test
def only_it_counts_what_no_other_case_ran():
    # QEMU's in_asm lines: "0xADDR:  instruction"; a runs two, b one of them
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "a.log"), "w") as f:
            f.write("IN: kernel_start\n0xc0101000:  nop\n0xc0101001:  nop\n")
        with open(os.path.join(d, "b.log"), "w") as f:
            f.write("IN: kernel_start\n0xc0101001:  nop\n")
        rc, out = run("report", cov=d)
    rows = {l.split()[0]: l.split() for l in out.splitlines()[2:] if l.strip()}
    assert rc == 0 and "2 cases, 2 kernel instructions" in out, (rc, out)
    assert rows["a"][2:4] == ["2", "1"] and rows["b"][2:4] == ["1", "0"], out
    assert len(rows["a"]) == 6 and rows["a"][5] == "1", out   # one function, one instruction


@test
def together_counts_what_only_the_set_runs():
    with tempfile.TemporaryDirectory() as d:
        for name, addrs in (("a", "1000 1001"), ("b", "1001 1002"), ("c", "1000")):
            with open(os.path.join(d, name + ".log"), "w") as f:
                f.write("".join(f"0xc010{a}:  nop\n" for a in addrs.split()))
        rc, out = run("together", "a", "b", cov=d)
        rc2, out2 = run("together", "a", "nosuch", cov=d)
    assert rc == 0 and out.startswith("2 kernel instructions only 2 cases"), (rc, out)
    assert rc2 == 2 and "nosuch" in out2, (rc2, out2)


def main():
    passed = failed = 0
    if not os.path.exists(os.path.join(hostlib.REPO, "build", "kernel.elf")):
        print("skip - no build/kernel.elf (make build first)")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    for fn in TESTS:
        try:
            fn()
            print(f"ok - {fn.__name__}")
            passed += 1
        except AssertionError as e:
            print(f"not ok - {fn.__name__} # {str(e)[:300]}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
