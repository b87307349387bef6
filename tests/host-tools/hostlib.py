"""hostlib.py - what the host-tool tests share: their runner, and the simulator.

run_tests(TESTS) runs each function, prints "ok - name" or "not ok - name:
why", then "N passed, N failed" (tests/run-all.sh adds it up), and returns
the exit status; run_tests_of(BINARY, TESTS) the same once the user program
BINARY is built. run_sim(ARGS...) runs build/sim/staircase-sim (building it
first if needed) and returns what it printed.
"""
import os
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run_tests(tests):
    passed = failed = 0
    for fn in tests:
        try:
            fn()
            print(f"ok - {fn.__name__}")
            passed += 1
        except Exception as e:      # an assertion, or a crash of the tool
            print(f"not ok - {fn.__name__}: {type(e).__name__}: {e}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def run_tests_of(binary, tests):
    """run_tests(tests), once binary (a built user program) is there."""
    if not os.access(binary, os.X_OK):
        print(f"not ok - no {binary}: make -s user first")
        print("0 passed, 1 failed")
        return 1
    return run_tests(tests)


def run_sim(*args):
    exe = os.path.join(REPO, "build", "sim", "staircase-sim")
    if not os.access(exe, os.X_OK):
        subprocess.run(["make", "--no-print-directory", "-C", os.path.join(REPO, "tools", "sim")],
                       check=True, capture_output=True)
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout
