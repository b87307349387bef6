#!/usr/bin/env python3
"""QEMU test harness: boot the kernel once per case and judge its serial log.

A case (class Case below) names a QEMU machine (topology, CPU model, memory,
kernel command line) and what its serial output must and must not contain.
Case groups are modules in tests/cases/, each exporting CASES = [Case(...)].

    python3 tests/harness.py [--kernel K] [--initrd I] [--iso ISO] [-j N]
                             [--tag T] [--exclude-tag T] [--sched NAME]
                             [--list] [glob ...]

--sched NAME boots every case under that scheduler of lineage mode
(sched=NAME appended; docs/lineage.md); cases tagged "staircase" (its
rules) and ISO cases (GRUB's command line) are skipped with the reason.

One line per case, then "N passed, N failed" (", N skipped" when some were
skipped); the exit status is non-zero when any case failed. Serial logs go to
build/test-logs/<case>.log. Python 3 standard library only.

How a run ends, and what is judged (see docs/testing.md):
  * QEMU exits by itself: the kernel powered off through isa-debug-exit, so
    the exit code is (status << 1) | 1; a case expects exit_code=1 (init, or
    the boot with then=poweroff, ended with status 0) unless it says otherwise.
  * The case's `until` regex appeared (e.g. after a panic, which halts):
    the harness waits until the log has been quiet for `settle` seconds, then
    stops QEMU; the exit code is not judged then (use exit_code=None).
  * The timeout passed: the case fails with "timeout after Ns".
"""

import argparse
import concurrent.futures
import fnmatch
import importlib.util
import os
import shlex
import re
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":
    # Case modules do "from harness import Case": give them this module, not
    # a second copy of it (whose Case and CaseError would be other classes).
    sys.modules.setdefault("harness", sys.modules[__name__])
CASES_DIR = os.path.join(REPO, "tests", "cases")

# isa-debug-exit turns "kernel wrote N to port 0xf4" into QEMU exit (N<<1)|1.
DEBUG_EXIT = "isa-debug-exit,iobase=0xf4,iosize=0x04"
PANIC = r"panic:"
# GRUB (ISO cases) draws its menu with ANSI escapes on the serial line.
ANSI_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
TAIL_LINES = 30

# "N,sockets=S,cores=C,threads=T": since QEMU 6.2 a bare "-smp N" means N
# cores of one socket, so every case spells the whole topology out.
SMP_KEYS = ("sockets", "cores", "threads")


class CaseError(ValueError):
    """A case that is written wrongly (not a test failure)."""


def parse_smp(spec):
    """Return (cpus, sockets, cores, threads) from a full -smp spec."""
    parts = str(spec).split(",")
    if not parts[0].isdigit():
        raise CaseError(f"smp {spec!r}: must start with the CPU count")
    fields = {}
    for part in parts[1:]:
        key, _, value = part.partition("=")
        if key not in SMP_KEYS or not value.isdigit() or key in fields:
            raise CaseError(f"smp {spec!r}: bad or repeated field {part!r}")
        fields[key] = int(value)
    if set(fields) != set(SMP_KEYS):
        raise CaseError(f"smp {spec!r}: give it in full, "
                        "N,sockets=S,cores=C,threads=T")
    cpus = int(parts[0])
    s, c, t = (fields[k] for k in SMP_KEYS)
    if cpus != s * c * t or cpus == 0:
        raise CaseError(f"smp {spec!r}: {cpus} != {s} x {c} x {t}")
    return cpus, s, c, t


class Case:
    """One QEMU boot and what its serial log must show.

    name          unique; also the log file name (build/test-logs/NAME.log)
    smp           full topology "N,sockets=S,cores=C,threads=T"
    cpu           -cpu model ("qemu32", "max", "qemu64,+topoext"); None: QEMU's
    memory        -m value, default "128M"
    append        kernel command line (-append); not allowed with iso=True
    iso           boot the GRUB ISO (-cdrom) instead of -kernel/-initrd
    accel         "tcg" (default) or "kvm" (skipped without hardware KVM)
    timeout       seconds before QEMU is killed and the case fails
    expect        regexes that must all appear, in any order
    expect_order  regexes that must appear in this order
    forbid        regexes that must not appear; "panic:" always is, unless
    expect_panic  True: then "panic:" must appear instead
    exit_code     QEMU's expected exit status; default 1 (status 0 through
                  isa-debug-exit); None: not judged
    until         regex that ends the run (QEMU is stopped once the log has
                  been quiet for `settle` seconds after it); expect_panic
                  cases default to until="panic:" and exit_code=None
    settle        seconds of quiet after `until`, default 1.0
    send          [(regex, bytes), ...]: write bytes to the serial port once
                  regex appears (each after the previous one's match)
    check         callable(log_text) -> (ok, message) for numeric checks
    tags          e.g. ("quick",), selected with --tag / --exclude-tag
    retry         run again once on failure (measurement cases)
    exclusive     run alone, after the parallel cases (measurement cases)
    qemu_args     extra QEMU arguments, a list
    modules       more multiboot modules after the initrd, paths from the
                  repository root (an ELF one becomes /bin/<its name>:
                  build/busybox/busybox, which make BUSYBOX=1 fetches); the
                  case is skipped when one is missing
    prepare       callable() -> None, or the reason to skip the case: run
                  before the boot (builds what the case needs, e.g. Debian's
                  packages into a module; skips when they cannot be had)
    """

    _DEFAULT = object()

    def __init__(self, name, smp="1,sockets=1,cores=1,threads=1", cpu=None,
                 memory="128M", append="", iso=False, accel="tcg",
                 timeout=30, expect=(), expect_order=(), forbid=(),
                 expect_panic=False, exit_code=_DEFAULT, until=None,
                 settle=1.0, send=(), check=None, tags=(), retry=False,
                 exclusive=False, qemu_args=(), modules=(), prepare=None):
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", name or ""):
            raise CaseError(f"case name {name!r}: use letters, digits, _.+-")
        self.name = name
        self.smp = smp
        self.cpus, self.sockets, self.cores, self.threads = parse_smp(smp)
        self.cpu = cpu
        self.memory = memory
        if iso and append:
            raise CaseError(f"{name}: iso=True takes its command line from "
                            "the GRUB menu; append can't be set")
        self.append = append
        self.iso = iso
        if accel not in ("tcg", "kvm"):
            raise CaseError(f"{name}: accel must be 'tcg' or 'kvm'")
        self.accel = accel
        self.timeout = timeout
        lists = dict(expect=expect, expect_order=expect_order, forbid=forbid,
                     tags=tags, send=send, qemu_args=qemu_args)
        for field, value in lists.items():
            if isinstance(value, (str, bytes)):
                raise CaseError(f"{name}: {field} must be a list, not a string")
        self.expect = list(expect)
        self.expect_order = list(expect_order)
        self.forbid = list(forbid)
        self.expect_panic = expect_panic
        if expect_panic:
            self.expect.append(PANIC)
        else:
            self.forbid.append(PANIC)
        if exit_code is Case._DEFAULT:
            exit_code = None if expect_panic else 1
        self.exit_code = exit_code
        if until is None and expect_panic:
            until = PANIC
        self.until = until
        self.settle = settle
        # (trigger, data) or (trigger, data, delay_s): data goes out delay_s
        # after the trigger appears (a key for a program that prints nothing
        # when it starts, say).
        self.send = [(re.compile(s[0], re.M), s[1], s[2] if len(s) > 2 else 0.0)
                     for s in send]
        for _, data, _ in self.send:
            if not isinstance(data, bytes):
                raise CaseError(f"{name}: send data must be bytes")
        self.check = check
        self.tags = set(tags)
        self.retry = retry
        self.exclusive = exclusive
        self.qemu_args = list(qemu_args)
        self.modules = [os.path.join(REPO, m) for m in modules]
        self.prepare = prepare
        for rx in self.expect + self.expect_order + self.forbid + [until or ""]:
            try:
                re.compile(rx)
            except re.error as e:
                raise CaseError(f"{name}: bad regex {rx!r}: {e}") from None

    def describe(self):
        bits = [f"smp {self.smp}"]
        if self.cpu:
            bits.append(f"cpu {self.cpu}")
        bits.append(f"mem {self.memory}")
        if self.accel != "tcg":
            bits.append(f"accel {self.accel}")
        bits.append("iso" if self.iso else f'append "{self.append}"')
        return ", ".join(bits)


def hardware_kvm():
    """Why KVM can't be used here, or None when it can.

    /dev/kvm alone is not enough: on kvm_pvm hosts it exists but can't run a
    guest with 32-bit paging (see docs/hardware-notes.md §7).
    """
    if not any(os.path.isdir(f"/sys/module/{m}")
               for m in ("kvm_intel", "kvm_amd")):
        return "needs hardware KVM (no kvm_intel/kvm_amd module loaded)"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "needs hardware KVM (/dev/kvm not accessible)"
    return None


# pytest's files beside the case modules (tests/cases/conftest.py and
# test_cases.py run these cases under pytest): not case modules themselves.
PYTEST_FILES = ("conftest.py",)


def load_cases(cases_dir=CASES_DIR):
    """Import every tests/cases/*.py module and collect its CASES."""
    cases, seen = [], {}
    for fname in sorted(os.listdir(cases_dir)):
        if not fname.endswith(".py") or fname.startswith("_") or \
                fname in PYTEST_FILES or fname.startswith("test_"):
            continue
        path = os.path.join(cases_dir, fname)
        spec = importlib.util.spec_from_file_location(
            f"cases_{fname[:-3]}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for case in getattr(module, "CASES", []):
            if case.name in seen:
                raise CaseError(f"case {case.name} defined in both "
                                f"{seen[case.name]} and {fname}")
            seen[case.name] = fname
            case.group = fname[:-3]
            cases.append(case)
    return cases


def qemu_command(case, args):
    cmd = [args.qemu, "-display", "none", "-monitor", "none",
           "-serial", "stdio", "-no-reboot", "-device", DEBUG_EXIT,
           "-accel", case.accel, "-smp", case.smp, "-m", case.memory]
    if case.cpu:
        cmd += ["-cpu", case.cpu]
    if case.iso:
        cmd += ["-cdrom", args.iso, "-boot", "d"]
    else:
        cmd += ["-kernel", args.kernel]
        if args.initrd:
            cmd += ["-initrd", ",".join([args.initrd] + case.modules)]
        cmd += ["-append", case.append]
    # QEMU_EXTRA: more QEMU options for every case, {case} its name (the
    # coverage of tools/testcov.py: -d in_asm -D build/cov/{case}.log).
    extra = [a.replace("{case}", case.name) for a in shlex.split(os.environ.get("QEMU_EXTRA", ""))]
    return cmd + case.qemu_args + extra


class Run:
    """One QEMU process: its serial output, what was sent, how it ended."""

    def __init__(self, case, args, log_path):
        self.case = case
        self.cmd = qemu_command(case, args)
        self.log_path = log_path
        self.lock = threading.Lock()
        self.raw = bytearray()
        self.last_output = time.monotonic()
        self.sends_done = 0
        self.send_from = 0          # search for the next trigger from here
        self.stop_on = None         # the `until` or forbid regex that matched
        self.exit_code = None       # QEMU's own exit status, if it exited
        self.stopped = None         # "timeout" or "until" when we killed it
        self.stderr = b""
        self.elapsed = 0.0
        self.note = ""              # what a passing check said

    def text(self):
        with self.lock:
            data = ANSI_ESCAPE.sub(b"", bytes(self.raw))
        return data.decode("utf-8", "replace").replace("\r\n", "\n") \
                   .replace("\r", "\n")

    def _reader(self, proc, log):
        while True:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                return
            log.write(chunk)
            log.flush()
            with self.lock:
                self.raw += chunk
                self.last_output = time.monotonic()
            self._react(proc)

    def _react(self, proc):
        """Send input whose trigger appeared; notice `until` and forbid.

        A forbidden line ends the run like `until` does: no point waiting
        for the timeout after an unexpected panic or a GRUB error.
        """
        case = self.case
        text = self.text()
        while self.sends_done < len(case.send):
            rx, data, delay = case.send[self.sends_done]
            m = rx.search(text, self.send_from)
            if not m:
                break
            if delay:
                time.sleep(delay)
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
            except OSError:
                return
            self.send_from = m.end()
            self.sends_done += 1
        if self.stop_on is None:
            enders = ([case.until] if case.until else []) + case.forbid
            for rx in enders:
                if re.search(rx, text, re.M):
                    self.stop_on = rx
                    break

    def run(self):
        start = time.monotonic()
        with open(self.log_path, "wb") as log, \
                open(self.log_path + ".stderr", "wb") as errf:
            proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=errf,
                                    cwd=REPO)
            reader = threading.Thread(target=self._reader, args=(proc, log),
                                      daemon=True)
            reader.start()
            deadline = start + self.case.timeout
            while proc.poll() is None:
                now = time.monotonic()
                if now >= deadline:
                    self.stopped = "timeout"
                elif self.stop_on is not None and \
                        now - self.last_output >= self.case.settle:
                    self.stopped = "until"
                if self.stopped:
                    proc.kill()
                    proc.wait()
                    break
                time.sleep(0.05)
            else:
                self.exit_code = proc.returncode
            reader.join(timeout=5)
            try:
                proc.stdin.close()
            except OSError:
                pass
        self.elapsed = time.monotonic() - start
        with open(self.log_path + ".stderr", "rb") as errf:
            self.stderr = errf.read()
        if not self.stderr:
            os.unlink(self.log_path + ".stderr")


def judge(case, run):
    """Return the list of reasons the run failed (empty: it passed)."""
    text = run.text()
    problems = []
    if run.stopped == "timeout":
        problems.append(f"timeout after {case.timeout}s")
    for rx in case.expect:
        if not re.search(rx, text, re.M):
            problems.append(f"missing /{rx}/")
    pos = 0
    for rx in case.expect_order:
        m = re.compile(rx, re.M).search(text, pos)
        if not m:
            where = "at all" if not re.search(rx, text, re.M) else "in order"
            problems.append(f"missing /{rx}/ {where}")
            break
        pos = m.end()
    for rx in case.forbid:
        m = re.search(rx, text, re.M)
        if m:
            line = text[text.rfind("\n", 0, m.start()) + 1:].split("\n")[0]
            problems.append(f"forbidden /{rx}/: {line.strip()!r}")
    if run.sends_done < len(case.send):
        rx = case.send[run.sends_done][0].pattern
        problems.append(f"never sent input #{run.sends_done + 1} "
                        f"(/{rx}/ did not appear)")
    # A timeout or a forbidden line that stopped QEMU is reported above.
    if case.exit_code is not None:
        if run.stopped is None and run.exit_code != case.exit_code:
            problems.append(f"exit code {run.exit_code}, expected "
                            f"{case.exit_code}{describe_exit(case.exit_code)}")
        elif run.stopped == "until" and run.stop_on == case.until:
            problems.append(f"QEMU still running after /{case.until}/; "
                            f"expected exit code {case.exit_code}")
    if case.check and not problems:
        try:
            result = case.check(text)
            ok, message = result if isinstance(result, tuple) \
                else (bool(result), "")
        except Exception as e:  # a check that crashes is a failed check
            ok, message = False, f"check raised {type(e).__name__}: {e}"
        if not ok:
            problems.append(f"check: {message}")
        else:
            run.note = message or ""
    return problems


def describe_exit(code):
    if code is not None and code & 1:
        return f" (kernel status {code >> 1})"
    return ""


def tail(path, n=TAIL_LINES):
    try:
        with open(path, "rb") as f:
            data = ANSI_ESCAPE.sub(b"", f.read())
            lines = data.decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    return lines[-n:]


class Result:
    def __init__(self, case, status, detail="", elapsed=0.0, log=None,
                 stderr=b"", attempts=()):
        self.case = case
        self.status = status            # "PASS", "FAIL", "SKIP"
        self.detail = detail
        self.elapsed = elapsed
        self.log = log
        self.stderr = stderr
        self.attempts = attempts


def run_case(case, args):
    if getattr(case, "lineage_skip", None):
        return Result(case, "SKIP", case.lineage_skip)
    if case.accel == "kvm":
        why = hardware_kvm()
        if why:
            return Result(case, "SKIP", why)
    if case.prepare:
        why = case.prepare()
        if why:
            return Result(case, "SKIP", why)
    missing = [m for m in case.modules if not os.path.isfile(m)]
    if missing:
        rel = os.path.relpath(missing[0], REPO)
        return Result(case, "SKIP", f"no {rel} (make {rel} fetches it: "
                      "Debian's packages, not downloadable here?)")
    log = os.path.join(args.log_dir, case.name + ".log")
    attempts = []
    tries = 2 if case.retry else 1
    for attempt in range(1, tries + 1):
        run = Run(case, args, log)
        run.run()
        problems = judge(case, run)
        attempts.append(problems)
        if not problems:
            break
        if attempt < tries:
            # keep the first attempt's log beside the second's
            os.replace(log, os.path.join(args.log_dir,
                                         f"{case.name}.try{attempt}.log"))
    detail = "; ".join(attempts[-1])
    if len(attempts) > 1:
        first = "; ".join(attempts[0])
        if attempts[-1]:
            detail = f"attempt 1: {first} | attempt 2: {detail}"
        else:
            detail = f"passed on attempt 2 (attempt 1: {first})"
    status = "FAIL" if attempts[-1] else "PASS"
    if status == "PASS" and run.note:
        detail = f"{detail}; {run.note}" if detail else run.note
    return Result(case, status, detail, run.elapsed, log, run.stderr,
                  attempts)


def report(result, out=sys.stdout):
    case = result.case
    line = f"{result.status} {case.name}"
    if result.status != "SKIP":
        line += f" ({result.elapsed:.1f}s)"
    if result.detail:
        line += f": {result.detail}"
    print(line, file=out)
    if result.status == "FAIL":
        log = os.path.relpath(result.log)
        if log.startswith(".."):
            log = os.path.abspath(result.log)
        print(f"    log: {log}", file=out)
        for text in tail(result.log):
            if len(text) > 160:
                text = text[:160] + "..."
            print(f"    | {text}", file=out)
        if result.stderr:
            print("    qemu stderr:", file=out)
            for text in result.stderr.decode("utf-8", "replace") \
                    .splitlines()[-10:]:
                print(f"    ! {text}", file=out)
    out.flush()


def select(cases, args):
    chosen = []
    for case in cases:
        if args.names and not any(fnmatch.fnmatchcase(case.name, g)
                                  for g in args.names):
            continue
        if args.tag and not case.tags & set(args.tag):
            continue
        if args.exclude_tag and case.tags & set(args.exclude_tag):
            continue
        chosen.append(case)
    if args.sched:
        boot_under(chosen, args.sched)
    return chosen


def boot_under(cases, sched):
    """Make every case boot with sched=NAME (lineage mode), or skip it."""
    for case in cases:
        if "staircase" in case.tags:
            case.lineage_skip = f"staircase rule, this run boots sched={sched}"
        elif case.iso:
            case.lineage_skip = "GRUB's menu sets the command line, not sched="
        else:
            case.append = f"sched={sched} {case.append}".strip()


def clear_logs(case, log_dir):
    """Remove a case's logs of an earlier run: stale logs would mislead."""
    for suffix in (".log", ".log.stderr", ".try1.log"):
        try:
            os.unlink(os.path.join(log_dir, case.name + suffix))
        except FileNotFoundError:
            pass


def missing_input(cases, args):
    """Why the cases cannot boot (a kernel, initrd or ISO not built), or None."""
    needed = []
    if any(not c.iso for c in cases):
        needed += [("kernel", args.kernel, "--kernel")]
        if args.initrd:
            needed += [("initrd", args.initrd, "--initrd")]
    if any(c.iso for c in cases):
        needed += [("ISO", args.iso, "--iso")]
    for what, path, flag in needed:
        if not os.path.isfile(path):
            return (f"{what} {path} not found: build it first "
                    f"(make) or pass {flag}")
    return None


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Boot the kernel in QEMU once per test case.")
    build = os.path.relpath(os.path.join(REPO, "build"))
    p.add_argument("--kernel", default=os.path.join(build, "kernel.elf"))
    p.add_argument("--initrd", default=os.path.join(build, "initrd.tar"),
                   help="'' for none")
    p.add_argument("--iso", default=os.path.join(build, "staircase.iso"))
    p.add_argument("--qemu", default="qemu-system-i386")
    p.add_argument("--log-dir", default=os.path.join(build, "test-logs"))
    p.add_argument("--cases", default=CASES_DIR,
                   help="directory of case modules (default tests/cases)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--tag", action="append", default=[],
                   help="run only cases with this tag (repeatable: any)")
    p.add_argument("--exclude-tag", action="append", default=[],
                   help="skip cases with this tag (repeatable)")
    p.add_argument("--sched", metavar="NAME",
                   help="boot every case with sched=NAME (lineage mode); "
                        "cases tagged staircase are skipped")
    p.add_argument("--list", action="store_true",
                   help="list the selected cases and exit")
    p.add_argument("names", nargs="*", metavar="glob",
                   help="case name patterns (fnmatch), default all")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    try:
        cases = select(load_cases(args.cases), args)
    except CaseError as e:
        print(f"harness: bad case: {e}", file=sys.stderr)
        return 2
    if not cases:
        print("harness: no case matches the selection", file=sys.stderr)
        return 2
    if args.list:
        for case in cases:
            tags = ",".join(sorted(case.tags)) or "-"
            print(f"{case.name:24} [{tags}] {case.describe()}")
        return 0

    why = missing_input(cases, args)
    if why:
        print(f"harness: {why}", file=sys.stderr)
        return 2
    # QEMU runs with cwd=REPO; make the paths the user gave independent of it.
    args.kernel, args.iso = map(os.path.abspath, (args.kernel, args.iso))
    if args.initrd:
        args.initrd = os.path.abspath(args.initrd)
    os.makedirs(args.log_dir, exist_ok=True)
    for case in cases:
        clear_logs(case, args.log_dir)

    results = []
    parallel = [c for c in cases if not c.exclusive]
    exclusive = [c for c in cases if c.exclusive]
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(run_case, c, args) for c in parallel]
        for fut in concurrent.futures.as_completed(futures):
            results.append(fut.result())
            report(results[-1])
    for case in exclusive:
        results.append(run_case(case, args))
        report(results[-1])

    counts = {s: sum(r.status == s for r in results)
              for s in ("PASS", "FAIL", "SKIP")}
    summary = f"{counts['PASS']} passed, {counts['FAIL']} failed"
    if counts["SKIP"]:
        summary += f", {counts['SKIP']} skipped"
    print(summary)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
