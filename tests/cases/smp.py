"""SMP bring-up, the per-CPU timer, and console input.

Tagged "smp" so that `make test` can leave them out until SMP lands. The
kernel prints one summary line and one line per CPU (docs/abi.md):
    smp: N CPUs online: P packages x C cores x T threads
    cpuK: apic A package P core C thread T
QEMU numbers APIC IDs by fields, thread bits lowest, then core, then package,
each field as wide as the next power of two (so cores=3 leaves gaps).
"""
import re

from harness import Case, parse_smp

TOPOLOGIES = [
    "1,sockets=1,cores=1,threads=1",
    "2,sockets=2,cores=1,threads=1",
    "4,sockets=1,cores=2,threads=2",
    "8,sockets=2,cores=2,threads=2",
    "16,sockets=1,cores=8,threads=2",
    "12,sockets=2,cores=3,threads=2",     # package 1 starts at APIC ID 8
]
# Under hardware KVM only -cpu qemu64,+topoext (or EPYC) reports the
# split into cores and threads through CPUID (docs/hardware-notes.md §5).
KVM_TOPOLOGIES = TOPOLOGIES[2:4] + TOPOLOGIES[5:]

CPU_LINE = (r"^cpu(\d+): apic (0x[0-9a-fA-F]+|\d+) package (\d+) "
            r"core (\d+) thread (\d+)\b")


def field_bits(count):
    """Width of a topology field in the APIC ID: log2 rounded up."""
    return (count - 1).bit_length()


def expected_apic_ids(sockets, cores, threads):
    """{apic id: (package, core, thread)} for QEMU's layout."""
    tbits, cbits = field_bits(threads), field_bits(cores)
    return {(p << (cbits + tbits)) | (c << tbits) | t: (p, c, t)
            for p in range(sockets) for c in range(cores)
            for t in range(threads)}


def cpu_lines(log, cpus):
    """The kernel's cpuK lines as (k, apic, package, core, thread) with the
    APIC ID as a number, or an error message if there are not cpus of them."""
    lines = re.findall(CPU_LINE, log, re.M)
    if len(lines) != cpus:
        return None, f"{len(lines)} cpuK lines, expected {cpus}"
    return [(k, int(a, 16) if a.lower().startswith("0x") else int(a), p, c, t)
            for k, a, p, c, t in lines], None


def topology_check(smp):
    cpus, sockets, cores, threads = parse_smp(smp)
    expected = expected_apic_ids(sockets, cores, threads)

    def check(log):
        lines, error = cpu_lines(log, cpus)
        if error:
            return False, error
        numbers = sorted(int(k) for k, *_ in lines)
        if numbers != list(range(cpus)):
            return False, f"CPU numbers {numbers}, expected 0..{cpus - 1}"
        seen = {}
        for k, apic, p, c, t in lines:
            place = (int(p), int(c), int(t))
            if apic not in expected:
                return False, (f"cpu{k}: apic {apic} is not an ID QEMU gives "
                               f"{smp} (expected {sorted(expected)})")
            if place != expected[apic]:
                return False, (f"cpu{k}: apic {apic} is package/core/thread "
                               f"{expected[apic]}, kernel says {place}")
            if apic in seen:
                return False, f"cpu{k} and cpu{seen[apic]} both have apic {apic}"
            seen[apic] = k
        return True, f"{cpus} CPUs, APIC IDs {sorted(seen)}"
    return check


def smp_case(smp, cpu, accel="tcg"):
    cpus, sockets, cores, threads = parse_smp(smp)
    label = "kvm" if accel == "kvm" else cpu
    return Case(f"smp_{sockets}x{cores}x{threads}_{label}", smp=smp, cpu=cpu,
                accel=accel, append="tests=none then=poweroff",
                timeout=60 if cpus >= 8 else 30,
                tags=("smp", "kvm") if accel == "kvm" else ("smp",),
                expect=[rf"^smp: {cpus} CPUs online: {sockets} packages x "
                        rf"{cores} cores x {threads} threads\b"],
                check=topology_check(smp))


# CPU models whose CPUID cannot tell cores from threads: qemu32 limited to
# leaf 1, and qemu32 posing as AMD without TOPOEXT (no leaf 4 on AMD, no
# 0x80000008: like KVM's default model on an AMD host). The kernel must
# boot every CPU, know the packages, and admit "? cores x ? threads",
# treating each CPU as a core of its own (thread 0).
HIDDEN_TOPOLOGY_CPUS = ("qemu32,level=1", "qemu32,vendor=AuthenticAMD")


def unknown_split_check(smp):
    cpus, sockets, cores, threads = parse_smp(smp)
    expected = expected_apic_ids(sockets, cores, threads)

    def check(log):
        lines, error = cpu_lines(log, cpus)
        if error:
            return False, error
        places = set()
        for k, apic, p, c, t in lines:
            if apic not in expected:
                return False, f"cpu{k}: apic {apic} is not an ID QEMU gives {smp}"
            if int(p) != expected[apic][0] or int(t) != 0:
                return False, (f"cpu{k}: apic {apic} should be package "
                               f"{expected[apic][0]} thread 0, kernel says "
                               f"package {p} thread {t}")
            places.add((int(p), int(c)))
        if len(places) != cpus:
            return False, "two CPUs share a core although the split is unknown"
        return True, f"{cpus} CPUs, each its own core"
    return check


def unknown_split_case(smp, cpu):
    cpus, sockets, _, _ = parse_smp(smp)
    label = cpu.replace(",", "_").replace("=", "")
    return Case(f"smp_unknown_split_{cpus}_{label}", smp=smp, cpu=cpu,
                append="tests=none then=poweroff", tags=("smp",),
                expect=[rf"^smp: {cpus} CPUs online: {sockets} packages x "
                        r"\? cores x \? threads"],
                check=unknown_split_check(smp))


# The kernel counts each CPU's timer interrupts over a window it measures
# itself. The brief's line is "timer: cpuK T ticks in M ms"; "timer: cpuK
# ticks T in M ms" is accepted too. The kernel appends "(I interrupts, L
# lost)": ticks QEMU dropped while the host did not run a vCPU are credited
# from the TSC (drivers/timer.c), so L shows how loaded the host was.
TIMER_LINE = (r"^timer: cpu(\d+):? (?:(\d+) ticks|ticks (\d+)) "
              r"in (\d+) ms\b")
TIMER_TOLERANCE = 0.02


def timer_check(hz, cpus):
    def check(log):
        lines = re.findall(TIMER_LINE, log, re.M)
        if len({k for k, *_ in lines}) != cpus:
            return False, f"timer lines for {len(lines)} CPUs, expected {cpus}"
        notes = []
        for k, t1, t2, ms in lines:
            ticks, ms = int(t1 or t2), int(ms)
            want = hz * ms / 1000
            if ms <= 0 or abs(ticks - want) > TIMER_TOLERANCE * want:
                return False, (f"cpu{k}: {ticks} ticks in {ms} ms, expected "
                               f"{want:.0f} +/- {TIMER_TOLERANCE:.0%}")
            notes.append(f"cpu{k} {ticks / want - 1:+.2%}")
        return True, ", ".join(notes)
    return check


def timer_case(hz, smp="2,sockets=1,cores=2,threads=1"):
    cpus = parse_smp(smp)[0]
    # hz=100 runs no kernel instruction that hz=1000 does not (tools/testcov.py):
    # make test-all only (docs/testing.md, "The time budget")
    more = ("all",) if hz == 100 else ()
    return Case(f"timer_hz{hz}", smp=smp, cpu="max",
                append=f"hz={hz} test=timer tests=none then=poweroff",
                tags=("smp", "timer") + more, retry=True, exclusive=True,
                expect=[TIMER_LINE], check=timer_check(hz, cpus))


CASES = (
    [smp_case(smp, cpu) for smp in TOPOLOGIES for cpu in ("qemu32", "max")]
    + [smp_case(smp, "qemu64,+topoext", accel="kvm")
       for smp in KVM_TOPOLOGIES]
    + [unknown_split_case(smp, cpu) for cpu in HIDDEN_TOPOLOGY_CPUS
       for smp in ("4,sockets=1,cores=2,threads=2",
                   "8,sockets=2,cores=2,threads=2")]
    + [smp_case("32,sockets=2,cores=8,threads=2", "qemu32")]
    + [Case("ipi", smp="8,sockets=2,cores=2,threads=2",
            append="test=ipi tests=none then=poweroff", tags=("smp",),
            expect=[r"^ipi: call-function \(wait\) reached 8 of 8 CPUs",
                    r"^ipi: call-function ring .* reached 8 of 8 CPUs",
                    r"^ipi: resched reached 8 of 8 CPUs"])]
    # An AP that a busy host runs after the boot CPU gave up on it must halt
    # (boot/trampoline.asm's claim), not start on a freed stack after the
    # identity map is gone: that triple-faulted a CI boot. smp_wait_ms=0
    # gives up at once, and under -icount the vCPUs take turns, so the AP
    # takes its pending STARTUP only after the boot CPU has moved on.
    + [Case("smp_late_ap", smp="2,sockets=1,cores=2,threads=1",
            append="smp_wait_ms=0 tests=none run=/bin/hello then=exit",
            qemu_args=["-icount", "shift=5,sleep=off"], tags=("smp",),
            expect_order=[r"^smp: cpu with apic 1 did not answer in 0 ms; "
                          r"skipped",
                          r"^smp: 1 CPUs online: 1 packages x 1 cores x "
                          r"1 threads",
                          r"^hello from pid \d+",
                          r"^init: exiting with status 0"])]
    + [timer_case(100), timer_case(1000)]
    + [Case("serial_echo", append="test=echo tests=none then=poweroff",
            tags=("console", "quick"),
            send=[(r"^echo: ready\b", b"ping\r")],
            expect_order=[r"^echo: ready\b", r'^echo: got "ping"'])]
)
