#!/usr/bin/env python3
"""mutate.py - mutation check of sched/ against the host unit tests.

Called by tools/mutate/run.sh (`make mutate`). For each mutant of
tools/mutate/mutants.txt (a one-line change of a sched/*.c or *.h file), a copy of
sched/ and tests/unit/ under build/mutate/m/NAME is mutated, the unit tests
are built there with the compiler and flags of tests/unit/Makefile (read
from it; the unmutated objects are compiled once, then only the mutated
file is recompiled) and run with a timeout. A mutant is *killed* when a
test fails (a failed KASSERT included), the binary crashes or hangs, or a
sanitizer reports a runtime error; otherwise it *survived*. Mutants listed in tools/mutate/equivalent.txt (no observable
change possible) are run too, but are reported as `equivalent`, not as
survivors. The real sched/ is never modified.

The exercise mutants of tools/mutate/exercises.txt are the changes the
docs ask a student to make (docs/exercises.md, docs/labs/, docs/scheduler.md,
docs/testing.md) where they say a test catches it. Each names that test
(or tests), and is killed only when every test it names fails; killed by
other tests alone, it is *missed*: the docs no longer tell the truth.

Output: one line per mutant, then `N killed, N survived` (`, N missed`,
`, N errors` when some mutant did not apply or did not compile). Exit
status 0 when every mutant was killed or is listed as equivalent, 1
otherwise, 2 when the check could not run (bad list, the unmutated copy
fails).

  tools/mutate/run.sh                 all mutants, two at a time
  tools/mutate/run.sh 'smt_*' core_x  only these (shell-style patterns)
  tools/mutate/run.sh --exercises     only the exercise mutants
  tools/mutate/run.sh --check         only check that every mutant applies
                                      (and that each named test exists)
  tools/mutate/run.sh -j 1 --timeout 30 --keep
"""
import argparse
import fnmatch
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "build", "mutate")
SEP = " | "
CONTEXT_SEP = " @@ "


class ListError(Exception):
    pass


def unescape(s):
    """\\t is a tab, \\n a line break (exercises.txt only), \\\\ a
    backslash; nothing else is special."""
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "tn\\":
            out.append({"t": "\t", "n": "\n"}.get(s[i + 1], "\\"))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


class Mutant:
    def __init__(self, name, file, original, replacement, lineno):
        self.name, self.file, self.lineno = name, file, lineno
        self.shown_original, self.shown_replacement = original, replacement
        self.context = None
        if CONTEXT_SEP in original:
            context, original = original.split(CONTEXT_SEP, 1)
            self.context = unescape(context.strip())
            original = original.strip()
        self.start_anchor = original.startswith("^")
        self.end_anchor = original.endswith("$") and not original.endswith("\\$")
        text = original[1 if self.start_anchor else 0:
                        len(original) - (1 if self.end_anchor else 0)]
        self.original = unescape(text)
        self.replacement = unescape(replacement)
        self.equivalent = None          # the reason, if listed
        self.expect = []                # exercises: the tests the docs name

    def occurrences(self, text, lo=0, hi=None):
        hi = len(text) if hi is None else hi
        found, i = [], text.find(self.original, lo, hi)
        while i >= 0:
            end = i + len(self.original)
            if ((not self.start_anchor or i == 0 or text[i - 1] == "\n") and
                    (not self.end_anchor or end == len(text) or text[end] == "\n")):
                found.append(i)
            i = text.find(self.original, i + 1, hi)
        return found

    def region(self, text):
        """Where original is looked for: the whole file, or with a context,
        from the context's line to the end of that function (the next line
        that is just "}")."""
        if self.context is None:
            return 0, len(text)
        n = text.count(self.context)
        if n != 1:
            raise ValueError("context %r %s" % (self.context, "not found" if n == 0
                                                else "not unique (%d matches)" % n))
        lo = text.rfind("\n", 0, text.find(self.context)) + 1
        end = text.find("\n}\n", lo)
        return lo, len(text) if end < 0 else end + 2

    def apply(self, text):
        """The mutated text, or raise ValueError saying why not."""
        where = self.occurrences(text, *self.region(text))
        if not where:
            raise ValueError("original text not found")
        if len(where) > 1:
            raise ValueError("original text not unique (%d matches)" % len(where))
        i = where[0]
        return text[:i] + self.replacement + text[i + len(self.original):]


def read_list(path, nfields, rest_is_text=False):
    """rest_is_text: the last field is free text and may hold the separator."""
    rows = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [x.strip() for x in line.split(SEP, nfields - 1 if rest_is_text else -1)]
            if len(fields) != nfields or not all(fields):
                raise ListError("%s:%d: want %d non-empty fields separated by '%s', got %d"
                                % (os.path.relpath(path, ROOT), lineno, nfields, SEP, len(fields)))
            rows.append((lineno, fields))
    return rows


def check_row(path, lineno, name, file, names):
    if name in names:
        raise ListError("%s:%d: duplicate name %s" % (path, lineno, name))
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ListError("%s:%d: bad name %r" % (path, lineno, name))
    if "/" in file or not file.endswith((".c", ".h")):
        raise ListError("%s:%d: file must be a sched/*.c or *.h name, got %r" % (path, lineno, file))
    names.add(name)


def load_exercises(path, names):
    """exercises.txt: name | file | original | replacement | TEST[, TEST...]."""
    mutants = []
    for lineno, (name, file, orig, repl, tests) in read_list(path, 5):
        check_row(path, lineno, name, file, names)
        m = Mutant(name, file, orig, repl, lineno)
        m.expect = [t.strip() for t in tests.split(",")]
        if not all(re.fullmatch(r"\w+", t) for t in m.expect):
            raise ListError("%s:%d: bad test names %r" % (path, lineno, tests))
        mutants.append(m)
    return mutants


def load_mutants(list_path, eq_path, ex_path=None):
    mutants, names = [], set()
    for lineno, (name, file, orig, repl) in read_list(list_path, 4):
        check_row(list_path, lineno, name, file, names)
        if "\\n" in orig:
            raise ListError("%s:%d: a mutant here is one line (\\n: exercises.txt)" % (list_path, lineno))
        mutants.append(Mutant(name, file, orig, repl, lineno))
    if ex_path and os.path.exists(ex_path):
        mutants += load_exercises(ex_path, names)
    by_name = {m.name: m for m in mutants}
    if os.path.exists(eq_path):
        for lineno, (name, reason) in read_list(eq_path, 2, rest_is_text=True):
            if name not in by_name:
                raise ListError("%s:%d: no mutant named %s" % (eq_path, lineno, name))
            by_name[name].equivalent = reason
    return mutants


# ---------- building and running a copy ----------

def snapshot(dst):
    """Copy sched/ (it builds alone on the base, lib/, with the ABI headers of include/),
    include/ and tests/unit/ (without its build/)."""
    shutil.copytree(os.path.join(ROOT, "sched"), os.path.join(dst, "sched"))
    shutil.copytree(os.path.join(ROOT, "include"), os.path.join(dst, "include"))
    shutil.copytree(os.path.join(ROOT, "lib"), os.path.join(dst, "lib"))
    shutil.copytree(os.path.join(ROOT, "tests", "unit"), os.path.join(dst, "tests", "unit"),
                    ignore=shutil.ignore_patterns("build"))


class Build:
    """How tests/unit/Makefile builds the unit tests, read from the Makefile
    itself (CC, CFLAGS, LDFLAGS and its source lists), so that a copy is
    built exactly as `make -C tests/unit` builds it. Every file is compiled
    once, unmutated, into build/mutate/obj; a mutant's copy recompiles only
    its mutated file and links it with the others; a mutated header
    (an inline function, such as ms_to_ticks in tunables.h) recompiles
    every file, since any of them may include it."""

    def __init__(self, src):
        unit = os.path.join(src, "tests", "unit")
        recipe = "__mutate_vars: ; @printf '%s\\n' " + " ".join(
            "'$(%s)'" % v for v in ("CC", "CFLAGS", "LDFLAGS", "SCHED_SRC", "TEST_SRC"))
        r = subprocess.run(["make", "-s", "--no-print-directory", "-C", unit,
                            "--eval=" + recipe, "__mutate_vars"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = r.stdout.decode().split("\n")
        if r.returncode != 0 or len(lines) < 5:
            raise ListError("cannot read the build flags from tests/unit/Makefile: %s"
                            % r.stdout.decode().strip())
        cc, cflags, ldflags, sched_src, test_src = (shlex.split(l) for l in lines[:5])
        self.cc, self.cflags, self.ldflags = cc, cflags, ldflags
        self.sources = sched_src + test_src     # as the Makefile names them, from tests/unit
        self.objdir = os.path.join(WORK, "obj")

    def obj(self, source):
        return os.path.join(self.objdir, source.replace("../", "").replace("/", "_") + ".o")

    def compile(self, copy, source, obj):
        r = subprocess.run(self.cc + self.cflags + ["-c", source, "-o", obj],
                           cwd=os.path.join(copy, "tests", "unit"),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        return r.returncode == 0, r.stdout.decode(errors="replace")

    def link(self, copy, objs):
        out = os.path.join(copy, "tests", "unit", "build", "unit_tests")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        r = subprocess.run(self.cc + self.cflags + ["-o", out] + objs + self.ldflags,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        return r.returncode == 0, r.stdout.decode(errors="replace")

    def build_all(self, copy, jobs):
        """The unmutated copy: every object, then the binary."""
        os.makedirs(self.objdir, exist_ok=True)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda f: self.compile(copy, f, self.obj(f)), self.sources))
        for ok, out in results:
            if not ok:
                return False, out
        return self.link(copy, [self.obj(f) for f in self.sources])

    def build_mutant(self, copy, mutated_file):
        """A mutant's copy: its one changed file, linked with the rest."""
        if mutated_file.endswith(".h"):
            return self.build_header_mutant(copy, mutated_file)
        source = "../../sched/" + mutated_file
        if source not in self.sources:
            return False, "%s is not one of the Makefile's SCHED_SRC" % mutated_file
        obj = os.path.join(copy, "tests", "unit", "build", "mutated.o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        ok, out = self.compile(copy, source, obj)
        if not ok:
            return ok, out
        return self.link(copy, [obj if f == source else self.obj(f) for f in self.sources])

    def build_header_mutant(self, copy, mutated_file):
        """A changed header: every object again, in the copy's own build/."""
        if not os.path.exists(os.path.join(copy, "sched", mutated_file)):
            return False, "no sched/%s" % mutated_file
        objdir = os.path.join(copy, "tests", "unit", "build", "obj")
        os.makedirs(objdir, exist_ok=True)
        objs = []
        for f in self.sources:
            obj = os.path.join(objdir, os.path.basename(self.obj(f)))
            ok, out = self.compile(copy, f, obj)
            if not ok:
                return ok, out
            objs.append(obj)
        return self.link(copy, objs)


def run_binary(copy, timeout):
    """Run the unit tests on a pseudo-terminal (line-buffered, so a crash
    loses no line; stderr on the same terminal, so a sanitizer report sits
    between the tests it came from). Returns (exit status or None on
    timeout, output lines)."""
    unit = os.path.join(copy, "tests", "unit")
    master, slave = pty.openpty()
    p = subprocess.Popen([os.path.join(unit, "build", "unit_tests")], cwd=unit,
                         stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                         start_new_session=True)
    os.close(slave)
    chunks, deadline, status = [], time.monotonic() + timeout, None
    exited_at = None
    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                status = None
                break
            r, _, _ = select.select([master], [], [], min(deadline - now, 0.5))
            if r:
                try:
                    data = os.read(master, 65536)
                except OSError:         # EIO: every writer has closed the terminal
                    data = b""
                if not data:
                    try:
                        status = p.wait(timeout=max(0.1, deadline - time.monotonic()))
                    except subprocess.TimeoutExpired:
                        os.killpg(p.pid, signal.SIGKILL)
                        p.wait()
                    break
                chunks.append(data)
            elif p.poll() is not None:
                # exited, but something it started may hold the terminal
                exited_at = exited_at or now
                if now - exited_at > 2:
                    status = p.returncode
                    break
    finally:
        os.close(master)
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
    text = b"".join(chunks).decode(errors="replace").replace("\r", "")
    return status, text.split("\n")


TEST_LINE = re.compile(r"^(not ok|ok) (\d+) - (\S+)")
SANITIZER = re.compile(r"runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer|SUMMARY: \w+Sanitizer")


def failed_tests(status, lines, test_names):
    """The tests a run failed, by name: its "not ok" lines, and the test
    that was running when it hung or crashed (a failed KASSERT aborts)."""
    failed = [m.group(3) for m in map(TEST_LINE.match, lines) if m and m.group(1) == "not ok"]
    done = sum(1 for l in lines if TEST_LINE.match(l))
    if status != 0 and done < len(test_names):
        failed.append(test_names[done])
    return failed


def exercise_verdict(m, failed):
    """An exercise mutant is killed by the tests the docs name, or missed."""
    if all(t in failed for t in m.expect):
        return "killed", ", ".join(m.expect)
    return "missed", "%s; failed: %s" % (", ".join(m.expect),
                                        ", ".join(failed[:4]) + (" ..." if len(failed) > 4 else ""))


def judge(status, lines, test_names, timeout):
    """(killed?, why) from a run's exit status and output."""
    failed, passed_count, pending_error, sanitizer_kill = [], 0, None, None
    for line in lines:
        m = TEST_LINE.match(line)
        if m:
            if m.group(1) == "not ok":
                failed.append(m.group(3))
            else:
                passed_count += 1
            if pending_error and not sanitizer_kill:
                sanitizer_kill = "%s: %s" % (m.group(3), pending_error)
            pending_error = None
        elif SANITIZER.search(line) and pending_error is None:
            pending_error = line.strip()[:120]
    done = len(failed) + passed_count
    current = test_names[done] if done < len(test_names) else "after the last test"
    if status is None:
        return True, "%s: timeout after %d s" % (current, timeout)
    if failed:
        more = " +%d more" % (len(failed) - 1) if len(failed) > 1 else ""
        return True, failed[0] + more
    if status != 0:
        why = pending_error or ("killed by signal %d" % -status if status < 0
                                else "exit status %d" % status)
        return True, "%s: crash, %s" % (current, why)
    if sanitizer_kill:
        return True, sanitizer_kill
    if pending_error:
        return True, "%s: %s" % (current, pending_error)
    return False, None


def baseline(src, builder, timeout, jobs):
    base = os.path.join(WORK, "unmutated")
    shutil.copytree(src, base)
    ok, out = builder.build_all(base, jobs)
    if not ok:
        sys.stdout.write(out)
        raise ListError("the unmutated copy does not build")
    status, lines = run_binary(base, timeout)
    names = [m.group(3) for m in map(TEST_LINE.match, lines) if m]
    killed, why = judge(status, lines, names, timeout)
    if killed:
        shown = [l for l in lines if l.startswith("not ok") or SANITIZER.search(l)]
        sys.stdout.write("\n".join(shown[:30] + [l for l in lines if l.strip()][-1:]) + "\n")
        raise ListError("the unmutated copy fails its unit tests (%s)" % why)
    shutil.rmtree(base)
    return names


def run_mutant(m, src, builder, test_names, timeout, keep):
    copy = os.path.join(WORK, "m", m.name)
    try:
        path = os.path.join(copy, "sched", m.file)
        shutil.copytree(src, copy)
        with open(path) as f:
            text = f.read()
        try:
            text = m.apply(text)
        except ValueError as e:
            return "error", "mutant %s: %s in %s" % (m.name, e, m.file)
        with open(path, "w") as f:
            f.write(text)
        ok, out = builder.build_mutant(copy, m.file)
        if not ok:
            first = next((l for l in out.split("\n") if "error" in l), out.strip()[-200:])
            return "error", "mutant %s: does not compile: %s" % (m.name, first.strip())
        status, lines = run_binary(copy, timeout)
        killed, why = judge(status, lines, test_names, timeout)
        if killed and m.expect:
            return exercise_verdict(m, failed_tests(status, lines, test_names))
        return ("killed", why) if killed else ("survived", None)
    finally:
        if not keep and os.path.isdir(copy):
            shutil.rmtree(copy, ignore_errors=True)


def unit_test_names():
    names = set()
    for path in sorted(os.listdir(os.path.join(ROOT, "tests", "unit"))):
        if path.endswith(".c"):
            with open(os.path.join(ROOT, "tests", "unit", path)) as f:
                names.update(re.findall(r"^TEST\((\w+)\)", f.read(), re.M))
    return names


def student_lab():
    """The lab this tree is a student tree of (its .lab file, docs/labs.md),
    or None: there the lab's regions are the student's to write."""
    path = os.path.join(ROOT, ".lab")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return f.read().strip()


def check(mutants):
    """--check: every mutant applies, every test an exercise names exists.
    In a student tree, a mutant that does not apply to a file holding the
    lab's region is skipped (its text is what the student writes). No
    build; the last line is make test's "N passed, N failed"."""
    bad, skipped, tests, lab = 0, 0, unit_test_names(), student_lab()
    for m in mutants:
        text = ""
        try:
            with open(os.path.join(ROOT, "sched", m.file)) as f:
                text = f.read()
            m.apply(text)
            for t in m.expect:
                if t not in tests:
                    raise ValueError("names test %s, which tests/unit does not have" % t)
        except (OSError, ValueError) as e:
            if lab and "/* LAB %s BEGIN" % lab in text and "not found" in str(e):
                print("mutant %s: skipped, %s holds lab %s's region" % (m.name, m.file, lab))
                skipped += 1
                continue
            print("mutant %s: %s in %s" % (m.name, e, m.file))
            bad += 1
    good = len(mutants) - bad - skipped
    print("%d mutants, %d apply, %d do not" % (len(mutants), good, bad + skipped))
    print("apply: %d passed, %d failed%s" % (good, bad, ", %d skipped" % skipped if skipped else ""))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description="mutation check of sched/ (make mutate)")
    ap.add_argument("patterns", nargs="*", help="only the mutants whose name matches")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="mutants at a time (2)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per test run (60)")
    ap.add_argument("--keep", action="store_true", help="keep each mutant's copy")
    ap.add_argument("--mutants", default=os.path.join(HERE, "mutants.txt"), metavar="FILE",
                    help="the list of mutants (tools/mutate/mutants.txt)")
    ap.add_argument("--equivalent", default=os.path.join(HERE, "equivalent.txt"), metavar="FILE",
                    help="the list of equivalent mutants (tools/mutate/equivalent.txt)")
    ap.add_argument("--exercise-list", default=os.path.join(HERE, "exercises.txt"), metavar="FILE",
                    help="the docs' exercises as mutants (tools/mutate/exercises.txt)")
    ap.add_argument("--exercises", action="store_true", help="only the exercise mutants")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant applies to sched/ as it is now")
    args = ap.parse_args()
    t0 = time.monotonic()
    try:
        mutants = load_mutants(args.mutants, args.equivalent, args.exercise_list)
    except ListError as e:
        print("mutate: %s" % e)
        return 2
    if args.exercises:
        mutants = [m for m in mutants if m.expect]
    if args.patterns:
        mutants = [m for m in mutants if any(fnmatch.fnmatchcase(m.name, p) for p in args.patterns)]
        if not mutants:
            print("mutate: no mutant matches %s" % " ".join(args.patterns))
            return 2

    if args.check:
        return check(mutants)

    shutil.rmtree(WORK, ignore_errors=True)
    src = os.path.join(WORK, "src")
    os.makedirs(WORK)
    snapshot(src)               # one copy of the tree for all mutants
    try:
        builder = Build(src)
        test_names = baseline(src, builder, args.timeout, max(1, args.jobs))
    except ListError as e:
        print("mutate: %s" % e)
        return 2
    print("unmutated: %d unit tests pass; %d mutants, %d at a time"
          % (len(test_names), len(mutants), args.jobs))
    sys.stdout.flush()

    counts = {"killed": 0, "survived": 0, "missed": 0, "error": 0, "equivalent": 0}
    report = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_mutant, m, src, builder, test_names, args.timeout,
                               args.keep)
                   for m in mutants]
        for m, fut in zip(mutants, futures):
            verdict, why = fut.result()
            if verdict == "killed":
                line = "killed  %s  (by %s)" % (m.name, why)
                if m.equivalent:
                    line += "  [listed in equivalent.txt: it is not equivalent]"
            elif verdict == "survived" and m.equivalent:
                verdict, line = "equivalent", "equivalent  %s  (%s)" % (m.name, m.equivalent)
            elif verdict == "survived":
                line = "SURVIVED  %s  %s: %s -> %s" % (m.name, m.file, m.shown_original,
                                                        m.shown_replacement)
            elif verdict == "missed":
                line = "MISSED  %s  (the docs name %s)" % (m.name, why)
            else:
                line = "ERROR  %s" % why
            counts[verdict] += 1
            report.append(line)
            print(line)
            sys.stdout.flush()

    elapsed = time.monotonic() - t0
    summary = "%d killed, %d survived" % (counts["killed"], counts["survived"])
    if counts["missed"]:
        summary += ", %d missed" % counts["missed"]
    if counts["error"]:
        summary += ", %d errors" % counts["error"]
    print("%d equivalent (not counted); %.0f s" % (counts["equivalent"], elapsed))
    print(summary)
    with open(os.path.join(WORK, "report.txt"), "w") as f:
        f.write("\n".join(report + [summary]) + "\n")
    if not args.keep:
        shutil.rmtree(os.path.join(WORK, "m"), ignore_errors=True)
    return 0 if counts["survived"] == counts["missed"] == counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
