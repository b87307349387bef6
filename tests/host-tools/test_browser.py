#!/usr/bin/env python3
"""The trace viewer in a real browser: headless Chromium (Debian's chromium).

    python3 tests/host-tools/test_browser.py [--update-docs]

Draws pages with tools/traceview.py - a real kernel trace
(tests/host-tools/data/), the same zoomed in, and simulator traces on 1 and
4 CPUs - loads each in headless Chromium, and wants: no JavaScript error
(the page writes every error into itself, and Chromium's console log is
read too), and the drawn elements: a lane per CPU, a row per task, stair
lines, bars; and a recording beside its replay (traceview --compare) as
one view, both runs' lanes and rows, a line between the runs. A page
broken on purpose must be reported as broken. It takes
a screenshot of the kernel and the simulator page (build/test-logs/browser/;
with --update-docs also docs/trace-kernel.png and docs/trace-sim.png).

Chromium is installed by tools/ensure-deps.sh chromium when it is missing
(as root, from Debian's archive); where it cannot be, the stage prints why
and counts as skipped. One line per test, then "N passed, N failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostlib  # noqa: E402
import traceview  # noqa: E402

OUT = os.path.join(REPO, "build", "test-logs", "browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--window-size=1400,1000"]
RENDERED = re.compile(r'<div id="rendered"[^>]*?data-lanes="(\d+)" data-rows="(\d+)" '
                      r'data-stairs="(\d+)" data-bars="(\d+)" data-statrows="(\d+)"[^>]*>rendered</div>')
GROUPLINES = re.compile(r'<div id="rendered"[^>]*? data-grouplines="(\d+)"')
SELECTION = re.compile(r'<small id="range">of the selection: ([0-9.]+) - ([0-9.]+) ms')
JS_ERROR = re.compile(r'class="jserror">([^<]*)<')
CONSOLE_ERROR = re.compile(r"Uncaught [^\n]*|CONSOLE\([^)]*\)[^\n]*(?:Error|error)[^\n]*")


def find_chromium():
    """The browser, installing it if we can; (path, None) or (None, why)."""
    exe = shutil.which("chromium")
    if exe:
        return exe, None
    r = subprocess.run([os.path.join(REPO, "tools", "ensure-deps.sh"), "chromium"],
                       capture_output=True, text=True)
    exe = shutil.which("chromium")
    if exe:
        return exe, None
    why = (r.stderr.strip().splitlines() or ["tools/ensure-deps.sh chromium failed"])[-1]
    return None, why


def chromium(exe, url, *extra):
    """Run it once with a fresh, empty profile; (stdout, stderr)."""
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        r = subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *extra, url],
                           capture_output=True, text=True, timeout=90)
    return r.stdout, r.stderr


def page(name, log_text):
    """Draw a log into OUT/name.html; (path, what analyse() found)."""
    blocks = traceview.parse(log_text.splitlines(), name, lambda w: None)
    path = os.path.join(OUT, name + ".html")
    with open(path, "w") as f:
        traceview.write_html(blocks, name, f)
    a = traceview.analyse(blocks[0])
    return path, a


sim = hostlib.run_sim


def judge(exe, path, query=""):
    """Problems of a page as Chromium draws it, and the element counts."""
    dom, log = chromium(exe, "file://" + path + query, "--dump-dom")
    problems = [f"JavaScript error: {m}" for m in JS_ERROR.findall(dom)]
    problems += [f"console: {m.strip()[:160]}" for m in CONSOLE_ERROR.findall(log)]
    m = RENDERED.search(dom)
    if not m:
        problems.append("the page did not finish drawing (no rendered marker)")
        return problems, None
    n = dict(zip(("lanes", "rows", "stairs", "bars", "statrows"), map(int, m.groups())))
    lines = GROUPLINES.search(dom)
    n["grouplines"] = int(lines[1]) if lines else None
    sel = SELECTION.search(dom)
    n["selection"] = f"{sel[1]}-{sel[2]} ms" if sel else None
    return problems, n


def main():
    update_docs = "--update-docs" in sys.argv[1:]
    exe, why = find_chromium()
    if not exe:
        print(f"skip - the viewer in headless Chromium: Chromium cannot be installed here ({why})")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(HERE, "data", "kernel-spin-nice-sleeper.log")) as f:
        kernel = f.read()
    pages = [("kernel", kernel, ""), ("kernel-zoomed", kernel, "?from=300&to=420&sel=320,380")]
    pages.append(("sim-ingo", sim("--trace", "--duration", "2s",
                                  os.path.join(REPO, "tools", "sim", "examples", "ingo.wl")), ""))
    pages.append(("sim-spread", sim("--trace", "--duration", "1s",
                                    os.path.join(REPO, "tools", "sim", "examples", "spread.wl")), ""))
    passed = failed = 0

    def result(ok, what, why=""):
        nonlocal passed, failed
        print(f"{'ok' if ok else 'not ok'} - {what}" + (f": {why}" if why and not ok else
                                                        (f" ({why})" if why else "")))
        passed, failed = passed + ok, failed + (not ok)

    paths = {}
    for name, text, query in pages:
        path, a = page(name.split("-zoomed")[0] if query else name, text)
        paths[name] = path
        problems, n = judge(exe, path, query)
        if n:
            tasks = len(a["tasks"])
            if n["lanes"] != a["ncpus"]:
                problems.append(f"{n['lanes']} lanes for {a['ncpus']} CPUs")
            if n["rows"] != tasks:
                problems.append(f"{n['rows']} task rows for {tasks} tasks")
            if n["stairs"] < 1 or n["bars"] < 1 or n["statrows"] < 1:
                problems.append(f"nothing drawn: {n}")
            if "sel=" in query and n["selection"] != "320.000-380.000 ms":
                problems.append(f"the statistics are not of the selection: {n['selection']}")
        counts = ", ".join(f"{k} {v}" for k, v in (n or {}).items())
        result(not problems, f"{name}{query}: draws with no JavaScript error", "; ".join(problems) or counts)

    # A replay beside its recording (traceview --compare): one view, the
    # recording's lanes and rows above the replay's, a line between them.
    rec = os.path.join(HERE, "data", "kernel-replay-pipetest.log")
    rep = os.path.join(OUT, "replay-pipetest.log")
    with open(rep, "w") as f:
        f.write(sim("--replay", rec, "--set", "rr_interval=50", "--trace"))
    both = os.path.join(OUT, "compare.html")
    traceview.write_compare([rec, rep], ("recorded", "replayed"), both, None, lambda w: None)
    problems, n = judge(exe, both)
    if n:
        parts = [traceview.analyse(traceview.parse(open(f).read().splitlines(), f, lambda w: None)[0])
                 for f in (rec, rep)]
        if n["lanes"] != sum(a["ncpus"] for a in parts):
            problems.append(f"{n['lanes']} lanes for {[a['ncpus'] for a in parts]} CPUs")
        if n["rows"] != sum(len(a["tasks"]) for a in parts):
            problems.append(f"{n['rows']} rows for {[len(a['tasks']) for a in parts]} tasks")
        if n["grouplines"] != 2:
            problems.append("no line between the recorded and the replayed lanes and rows")
    result(not problems, "compare.html: recorded above replayed in one view", "; ".join(problems) or
           ", ".join(f"{k} {v}" for k, v in (n or {}).items()))

    # The checker itself: a page with an error must not pass.
    with open(paths["kernel"]) as f:
        broken = f.read().replace("setup();\ndraw();\n", "setup();\nnull.broken_on_purpose;\ndraw();\n")
    bad = os.path.join(OUT, "broken-on-purpose.html")
    with open(bad, "w") as f:
        f.write(broken)
    problems, _ = judge(exe, bad)
    result(any("JavaScript error" in p for p in problems) and any("rendered" in p for p in problems),
           "a page broken on purpose is reported (error and no drawing)", "; ".join(problems) or "not reported")

    for name, doc in (("kernel", "trace-kernel.png"), ("sim-ingo", "trace-sim.png")):
        png = os.path.join(OUT, name + ".png")
        if os.path.exists(png):
            os.unlink(png)
        query = "?from=0&to=1000" if name == "kernel" else "?from=0&to=160"
        chromium(exe, "file://" + paths[name] + query, f"--screenshot={png}", "--hide-scrollbars")
        ok = os.path.exists(png) and os.path.getsize(png) > 10000
        with open(png, "rb") if ok else open(os.devnull, "rb") as f:
            ok = ok and f.read(8) == b"\x89PNG\r\n\x1a\n"
        result(ok, f"screenshot of the {name} page", os.path.relpath(png, REPO))
        if ok and update_docs:
            shutil.copy(png, os.path.join(REPO, "docs", doc))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
