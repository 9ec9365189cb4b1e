// The CoreSight PMU (arm_cspmu) on a bench of its own (tests/unit/unit_bench.h): a stub PMU clock,
// two CPUs, the overflow interrupt line observed, the frame accessed straight on the unit's socket
// the way Linux's drivers/perf/arm_cspmu/arm_cspmu.c does. Offsets and bit positions from
// tests/facts/cspmu.tsv; expected counts and instants from f x t.
#include <catch2/catch.hpp>

#include "cspmu/arm_cspmu.h"
#include "tests/unit/facts.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

constexpr uint64_t base = 0x2B000000;
constexpr uint64_t pmu_hz = 500'000'000; // the stub PMU clock: 500 MHz, one edge per 2 ns

uint64_t at(const char* reg) { return base + facts::fact_number("arm_cspmu", reg, "offset"); }
uint64_t bit(const char* reg, const char* field) { return facts::fact_field("arm_cspmu", reg, field).bit(); }

testing::unit_bench& around(testing::unit_bench& b) {
    b.add_clock("pmu", pmu_hz);
    b.add_clock("cpu", 2'000'000'000);
    b.add_cpu("cpu");
    b.add_cpu("cpu");
    b.add_irq("cspmu_irq");
    return b;
}

struct cspmu_bench {
    testing::unit_bench b;
    arm_cspmu pmu{"cspmu0", around(b).system, cspmu_options{}, "pmu", {0, 1}, "cspmu_irq", base, 0x1000};
};

// arm_cspmu_start + the cycle counter enabled (its bit C in PMCNTENSET, Linux's index 31).
void start_cycle_counter(bench_initiator& t, bool interrupt) {
    if (interrupt) t.write32(at("PMINTENSET"), uint32_t(bit("PMINTENSET", "C")));
    t.write32(at("PMCNTENSET"), uint32_t(bit("PMCNTENSET", "C")));
    t.write32(at("PMCR"), uint32_t(bit("PMCR", "E")));
}

} // namespace

TEST_CASE("cspmu bench: the cycle counter counts f x t and DVFS changes the rate from that instant") {
    cspmu_bench s;
    uint64_t at_2us = 0, at_3us = 0;
    s.b.run(s.pmu, [&](bench_initiator& t) {
        start_cycle_counter(t, false);
        t.wait_for(2 * fs_per_us);
        at_2us = t.read64(at("PMCCNTR"));
        s.b.clock("pmu").set_frequency(2 * pmu_hz, now_fs()); // 1 GHz from 2 us
        t.wait_for(1 * fs_per_us);
        at_3us = t.read64(at("PMCCNTR"));
    });
    CHECK(at_2us == 1000);        // 500 MHz x 2 us
    CHECK(at_3us == 1000 + 1000); // + 1 GHz x 1 us
}

TEST_CASE("cspmu bench: the overflow interrupt rises at the wrapping edge and falls when PMOVSCLR clears it") {
    cspmu_bench s;
    const uint32_t c = uint32_t(bit("PMOVSCLR", "C"));
    uint32_t ovs_before = 1, ovs_after = 0;
    s.b.run(s.pmu, [&](bench_initiator& t) {
        t.write64(at("PMCCNTR"), 0 - 1000ULL); // 1000 edges before the 64-bit wrap: 2 us at 500 MHz
        start_cycle_counter(t, true);
        t.wait_until(2 * fs_per_us - 1);
        ovs_before = t.read32(at("PMOVSSET"));
        t.wait_until(3 * fs_per_us);
        ovs_after = t.read32(at("PMOVSSET"));
        t.write32(at("PMOVSCLR"), c); // arm_cspmu_handle_irq: write the flags back to clear them
    });
    CHECK((ovs_before & c) == 0);
    CHECK((ovs_after & c) == c);
    CHECK(s.b.irq_edges("cspmu_irq") == std::vector<irq_edge>{{true, 2 * fs_per_us}, {false, 3 * fs_per_us}});
}

TEST_CASE("cspmu bench: PMCR.C zeroes the cycle counter and PMCR.P the event counters and both read back 0") {
    cspmu_bench s;
    uint64_t cycles_after_c = 1, event0_after_p = 1, pmcr = 1;
    s.b.run(s.pmu, [&](bench_initiator& t) {
        t.write64(at("PMEVCNTR0"), 12345);
        start_cycle_counter(t, false);
        t.wait_for(1 * fs_per_us);
        t.write32(at("PMCR"), uint32_t(bit("PMCR", "E") | bit("PMCR", "C") | bit("PMCR", "P")));
        cycles_after_c = t.read64(at("PMCCNTR"));
        event0_after_p = t.read64(at("PMEVCNTR0"));
        pmcr = t.read32(at("PMCR"));
    });
    CHECK(cycles_after_c == 0); // read in the same instant as the reset
    CHECK(event0_after_p == 0);
    CHECK(pmcr == bit("PMCR", "E")); // P and C are write-only: they read 0
}
