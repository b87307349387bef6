"""pytest for the QEMU cases: each Case of tests/cases/*.py is one test.

    pytest tests/cases                    every case (as tests/harness.py)
    pytest tests/cases -k policy          cases whose name or tag says policy
    pytest tests/cases -m quick           cases tagged quick (tags are markers)
    pytest tests/cases --lf               the cases that failed last time
    pytest tests/cases -n 2               two QEMUs at a time (pytest-xdist)

test_cases.py holds the one test function, parametrized here with every
case (its id the case's name, its tags its markers, its topology in its
keywords as "smp_SxCxT"); the booted guest is the `guest` fixture, which
runs the case through tests/harness.py's own runner (run_case: the boot,
the retry, the judging), so a case reads and behaves the same under both.
What the harness's runner does well is kept as three small plugins:

  * the guest's log: build/test-logs/NAME.log, named in the report and in
    the JUnit XML (property "log"), its last 30 lines under a failure;
  * one line per case, "PASS name (12.3s): what it measured" or "FAIL
    name (4.1s): missing /regex/; timeout after 30s", then the harness's
    closing line "N passed, N failed, N skipped" that tests/run-all.sh adds up;
  * the stall detector: a KTAP check that says "SKIP host stalled" (the
    kernel saw timer ticks due but never delivered: the host starved QEMU)
    is counted, named on the case's line and listed at the end, so a
    passing run on a starved host says its numbers were not all measured.

Cases marked exclusive (real-time measurements) take a lock file that the
others share, so no other case of this run boots beside them; they are
ordered last, the rest longest first by the durations the last run kept
in pytest's cache (build/pytest-cache), so two workers end together.
"""

import fcntl
import os
import re
import sys
import types

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
import harness  # noqa: E402  (the case modules import it by this name)

STALLED = re.compile(r"^\s*ok \d+ - (\S+) # SKIP host stalled", re.M)
DURATIONS = "qemu/durations"        # pytest cache key: case -> seconds
LINE = "harness line"               # user_properties key of the case's line


BUILD = os.path.join(REPO, "build")
OPTIONS = {                         # option: (default, help)
    "kernel": (os.path.join(BUILD, "kernel.elf"), None),
    "initrd": (os.path.join(BUILD, "initrd.tar"), "'' for none"),
    "iso": (os.path.join(BUILD, "staircase.iso"), None),
    "qemu": ("qemu-system-i386", None),
    "log_dir": (os.path.join(BUILD, "test-logs"), None),
    "sched": (None, "boot every case with sched=NAME (lineage mode); "
                    "cases tagged staircase are skipped"),
}


def pytest_addoption(parser):
    g = parser.getgroup("qemu", "the QEMU cases (tests/harness.py)")
    for name, (default, text) in OPTIONS.items():
        g.addoption("--" + name.replace("_", "-"), default=default, help=text)


def option(config, name):
    """An option's value; its default where this conftest came too late to
    add it (plain `pytest` from the root finds tests/cases by testpaths,
    after the command line was read)."""
    return config.getoption(name, OPTIONS[name][0])


def load_cases(config):
    """The cases, loaded once per process (the controller and each worker)."""
    if not hasattr(config, "_qemu_cases"):
        cases = harness.load_cases()
        if option(config, "sched"):
            harness.boot_under(cases, option(config, "sched"))
        config._qemu_cases = cases
    return config._qemu_cases


def pytest_configure(config):
    tags = {t for c in load_cases(config) for t in c.tags}
    for tag in sorted(tags | {"exclusive"}):
        config.addinivalue_line("markers", f"{tag}: QEMU cases tagged {tag}")


def topology(case):
    return f"smp_{case.sockets}x{case.cores}x{case.threads}"


def pytest_generate_tests(metafunc):
    if "case" not in metafunc.fixturenames:
        return
    rows = []
    for case in load_cases(metafunc.config):
        marks = [getattr(pytest.mark, t) for t in sorted(case.tags)]
        if case.exclusive:
            marks.append(pytest.mark.exclusive)
        rows.append(pytest.param(case, marks=marks, id=case.name))
    metafunc.parametrize("case", rows)


def pytest_collection_modifyitems(config, items):
    """Exclusive cases last; the others longest first (last run's times)."""
    cache = getattr(config, "cache", None)      # none with -p no:cacheprovider
    known = cache.get(DURATIONS, {}) if cache else {}
    for item in items:
        case = item.callspec.params.get("case") \
            if hasattr(item, "callspec") else None
        if case is not None:
            item.keywords[topology(case)] = True

    def key(item):
        case = getattr(item, "callspec", None) and \
            item.callspec.params.get("case")
        if case is None:
            return (2, 0)
        return (1 if case.exclusive else 0, -known.get(case.name, 1e9))
    items.sort(key=key)


@pytest.fixture(scope="session")
def qemu_args(request):
    """The harness's run arguments: where the kernel, initrd, ISO, logs are."""
    def opt(name):
        return option(request.config, name)
    args = types.SimpleNamespace(
        kernel=os.path.abspath(opt("kernel")),
        initrd=os.path.abspath(opt("initrd")) if opt("initrd") else "",
        iso=os.path.abspath(opt("iso")), qemu=opt("qemu"),
        log_dir=os.path.abspath(opt("log_dir")))
    os.makedirs(args.log_dir, exist_ok=True)
    return args


def machine_lock(args, exclusive):
    """Shared by every boot, taken alone by an exclusive case's boots."""
    f = open(os.path.join(args.log_dir, ".qemu.lock"), "a")
    fcntl.flock(f, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    return f


@pytest.fixture
def guest(case, qemu_args, request):
    """The case booted and judged: a harness.Result (status PASS/FAIL/SKIP)."""
    if getattr(case, "lineage_skip", None):
        pytest.skip(case.lineage_skip)
    why = harness.missing_input([case], qemu_args)
    if why:
        pytest.fail(why, pytrace=False)
    harness.clear_logs(case, qemu_args.log_dir)
    with machine_lock(qemu_args, case.exclusive):
        result = harness.run_case(case, qemu_args)
    stalled = STALLED.findall(log_text(result.log))
    if stalled:
        note = f"{len(stalled)} checks skipped: host stalled"
        result.detail = f"{result.detail}; {note}" if result.detail else note
    result.failure = failure_text(result) if result.status == "FAIL" else ""
    props = request.node.user_properties
    props.append((LINE, one_line(result)))
    props.append(("elapsed", round(result.elapsed, 1)))
    props.append(("stalled", ",".join(stalled)))
    if result.log:
        props.append(("log", os.path.relpath(result.log, REPO)))
    return result


def log_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except (OSError, TypeError):
        return ""


def one_line(result):
    line = f"{result.status} {result.case.name}"
    if result.status != "SKIP":
        line += f" ({result.elapsed:.1f}s)"
    return line + (f": {result.detail}" if result.detail else "")


def failure_text(result):
    """The FAIL line, the log's path and its last lines, QEMU's stderr."""
    lines = [one_line(result),
             f"    log: {os.path.relpath(result.log, REPO)}"]
    for text in harness.tail(result.log):
        lines.append(f"    | {text[:160]}{'...' if len(text) > 160 else ''}")
    err = result.stderr.decode("utf-8", "replace").splitlines()[-10:]
    if err:
        lines.append("    qemu stderr:")
        lines += [f"    ! {text}" for text in err]
    return "\n".join(lines)


# ---- reporting: on the controller (xdist's workers send it their reports)

def is_case(report):
    return "::test_case[" in report.nodeid


def pytest_report_teststatus(report, config):
    """No progress dots for the cases: their own line says it all (the
    word stays, for -v and the short summary)."""
    if not is_case(report) or (report.when != "call" and report.passed):
        return None
    if report.when != "call" and report.failed:
        return "error", "", "ERROR"
    return report.outcome, "", report.outcome.upper()


def pytest_runtest_logreport(report):
    if not is_case(report):
        return
    props = dict(report.user_properties)
    tr = pytest_runtest_logreport.terminal
    if report.when == "call" or (report.skipped and LINE not in props) or \
            (report.failed and report.when == "setup"):
        name = report.nodeid.split("[", 1)[1][:-1]
        line = props.get(LINE) or f"{STATUS[report.outcome]} {name}: {why(report)}"
        if tr:
            tr.write_line(line)
        if report.when == "call" and "elapsed" in props:
            pytest_runtest_logreport.times[name] = props["elapsed"]
        if props.get("stalled"):
            pytest_runtest_logreport.stalled.append(
                (report.nodeid, props["stalled"]))


STATUS = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}


def why(report):
    """A skip's reason or a failure's last line, from a report with no case line."""
    if isinstance(report.longrepr, tuple):        # a skip: (path, line, reason)
        return report.longrepr[2].removeprefix("Skipped: ")
    return str(report.longrepr).strip().splitlines()[-1]


pytest_runtest_logreport.terminal = None
pytest_runtest_logreport.times = {}
pytest_runtest_logreport.stalled = []


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    pytest_runtest_logreport.terminal = \
        session.config.pluginmanager.get_plugin("terminalreporter")


def pytest_sessionfinish(session):
    times = pytest_runtest_logreport.times
    cache = getattr(session.config, "cache", None)
    if times and cache and not hasattr(session.config, "workerinput"):
        known = cache.get(DURATIONS, {})
        known.update(times)
        cache.set(DURATIONS, known)


def pytest_terminal_summary(terminalreporter):
    """The stalled checks, then the harness's closing line."""
    tr = terminalreporter
    for nodeid, checks in pytest_runtest_logreport.stalled:
        tr.write_line(f"host stalled: {nodeid}: {checks.replace(',', ', ')} "
                      "skipped (the host starved QEMU; not measured)")
    count = {k: len([r for r in tr.stats.get(k, []) if is_case(r)])
             for k in ("passed", "failed", "error", "skipped")}
    if not any(count.values()):
        return
    line = f"{count['passed']} passed, {count['failed'] + count['error']} failed"
    if count["skipped"]:
        line += f", {count['skipped']} skipped"
    tr.write_line(line)
