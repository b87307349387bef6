#!/usr/bin/env python3
"""Host tests of tools/traceview.py on small hand-written logs.

    python3 tests/host-tools/test_traceview.py

One line per test ("ok - name" or "not ok - name: why"), then
"N passed, N failed" (tests/run-all.sh adds it up). Standard library only.
"""
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import traceview  # noqa: E402

# Two NORMAL hogs on cpu0 taking turns and walking down the stairs; one
# migration of pid 4 to cpu1. Times in ns.
LOG = """\
boot: done
init: running /bin/trace
trace: begin 8 events, 0 lost, 2 cpus
trace: 1000000 cpu0 switch pid 3 normal prio 120
trace: 11000000 cpu0 stair_drop pid 3 normal prio 121
trace: 11000500 cpu0 switch pid 4 normal prio 120
trace: 21000000 cpu0 stair_drop pid 4 normal prio 121
trace: 21000500 cpu0 switch pid 3 normal prio 121
trace: 25000000 cpu1 migrate pid 4 normal from 0
trace: 25000100 cpu1 switch pid 4 normal prio 121
trace: 31000000 cpu0 switch pid 0 idle prio 141
trace: end
init: /bin/trace exited with status 0
"""

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def parse(text):
    warnings = []
    return traceview.parse(text.splitlines(), "log", warnings.append), warnings


@test
def reads_every_field_of_an_event_line():
    blocks, warnings = parse(LOG)
    assert warnings == [], warnings
    assert len(blocks) == 1 and blocks[0].ncpus == 2 and blocks[0].lost == 0
    e = blocks[0].events[5]
    assert (e["t"], e["cpu"], e["ev"], e["pid"], e["policy"], e["argname"], e["arg"], e["line"]) == \
        (25000000, 1, "migrate", 4, "normal", "from", 0, 9), e


@test
def malformed_line_is_reported_with_its_number_and_skipped():
    bad = LOG.replace("trace: 11000000 cpu0 stair_drop pid 3 normal prio 121",
                      "trace: 11000000 cpu0 stair_drop pid three")
    blocks, warnings = parse(bad)
    assert len(blocks[0].events) == 7
    assert any(w.startswith("log:5: malformed") for w in warnings), warnings


@test
def unknown_event_name_is_malformed():
    blocks, warnings = parse(LOG.replace("cpu0 switch pid 0", "cpu0 teleport pid 0"))
    assert len(blocks[0].events) == 7 and any("log:11:" in w for w in warnings), warnings


@test
def block_without_end_is_used_with_a_warning():
    blocks, warnings = parse(LOG.replace("trace: end\n", ""))
    assert len(blocks) == 1 and len(blocks[0].events) == 8
    assert any("no 'trace: end'" in w for w in warnings), warnings


@test
def other_console_lines_inside_a_block_are_ignored():
    blocks, warnings = parse(LOG.replace("trace: end", "init: hello\r\ntrace: end"))
    assert warnings == [] and len(blocks[0].events) == 8, warnings


@test
def two_blocks_are_two_blocks():
    blocks, _ = parse(LOG + LOG)
    assert [len(b.events) for b in blocks] == [8, 8]


@test
def stints_run_from_switch_to_next_switch_on_the_same_cpu():
    a = traceview.analyse(parse(LOG)[0][0])
    got = [(s["cpu"], s["pid"], s["start"], s["end"]) for s in a["stints"]]
    assert got[:3] == [(0, 3, 0, 10000500), (0, 4, 10000500, 20000500), (0, 3, 20000500, 30000000)], got
    assert a["prio"][3][:2] == [[0, 120], [10000000, 121]], a["prio"][3]


@test
def summary_counts_run_time_runs_stair_drops_and_migrations():
    table = traceview.summary(traceview.analyse(parse(LOG)[0][0]))
    assert table[0][3] == [10000500 + 9999500, 2, 1, 0, "normal"], table[0][3]
    assert table[1][4][3] == 1 and table[0][4][2] == 1, table


@test
def text_mode_prints_a_row_per_pid():
    out = io.StringIO()
    traceview.print_text(parse(LOG)[0], out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("block 1 (line 3): 8 events, 0 lost, 2 cpus, 30.000 ms"), lines[0]
    row = [ln.split() for ln in lines if ln.split()[:2] == ["3", "normal"]][0]
    assert row[2:5] == ["20.000", "66.7%", "2"], row


@test
def html_is_self_contained():
    out = io.StringIO()
    traceview.write_html(parse(LOG)[0], "log </script>", out)
    page = out.getvalue()
    assert page.startswith("<!DOCTYPE html>") and "const DATA = [{" in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and " src=" not in page
    assert page.count("</script>") == 1     # the title was escaped


@test
def no_trace_block_is_an_error():
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write("boot: done\n")
    err = io.StringIO()
    old, sys.stderr = sys.stderr, err
    try:
        rc = traceview.main([f.name, "-o", os.devnull])
    finally:
        sys.stderr = old
        os.unlink(f.name)
    assert rc == 1 and "no trace found" in err.getvalue(), err.getvalue()


def main():
    passed = failed = 0
    for fn in TESTS:
        try:
            fn()
            print(f"ok - {fn.__name__}")
            passed += 1
        except Exception as e:      # an assertion, or a crash of the tool
            print(f"not ok - {fn.__name__}: {type(e).__name__}: {e}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
