#!/usr/bin/env python3
"""mkelf.py - the ELF loader's test programs (docs/userland.md, "Exec").

    tests/elf/mkelf.py OUT                  OUT/i, OUT/cases
    tests/elf/mkelf.py --fuzz SEED N OUT    OUT/i, OUT/fuzz-SEED

write, for /elf (OUT), in multiboot modules beside the initrd (Makefile:
build/elf-cases.tar, build/elf-fuzz-SEED.tar; the initrd's /bin stays as
it is, and the kernel keeps 1,024 files at most):
    i/          interpreters the programs name in PT_INTERP
    cases/      the named cases below, one rule of Linux 6.1's
                load_elf_binary each (fs/binfmt_elf.c): make test
    fuzz-SEED/  N mutations of the base programs, seeded with SEED: make
                stress
and in cases/ and fuzz-SEED/ an index that /bin/elfrun
(user/glibc/elfrun.c) reads, one line per program: "NAME EXPECT [ALT
REASON]". EXPECT is the outcome Linux 6.1 gave for the same file,
recorded in tests/elf/SET.linux (cases.linux, fuzz-1.linux...; "?" when
none is recorded); ALT is an outcome this kernel gives on purpose instead
(DELIBERATE below), with its reason. Outcomes: exit:N, signal:NAME (SEGV,
BUS...), errno:NAME (execve's error), timeout (still running after a
second).

The programs are hand-built: an ELF header, program headers, tiny.asm's
code (assembled here with nasm) and a data segment, about 700 bytes, so
thousands of variants stay small. Everything is seeded: the same SEED
gives the same files, so a recorded Linux run stays valid.
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
PT_NULL, PT_LOAD, PT_INTERP, PT_NOTE, PT_PHDR = 0, 1, 3, 4, 6
PT_GNU_STACK = 0x6474E551
PF_X, PF_W, PF_R = 1, 2, 4
EXEC_BASE = 0x08048000
CODE_OFF = 0x100        # tiny.asm's code in the file and the text segment
DATA_OFF = 0x200        # the data segment's bytes in the file
MAGIC = 0x600DDA7A
TEXT_FILL = 0xCC        # the file's bytes between the code and the data
JUNK = b"\xEF\xBE\xAD\xDE" * 16     # after the data's 12 bytes: must not show

# Outcomes this kernel gives on purpose where Linux 6.1 kills the process
# with SIGSEGV after exec's point of no return (begin_new_exec): a segment
# Linux cannot map (vm_mmap fails: an offset not congruent with the
# address, an address below mmap_min_addr or above TASK_SIZE, p_filesz >
# p_memsz, a bss it cannot clear) makes execve fail here before anything
# of the caller is gone, so the caller lives and sees the error.
DELIBERATE = {
    "signal:SEGV": ("errno:", "refused before the point of no return; "
                    "Linux finds it after and kills with SIGSEGV"),
}


# This kernel's fixed stack: its 8 MiB (kernel/mm/mm.h MMAP_BASE up to the
# kernel's half) hold no segment. Linux's stack top is randomized, so
# whether a segment there collides with it is chance on Linux.
STACK_AREA = (0xBFFFF000 - (8 << 20), 0xC0000000)
STACK_REASON = ("a segment in the stack's 8 MiB: refused here, where the stack "
                "is fixed; on Linux, whose stack top is random, it may load")


def in_stack_area(data):
    """Does a PT_LOAD of this file (placed as exec places it) reach into
    STACK_AREA? Only for files whose header and table can be read."""
    if len(data) < 52 or data[:4] != b"\x7fELF":
        return False
    etype, phoff, phentsize, phnum = (struct.unpack_from("<H", data, 16)[0],
                                      struct.unpack_from("<I", data, 28)[0],
                                      *struct.unpack_from("<HH", data, 42))
    if phentsize != 32 or phoff + 32 * phnum > len(data):
        return False
    ph = [struct.unpack_from("<8I", data, phoff + 32 * i) for i in range(phnum)]
    loads = [p for p in ph if p[0] == PT_LOAD]
    bias = (0x400000 - (loads[0][2] & ~0xFFF)) if etype == ET_DYN and loads else 0
    for p in loads:
        start, end = (p[2] + bias) & 0xFFFFFFFF, p[2] + bias + p[5]
        if p[5] and start < STACK_AREA[1] and end > STACK_AREA[0]:
            return True
    return False


def assemble(delta, textpast=0):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "tiny.bin")
        subprocess.run(["nasm", "-f", "bin", "-DDELTA=%d" % delta,
                        "-DTEXTPAST=%d" % textpast, "-o", out,
                        os.path.join(HERE, "tiny.asm")], check=True)
        with open(out, "rb") as f:
            return f.read()


class Elf:
    """An ELF file as fields: the header, the program headers, the bytes
    (the header and program headers are written over them at the end)."""
    HDR = "<4sBBBB8xHHIIIIIHHHHHH"

    def __init__(self, etype=ET_EXEC, base=EXEC_BASE, mode=0, status=0,
                 text_filesz=DATA_OFF, data_vaddr=None):
        data_vaddr = base + 0x1000 + DATA_OFF if data_vaddr is None else data_vaddr
        here = base + CODE_OFF + 5
        code = assemble(data_vaddr - here, base + text_filesz - here)
        body = bytearray(DATA_OFF)
        body[CODE_OFF:] = bytes([TEXT_FILL]) * (DATA_OFF - CODE_OFF)
        body[CODE_OFF:CODE_OFF + len(code)] = code
        body += struct.pack("<III", MAGIC, mode, status) + JUNK
        self.body = body
        self.ident = [1, 1, 1, 0]       # EI_CLASS, EI_DATA, EI_VERSION, EI_OSABI
        self.h = dict(type=etype, machine=3, version=1, entry=base + CODE_OFF,
                      phoff=52, shoff=0, flags=0, ehsize=52, phentsize=32,
                      phnum=None, shentsize=40, shnum=0, shstrndx=0)
        self.ph = [
            [PT_LOAD, 0, base, base, text_filesz, DATA_OFF, PF_R | PF_X, 0x1000],
            [PT_LOAD, DATA_OFF, data_vaddr, data_vaddr, 12, 0x1100, PF_R | PF_W, 0x1000],
            [PT_GNU_STACK, 0, 0, 0, 0, 0, PF_R | PF_W, 16],
        ]

    def append(self, data):
        """Add bytes at the end of the file: their offset."""
        off = len(self.body)
        self.body += data
        return off

    def interp(self, path):
        off = self.append(path + b"\0")
        self.ph.insert(0, [PT_INTERP, off, 0, 0, len(path) + 1, len(path) + 1, PF_R, 1])

    def bytes(self):
        h = self.h
        phnum = len(self.ph) if h["phnum"] is None else h["phnum"]
        if h["phoff"] + 32 * len(self.ph) > CODE_OFF and h["phoff"] == 52:
            h["phoff"] = len(self.body) + (-len(self.body)) % 4
        out = bytearray(self.body)
        hdr = struct.pack(self.HDR, b"\x7fELF", *self.ident, h["type"], h["machine"],
                          h["version"], h["entry"], h["phoff"], h["shoff"], h["flags"],
                          h["ehsize"], h["phentsize"], phnum, h["shentsize"],
                          h["shnum"], h["shstrndx"])
        out[0:len(hdr)] = hdr
        tab = b"".join(struct.pack("<8I", *p) for p in self.ph)
        end = h["phoff"] + len(tab)
        if h["phoff"] > len(out):
            return bytes(out)           # the table is past the end of the file
        if end > len(out):
            out += bytes(end - len(out))
        out[h["phoff"]:end] = tab
        return bytes(out)


def pie(**kw):
    return Elf(ET_DYN, base=0, **kw)


def named_cases():
    """(name, Elf or bytes): one rule each."""
    c = []
    add = lambda n, e: c.append((n, e))
    add("static_runs", Elf())
    add("pie_runs", pie())
    e = Elf(status=42); e.interp(b"/elf/i/pie"); add("interp_pie", e)
    e = Elf(); e.interp(b"/elf/i/exec"); add("interp_et_exec", e)
    e = pie(); e.interp(b"/elf/i/pie"); add("pie_interp_pie", e)
    e = Elf(); e.interp(b"/elf/i/missing"); add("interp_missing", e)
    e = Elf(); e.interp(b"/elf/i/notelf"); add("interp_not_elf", e)
    e = Elf(); e.interp(b"/elf/i/short"); add("interp_short_file", e)
    e = Elf(); e.interp(b"/elf/i/em_x86_64"); add("interp_wrong_machine", e)
    e = Elf(); e.interp(b"/elf/i/et_rel"); add("interp_et_rel", e)
    e = Elf(); e.interp(b"/elf/i/nophdr"); add("interp_no_phdrs", e)
    e = Elf(); e.interp(b"/" * 150 + b"elf/i/pie"); add("interp_path_150", e)
    e = Elf(); e.interp(b"/" * 4000 + b"elf/i/pie"); add("interp_path_4009", e)
    e = Elf(); e.interp(b"/" * 4100 + b"elf/i/pie"); add("interp_path_over_path_max", e)
    e = Elf(); e.interp(b"/elf/i/pie"); e.body[-1] = ord("x"); add("interp_no_nul", e)
    e = Elf(); e.interp(b"/elf/i/pie"); e.ph[0][1] = 0x100000; add("interp_offset_past_eof", e)
    e = Elf(); e.interp(b"/"); add("interp_path_1_byte", e)
    e = Elf(); e.interp(b"/elf/i/missing"); e.interp(b"/elf/i/pie"); add("interp_first_of_two", e)
    e = Elf(); e.ident[0] = 2; add("ei_class_64_ignored", e)
    e = Elf(); e.ident[1] = 2; add("ei_data_msb_ignored", e)
    e = Elf(); e.ident[2] = 0; e.h["version"] = 0; add("ei_version_0_ignored", e)
    e = Elf(); e.h["machine"] = 6; add("em_486_runs", e)
    e = Elf(); e.h["machine"] = 62; add("em_x86_64_enoexec", e)
    e = Elf(); e.h["type"] = ET_REL; add("et_rel_enoexec", e)
    e = Elf(); e.h["type"] = 4; add("et_core_enoexec", e)
    e = Elf(); e.h["phentsize"] = 36; add("phentsize_36_enoexec", e)
    e = Elf(); e.h["phnum"] = 0; add("phnum_0_enoexec", e)
    e = Elf(); e.ph += [[PT_NULL] + [0] * 7] * 37; add("phnum_40_runs", e)
    e = Elf(); e.ph += [[PT_NOTE] + [0] * 7] * 125; add("phnum_128_runs", e)
    e = Elf(); e.ph += [[PT_NULL] + [0] * 7] * 126; add("phnum_129_enoexec", e)
    e = Elf(); e.h["phoff"] = 0x10000; add("phoff_past_eof_enoexec", e)
    e = Elf(); e.ph[1][6] = PF_R; add("data_without_pf_w", e)
    e = Elf(); e.ph[1][6] = PF_R; e.ph[1][5] = 12; add("data_without_pf_w_no_bss", e)
    e = Elf(mode=1); add("text_write_segv", e)
    e = Elf(mode=1); e.ph[0][6] = PF_R | PF_W | PF_X; add("text_with_pf_w_writable", e)
    e = Elf(mode=2, text_filesz=0x1F0); add("text_bss_keeps_file_page", e)
    e = Elf(); e.ph[0][6] = PF_R; add("text_without_pf_x_runs_no_nx", e)
    e = Elf(); e.ph[0][6] = 0; add("text_no_flags_runs_no_nx", e)
    e = Elf(); e.ph[1][1] = DATA_OFF + 4; add("data_offset_unaligned", e)
    e = Elf(); e.ph[1][2] += 4; e.ph[1][3] += 4; add("data_vaddr_unaligned", e)
    e = Elf(); e.ph[1][4] = 0x2000; add("data_filesz_over_memsz", e)
    e = Elf(); e.ph[1][4] = 0x1100; add("data_filesz_past_eof_sigbus", e)
    e = Elf(); e.ph[1][4] = 0x5000; e.ph[1][5] = 0x5000; add("data_filesz_far_past_eof", e)
    e = Elf(); e.ph[1][1] = 0x100000 + DATA_OFF; add("data_offset_past_eof", e)
    e = Elf(data_vaddr=EXEC_BASE + DATA_OFF); e.ph[1][1] = DATA_OFF
    add("data_shares_text_page", e)
    e = Elf(mode=1, data_vaddr=EXEC_BASE + DATA_OFF); add("data_shares_text_page_writable", e)
    e = Elf(); e.ph[1][2] = e.ph[1][3] = 0xBFFFF200; add("data_near_stack", e)
    e = Elf(); e.ph[1][2] = e.ph[1][3] = 0xC0001200; add("data_in_kernel_half", e)
    e = Elf(); e.ph[1][5] = 0x50000000; add("data_memsz_huge", e)
    e = Elf(); e.ph[1][5] = 0xFFFFF000; add("data_memsz_wraps", e)
    e = Elf(base=0); add("exec_at_page_0", e)
    e = Elf(); e.h["entry"] = 0x10000000; add("entry_unmapped_segv", e)
    e = Elf(); e.h["entry"] = 0xC0000000; add("entry_kernel_half", e)
    e = Elf(); e.ph = [p for p in e.ph if p[0] != PT_LOAD]; add("no_pt_load", e)
    e = Elf(); e.ph[0], e.ph[1] = e.ph[1], e.ph[0]; add("loads_out_of_order", e)
    e = pie(); e.ph[0][2] = e.ph[0][3] = 0x1000; add("pie_text_not_at_0", e)
    e = Elf(); e.ph.append([PT_LOAD, 0, 0x30000000, 0x30000000, 0x1000, 0x1000, PF_R, 0x1000])
    add("segment_filesz_whole_page", e)
    e = Elf(); e.interp(b"/elf/i/tail_past_eof"); add("interp_bss_page_past_eof", e)
    e = Elf(); e.ph[1][4] = 0x1000; add("data_bss_page_past_eof_runs", e)
    e = Elf(); e.interp(b"/elf/i/pie"); e.ph = [p for p in e.ph if p[0] != PT_LOAD]
    add("interp_and_no_pt_load", e)
    e = pie(); e.interp(b"/elf/i/pie"); e.ph[2][7] = 0x80000000; add("pie_p_align_2g", e)
    e = pie(); e.ph[1][7] = 0x80000000; add("pie_no_interp_p_align_ignored", e)
    e = Elf(); e.ph[0][1] = 0xFFFFF000; add("text_offset_wraps", e)
    e = Elf(); e.ph[0][1] = 0x10000000; add("text_offset_past_eof_sigbus", e)
    e = Elf(); e.ph.append([PT_LOAD, 0, 0xBFFFF000, 0, 0x200, 0x200, PF_R, 0x1000])
    add("segment_in_stack_area", e)
    c.append(("short_header", Elf().bytes()[:40]))
    c.append(("not_elf", b"\x7fELG" + Elf().bytes()[4:]))
    return c


def interpreters():
    i = {"pie": pie(status=42).bytes(),
         "exec": Elf(base=0x10000000, status=43).bytes(),
         "notelf": b"not an ELF file\n" * 8,
         "short": b"\x7fELF\1\1\1",
         "nophdr": None, "em_x86_64": None, "et_rel": None, "tail_past_eof": None}
    e = pie(); e.h["machine"] = 62; i["em_x86_64"] = e.bytes()
    e = pie(); e.h["type"] = ET_REL; i["et_rel"] = e.bytes()
    e = pie(); e.h["phnum"] = 0; i["nophdr"] = e.bytes()
    e = pie(status=42); e.ph[1][4] = 0x1000; i["tail_past_eof"] = e.bytes()
    return i


# ---- the fuzzer's mutations ---------------------------------------------

def interesting(rng, old):
    return rng.choice([0, 1, 2, 3, 4, 0xFFF, 0x1000, 0x1001, 0x7FFFFFFF, 0x80000000,
                       0xBFFFF000, 0xC0000000, 0xFFFFF000, 0xFFFFFFFF,
                       old + 1, old - 1, old + 0x1000, old - 0x1000, old ^ (1 << rng.randrange(32)),
                       rng.randrange(1 << 32), rng.randrange(0x10000)]) & 0xFFFFFFFF


def mutate(rng, e):
    """One mutation of e's fields or bytes: what it did, in words."""
    kind = rng.randrange(6)
    if kind == 0 and e.ph:
        i, f = rng.randrange(len(e.ph)), rng.randrange(8)
        e.ph[i][f] = interesting(rng, e.ph[i][f])
        return "ph%d.%d" % (i, f)
    if kind == 1:
        k = rng.choice(["type", "machine", "entry", "phoff", "phentsize", "phnum"])
        old = e.h[k] if e.h[k] is not None else len(e.ph)
        v = interesting(rng, old)
        e.h[k] = v & 0xFFFF if k in ("type", "machine", "phentsize", "phnum") else v
        return k
    if kind == 2:
        e.ident[rng.randrange(4)] = rng.randrange(256)
        return "ident"
    if kind == 3 and e.ph:
        i = rng.randrange(len(e.ph))
        e.ph.insert(rng.randrange(len(e.ph) + 1), list(e.ph[i]))
        return "dup"
    if kind == 4 and len(e.ph) > 1:
        i, j = rng.sample(range(len(e.ph)), 2)
        e.ph[i], e.ph[j] = e.ph[j], e.ph[i]
        return "swap"
    e.body[rng.randrange(len(e.body))] ^= 1 << rng.randrange(8)
    return "bit"


def bases():
    """The programs the fuzzer mutates: static, PIE, each with and
    without an interpreter; and (tags mp, me, one pick in eight) an
    unchanged static program whose interpreter, a PIE or an ET_EXEC one,
    is the mutated file."""
    def with_interp(mk, path):
        def f():
            e = mk()
            e.interp(path)
            return e
        return f
    b = [("s", Elf), ("p", pie), ("si", with_interp(Elf, b"/elf/i/pie")),
         ("pi", with_interp(pie, b"/elf/i/pie")), ("se", with_interp(Elf, b"/elf/i/exec"))]
    return b + [("mp", lambda: pie(status=42)),
                ("me", lambda: Elf(base=0x10000000, status=43))]


def copy(src):
    e = Elf.__new__(Elf)
    e.body, e.ident = bytearray(src.body), list(src.ident)
    e.h, e.ph = dict(src.h), [list(p) for p in src.ph]
    return e


def fuzz_cases(n, seed):
    """(name, Elf, listed): listed programs go into the index; the others
    are the mutated interpreters they name."""
    rng = random.Random(seed)
    made = {}
    out = []
    for i in range(n):
        kinds = bases()
        tag, mk = kinds[rng.randrange(len(kinds) - 2)] if rng.randrange(8) else \
            kinds[len(kinds) - 2 + rng.randrange(2)]
        if tag not in made:
            made[tag] = mk()
        e = copy(made[tag])
        what = [mutate(rng, e) for _ in range(rng.choice([1, 1, 2, 3]))]
        name = "%s%04d_%s" % (tag, i, "+".join(what))
        if tag in ("mp", "me"):
            out.append((name + ".interp", e, False))
            e = Elf()
            e.interp(b"/elf/fuzz-%d/%s.interp" % (seed, name.encode()))
        out.append((name, e, True))
    return out


# ---- output ---------------------------------------------------------------

def recorded(name):
    path = os.path.join(HERE, name + ".linux")
    rec = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) >= 2 and not line.startswith("#"):
                rec[f[0]] = f[1]
    return rec


def write_set(out, name, cases):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    rec = recorded(name)
    with open(os.path.join(d, "index"), "w") as idx:
        for n, e, listed in cases:
            data = e if isinstance(e, bytes) else e.bytes()
            p = os.path.join(d, n)
            with open(p, "wb") as f:
                f.write(data)
            os.chmod(p, 0o755)
            if not listed:
                continue
            expect = rec.get(n, "?")
            line = "%s %s" % (n, expect)
            if expect in DELIBERATE:
                alt, why = DELIBERATE[expect]
                line += " %s %s" % (alt, why.replace(" ", "_"))
            elif expect != "?" and in_stack_area(data):
                line += " errno:ENOEXEC %s" % STACK_REASON.replace(" ", "_")
            idx.write(line + "\n")


def write_interpreters(out):
    os.makedirs(os.path.join(out, "i"), exist_ok=True)
    for name, data in interpreters().items():
        p = os.path.join(out, "i", name)
        with open(p, "wb") as f:
            f.write(data)
        os.chmod(p, 0o755)


def main(argv):
    fuzz = len(argv) == 5 and argv[1] == "--fuzz"
    out = argv[4] if fuzz else argv[1]
    write_interpreters(out)             # each module has them
    if fuzz:
        seed, n = int(argv[2]), int(argv[3])
        write_set(out, "fuzz-%d" % seed, fuzz_cases(n, seed))
    else:
        write_set(out, "cases", [(n, e, True) for n, e in named_cases()])


if __name__ == "__main__":
    main(sys.argv)
