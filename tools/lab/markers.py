"""markers.py - the lab markers in the C sources, and the trees made from them.

A lab region in a .c or .h file of the tree (docs/labs.md, "Markers") is
only its two markers around the code the normal build compiles:

    /* LAB batch BEGIN */
    ... the code the normal build compiles ...
    /* LAB batch END */

What a lab puts there instead lives in tools/lab/, never in the sources a
student reads: tools/lab/LAB/stub-regions/PATH holds the stubs of LAB's
regions in PATH, and tools/lab/LAB/solution-regions/PATH their reference
solutions, each region written in PATH's order as

    /* LAB batch BEGIN */
    /* LAB batch STUB          (or SOLUTION)
    ... what a student of lab batch gets instead ...
    */
    /* LAB batch END */

(a region there with no block keeps the tree's code). Such a file, if it
exists, has exactly as many regions of LAB as PATH has; without one,
every region of LAB in PATH keeps its code: a region without a stub gives
the student the code as it is (a lab that adds something, such as policy,
marks the places where it goes), one without a solution is its own
solution. Every marker is alone on its line. Stub and solution text may
not contain a C comment; a line comment (// text) in them becomes a C
comment in the tree that gets the text. A STUB or SOLUTION block in the
tree's own sources is refused.

Trees (Python 3 standard library only):
  student_tree(lab)   the lab's regions as stubs (their BEGIN and END kept,
                      to show where to work), every other region as the
                      normal build has it, the lab's overlay files
                      (tools/lab/LAB/tree/) added, no SOLUTION text and no
                      tools/lab/*/solution/ or solution-regions/ at all;
  solution_tree(lab)  the reference solution: the lab's SOLUTION blocks and
                      its tools/lab/LAB/solution/ files in, its overlay too.
"""
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

MARKER = re.compile(r"^\s*/\* LAB (\w+) (BEGIN|END)\b.*\*/\s*$")
BLOCK = re.compile(r"^\s*/\* LAB (\w+) (STUB|SOLUTION)\s*$")
BLOCK_END = re.compile(r"^\s*\*/\s*$")
ANY_MARK = re.compile(r"/\* LAB \w+ (BEGIN|END|STUB|SOLUTION)\b")
SOURCE_EXT = (".c", ".h")


class MarkerError(Exception):
    pass


class Region:
    def __init__(self, lab, begin_line):
        self.lab = lab
        self.begin_line = begin_line        # the BEGIN marker, as written
        self.live = []                      # lines the normal build compiles
        self.stub = None                    # lines, or None: the live ones
        self.solution = None                # lines, or None: the live ones


def parse(text, where="?", blocks=False):
    """The text as a list of plain lines and Regions; blocks: may it hold
    STUB and SOLUTION blocks (a tools/lab/LAB/*-regions/ file) or not (a
    source of the tree)."""
    out, region, block, block_name = [], None, None, None
    for n, line in enumerate(text.split("\n"), 1):
        if block is not None:
            if BLOCK_END.match(line):
                setattr(region, block_name, block)
                block = None
                continue
            if "/*" in line or "*/" in line:
                raise MarkerError(f"{where}:{n}: a C comment inside a LAB {block_name.upper()} "
                                  "block (write // instead)")
            block.append(line)
            continue
        m = MARKER.match(line)
        b = BLOCK.match(line)
        if m and m.group(2) == "BEGIN":
            if region:
                raise MarkerError(f"{where}:{n}: LAB {m.group(1)} BEGIN inside LAB "
                                  f"{region.lab}'s region (regions do not nest)")
            region = Region(m.group(1), line)
        elif m:
            if not region or region.lab != m.group(1):
                raise MarkerError(f"{where}:{n}: LAB {m.group(1)} END without its BEGIN")
            out.append(region)
            region = None
        elif b:
            if not blocks:
                kind = b.group(2).lower()
                raise MarkerError(f"{where}:{n}: a LAB {b.group(1)} {b.group(2)} block in the "
                                  f"sources: it belongs in tools/lab/{b.group(1)}/{kind}-regions/"
                                  f"{where}")
            if not region or region.lab != b.group(1):
                raise MarkerError(f"{where}:{n}: LAB {b.group(1)} {b.group(2)} outside "
                                  "its region")
            block_name = b.group(2).lower()
            if getattr(region, block_name) is not None:
                raise MarkerError(f"{where}:{n}: a second {b.group(2)} in one region")
            block = []
        elif ANY_MARK.search(line):
            raise MarkerError(f"{where}:{n}: a LAB marker must be alone on its line: "
                              f"{line.strip()!r}")
        elif region:
            if region.stub is not None or region.solution is not None:
                if line.strip():
                    raise MarkerError(f"{where}:{n}: code after a STUB or SOLUTION block "
                                      f"(it must come right before LAB {region.lab} END)")
                continue
            region.live.append(line)
        else:
            out.append(line)
    if block is not None or region:
        raise MarkerError(f"{where}: LAB {region.lab} region not closed")
    return out


REGION_KINDS = ("stub", "solution")


def region_file(lab, kind, path, root=ROOT):
    """tools/lab/LAB/KIND-regions/PATH: the stubs or solutions of lab's
    regions in path."""
    return os.path.join(root, "tools", "lab", lab, f"{kind}-regions", path)


def attach_blocks(items, path, root=ROOT):
    """Give the Regions of path (parsed) their stubs and solutions from
    tools/lab/LAB/{stub,solution}-regions/PATH, in order."""
    by_lab = {}
    for it in items:
        if isinstance(it, Region):
            by_lab.setdefault(it.lab, []).append(it)
    for lab, regions in by_lab.items():
        for kind in REGION_KINDS:
            f = region_file(lab, kind, path, root)
            if not os.path.isfile(f):
                continue
            rel = os.path.relpath(f, root)
            with open(f, encoding="utf-8") as fh:
                found = [it for it in parse(fh.read(), rel, blocks=True)
                         if isinstance(it, Region)]
            if [r.lab for r in found] != [lab] * len(regions):
                raise MarkerError(f"{rel}: {len(found)} region(s), but {path} has "
                                  f"{len(regions)} of lab {lab} (one each, in order)")
            for mine, theirs in zip(regions, found):
                if any(l.strip() for l in theirs.live):
                    raise MarkerError(f"{rel}: code outside a {kind.upper()} block in LAB "
                                      f"{lab}'s region (the tree's code is {path}'s)")
                if getattr(theirs, "solution" if kind == "stub" else "stub") is not None:
                    raise MarkerError(f"{rel}: a {kind}-regions file holds only {kind.upper()} "
                                      "blocks")
                setattr(mine, kind, getattr(theirs, kind))
    return items


def load(path, root=ROOT):
    """A source of the tree, parsed, its regions with their blocks."""
    with open(os.path.join(root, path), encoding="utf-8") as fh:
        return attach_blocks(parse(fh.read(), path), path, root)


def line_comments(lines):
    """// comments to C comments: a run of whole-line ones becomes a block."""
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)// ?(.*)$", lines[i])
        if m:
            indent, run = m.group(1), []
            while i < len(lines):
                m2 = re.match(r"^(\s*)// ?(.*)$", lines[i])
                if not m2 or m2.group(1) != indent:
                    break
                run.append(m2.group(2))
                i += 1
            if len(run) == 1:
                out.append(f"{indent}/* {run[0]} */")
            else:
                out.append(f"{indent}/*")
                out.extend(f"{indent} * {r}".rstrip() for r in run)
                out.append(f"{indent} */")
            continue
        m = re.match(r"^(.*\S)\s+// ?(.*)$", lines[i])
        out.append(f"{m.group(1)}\t/* {m.group(2)} */" if m else lines[i])
        i += 1
    return out


def render(items, lab, mode):
    """mode "student": lab's regions as stubs between their markers;
    "solution": lab's regions as its solution; "plain": every region as
    the normal build has it. Markers of other labs disappear."""
    out = []
    for it in items:
        if isinstance(it, str):
            out.append(it)
        elif it.lab != lab or mode == "plain":
            out.extend(it.live)
        elif mode == "student":
            out.append(re.sub(r"BEGIN\b.*\*/", "BEGIN: yours to write (README-LAB.md) */",
                              it.begin_line))
            out.extend(line_comments(it.stub) if it.stub is not None else it.live)
            indent = it.begin_line[:len(it.begin_line) - len(it.begin_line.lstrip())]
            out.append(f"{indent}/* LAB {lab} END */")
        else:
            out.extend(line_comments(it.solution) if it.solution is not None else it.live)
    return "\n".join(out)


def tree_files(root=ROOT):
    """The files a tree is made of: what git tracks or would track (the
    working tree's content), never build/ or .git; without git, a walk
    that skips build/, .git and objects."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=root,
                             capture_output=True, check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x not in (".git", "build", "__pycache__")]
            for name in names:
                if not name.endswith((".o", ".d", ".pyc")):
                    files.append(os.path.relpath(os.path.join(d, name), root))
    keep = []
    for f in sorted(set(files)):
        if f.startswith((".git/", "build/")) or "/build/" in f or "__pycache__" in f:
            continue
        if not os.path.isfile(os.path.join(root, f)) or os.path.islink(os.path.join(root, f)):
            continue
        keep.append(f)
    return keep


def untracked_files(root=ROOT):
    """tree_files() that git does not track (new, never added): make lab
    warns about them, and leaves them out with --clean."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "-o", "--exclude-standard"], cwd=root,
                             capture_output=True, check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return []
    return sorted(set(out.split("\0")) & set(tree_files(root)))


def is_solution_only(path):
    """tools/lab/LAB/solution/... and solution-regions/...: never in a
    student tree."""
    parts = path.split("/")
    return len(parts) > 3 and parts[:2] == ["tools", "lab"] and \
        parts[3] in ("solution", "solution-regions")


def regions_by_lab(root=ROOT):
    """{lab: [(path, Region), ...]} over the tree's C sources."""
    found = {}
    for f in tree_files(root):
        if f.endswith(SOURCE_EXT) and not f.startswith("tools/lab/"):
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                text = fh.read()
            if "/* LAB " not in text:
                continue
            for it in attach_blocks(parse(text, f), f, root):
                if isinstance(it, Region):
                    found.setdefault(it.lab, []).append((f, it))
    return found


def copy_overlay(src_dir, dest):
    """Add the files under src_dir to dest at the same relative paths."""
    added = []
    if not os.path.isdir(src_dir):
        return added
    for d, _, names in os.walk(src_dir):
        for name in sorted(names):
            if name.endswith((".o", ".d", ".pyc")):
                continue
            src = os.path.join(d, name)
            rel = os.path.relpath(src, src_dir)
            dst = os.path.join(dest, rel)
            if os.path.exists(dst):
                raise MarkerError(f"{os.path.relpath(src, ROOT)}: the tree already has {rel}")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            added.append(rel)
    return added


def make_tree(dest, lab, mode, known_labs, root=ROOT, leave_out=()):
    """Write the tree of `lab` in `mode` ("student" or "solution") to dest,
    which must not exist or be empty, without the files in leave_out.
    Returns the overlay files added."""
    if os.path.exists(dest) and os.listdir(dest):
        raise MarkerError(f"{dest} exists and is not empty: remove it or choose another DEST")
    os.makedirs(dest, exist_ok=True)
    for f in tree_files(root):
        if is_solution_only(f) or f in leave_out:
            continue
        src, dst = os.path.join(root, f), os.path.join(dest, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if f.endswith(SOURCE_EXT) and not f.startswith("tools/lab/"):
            with open(src, encoding="utf-8") as fh:
                text = fh.read()
            if "/* LAB " in text:
                items = attach_blocks(parse(text, f), f, root)
                for it in items:
                    if isinstance(it, Region) and it.lab not in known_labs:
                        raise MarkerError(f"{f}: LAB {it.lab}: no such lab "
                                          f"(labs: {', '.join(known_labs)})")
                text = render(items, lab, mode)
            with open(dst, "w", encoding="utf-8") as fh:
                fh.write(text)
            shutil.copymode(src, dst)
        else:
            shutil.copy2(src, dst)
    added = copy_overlay(os.path.join(HERE, lab, "tree"), dest)
    if mode == "solution":
        added += copy_overlay(os.path.join(HERE, lab, "solution"), dest)
    return added


def has_reference_parts(lab, root=ROOT):
    """Does the solution tree need to be built to grade lab (an overlay,
    or SOLUTION blocks), or is the tree as it is its solution?"""
    if os.path.isdir(os.path.join(HERE, lab, "tree")) or \
            os.path.isdir(os.path.join(HERE, lab, "solution")):
        return True
    return any(r.solution is not None for _, r in regions_by_lab(root).get(lab, []))
