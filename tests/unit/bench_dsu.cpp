// The DSU CLUSTERPMU on a bench of its own (tests/unit/unit_bench.h): a stub DSU clock, two CPUs
// whose L3 activity the test sets, the nCLUSTERPMUIRQ line observed and the CLUSTERPM*_EL1
// registers accessed straight on the unit's socket. Encodings and bit positions from
// tests/facts/dsu.tsv (Linux arm_dsu_pmu.h, TF-A), expected counts from f x t x rate.
#include <catch2/catch.hpp>

#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "tests/unit/facts.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

uint32_t key(const char* reg) { return facts::fact_encoding("dsu_clusterpmu", reg).key(); }
uint64_t bit(const char* reg, const char* field) { return facts::fact_field("dsu_clusterpmu", reg, field).bit(); }

constexpr uint64_t dsu_hz = 1'000'000'000; // the stub DSU clock: 1 GHz, one edge per ns
constexpr uint64_t cpu_hz = 2'000'000'000;
constexpr uint32_t l3d_cache = 0x2B; // L3D_CACHE (DSU TRM; Linux arm_dsu_pmu "l3d_cache" event=0x2b)

// The cluster around the unit: clocks `dsu` and `cpu`, cpu0 and cpu1 on `cpu`, the irq line.
testing::unit_bench& cluster(testing::unit_bench& b) {
    b.add_clock("dsu", dsu_hz);
    b.add_clock("cpu", cpu_hz);
    b.add_cpu("cpu");
    b.add_cpu("cpu");
    b.add_irq("nclusterpmuirq");
    return b;
}

struct dsu_bench {
    testing::unit_bench b;
    // A DSU-110 with its default options, its registers reached as system registers only.
    dsu_clusterpmu dsu{"dsu0", cluster(b).system, dsu_options{}, "dsu", {0, 1}, "nclusterpmuirq", 0, 0};
};

// PMCR.E, the cycle counter and event counter 0 counting L3D_CACHE, as cpu0 at EL3.
void enable_cycles_and_l3(bench_initiator& t) {
    t.write_sysreg(0, key("CLUSTERPMSELR_EL1"), 0);
    t.write_sysreg(0, key("CLUSTERPMXEVTYPER_EL1"), l3d_cache);
    t.write_sysreg(0, key("CLUSTERPMCNTENSET_EL1"), bit("CLUSTERPMCNTENSET_EL1", "C") | 1);
    t.write_sysreg(0, key("CLUSTERPMCR_EL1"), bit("CLUSTERPMCR_EL1", "E"));
}
uint64_t event_counter0(bench_initiator& t) {
    t.write_sysreg(0, key("CLUSTERPMSELR_EL1"), 0);
    return t.read_sysreg(0, key("CLUSTERPMXEVCNTR_EL1"));
}

} // namespace

TEST_CASE("dsu bench: the cycle counter counts f x t and L3D_CACHE the cores' rates") {
    dsu_bench s;
    uint64_t cycles = 0, l3 = 0;
    s.b.run(s.dsu, [&](bench_initiator& t) {
        s.b.core(0).set_workload({{"l3_access_rd", rational(1, 2)}}, now_fs());
        s.b.core(1).set_workload({{"l3_access_wr", rational(1, 4)}}, now_fs());
        enable_cycles_and_l3(t);
        t.wait_for(3 * fs_per_us);
        cycles = t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"));
        l3 = event_counter0(t);
    });
    CHECK(cycles == 3 * dsu_hz / 1'000'000); // 1 GHz x 3 us = 3000
    const uint64_t cpu_cycles = 3 * cpu_hz / 1'000'000; // 2 GHz x 3 us = 6000 per CPU
    CHECK(l3 == cpu_cycles / 2 + cpu_cycles / 4);     // cpu0 reads at 1/2, cpu1 writes at 1/4: 4500
}

TEST_CASE("dsu bench: DVFS of the DSU and the CPU clocks mid-run changes the rates from that instant") {
    dsu_bench s;
    uint64_t cycles = 0, l3 = 0;
    s.b.run(s.dsu, [&](bench_initiator& t) {
        s.b.core(0).set_workload({{"l3_access_rd", rational(1, 2)}}, now_fs());
        enable_cycles_and_l3(t);
        t.wait_for(1 * fs_per_us);
        s.b.clock("dsu").set_frequency(2 * dsu_hz, now_fs()); // DSU at 2 GHz from 1 us
        t.wait_for(1 * fs_per_us);
        s.b.clock("cpu").set_frequency(cpu_hz / 4, now_fs()); // CPUs at 500 MHz from 2 us
        t.wait_for(1 * fs_per_us);
        cycles = t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"));
        l3 = event_counter0(t);
    });
    CHECK(cycles == 1000 + 2000 + 2000);      // 1 us at 1 GHz, then 2 us at 2 GHz
    CHECK(l3 == (2000 + 2000 + 500) / 2);     // cpu0: 2 us at 2 GHz, 1 us at 500 MHz, 1/2 per cycle
}

TEST_CASE("dsu bench: the cycle counter's overflow raises nCLUSTERPMUIRQ at the wrap's edge as moved by DVFS") {
    dsu_bench s;
    const uint64_t width = facts::fact_number("dsu_clusterpmu", "PMCCNTR", "width"); // 64
    const uint64_t c_bit = bit("CLUSTERPMOVSSET_EL1", "C");
    uint64_t ovs_before = 0, ovs_after = 0;
    s.b.run(s.dsu, [&](bench_initiator& t) {
        t.wait_for(fs_per_us / 2);
        // 1000 DSU cycles before the wrap, from 0.5 us.
        t.write_sysreg(0, key("CLUSTERPMCCNTR_EL1"), width >= 64 ? 0 - 1000ULL : (1ULL << width) - 1000);
        t.write_sysreg(0, key("CLUSTERPMINTENSET_EL1"), bit("CLUSTERPMINTENSET_EL1", "C"));
        t.write_sysreg(0, key("CLUSTERPMCNTENSET_EL1"), bit("CLUSTERPMCNTENSET_EL1", "C"));
        t.write_sysreg(0, key("CLUSTERPMCR_EL1"), bit("CLUSTERPMCR_EL1", "E"));
        t.wait_for(fs_per_us / 2);
        // 500 cycles counted; the other 500 at 2 GHz take 250 ns: the wrap moves from 1.5 us to 1.25 us.
        s.b.clock("dsu").set_frequency(2 * dsu_hz, now_fs());
        t.wait_until(1250 * fs_per_us / 1000 - 1);
        ovs_before = t.read_sysreg(0, key("CLUSTERPMOVSSET_EL1"));
        t.wait_until(2 * fs_per_us);
        ovs_after = t.read_sysreg(0, key("CLUSTERPMOVSSET_EL1"));
        t.write_sysreg(0, key("CLUSTERPMOVSCLR_EL1"), c_bit); // the handler clears it: the line falls
    });
    CHECK((ovs_before & c_bit) == 0);
    CHECK((ovs_after & c_bit) == c_bit);
    CHECK(s.b.irq_edges("nclusterpmuirq") ==
          std::vector<irq_edge>{{true, 1250 * fs_per_us / 1000}, {false, 2 * fs_per_us}});
}

TEST_CASE("dsu bench: a reset disables and clears the counters and PMCR.C zeroes the cycle counter") {
    dsu_bench s;
    std::vector<uint64_t> cycles;
    uint64_t pmcr_after_reset = 1, ovs_after_reset = 1;
    s.b.run(s.dsu, [&](bench_initiator& t) {
        enable_cycles_and_l3(t);
        t.write_sysreg(0, key("CLUSTERPMOVSSET_EL1"), 1);  // a pending overflow...
        t.write_sysreg(0, key("CLUSTERPMINTENSET_EL1"), 1); // ... interrupting: the line rises at 0
        t.wait_for(1 * fs_per_us);
        cycles.push_back(t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"))); // 1000
        s.dsu.reset(true); // at 1 us
        pmcr_after_reset = t.read_sysreg(0, key("CLUSTERPMCR_EL1")) & bit("CLUSTERPMCR_EL1", "E");
        ovs_after_reset = t.read_sysreg(0, key("CLUSTERPMOVSSET_EL1"));
        t.wait_for(1 * fs_per_us);
        cycles.push_back(t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"))); // disabled: 0
        enable_cycles_and_l3(t);
        t.wait_for(1 * fs_per_us);
        cycles.push_back(t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"))); // 1000 again
        t.write_sysreg(0, key("CLUSTERPMCR_EL1"), bit("CLUSTERPMCR_EL1", "E") | bit("CLUSTERPMCR_EL1", "C"));
        t.wait_for(fs_per_us / 4);
        cycles.push_back(t.read_sysreg(0, key("CLUSTERPMCCNTR_EL1"))); // 250 since the C write
    });
    CHECK(cycles == std::vector<uint64_t>{1000, 0, 1000, 250});
    CHECK(pmcr_after_reset == 0);
    CHECK(ovs_after_reset == 0);
    CHECK(s.b.irq_edges("nclusterpmuirq") == std::vector<irq_edge>{{true, 0}, {false, 1 * fs_per_us}});
}
