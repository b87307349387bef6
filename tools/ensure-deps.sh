#!/usr/bin/env bash
# ensure-deps.sh: make sure the host tools a make target needs are installed.
#
#   tools/ensure-deps.sh [-n] [tool ...]      (no tool: all of them)
#
# Each tool name below stands for the commands (and files) a target uses and
# the Debian packages that provide them. Missing packages are installed from
# Debian's archive with apt-get: directly as root, through `sudo -n` otherwise;
# when neither is possible (or with -n, "don't install") the script prints one
# line naming what is missing and the apt-get line to run, and exits 1. It
# prints nothing when everything is there. The installer's own output goes to
# build/ensure-deps.log (its last lines are shown if it fails).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=$here/../build/ensure-deps.log

all_tools="cc nasm qemu iso python pytest gdb hostcc cpio i386run glibc"

usage() {
    echo "usage: tools/ensure-deps.sh [-n] [tool ...]   tools: $all_tools" >&2
    exit 2
}

dry_run=0
if [ "${1:-}" = "-n" ]; then
    dry_run=1
    shift
fi
[ "$#" -gt 0 ] || set -- $all_tools

missing_pkgs=()
missing_what=()

# need PACKAGE WHAT: WHAT (a command or path) is missing; PACKAGE provides it.
need() {
    local p
    for p in "${missing_pkgs[@]+"${missing_pkgs[@]}"}"; do
        [ "$p" = "$1" ] && { missing_what+=("$2"); return; }
    done
    missing_pkgs+=("$1")
    missing_what+=("$2")
}

have() { command -v "$1" >/dev/null 2>&1; }

# py_has MODULE: python3 on PATH, or Debian's /usr/bin/python3, imports it.
py_has() {
    local py
    for py in python3 /usr/bin/python3; do
        "$py" -c "import $1" >/dev/null 2>&1 && return 0
    done
    return 1
}

# cmd COMMAND PACKAGE: require COMMAND on PATH.
cmd() { have "$1" || need "$2" "$1"; }

check() {
    case "$1" in
    cc)
        # A bare i686-elf cross compiler is the textbook choice; Debian ships
        # the i686-linux-gnu one, which builds freestanding code just as well.
        if ! have i686-elf-gcc; then
            cmd i686-linux-gnu-gcc gcc-i686-linux-gnu
            cmd i686-linux-gnu-ld binutils-i686-linux-gnu
        fi
        # Linux's i386 call names, for the kernel's unimplemented-call line
        [ -f /usr/i686-linux-gnu/include/asm/unistd_32.h ] ||
            need linux-libc-dev-i386-cross /usr/i686-linux-gnu/include/asm/unistd_32.h ;;
    nasm)   cmd nasm nasm ;;
    qemu)   cmd qemu-system-i386 qemu-system-x86 ;;
    iso)
        cmd grub-mkrescue grub-common
        cmd xorriso xorriso
        cmd mformat mtools
        # grub-mkrescue silently builds a non-BIOS ISO without these modules.
        # Debian builds grub-pc-bin for amd64 and i386 only; elsewhere
        # (arm64) tools/get-grub-pc.sh unpacks the amd64 package's modules
        # into build/grub/i386-pc, which make's ISO rule then uses.
        if [ ! -d /usr/lib/grub/i386-pc ] && [ ! -s "$here/../build/grub/i386-pc/modinfo.sh" ]; then
            case $(dpkg --print-architecture 2>/dev/null) in
            amd64|i386) need grub-pc-bin /usr/lib/grub/i386-pc ;;
            *) (cd "$here/.." && tools/get-grub-pc.sh >/dev/null) ||
                   need grub-pc-bin "/usr/lib/grub/i386-pc (tools/get-grub-pc.sh failed)" ;;
            esac
        fi ;;
    python) cmd python3 python3 ;;
    # the QEMU cases run under pytest (tools/pytest, tests/cases/conftest.py),
    # -n N from pytest-xdist: Debian's, for the python3 on PATH or Debian's own
    pytest)
        cmd python3 python3
        py_has pytest || need python3-pytest "python3's pytest"
        py_has xdist || need python3-pytest-xdist "python3's xdist" ;;
    gdb)    cmd gdb gdb ;;
    # the browser test of the trace viewer (tests/host-tools/test_browser.py);
    # not in all_tools: make test skips that stage when it cannot install it
    chromium) cmd chromium chromium ;;
    # the initramfs of the Linux side of tests/linux-diff.sh
    cpio)   cmd cpio cpio ;;
    # Debian's glibc for i386, static: the programs in user/glibc/ (built
    # by make when it is there; compared with Linux by tests/linux-diff.sh)
    glibc)
        [ -f /usr/i686-linux-gnu/lib/libc.a ] ||
            need libc6-dev-i386-cross /usr/i686-linux-gnu/lib/libc.a ;;
    hostcc)
        cmd gcc gcc
        cmd make make ;;
    # LTP's build (make ltp, tools/ltp/build.sh); not in all_tools
    autotools)
        cmd autoconf autoconf
        cmd automake automake
        cmd m4 m4
        cmd pkg-config pkg-config ;;
    # our i386 programs on the host (tools/run-i386): user-mode QEMU, only
    # where the host cannot execute them itself (Debian has qemu-user on
    # amd64 and arm64 alike)
    i386run)
        case $("$here/run-i386" --mode) in
        skip*) cmd qemu-i386 qemu-user ;;
        esac ;;
    *)
        echo "ensure-deps: unknown tool '$1'" >&2
        usage ;;
    esac
}

for t in "$@"; do check "$t"; done

[ "${#missing_pkgs[@]}" -eq 0 ] && exit 0

install_line="apt-get update && apt-get install -y --no-install-recommends ${missing_pkgs[*]}"
what="missing ${missing_what[*]} (package ${missing_pkgs[*]})"

if [ "$dry_run" -eq 1 ]; then
    echo "ensure-deps: $what; install with: $install_line" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif have sudo && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "ensure-deps: $what; not root and no password-less sudo: as root run $install_line" >&2
    exit 1
fi

echo "ensure-deps: installing ${missing_pkgs[*]} (log: build/ensure-deps.log)" >&2
mkdir -p "$(dirname "$log")"
if ! { "${as_root[@]+"${as_root[@]}"}" "$here/apt-update.sh" &&
       "${as_root[@]+"${as_root[@]}"}" env DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}"; } >>"$log" 2>&1; then
    tail -n 5 "$log" >&2
    echo "ensure-deps: $what; apt-get failed (no network?): as root run $install_line" >&2
    exit 1
fi

# Check again: a package that installed but did not bring the tool is an error.
missing_pkgs=()
missing_what=()
for t in "$@"; do check "$t"; done
if [ "${#missing_pkgs[@]}" -ne 0 ]; then
    echo "ensure-deps: still missing after install: ${missing_what[*]}" >&2
    exit 1
fi
