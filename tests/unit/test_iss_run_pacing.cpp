// Time and interrupt pacing's arithmetic (iss/run_pacing.h), apart from SystemC. Expected values
// follow the rules docs/firmware.md states ("Time", "SMP: runs in quanta"; issue 28's exact
// interrupts: a run never passes the next pending activity) on a 1 GHz clock, whose edge n lies at
// n ns (models/clock_domain.h: edges in (0, t]); every figure is worked out by hand below.
#include <catch2/catch.hpp>

#include "iss/run_pacing.h"

using namespace pmusim;

namespace {
constexpr fs_t ns = 1'000'000, us = 1'000 * ns, ms = 1'000 * us;
constexpr uint64_t none = run_pacing::no_limit;
} // namespace

TEST_CASE("iss run pacing: retired instructions move local time to the clock edge their last cycle ends on", "[iss]") {
    clock_domain clk("core", 1'000'000'000);
    const run_pacing one(clk, 1), three(clk, 3);
    CHECK(one.after(0, 10) == 10 * ns);
    CHECK(three.after(0, 10) == 30 * ns);     // 3 cycles an instruction
    CHECK(one.after(ns / 2, 1) == ns);        // from between edges: the next edge
    CHECK(one.after(7 * ns, 0) == 7 * ns);
    // DVFS: at 500 MHz from 100 ns, edge k after it lies 2k ns later.
    clk.set_frequency(500'000'000, 100 * ns);
    CHECK(one.after(100 * ns, 5) == 110 * ns);
    CHECK(one.after(96 * ns, 6) == 104 * ns); // 97..100 at 1 ns, then 102 and 104
}

TEST_CASE("iss run pacing: one CPU runs to the next pending activity or the time limit or the cap and at least one instruction", "[iss]") {
    clock_domain clk("core", 1'000'000'000);
    const run_pacing one(clk, 1), two(clk, 2);
    auto p = one.plan_run(0, 0, 100 * ns, 1 * ms, false, none);
    CHECK_FALSE(p.wait_first);
    CHECK(p.limit == 100 * ns);
    CHECK(p.budget == 100);
    CHECK(p.soft_budget == none);
    CHECK(two.plan_run(0, 0, 100 * ns, 1 * ms, false, none).budget == 50);
    CHECK(one.plan_run(0, 0, 100 * ns, 1 * ms, false, 7).budget == 7); // a debugger's step
    p = one.plan_run(5 * ns, 5 * ns, 100 * ns, 50 * ns, false, none);   // the time limit first
    CHECK(p.limit == 50 * ns);
    CHECK(p.budget == 45);
    p = one.plan_run(5 * ns, 5 * ns, 0, 1 * ms, false, none); // an activity due now: still one instruction
    CHECK(p.limit == 5 * ns);
    CHECK(p.budget == 1);
    p = one.plan_run(0, 0, ~fs_t(0) / 2, 2 * us, false, none); // nothing pending: the time limit
    CHECK(p.limit == 2 * us);
    CHECK(p.budget == 2000);
}

TEST_CASE("iss run pacing: with other CPUs a run ends softly at the 1 us quantum and waits for the boundary", "[iss]") {
    clock_domain clk("core", 1'000'000'000);
    const run_pacing one(clk, 1);
    CHECK(run_pacing::quantum_end(0) == 1 * us);
    CHECK(run_pacing::quantum_end(1 * us - 1) == 1 * us);
    CHECK(run_pacing::quantum_end(1 * us) == 2 * us);
    // From 0.5 us with the next event 10 us away: the hard budget runs to the event, the soft one
    // to the quantum's end (500 instructions).
    auto p = one.plan_run(500 * ns, 500 * ns, 10 * us, 1 * ms, true, none);
    CHECK(p.limit == 10500 * ns);
    CHECK(p.budget == 10000);
    CHECK(p.quantum_end == 1 * us);
    CHECK(p.soft_budget == 500);
    // An event before the quantum's end: no soft limit, the run ends at the event exactly.
    p = one.plan_run(0, 0, 300 * ns, 1 * ms, true, none);
    CHECK(p.soft_budget == none);
    CHECK(p.budget == 300);
    // A debugger's step: no soft limit.
    CHECK(one.plan_run(0, 0, 10 * us, 1 * ms, true, 1).soft_budget == none);
    // The CPU ran a block past the quantum (local 1.2 us, SystemC 1.0 us) and an event is due at
    // 1.1 us: it happens first.
    CHECK(one.plan_run(1 * us, 1200 * ns, 100 * ns, 1 * ms, true, none).wait_first);
    CHECK_FALSE(one.plan_run(1 * us, 1200 * ns, 100 * ns, 1 * ms, false, none).wait_first);
    // After a run stopped at the soft limit: wait for the quantum's end, or for the CPU's own time
    // when the clock put its last instruction's end just before it.
    CHECK(run_pacing::boundary_after(500, 1 * us, true, 1003 * ns) == 1 * us);
    CHECK(run_pacing::boundary_after(500, 1 * us, true, 999 * ns) == 999 * ns);
    CHECK(run_pacing::boundary_after(500, 1 * us, false, 1003 * ns) == 0);
    CHECK(run_pacing::boundary_after(none, 1 * us, true, 1003 * ns) == 0);
}
