"""EL gating of the CLUSTERPM* registers (DSU TRM; tests/sequences/dsu/el_gating.seq says the same
in the sequence language), and the AMU's architected cycle counter (Arm ARM: AMEVCNTR00 counts
processor cycles; arm-default's cpu0 runs at 2 GHz)."""
import pytest

import pmusim


def test_el0_access_is_undefined_and_el1_reads(pmusim_session):
    s = pmusim_session
    assert s.read("CLUSTERPMCR_EL1", el=0, outcome="undefined") is None
    assert s.write("CLUSTERPMCR_EL1", 0, el=0, outcome="undefined") == "undefined"
    # PMCR.N (bits 15:11) is the number of event counters: arm-default's DSU has 6.
    assert (s.read("CLUSTERPMCR_EL1", el=1) >> 11) & 0x1F == 6


def test_write_traps_to_el2_without_actlr_el2_clusterpmuen(pmusim_session):
    s = pmusim_session
    s.write("ACTLR_EL2", 0, el=3)  # bit 12 CLUSTERPMUEN clear
    assert s.write("CLUSTERPMSELR_EL1", 2, el=1, outcome="trap el2") == "trap el2"


def test_amu_cycle_counter_counts_cpu_cycles(pmusim_session):
    s = pmusim_session
    s.run("1us")  # 2 GHz x 1 us
    pmusim.expect_equal(s.read("AMEVCNTR00_EL0", el=1), 2000, "AMEVCNTR00_EL0 after 1 us")


def test_an_unexpected_outcome_names_this_line(pmusim_session):
    with pytest.raises(pmusim.ExpectationFailed) as failure:
        pmusim_session.read("CPTR_EL3", el=1)  # an EL3 register at EL1: UNDEFINED, not ok
    line = test_an_unexpected_outcome_names_this_line.__code__.co_firstlineno + 2
    assert str(failure.value).startswith(f"{__file__}:{line}: read CPTR_EL3: outcome undefined, expected ok")


def test_bad_input_is_an_input_error(pmusim_session):
    with pytest.raises(pmusim.InputError, match="unknown register 'NO_SUCH_REG'"):
        pmusim_session.read("NO_SUCH_REG")
    assert pmusim_session.read("CLUSTERPMSELR_EL1", el=1) == 0  # the session goes on
