#!/usr/bin/env python3
"""tools/run-i386, the one helper that runs our i386 programs on the host
(docs/userland.md "On the host"): its three answers and its errors.

    python3 tests/host-tools/test_run_i386.py

One line per test, then "N passed, N failed". Standard library only; the
programs come from build/user/bin (make -s -f user/user.mk user first).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

RUN = hostlib.RUN_I386
BIN = os.path.join(hostlib.REPO, "build", "user", "bin")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(*args, env=None, stdin=""):
    e = dict(os.environ)
    e.pop("RUN_I386_MODE", None)        # probe afresh
    e.update(env or {})
    return subprocess.run([RUN, *args], capture_output=True, text=True,
                          input=stdin, env=e, timeout=60)


def mode(env=None):
    return run("--mode", env=env).stdout.strip()


@test
def mode_is_one_of_three_answers():
    m = mode()
    assert m in ("native", "qemu-i386") or m.startswith("skip: "), repr(m)
    assert "\n" not in m


@test
def a_program_runs_with_its_arguments_and_status():
    if mode().startswith("skip"):
        return
    p = run(os.path.join(BIN, "hello"))
    assert p.returncode == 0 and p.stdout.startswith("hello from pid"), p
    # sh, handed a script, runs a sibling by name and returns its status
    p = run(os.path.join(BIN, "sh"), "-c", "hello; grep -c x </dev/null; exit 3")
    assert p.stdout.startswith("hello from pid") and p.stdout.endswith("0\n"), p
    assert p.returncode == 3, p


@test
def without_qemu_a_host_that_cannot_execute_them_skips():
    if mode() == "native":
        return                      # the native answer needs no QEMU
    env = {"QEMU_I386": "/nonexistent/qemu-i386"}
    m = mode(env)
    assert m.startswith("skip: ") and "qemu-user" in m, repr(m)
    p = run(os.path.join(BIN, "hello"), env=env)
    assert p.returncode == 77 and p.stdout == "", p
    assert p.stderr.startswith("run-i386: ") and len(p.stderr.splitlines()) == 1, p


@test
def errors_are_one_line():
    p = run("/nonexistent/prog")
    assert p.returncode == 127 and p.stderr == "run-i386: /nonexistent/prog: no such file\n", p
    p = run("-h")
    assert p.returncode == 0 and "tools/run-i386 --mode" in p.stdout, p
    p = run()
    assert p.returncode == 2 and p.stderr.startswith("usage: tools/run-i386 "), p


if __name__ == "__main__":
    sys.exit(hostlib.run_tests_of(os.path.join(BIN, "hello"), TESTS))
