// The AMU on a bench of its own (tests/unit/unit_bench.h): one AMUv1p1 CPU on a stub CPU clock and a
// stub constant clock, its activity (workload, power state) set by the test, and the AMU's system
// registers accessed straight on the unit's socket at EL3. Encodings and fields from
// tests/facts/amu.tsv (TF-A arch.h, Linux sysreg.h); expected counts from f x t x rate, the
// architected group-0 events (Arm ARM D24.1: AMEVCNTR00 processor frequency cycles, 01 constant
// frequency cycles, 02 instructions retired, 03 memory stall cycles; none counts in WFI or WFE).
#include <catch2/catch.hpp>

#include "amu/amu.h"
#include "tests/unit/facts.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;

namespace {

uint32_t key(const char* reg) { return facts::fact_encoding("amu", reg).key(); }

constexpr uint64_t cpu_hz = 2'000'000'000;
constexpr uint64_t const_hz = 100'000'000;

// cpu0 on clock `cpu`, its constant clock `const`, and the CPU control registers the AMU's access
// rules read.
testing::unit_bench& one_cpu(testing::unit_bench& b) {
    b.add_clock("cpu", cpu_hz);
    b.add_clock("const", const_hz);
    b.add_cpu("cpu", 0, "const");
    b.add_cpu_controls();
    return b;
}

struct amu_bench {
    testing::unit_bench b;
    amu_cpu_config cpu0 = [] {
        amu_cpu_config c;
        c.version = 2; // AMUv1p1
        return c;
    }();
    amu_unit amu{"amu", one_cpu(b).system, {cpu0}};
};

// AMCNTENSET0_EL0.P: every group-0 counter (as TF-A's amu_enable at EL3).
void enable_group0(bench_initiator& t) {
    t.write_sysreg(0, key("AMCNTENSET0_EL0"), facts::fact_field("amu", "AMCNTENSET0_EL0", "P").mask());
}
std::vector<uint64_t> group0(bench_initiator& t) {
    return {t.read_sysreg(0, key("AMEVCNTR00_EL0")), t.read_sysreg(0, key("AMEVCNTR01_EL0")),
            t.read_sysreg(0, key("AMEVCNTR02_EL0")), t.read_sysreg(0, key("AMEVCNTR03_EL0"))};
}

} // namespace

TEST_CASE("amu bench: group 0 counts f x t at the CPU and constant clocks and the workload's rates") {
    amu_bench s;
    std::vector<uint64_t> v;
    s.b.run(s.amu, [&](bench_initiator& t) {
        s.b.core(0).set_workload({{"inst", rational(3, 2)}, {"mem_stall", rational(1, 8)}}, now_fs());
        enable_group0(t);
        t.wait_for(2 * fs_per_us);
        v = group0(t);
    });
    // 2 us: 4000 CPU cycles at 2 GHz, 200 constant cycles at 100 MHz, 3/2 and 1/8 per CPU cycle.
    CHECK(v == std::vector<uint64_t>{4000, 200, 6000, 500});
}

TEST_CASE("amu bench: DVFS mid-run changes the core counts from that instant but not the constant count") {
    amu_bench s;
    std::vector<uint64_t> v;
    s.b.run(s.amu, [&](bench_initiator& t) {
        enable_group0(t); // the reset workload: one instruction per cycle
        t.wait_for(1 * fs_per_us);
        s.b.clock("cpu").set_frequency(cpu_hz / 2, now_fs()); // 1 GHz from 1 us
        t.wait_for(1 * fs_per_us);
        v = group0(t);
    });
    CHECK(v == std::vector<uint64_t>{2000 + 1000, 200, 2000 + 1000, 0});
}

TEST_CASE("amu bench: no group-0 counter counts while the CPU is in WFI") {
    amu_bench s;
    std::vector<uint64_t> v;
    s.b.run(s.amu, [&](bench_initiator& t) {
        enable_group0(t);
        t.wait_for(1 * fs_per_us);
        s.b.core(0).set_power(power_state::wfi, now_fs()); // WFI from 1 us to 1.5 us
        t.wait_for(fs_per_us / 2);
        s.b.core(0).set_power(power_state::run, now_fs());
        t.wait_for(fs_per_us / 2);
        v = group0(t);
    });
    // 1.5 us running: 3000 CPU cycles, 150 constant cycles, 3000 instructions.
    CHECK(v == std::vector<uint64_t>{3000, 150, 3000, 0});
}

TEST_CASE("amu bench: a reset zeroes and disables the counters") {
    amu_bench s;
    std::vector<uint64_t> before, after_reset, later, enables;
    s.b.run(s.amu, [&](bench_initiator& t) {
        enable_group0(t);
        t.wait_for(1 * fs_per_us);
        before = group0(t);
        s.amu.reset(true);
        after_reset = group0(t);
        enables.push_back(t.read_sysreg(0, key("AMCNTENSET0_EL0")));
        t.wait_for(1 * fs_per_us);
        later = group0(t);
    });
    CHECK(before == std::vector<uint64_t>{2000, 100, 2000, 0});
    CHECK(after_reset == std::vector<uint64_t>{0, 0, 0, 0});
    CHECK(enables == std::vector<uint64_t>{0});
    CHECK(later == std::vector<uint64_t>{0, 0, 0, 0});
}

TEST_CASE("amu bench: an AMU built without the CPU control registers says what is missing") {
    // The AMU's constructor resolves the control registers its access rules read; on a bench
    // without them it used to follow a null pointer.
    testing::unit_bench b;
    b.add_clock("cpu", cpu_hz);
    b.add_cpu("cpu");
    amu_cpu_config c;
    c.version = 1;
    CHECK_THROWS_WITH(amu_unit("amu", b.system, {c}), Catch::Contains("cpu_controls"));
}
