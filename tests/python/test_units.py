"""The Python client (python/pmusim) on every unit and mode (issue 31 item 7): CMN-600, POWER9 IMC
and the CoreSight PMU, a cold reset, the reference mode, and a `pmusim serve` that dies under the
client. Expected values come from the facts files (tests/facts, field positions transcribed from
cmn-tools, Linux and the Arm ARM) and from the sources cited at each test, never from pmusim.
"""
import os
import signal
import time

import pytest

import pmusim

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
FACTS = os.path.join(SOURCE, "tests", "facts")


def fact(unit, reg, kind, field=""):
    """The first applicable fact of tests/facts/*.tsv (docs/facts.md), as a number or (lsb, width)."""
    for name in sorted(os.listdir(FACTS)):
        if not name.endswith(".tsv"):
            continue
        for line in open(os.path.join(FACTS, name), encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            if c[:4] == [unit, reg, kind, field] and not c[6].startswith("n/a"):
                return tuple(int(v, 0) for v in c[4].split(",")) if kind == "field" else int(c[4], 0)
    raise LookupError(f"tests/facts has no {kind} fact for {unit} {reg}.{field}")


def get(value, unit, reg, field):
    lsb, width = fact(unit, reg, "field", field)
    return (value >> lsb) & ((1 << width) - 1)


@pytest.fixture
def session_on(request):
    """A factory of sessions on any platform (and serve arguments), closed at teardown."""
    made = []

    def make(platform, *args):
        s = pmusim.Session(platform=platform, pmusim=request.config.getoption("--pmusim"), args=list(args))
        made.append(s)
        return s

    yield make
    for s in made:
        s.close(check=False)


def test_cmn_discovery_from_the_configuration_node(session_on):
    # cmn-2x2.yaml: PERIPHBASE 0x50000000, root node at 0x404000 (tests/platforms/cmn-2x2.yaml).
    s = session_on(os.path.join(SOURCE, "tests", "platforms", "cmn-2x2.yaml"))
    s.use(cpu=0, el=1)
    root = 0x50000000 + 0x404000
    info = s.read64(root + fact("cmn600_cfg", "node_info", "offset"))
    # Linux drivers/perf/arm-cmn.c CMN_TYPE_CFG = 0x0002; a 2x2 mesh has four XPs (CMN-600 TRM).
    assert get(info, "cmn600_cfg", "node_info", "node_type") == 0x0002
    child = s.read64(root + fact("cmn600_cfg", "child_info", "offset"))
    assert get(child, "cmn600_cfg", "child_info", "child_count") == 4
    # Each child pointer leads to an XP whose node_info says XP (CMN_TYPE_XP = 0x0006).
    first = get(child, "cmn600_cfg", "child_info", "child_ptr_offset")
    for i in range(4):
        ptr = s.read64(root + first + 8 * i)
        xp = s.read64(0x50000000 + (ptr & ((1 << 28) - 1)))
        assert get(xp, "cmn600_xp", "node_info", "node_type") == 0x0006, hex(ptr)
    assert s.close() == 0


def test_imc_ldbar_holds_what_the_hypervisor_writes(session_on):
    # Linux arch/powerpc/perf/imc-pmu.c thread_imc_event_add: LDBAR = address | THREAD_IMC_ENABLE.
    s = session_on("power9-default")
    s.use(cpu=4, priv="hv")
    enable = 1 << fact("imc", "LDBAR", "field", "ENABLE")[0]
    s.write("LDBAR", enable | 0x10404000)
    s.expect_read("LDBAR", enable | 0x10404000)
    s.write("LDBAR", 0)
    s.expect_read("LDBAR", 0)
    assert s.close() == 0


def test_coresight_pmu_configuration_as_linux_probes_it(session_on):
    # tests/platforms/cspmu.yaml: 8 event counters of 64 bits and a cycle counter at 0x2B000000.
    # Linux arm_cspmu.c: num_logical_ctrs = PMCFGR.N + 1 (the cycle counter included), counter
    # size = PMCFGR.SIZE + 1 bits, PMCFGR.CC = a dedicated cycle counter.
    s = session_on(os.path.join(SOURCE, "tests", "platforms", "cspmu.yaml"))
    s.use(cpu=0, el=1)
    base = 0x2B000000
    cfgr = s.read32(base + fact("arm_cspmu", "PMCFGR", "offset"))
    assert get(cfgr, "arm_cspmu", "PMCFGR", "N") + 1 == 8 + 1
    assert get(cfgr, "arm_cspmu", "PMCFGR", "SIZE") + 1 == 64
    assert get(cfgr, "arm_cspmu", "PMCFGR", "CC") == 1
    # A counter written through one view reads back through the bus (arm_cspmu_write_counter).
    s.write64(base + fact("arm_cspmu", "PMCCNTR", "offset"), 0x1234_5678_9ABC)
    s.expect_read64(base + fact("arm_cspmu", "PMCCNTR", "offset"), 0x1234_5678_9ABC)
    assert s.close() == 0


def test_cold_reset_clears_the_amu_counters(session_on):
    # DDI0487 D24: the activity monitor counters reset to 0 on a cold reset.
    s = session_on("arm-default")
    s.use(cpu=0, el=1)
    s.run(cycles=2000, clock="cpu0")
    assert s.read("AMEVCNTR00_EL0") == 2000  # CPU_CYCLES at cpu0's clock
    s.statement("reset cold")
    s.expect_read("AMEVCNTR00_EL0", 0)
    assert s.close() == 0


@pytest.mark.parametrize("mode", [(), ("--reference",)])
def test_dsu_overflow_edge_is_the_same_in_both_modes(session_on, mode):
    # A counter 16 below 2^64 counting CYCLES (0x11, Linux arm_dsu_pmu.c) on the 1 GHz DSU clock
    # wraps at the 16th edge: 16 ns, in the fast and the per-cycle reference mode alike.
    s = session_on("arm-default", *mode)
    s.use(cpu=0, el=1)
    with s.batch():
        s.write("CLUSTERPMSELR_EL1", 0)
        s.write("CLUSTERPMXEVTYPER_EL1", 0x11)
        s.write("CLUSTERPMXEVCNTR_EL1", 2**64 - 16)
        s.write("CLUSTERPMINTENSET_EL1", 1)
        s.write("CLUSTERPMCNTENSET_EL1", 1)
        s.write("CLUSTERPMCR_EL1", 1)
    assert s.run(cycles=15, clock="dsu0") == []
    assert s.run(cycles=1, clock="dsu0") == [pmusim.IrqEdge("dsu0_pmu_irq", True, 16 * 10**6)]
    assert s.close() == 0


def test_a_dying_serve_is_an_error_not_a_hang(session_on):
    s = session_on("arm-default")
    s.use(cpu=0, el=1)
    s.read("AMCNTENSET0_EL0")
    s.proc.kill()
    s.proc.wait()

    def hung(*_):
        raise AssertionError("the client hangs on a dead pmusim serve")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    started = time.monotonic()
    try:
        with pytest.raises(pmusim.PmusimError):
            s.read("AMCNTENSET0_EL0")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert time.monotonic() - started < 20
    assert s.close(check=False) != 0
