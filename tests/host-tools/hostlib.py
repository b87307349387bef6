"""hostlib.py - what the host-tool tests share: their runner, how our i386
programs run on the host, and the simulator.

run_tests(TESTS) runs each function, prints "ok - name" or "not ok - name:
why", then "N passed, N failed" (tests/run-all.sh adds it up), and returns
the exit status; run_tests_of(BINARY, TESTS) the same once the user program
BINARY is built and the host can run it: it prints how (tools/run-i386
--mode: "native" or "qemu-i386"), or reports every test as skipped with the
one-line reason when the host cannot ("skip: ..."). host_cmd(BINARY)
is the command line that runs BINARY on the host (tools/run-i386 decides;
no test runs an i386 file any other way). run_sim(ARGS...) runs
build/sim/staircase-sim (building it first if needed) and returns what it
printed.
"""
import os
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUN_I386 = os.path.join(REPO, "tools", "run-i386")


def host_mode():
    """How our i386 programs run here: "native", "qemu-i386" or "skip: why".
    Asked once; the answer is handed to every later tools/run-i386."""
    if "RUN_I386_MODE" not in os.environ:
        os.environ["RUN_I386_MODE"] = subprocess.run(
            [RUN_I386, "--mode"], capture_output=True, text=True).stdout.strip()
    return os.environ["RUN_I386_MODE"]


def host_cmd(binary):
    """The argument list that runs the i386 program `binary` on this host."""
    return [RUN_I386, binary]


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
    """run_tests(tests), once binary (a built user program) is there and
    the host can run it; every test skipped, with the reason, if not."""
    if not os.access(binary, os.X_OK):
        print(f"not ok - no {binary}: make -s user first")
        print("0 passed, 1 failed")
        return 1
    mode = host_mode()
    if mode.startswith("skip"):
        for fn in tests:
            print(f"ok - {fn.__name__} # SKIP {mode[len('skip: '):]}")
        print(f"0 passed, 0 failed, {len(tests)} skipped")
        return 0
    print(f"# i386 programs run on this host: {mode} (tools/run-i386)")
    return run_tests(tests)


def run_sim(*args):
    exe = os.path.join(REPO, "build", "sim", "staircase-sim")
    if not os.access(exe, os.X_OK):
        subprocess.run(["make", "--no-print-directory", "-C", os.path.join(REPO, "tools", "sim")],
                       check=True, capture_output=True)
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout
