#!/usr/bin/env python3
"""elfsize.py - text, data and bss of an ELF file, as binutils' `size`
(Berkeley format) counts them, with python3's standard library only, for
make bench's image-size figures (tools/bench/sched.sh, docs/bench.md).

    tools/bench/elfsize.py build/kernel.elf

prints "kernel_text N bytes", "kernel_data N bytes", "kernel_bss N bytes"
and "kernel_elf_file N bytes". Of the sections that take memory
(SHF_ALLOC): text is every read-only one (code and read-only data), data
every writable one with contents, bss every writable one without
(SHT_NOBITS).
"""
import os
import struct
import sys

SHF_WRITE, SHF_ALLOC = 0x1, 0x2
SHT_NOBITS = 8


def sizes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise ValueError(f"{path}: not an ELF file")
    is64, little = data[4] == 2, data[5] == 1
    end = "<" if little else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x2E)
    text = dat = bss = 0
    for i in range(shnum):
        off = shoff + i * shentsize
        if is64:
            _, stype, flags = struct.unpack_from(end + "IIQ", data, off)
            size, = struct.unpack_from(end + "Q", data, off + 0x20)
        else:
            _, stype, flags = struct.unpack_from(end + "III", data, off)
            size, = struct.unpack_from(end + "I", data, off + 0x14)
        if not flags & SHF_ALLOC:
            continue
        if stype == SHT_NOBITS:
            bss += size
        elif flags & SHF_WRITE:
            dat += size
        else:
            text += size
    return text, dat, bss, len(data)


def main():
    if len(sys.argv) != 2:
        print("usage: elfsize.py FILE", file=sys.stderr)
        return 2
    try:
        text, dat, bss, total = sizes(sys.argv[1])
    except (OSError, ValueError, struct.error) as e:
        print(f"elfsize: {e}", file=sys.stderr)
        return 1
    print(f"kernel_text {text} bytes")
    print(f"kernel_data {dat} bytes")
    print(f"kernel_bss {bss} bytes")
    print(f"kernel_elf_file {os.path.getsize(sys.argv[1])} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
