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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostlib  # noqa: E402
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
    assert [p[:3] for p in a["tasks"]["3"].prio[:2]] == [[0, 120, "switch"], [10000000, 121, "stair_drop"]], \
        a["tasks"]["3"].prio


@test
def summary_counts_run_time_runs_stair_drops_and_migrations():
    table = traceview.summary(traceview.analyse(parse(LOG)[0][0]))
    assert table[0][3] == [10000500 + 9999500, 2, 1, 0, "normal", "?"], table[0][3]
    assert table[1][4][3] == 1 and table[0][4][2] == 1, table


@test
def text_mode_prints_a_row_per_pid():
    out = io.StringIO()
    traceview.print_text(parse(LOG)[0], out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("block 1 (line 3): 8 events, 0 lost, 2 cpus, 30.000 ms"), lines[0]
    row = [ln.split() for ln in lines if ln.split()[:3] == ["3", "?", "normal"]][0]
    assert row[3:6] == ["20.000", "66.7%", "2"], row


@test
def rows_share_one_stair_axis_and_the_recorder_is_named():
    # make trace's stairs example, recorded (spin, nice 10 spin, sleeper
    # under trace run): every row is drawn against the same stairs, which
    # cover every task's, and the recorder's one long sleep is no latency.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                        "kernel-spin-nice-sleeper.log")
    with open(path, errors="replace") as f:
        blocks, warnings = parse(f.read())
    d = traceview.page_data(traceview.analyse(blocks[0]))
    lo, hi = d["axis"]
    prios = [p[1] for row in d["prio"] for p in row]
    assert lo == min(prios) and hi == max(prios) and (lo, hi) == (120, 139), d["axis"]
    assert [d["tasks"][i]["name"] for i in d["recorder"]] == ["trace"], d["recorder"]
    page = io.StringIO()
    traceview.write_html(blocks, "stairs", page)
    html = page.getvalue()
    assert '<input type="checkbox" id="rowzoom">' in html      # per-row zoom: off by default
    assert "let [lo, hi] = d.axis;" in html and "(the recorder)" in html


@test
def html_is_self_contained():
    out = io.StringIO()
    traceview.write_html(parse(LOG)[0], "log </script>", out)
    page = out.getvalue()
    assert page.startswith("<!DOCTYPE html>") and "const DATA = [{" in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and " src=" not in page
    assert page.count("</script>") == 2     # the page's own two: the title was escaped
    assert "log &lt;/script&gt;" in page


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


# The same kind of run in today's format: every line carries the task's
# name, prio, burst and slice, the executing CPU and its current task; a
# switch says why the task it switches out left (cur_state). Two NORMAL hogs
# (4, 5) and a sleeper (6) on cpu0, streamed; pid 6 exits and its pid comes
# back as a new task.
def ev(t, cpu, name, pid, policy, argname, arg, comm, prio, cur, cur_comm, cur_prio,
       state=None, burst=0, slice_=100, cur_policy="normal"):
    line = (f"trace: {t} cpu{cpu} {name} pid {pid} {policy} {argname} {arg} comm={comm} "
            f"prio={prio} burst={burst} slice={slice_} on={cpu} cur={cur} cur_comm={cur_comm} "
            f"cur_prio={cur_prio} cur_policy={cur_policy}")
    return line + (f" cur_state={state}" if state else "")


NEW = "\n".join([
    "boot: done",
    "trace: begin stream, 1 cpus",
    ev(1000, 0, "switch", 5, "normal", "prio", 120, "hog", 120, 4, "hog", 121, "R+"),
    ev(2000, 0, "wakeup", 6, "normal", "prio", 120, "sleeper", 120, 5, "hog", 120),
    ev(2500, 0, "preempt", 6, "normal", "delayed", 0, "sleeper", 120, 5, "hog", 120),
    ev(3000, 0, "switch", 6, "normal", "prio", 120, "sleeper", 120, 5, "hog", 120, "R+"),
    ev(4000, 0, "sleep", 6, "normal", "state", 1, "sleeper", 120, 6, "sleeper", 120),
    ev(4100, 0, "switch", 5, "normal", "prio", 120, "hog", 120, 6, "sleeper", 120, "S"),
    "trace: lost cpu0 3 events",
    ev(11000, 0, "stair_drop", 5, "normal", "prio", 121, "hog", 121, 5, "hog", 121),
    ev(11500, 0, "nice", 5, "batch", "prio", 140, "hog", 140, 5, "hog", 140, cur_policy="batch"),
    ev(12000, 0, "wakeup", 6, "normal", "prio", 120, "sleeper", 120, 5, "hog", 140, cur_policy="batch"),
    ev(12100, 0, "switch", 6, "normal", "prio", 120, "sleeper", 120, 5, "hog", 140, "R+", cur_policy="batch"),
    ev(13000, 0, "sleep", 6, "normal", "state", 4, "sleeper", 120, 6, "sleeper", 120),
    ev(13100, 0, "switch", 5, "batch", "prio", 140, "hog", 140, 6, "sleeper", 120, "X"),
    ev(14000, 0, "fork", 6, "normal", "prio", 120, "hog", 120, 5, "hog", 140, cur_policy="batch"),
    ev(14500, 0, "switch", 6, "normal", "prio", 120, "hog", 120, 5, "hog", 140, "R+", cur_policy="batch"),
    ev(20000, 0, "switch", 0, "idle", "prio", 141, "idle", 141, 6, "hog", 120, "S"),
    "trace: end, 15 events, 3 lost",
]) + "\n"


@test
def new_fields_are_read():
    blocks, warnings = parse(NEW)
    assert warnings == [], warnings
    b = blocks[0]
    assert b.stream and b.declared == 15 and b.lost == 3 and len(b.events) == 15
    e = b.events[0]
    assert (e["comm"], e["prio"], e["cur"], e["cur_comm"], e["cur_state"], e["on"]) == \
        ("hog", 120, 4, "hog", "R+", 0), e
    assert b.lost_marks == [(6, 0, 3)], b.lost_marks


@test
def a_stream_out_of_time_order_is_sorted():
    lines = NEW.splitlines()
    lines[3], lines[4] = lines[4], lines[3]      # a wake-up published after a later event
    blocks, warnings = parse("\n".join(lines))
    assert warnings == [] and [e["t"] for e in blocks[0].events][:3] == [1000, 2000, 2500]


@test
def the_first_switch_says_who_ran_before_it():
    a = traceview.analyse(parse(NEW)[0][0])
    first = a["stints"][0]
    assert (first["pid"], first["start"], first["end"]) == (4, 0, 0), first   # t0 is that switch
    assert a["tasks"]["4"].name == "hog"


@test
def a_waiting_task_keeps_its_line_and_a_sleeping_one_does_not():
    a = traceview.analyse(parse(NEW)[0][0])
    hog = a["tasks"]["5"]
    # pid 5 runs, is preempted (waits), runs again...: no gap while it waits
    kinds = [(s[0], s[1], s[2]) for s in hog.segs[:3]]
    assert kinds == [(0, 2000, "run"), (2000, 3100, "wait"), (3100, 11100, "run")], hog.segs
    sleeper = a["tasks"]["6"]
    assert [s[2] for s in sleeper.segs] == ["wait", "run", "wait", "run"], sleeper.segs
    assert sleeper.segs[1][1] == 3000      # asleep from its sleep until the next wake-up: no segment


@test
def wake_up_latency_is_from_wakeup_to_switch():
    a = traceview.analyse(parse(NEW)[0][0])
    assert [l[1:] for l in a["lat"][:2]] == [[1000, 2000, "6"], [11000, 11100, "6"]], a["lat"]


@test
def a_policy_change_while_running_splits_the_bar():
    a = traceview.analyse(parse(NEW)[0][0])
    hog = [(s["start"], s["end"], s["policy"]) for s in a["stints"] if s["pid"] == 5]
    assert (10500, 11100, "batch") in hog and (3100, 10500, "normal") in hog, hog


@test
def a_reused_pid_is_a_new_task_and_flagged():
    a = traceview.analyse(parse(NEW)[0][0])
    assert "6#2" in a["tasks"] and a["tasks"]["6#2"].name == "hog"   # forked by hog, not yet exec'd
    assert any("pid 6 reused" in n for n in a["notes"]), a["notes"]
    assert any("3 events lost" in n for n in a["notes"]), a["notes"]


@test
def a_switch_out_of_a_task_not_running_is_flagged():
    bad = NEW.replace("cur=5 cur_comm=hog cur_prio=120 cur_policy=normal cur_state=R+",
                      "cur=9 cur_comm=other cur_prio=120 cur_policy=normal cur_state=R+")
    a = traceview.analyse(parse(bad)[0][0])
    assert any("did not have running" in n for n in a["notes"]), a["notes"]


@test
def run_queue_depth_counts_running_and_waiting():
    a = traceview.analyse(parse(NEW)[0][0])
    d = dict((t, n) for t, n in a["depth"][0])
    # pid 4, switched out preempted at the start, waits to the end
    assert d[0] == 2 and d[1000] == 3 and d[3000] == 2 and a["depth"][0][-1] == [19000, 0], a["depth"][0]


@test
def ftrace_export_starts_with_the_tracer_line_and_names_both_tasks():
    lines = traceview.ftrace_lines(parse(NEW)[0][0])
    assert lines[0] == "# tracer: nop"
    sw = [ln for ln in lines if "sched_switch:" in ln]
    assert len(sw) == 7
    assert sw[2].split("sched_switch: ")[1] == (
        "prev_comm=sleeper prev_pid=6 prev_prio=120 prev_state=S ==> "
        "next_comm=hog next_pid=5 next_prio=120"), sw[2]
    assert sw[2].lstrip().startswith("sleeper-6 "), sw[2]
    assert "prev_comm=sleeper prev_pid=6 prev_prio=120 prev_state=X" in sw[4]
    assert "next_comm=swapper/0 next_pid=0" in sw[6]
    assert any("sched_waking: comm=sleeper pid=6 prio=120 target_cpu=000" in ln for ln in lines)
    assert any("sched_wakeup: comm=sleeper pid=6 prio=120 target_cpu=000" in ln for ln in lines)
    assert any("sched_wakeup_new: comm=hog pid=6 prio=120 target_cpu=000" in ln for ln in lines)
    assert any("sched_process_exit: comm=sleeper pid=6 prio=120" in ln for ln in lines)
    assert any("tracing_mark_write: C|5|prio|121" in ln for ln in lines)
    assert all(" d.... " in ln for ln in lines if not ln.startswith("#"))


@test
def ftrace_export_of_an_old_log_tracks_prev_itself():
    lines = traceview.ftrace_lines(parse(LOG)[0][0])
    sw = [ln.split("sched_switch: ")[1] for ln in lines if "sched_switch:" in ln]
    assert sw[1].startswith("prev_comm=<...> prev_pid=3 prev_prio=121 prev_state=R+ ==> "
                            "next_comm=<...> next_pid=4"), sw[1]
    assert any("sched_migrate_task: comm=<...> pid=4 prio=121 orig_cpu=0 dest_cpu=1" in ln
               for ln in lines), lines


@test
def json_export_holds_the_ftrace_text_and_the_names():
    obj = traceview.json_trace(parse(NEW)[0][0], "t")
    text = obj["systemTraceEvents"]
    assert text.startswith("# tracer: nop\n# clock_type=LINUX_CLOCK_MONOTONIC\n")
    names = {e["pid"]: e["args"]["name"] for e in obj["traceEvents"] if e["ph"] == "M"}
    assert names == {4: "hog", 5: "hog", 6: "hog"}, names      # pid 6's last name: the reuse
    kinds = {e["name"] for e in obj["traceEvents"] if e["ph"] == "i"}
    assert kinds == {"preempt", "stair_drop", "nice"}, kinds


@test
def page_data_is_compact_and_complete():
    d = traceview.page_data(traceview.analyse(parse(NEW)[0][0]))
    assert [t["key"] for t in d["tasks"]] == ["4", "5", "6", "6#2"]
    assert d["ncpus"] == 1 and len(d["segs"]) == 4 and len(d["prio"]) == 4
    assert d["lostMarks"] == [[10000, 0, 3]], d["lostMarks"]
    assert all(len(s) == 6 for s in d["stints"])


@test
def exports_from_the_command_line():
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "x.log")
        with open(log, "w") as f:
            f.write(NEW)
        out = io.StringIO()
        old, sys.stdout = sys.stdout, out
        try:
            rc = traceview.main([log, "--ftrace", os.path.join(tmp, "x.ftrace"),
                                 "--json", os.path.join(tmp, "x.json")])
        finally:
            sys.stdout = old
        assert rc == 0 and not os.path.exists(os.path.join(tmp, "trace.html"))
        with open(os.path.join(tmp, "x.ftrace")) as f:
            assert f.read(13) == "# tracer: nop"
        with open(os.path.join(tmp, "x.json")) as f:
            assert "systemTraceEvents" in f.read()


@test
def a_pid_change_is_read_drawn_and_exported_as_the_staircases_own_event():
    """A real trace's exec from a thread: pid 94 takes its leader's pid 93
    (tests/host-tools/data/kernel-replay-threads-pid-change.log)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                        "kernel-replay-threads-pid-change.log")
    with open(path) as f:
        blocks, warnings = parse(f.read())
    assert not warnings, warnings
    ev = [e for e in blocks[0].events if e["ev"] == "pid_change"]
    assert len(ev) == 1 and ev[0]["pid"] == 93 and ev[0]["arg"] == 94, ev
    assert "pid_change" in traceview.EVENTS and "pid_change" in traceview.REASONS
    page = io.StringIO()
    traceview.write_html(blocks, "t", page)
    assert 'pid_change: ["pid change"' in page.getvalue()
    inst = [e for e in traceview.json_trace(blocks[0], "t")["traceEvents"] if e["name"] == "pid_change"]
    assert len(inst) == 1 and inst[0]["ph"] == "i" and inst[0]["cat"] == "staircase", inst
    assert inst[0]["pid"] == 93 and inst[0]["args"]["from"] == 94, inst
    assert not any("pid_change" in l for l in traceview.ftrace_lines(blocks[0]))


def main():
    return hostlib.run_tests(TESTS)


if __name__ == "__main__":
    sys.exit(main())
