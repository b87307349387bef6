#!/usr/bin/env python3
"""The kernel's rooms: their size, their faces and their doors.

    python3 tests/host-tools/test_layout.py

Reads every C, header and assembly file of kernel/, drivers/, sched/ and
lib/ (tracked or not) and checks the house's rules (docs/kernel.md, "The
rooms"):

- no file is over 800 lines, so one can be read at a sitting;
- no comment names an issue number: comments state invariants, history
  is for git's messages and docs/bench.md;
- every `#include "..."` names a file that exists (beside the including
  file, from the repository's root, or under include/);
- kernel/ holds no loose .c file but its entry points (main.c, syscall.c);
- every folder has exactly one face header: the header whose comment says
  "Face of this folder. May call: A, B, C." (or "none");
- a file includes another folder's header only if its folder's face lists
  that folder under "May call", and every folder listed exists;
- sched/ includes only itself and the base (lib/), and lib/ only itself:
  they build unchanged in the host tests and the simulator;
- each lineage class's own files (docs/lineage.md) hold at most 600
  lines, the size its design allows.

One line per check, then "N passed, N failed".
"""
import os
import re
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOMS = ("kernel", "drivers", "sched", "lib")
ENTRY_POINTS = {"main.c", "syscall.c"}
MAX_LINES = 800
# Lineage mode's classes, each in the files of its own; the cfs header
# is cfs's, though eevdf (a flag on cfs) reads it too.
CLASS_FILES = {
    "o1": ("sched/policy_o1.c", "sched/o1.h"),
    "sd": ("sched/policy_sd.c", "sched/sd.h"),
    "cfs": ("sched/policy_cfs.c", "sched/cfs.h"),
    "eevdf": ("sched/policy_eevdf.c", "sched/eevdf_tree.c"),
}
MAX_CLASS_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Comments state invariants; history ("issue 29", what it measured)
# belongs in git's messages and docs/bench.md.
ISSUE = re.compile(r"\bissue \d+", re.I)
FACE = re.compile(r"Face of this folder\. May call: ([^.]*)\.")
# What sched/ and lib/ may include, beyond themselves (include/uapi/ is
# neither side's: its headers are found through -I include).
CLOSED = {"sched": {"sched", "lib"}, "lib": {"lib"}}


def sources(repo):
    for room in ROOMS:
        for dirpath, _, names in os.walk(os.path.join(repo, room)):
            for name in sorted(names):
                if name.endswith((".c", ".h", ".asm")):
                    yield os.path.join(dirpath, name)


def resolve(repo, path, inc):
    """The file an include names, relative to the repository, or None."""
    for base in (os.path.dirname(path), repo, os.path.join(repo, "include")):
        cand = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(cand):
            return os.path.relpath(cand, repo)
    return None


def faces(repo, files):
    """folder -> (face header, set of folders it may call), and errors."""
    found, errors = {}, []
    for rel, text in files.items():
        if not rel.endswith(".h"):
            continue
        m = FACE.search(text)
        if not m:
            continue
        folder = os.path.dirname(rel)
        if folder in found:
            errors.append(f"{folder} has two faces: {found[folder][0]}, {rel}")
            continue
        may = {w.strip() for w in m.group(1).split(",")}
        may.discard("none (include/uapi/ only)")
        may.discard("none")
        found[folder] = (rel, may)
    return found, errors


def check(repo):
    """A list of (check name, list of what breaks it)."""
    files = {}
    for path in sources(repo):
        with open(path, encoding="utf-8", errors="replace") as f:
            files[os.path.relpath(path, repo)] = f.read()
    folders = {os.path.dirname(rel) for rel in files}
    face, two_faces = faces(repo, files)

    long_files = [f"{rel} ({t.count(chr(10))} lines)"
                  for rel, t in files.items() if t.count("\n") > MAX_LINES]
    loose = [rel for rel in files
             if os.path.dirname(rel) == "kernel" and rel.endswith(".c")
             and os.path.basename(rel) not in ENTRY_POINTS]
    faceless = sorted(f for f in folders if f not in face)
    unknown = [f"{face[f][0]}: {g}" for f in sorted(face)
               for g in sorted(face[f][1]) if g not in folders]
    broken, forbidden, leaks = [], [], []
    for rel, text in sorted(files.items()):
        here = os.path.dirname(rel)
        room = rel.split("/")[0]
        for inc in INCLUDE.findall(text):
            target = resolve(repo, os.path.join(repo, rel), inc)
            if target is None:
                broken.append(f"{rel}: {inc}")
                continue
            there = os.path.dirname(target)
            if target.startswith("include/") or there == here:
                continue
            if room in CLOSED and there.split("/")[0] not in CLOSED[room]:
                leaks.append(f"{rel}: {inc}")
            if here in face and there not in face[here][1]:
                forbidden.append(f"{rel}: {inc} ({there} is not in "
                                 f"{face[here][0]}'s May call)")
    big_classes = []
    for name, parts in CLASS_FILES.items():
        lines = sum(files[p].count("\n") for p in parts if p in files)
        if lines > MAX_CLASS_LINES:
            big_classes.append(f"{name} ({lines} lines in {', '.join(parts)})")
    history = [f"{rel}:{text[:m.start()].count(chr(10)) + 1}"
               for rel, text in sorted(files.items())
               for m in ISSUE.finditer(text)]
    return [
        (f"no_kernel_file_over_{MAX_LINES}_lines", long_files),
        (f"each_lineage_class_in_at_most_{MAX_CLASS_LINES}_lines", big_classes),
        ("no_issue_numbers_in_code_comments", history),
        ("every_include_names_a_file", broken),
        ("kernel_has_no_loose_c_files_but_its_entry_points", loose),
        ("every_folder_has_one_face_header", faceless + two_faces),
        ("every_may_call_names_a_folder", unknown),
        ("every_include_is_a_door_its_face_lists", forbidden),
        ("sched_includes_only_itself_and_lib_and_lib_only_itself", leaks),
    ]


def rooms_table(repo):
    """docs/kernel.md's table of the rooms, made from the face headers."""
    files = {}
    for path in sources(repo):
        if path.endswith(".h"):
            with open(path, encoding="utf-8", errors="replace") as f:
                files[os.path.relpath(path, repo)] = f.read()
    face, _ = faces(repo, files)
    rows = ["| room | face | may call |", "|---|---|---|"]
    for folder in sorted(face, key=lambda f: (f.count("/") > 0, f)):
        may = ", ".join(f"`{m}`" for m in sorted(face[folder][1])) or "nothing"
        rows.append(f"| `{folder}/` | `{face[folder][0]}` | {may} |")
    return "\n".join(rows) + "\n"


def docs_table_is_current(repo):
    """The table between the markers of docs/kernel.md is rooms_table()."""
    path = os.path.join(repo, "docs", "kernel.md")
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- rooms -->\n(.*?)<!-- /rooms -->", text, re.S)
    if not m:
        return ["docs/kernel.md has no <!-- rooms --> table"]
    if m.group(1) != rooms_table(repo):
        return ["docs/kernel.md's rooms table differs from the faces "
                "(python3 tests/host-tools/test_layout.py --table prints it)"]
    return []


def fake_house(root):
    """A house that breaks each rule once: the checks must catch it."""
    def put(rel, text):
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)
    put("lib/lib.h", "/* Face of this folder. May call: none. */\n")
    put("drivers/drivers.h", "/* Face of this folder. May call: lib. */\n")
    put("kernel/syscall.h", "/* Face of this folder. May call: kernel/mm. */\n")
    put("kernel/mm/mm.h", "/* Face of this folder. May call: lib, kernel/nowhere. */\n")
    put("kernel/mm/vm.c", '#include "drivers/drivers.h"\n#include "gone.h"\n')
    put("kernel/loose.c", "")
    put("kernel/time/tick.c", "")
    put("sched/sched.h", '/* Face of this folder. May call: lib, kernel/mm. */\n'
        '#include "../kernel/mm/mm.h"\n')
    put("sched/big.c", "\n" * (MAX_LINES + 1))
    put("lib/old.c", "/* faster since issue 12 */\n")
    put("sched/policy_sd.c", "\n" * 590)
    put("sched/sd.h", "\n" * 11)


def selftest():
    """Each check, run on fake_house(), reports what was broken."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        fake_house(root)
        caught = {name: bad for name, bad in check(root)}
    want = {
        f"no_kernel_file_over_{MAX_LINES}_lines": "sched/big.c",
        "every_include_names_a_file": "gone.h",
        "no_issue_numbers_in_code_comments": "lib/old.c:1",
        f"each_lineage_class_in_at_most_{MAX_CLASS_LINES}_lines": "sd (601 lines",
        "kernel_has_no_loose_c_files_but_its_entry_points": "kernel/loose.c",
        "every_folder_has_one_face_header": "kernel/time",
        "every_may_call_names_a_folder": "kernel/nowhere",
        "every_include_is_a_door_its_face_lists": "drivers/drivers.h",
        "sched_includes_only_itself_and_lib_and_lib_only_itself": "../kernel/mm/mm.h",
    }
    return [f"{name} missed {what}" for name, what in want.items()
            if not any(what in b for b in caught.get(name, []))]


def main():
    passed = failed = 0
    if sys.argv[1:] == ["--table"]:
        sys.stdout.write(rooms_table(REPO))
        return 0
    for name, bad in [("each_check_catches_what_it_forbids", selftest()),
                      ("docs_kernel_md_shows_the_rooms_as_the_faces_say",
                       docs_table_is_current(REPO))] + check(REPO):
        if bad:
            failed += 1
            print(f"not ok - {name}: {', '.join(bad[:12])}"
                  + (f" (and {len(bad) - 12} more)" if len(bad) > 12 else ""))
        else:
            passed += 1
            print(f"ok - {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
