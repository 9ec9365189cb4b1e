"""A DSU cluster PMU overflow, driven as the Linux arm_dsu_pmu driver does (docs/python.md).

Facts: CLUSTERPMXEVTYPER event 0x11 is CYCLES, the DSU clock (DSU TRM, and Linux
drivers/perf/arm_dsu_pmu.c `DSU_PMU_EVT_CYCLES 0x11`); a 64-bit event counter set 16 below
2^64 wraps on the 16th DSU clock edge and, with its CLUSTERPMINTENSET bit set, raises
nCLUSTERPMUIRQ at that edge; writing its bit to CLUSTERPMOVSCLR lowers it. arm-default's DSU
clock is 1 GHz (platforms/), so the edge is at 16 ns.
"""
import pytest

import pmusim


def test_counter_wrap_raises_the_interrupt_at_the_16th_edge(pmusim_session):
    s = pmusim_session
    s.use(cpu=0, el=1)
    with s.batch():  # one round trip for the whole set-up
        s.write("CLUSTERPMSELR_EL1", 3)
        s.write("CLUSTERPMXEVTYPER_EL1", 0x11)
        s.write("CLUSTERPMXEVCNTR_EL1", 2**64 - 16)
        s.write("CLUSTERPMINTENSET_EL1", 1 << 3)
        s.write("CLUSTERPMCNTENSET_EL1", 1 << 3)
        s.write("CLUSTERPMCR_EL1", 1)
    assert s.run(cycles=15, clock="dsu0") == []
    s.expect_irq("dsu0", False)
    edges = s.run(cycles=1, clock="dsu0")
    assert edges == [pmusim.IrqEdge("dsu0_pmu_irq", True, 16 * 10**6)]  # 16 ns in fs
    s.expect_read("CLUSTERPMOVSCLR_EL1", 1 << 3)
    s.write("CLUSTERPMOVSCLR_EL1", 1 << 3)  # the handler clears the flag
    assert s.irq_levels["dsu0_pmu_irq"] is False
    s.expect_irq("dsu0", False)


def test_interrupt_callback_sees_each_edge(pmusim_session):
    s = pmusim_session
    seen = []
    s.on_irq(seen.append)
    s.use(el=1)
    s.write("CLUSTERPMCCNTR_EL1", 2**64 - 2)
    s.write("CLUSTERPMINTENSET_EL1", 1 << 31)
    s.write("CLUSTERPMCNTENSET_EL1", 1 << 31)
    s.write("CLUSTERPMCR_EL1", 1)
    s.wait_irq("dsu0", True, timeout="1us")
    s.write("CLUSTERPMOVSCLR_EL1", 1 << 31)
    assert [(e.line, e.high) for e in seen] == [("dsu0_pmu_irq", True), ("dsu0_pmu_irq", False)]
    assert seen[0].time_fs == 2 * 10**6  # the second 1 GHz DSU edge
