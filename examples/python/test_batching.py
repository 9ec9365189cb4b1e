"""Batching: many statements per round trip, results as Pending values, a failed expectation
inside a batch reported with the line that asked for it."""
import pytest

import pmusim


def test_a_batch_is_one_round_trip(pmusim_session):
    s = pmusim_session
    s.use(el=1)
    s.read("CLUSTERPMSELR_EL1")  # sends the `as` first
    before = s.round_trips
    with s.batch():
        writes = [s.write("CLUSTERPMSELR_EL1", n % 6) for n in range(100)]
        last = s.read("CLUSTERPMSELR_EL1")
    assert s.round_trips == before + 1
    assert all(w.value == "ok" for w in writes)
    assert last.value == 99 % 6


def test_many_statements_stay_in_step(pmusim_session):
    """More answers than one pipe buffer holds: the client sends in chunks and keeps the order."""
    s = pmusim_session
    with s.batch():
        reads = [s.read64(0x80000000 + 8 * (n % 16)) for n in range(3000)]
        for n in range(16):
            s.write64(0x80000000 + 8 * n, n * 0x0101010101010101)
        after = [s.read64(0x80000000 + 8 * n) for n in range(16)]
    assert all(r.value == 0 for r in reads)
    assert [a.value for a in after] == [n * 0x0101010101010101 for n in range(16)]


def test_a_failed_expectation_in_a_batch_names_its_line(pmusim_session):
    s = pmusim_session
    with pytest.raises(pmusim.ExpectationFailed) as failure:
        with s.batch():
            s.write("CLUSTERPMSELR_EL1", 1, el=1)
            s.expect_read("CLUSTERPMSELR_EL1", 2, el=1)
            s.expect_read("CLUSTERPMSELR_EL1", 1, el=1)
    line = test_a_failed_expectation_in_a_batch_names_its_line.__code__.co_firstlineno + 5
    assert str(failure.value).startswith(f"{__file__}:{line}: ")
    assert "expected 0x2" in str(failure.value)
