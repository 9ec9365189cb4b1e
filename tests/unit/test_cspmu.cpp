// Unit tests for the CoreSight PMU architecture block (cspmu/): the unit alone in a soc with one
// clock and a plain TLM initiator, the same unit built from a platform file and reached through the
// gate and the bus, and the identification registers as Linux reads them. Offsets and bit
// positions come from tests/facts/cspmu.tsv (Linux's arm_cspmu.h), never from the model.
#include <catch2/catch.hpp>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "cspmu/arm_cspmu.h"
#include "models/data_files.h"
#include "vp/platform.h"
#include "vp/unit_list.h"
#include "tests/unit/facts.h"
#include "tests/unit/tlm_test_access.h"

using namespace pmusim;

namespace {

uint64_t offset_of(const std::string& reg, const std::string& table = "arm_cspmu") {
    return facts::fact_number(table, reg, "offset");
}
uint64_t bit_of(const std::string& reg, const std::string& field) { return facts::fact_field("arm_cspmu", reg, field).bit(); }
uint64_t field_of(const std::string& reg, const std::string& field, uint64_t value) {
    const auto f = facts::fact_field("arm_cspmu", reg, field);
    return (value & f.mask()) >> f.lsb;
}

// A plain TLM initiator: memory-mapped accesses as cpu0 at EL1, Non-secure, to any target socket.
struct mmio_initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<mmio_initiator> out{"out"};
    uint64_t base;
    mmio_initiator(const sc_core::sc_module_name& n, uint64_t base_) : sc_module(n), base(base_) {}
    uint64_t access(bool write, uint64_t offset, unsigned len, uint64_t value = 0) {
        access_context ctx;
        ctx.cpu = 0;
        ctx.el = 1;
        ctx.path = access_path::memory_mapped;
        const auto r = testing::tlm_access(*out.operator->(), write, base + offset, len, value, ctx);
        REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
        return r.value;
    }
    uint64_t read32(const std::string& reg) { return access(false, offset_of(reg), 4); }
    uint64_t read64(const std::string& reg) { return access(false, offset_of(reg), 8); }
    void write32(const std::string& reg, uint64_t v) { access(true, offset_of(reg), 4, v); }
    void write64(const std::string& reg, uint64_t v) { access(true, offset_of(reg), 8, v); }
};

void advance(fs_t d) { sc_core::sc_start(to_sc_time(d)); }
constexpr fs_t ns = 1'000'000, us = 1000 * ns;

} // namespace

TEST_CASE("cspmu: alone in a soc with one clock and a TLM initiator it counts the clock and interrupts at the wrap") {
    soc system;
    system.clocks["pmu"] = std::make_unique<clock_domain>("pmu", 500'000'000); // 2 ns a cycle
    cspmu_options o;
    o.counters = 4;
    arm_cspmu pmu("cspmu0", system, o, "pmu", {}, "cspmu_irq", 0x10000000, 0x1000);
    mmio_initiator cpu("cpu", 0x10000000);
    cpu.out.bind(pmu.registers_in);
    std::vector<std::pair<bool, fs_t>> edges;
    system.irq("cspmu_irq").on_edge([&](bool level, fs_t at) { edges.emplace_back(level, at); });
    sc_core::sc_start(sc_core::SC_ZERO_TIME); // past elaboration: sockets bound, overflow instants notifiable

    // PMCFGR as arm_cspmu_init_mmio reads it: N + 1 = 4 counters + the cycle counter, SIZE + 1 = 64, CC.
    const uint64_t pmcfgr = cpu.read32("PMCFGR");
    CHECK(field_of("PMCFGR", "N", pmcfgr) + 1 == 5);
    CHECK(field_of("PMCFGR", "SIZE", pmcfgr) + 1 == 64);
    CHECK(field_of("PMCFGR", "CC", pmcfgr) == 1);

    cpu.write32("PMEVTYPER1", 0x1); // event 0x1: the PMU clock (docs/cspmu.md)
    cpu.write64("PMEVCNTR1", ~uint64_t(0) - 15); // 16 cycles to the wrap: 32 ns
    cpu.write32("PMINTENSET", 1u << 1);
    cpu.write32("PMCNTENSET", (1u << 1) | bit_of("PMCNTENSET", "C"));
    cpu.write32("PMCR", bit_of("PMCR", "E"));
    advance(1 * us);
    CHECK(cpu.read64("PMCCNTR") == 500); // 500 MHz x 1 us
    CHECK(cpu.read64("PMEVCNTR1") == 500 - 16);
    CHECK(cpu.read32("PMOVSSET") == 1u << 1);
    REQUIRE(edges.size() == 1);
    CHECK(edges[0] == std::make_pair(true, 32 * ns)); // at the instant of the 16th edge, not later
    CHECK(pmu.irq_level());
    cpu.write32("PMOVSCLR", 1u << 1);
    REQUIRE(edges.size() == 2);
    CHECK(edges[1] == std::make_pair(false, 1 * us));
    // PMCR.P clears the event counters only; C the cycle counter.
    cpu.write32("PMCR", bit_of("PMCR", "E") | bit_of("PMCR", "P"));
    CHECK(cpu.read64("PMEVCNTR1") == 0);
    CHECK(cpu.read64("PMCCNTR") == 500);
    cpu.write32("PMCR", bit_of("PMCR", "C"));
    CHECK(cpu.read64("PMCCNTR") == 0);
    advance(1 * us);
    CHECK(cpu.read64("PMCCNTR") == 0); // E = 0
    // Counters beyond N are RAZ/WI, in their registers and in the bitmaps.
    cpu.write64("PMEVCNTR4", 7);
    CHECK(cpu.read64("PMEVCNTR4") == 0);
    cpu.write32("PMCNTENSET", 0xFFFFFFFF);
    CHECK(cpu.read32("PMCNTENSET") == (0xFu | bit_of("PMCNTENSET", "C")));
}

TEST_CASE("cspmu: built from a platform file it counts the CPUs' instructions through the gate and the bus") {
    register_all_units();
    platform p(load_platform(source_dir() + "/tests/platforms/cspmu.yaml"));
    auto* pmu = dynamic_cast<arm_cspmu*>(p.find_unit("cspmu0"));
    REQUIRE(pmu);
    CHECK(pmu->type() == "arm_cspmu");
    mmio_initiator cpu("cpu", pmu->mmio_windows().at(0).base);
    cpu.out.bind(p.gate().from_initiators);
    sc_core::sc_start(sc_core::SC_ZERO_TIME); // sockets are bound when elaboration ends
    CHECK(field_of("PMCFGR", "N", cpu.read32("PMCFGR")) + 1 == 8 + 1);
    cpu.write32("PMEVTYPER0", 0x3); // inst_retired of cpu0 (2 GHz) and cpu1 (1 GHz), 1 a cycle
    cpu.write32("PMEVTYPER1", 0x5); // external: injected only
    cpu.write32("PMCNTENSET", 0x3);
    cpu.write32("PMCR", bit_of("PMCR", "E"));
    advance(1 * us);
    CHECK(cpu.read64("PMEVCNTR0") == 2000 + 1000);
    std::string error;
    CHECK(pmu->inject("", "external", 42, 0, error));
    CHECK(cpu.read64("PMEVCNTR1") == 42);
    CHECK_FALSE(pmu->inject("", "cycles", 1, 0, error));
    CHECK(error.find("cannot be injected") != std::string::npos);
    // The overflow interrupt reaches the platform's line that cpu0's `irq:` lists.
    REQUIRE(p.system().irq_lines.count("cspmu0_irq"));
    cpu.write32("PMINTENSET", 1);
    cpu.write32("PMOVSSET", 1);
    CHECK(p.system().irq_lines.at("cspmu0_irq")->level());
}

TEST_CASE("cspmu: the PMPIDRs give back PMIIDR the way Linux's arm_cspmu_get_pmiidr reads them") {
    // arm_cspmu_get_pmiidr() for a PMU whose PMIIDR reads 0, with the positions of arm_cspmu.h.
    auto get = [](const char* reg, const char* field, uint32_t v) {
        const auto f = facts::source_field("arm_cspmu", reg, field);
        return (v & f.mask()) >> f.lsb;
    };
    auto put = [](const char* field, uint64_t v) {
        const auto f = facts::source_field("arm_cspmu", "PMIIDR", field);
        return (v << f.lsb) & f.mask();
    };
    for (uint32_t pmiidr : {0x43Bu, 0x1234543Bu, 0xFFF0F36Bu, 0x00010A16u}) {
        auto pidr = [&](unsigned n) { return cspmu_pidr(n, pmiidr); };
        uint64_t linux_view = put("PRODUCTID_PART_0", get("PMPIDR0", "PART_0", pidr(0)));
        linux_view |= put("PRODUCTID_PART_1", get("PMPIDR1", "PART_1", pidr(1)));
        linux_view |= put("IMPLEMENTER_DES_0", get("PMPIDR1", "DES_0", pidr(1)));
        linux_view |= put("VARIANT", get("PMPIDR2", "REVISION", pidr(2)));
        linux_view |= put("IMPLEMENTER_DES_1", get("PMPIDR2", "DES_1", pidr(2)));
        linux_view |= put("REVISION", get("PMPIDR3", "REVAND", pidr(3)));
        linux_view |= put("IMPLEMENTER_DES_2", get("PMPIDR4", "DES_2", pidr(4)));
        // The JEP106 identity code has 7 bits: IMPLEMENTER bit 7 has no PIDR field to travel in.
        CHECK(linux_view == (pmiidr & ~uint64_t(0x80)));
    }
}

TEST_CASE("cspmu: a 40-bit counter sits in a 64-bit register and wraps at 2 to the 40") {
    soc system;
    system.clocks["pmu"] = std::make_unique<clock_domain>("pmu", 1'000'000'000); // 1 ns a cycle
    cspmu_options o;
    o.counters = 2;
    o.counter_width = 40;
    o.cycle_counter = false;
    arm_cspmu pmu("cspmu0", system, o, "pmu", {}, "", 0x10000000, 0x1000);
    mmio_initiator cpu("cpu", 0x10000000);
    cpu.out.bind(pmu.registers_in);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t pmcfgr = cpu.read32("PMCFGR");
    CHECK(field_of("PMCFGR", "N", pmcfgr) + 1 == 2); // no cycle counter
    CHECK(field_of("PMCFGR", "SIZE", pmcfgr) + 1 == 40);
    CHECK(field_of("PMCFGR", "CC", pmcfgr) == 0);
    // Linux's counter_mask() is GENMASK_ULL(SIZE, 0): bits above it read 0 and are ignored.
    cpu.write64("PMEVCNTR1", ~uint64_t(0));
    CHECK(cpu.read64("PMEVCNTR1") == (uint64_t(1) << 40) - 1);
    cpu.write64("PMEVCNTR1", (uint64_t(1) << 40) - 3);
    cpu.write32("PMEVTYPER1", 0x1); // the PMU clock
    cpu.write32("PMCNTENSET", 1u << 1);
    cpu.write32("PMCR", bit_of("PMCR", "E"));
    advance(2 * ns);
    CHECK(cpu.read32("PMOVSSET") == 0);
    advance(1 * ns);
    CHECK(cpu.read32("PMOVSSET") == 1u << 1);
    CHECK(cpu.read64("PMEVCNTR1") == 0);
    CHECK_FALSE(pmu.irq_level()); // PMINTENSET clear: the flag only
    CHECK(cpu.read64("PMCCNTR") == 0); // no cycle counter: RAZ
}
