// Read-back below EL3 (issue 31 item 4b): an MSR that a lower Exception level is allowed to make
// must take effect, and one it is refused must change nothing. For every requester below EL3 (EL1
// and EL2, Non-secure and Secure with SCR_EL3.EEL2 either way) and every setting of the controls
// that gate the register, each register is written at that requester and read back at EL3 (the
// state, whoever asks), and compared with what the access type says when the oracle allows the
// write, or with its value before when it does not. The oracles are written here from the
// architecture, as in test_access_matrix.cpp, never from the models' rule tables:
//   DSU:  Cortex-A76 TRM 100798 B2.6/B2.7 ACTLR_EL2/ACTLR_EL3.CLUSTERPMUEN (writes of the CLUSTERPM*
//         registers from below EL3 need ACTLR_EL3's bit, from EL1 also ACTLR_EL2's when EL2 is
//         enabled), DDI0487 HCR_EL2.TIDCP (EL1 accesses to S3_<op1>_C15 trap to EL2);
//   AMU:  DDI0487 M.a.a D24.2 (AMU registers): counter and enable writes only at the highest EL
//         (EL3 here); AMUSERENR_EL0 written at EL1 and EL2 unless CPTR_EL2.TAM (EL1, EL2 enabled) or
//         CPTR_EL3.TAM trap it; AMEVCNTVOFF0<n>/1<n>_EL2 written at EL2 when SCR_EL3.AMVOFFEN is 1
//         and CPTR_EL3.TAM is 0.
// Register encodings and field positions come from tests/facts (TF-A, Linux); the model's tables
// give only the names to visit.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "tests/unit/access_matrix_bench.h"
#include "tests/unit/facts.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

uint64_t fact_bits(const std::string& unit, const std::string& reg, unsigned width) {
    uint64_t bits = 0;
    for (const auto& f : facts::all_facts())
        if (f.applies() && f.unit == unit && f.reg == reg && f.kind == "field") bits |= facts::parse_field(f).mask();
    return bits ? bits : (width >= 64 ? ~0ULL : (1ULL << width) - 1);
}

struct lower_requester {
    unsigned el;
    bool secure, eel2;
    std::string name() const {
        return fmt::format("EL{} {}{}", el, secure ? "Secure" : "Non-secure", secure ? (eel2 ? " EEL2=1" : " EEL2=0") : "");
    }
};

const std::vector<lower_requester> requesters = {
    {1, false, false}, {2, false, false}, {1, true, false}, {1, true, true}, {2, true, true}};

void set_cpu_controls(platform& p, unsigned cpu, uint64_t scr, uint64_t cptr3, uint64_t cptr2, uint64_t hcr,
                      uint64_t actlr3, uint64_t actlr2) {
    auto& k = p.controls().bank(cpu);
    k["SCR_EL3"].value = scr;
    k["CPTR_EL3"].value = cptr3;
    k["CPTR_EL2"].value = cptr2;
    k["HCR_EL2"].value = hcr;
    k["ACTLR_EL3"].value = actlr3;
    k["ACTLR_EL2"].value = actlr2;
}

} // namespace

TEST_CASE("access readback: DSU system registers written below EL3 take effect when the controls allow it") {
    register_all_units();
    platform p(load_platform("arm-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* u = p.find_unit("dsu0");
    REQUIRE(u);
    const std::string table = u->table().unit;
    const unsigned cpu = 0;
    auto el3_rd = [&](const std::string& reg) {
        auto a = b.sysreg(cpu, 3, true, false, fact_key(table, reg), false, poison);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    auto el3_wr = [&](const std::string& reg, uint64_t v) {
        auto a = b.sysreg(cpu, 3, true, false, fact_key(table, reg), true, v);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
    };
    const uint64_t event_l3d = facts::fact_number(table, "L3D_CACHE", "event");
    const uint64_t event_cycles = facts::fact_number(table, "CYCLES", "event");
    // RW registers and their two test values (within their facts bits); SELR stays 0 for XEVTYPER
    // and XEVCNTR (counter 0 exists on every DSU).
    struct rw_reg {
        std::string name;
        uint64_t a, b;
    };
    const uint64_t cnt_bits = fact_bits(table, "CLUSTERPMXEVCNTR_EL1", 32);
    const std::vector<rw_reg> rw = {
        {"CLUSTERPMXEVTYPER_EL1", event_l3d, event_cycles},
        {"CLUSTERPMXEVCNTR_EL1", 0xA5A5A5A5A5A5A5A5ULL & cnt_bits, 0x5A5A5A5A5A5A5A5AULL & cnt_bits},
        {"CLUSTERPMCCNTR_EL1", 0xA5A5A5A5A5A5A5A5ULL, 0x5A5A5A5A5A5A5A5AULL}, // 64-bit: arm_dsu_pmu.c reads a u64
        {"CLUSTERPMSELR_EL1", 1, 0}};
    // W1S/W1C pairs (DDI0487 PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR; Linux arm_dsu_pmu.c).
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"CLUSTERPMCNTENSET_EL1", "CLUSTERPMCNTENCLR_EL1"},
        {"CLUSTERPMINTENSET_EL1", "CLUSTERPMINTENCLR_EL1"},
        {"CLUSTERPMOVSSET_EL1", "CLUSTERPMOVSCLR_EL1"}};
    unsigned took_effect = 0, refused_unchanged = 0, failures = 0;
    auto fail = [&](const std::string& what) {
        if (++failures <= 20) FAIL_CHECK(what);
    };
    for (const auto& who : requesters)
        for (unsigned bits = 0; bits < 8; ++bits) {
            const bool tidcp = bits & 1, actlr2 = bits & 2, actlr3 = bits & 4;
            const bool el2_enabled = !who.secure || who.eel2;
            bool allowed = true;
            if (who.el == 1 && el2_enabled && tidcp) allowed = false;
            if (who.el == 1 && el2_enabled && !actlr2) allowed = false;
            if (!actlr3) allowed = false;
            const std::string controls = fmt::format(" TIDCP={} ACTLR_EL2.CLUSTERPMUEN={} ACTLR_EL3.CLUSTERPMUEN={}", tidcp, actlr2, actlr3);
            auto lower_wr = [&](const std::string& reg, uint64_t v) {
                set_cpu_controls(p, cpu, SCR_RES1 | (who.eel2 ? SCR_EEL2 : 0), 0, CPTR_EL2_RES1, tidcp ? HCR_TIDCP : 0,
                                 actlr3 ? ACTLR_CLUSTERPMUEN : 0, actlr2 ? ACTLR_CLUSTERPMUEN : 0);
                auto a = b.sysreg(cpu, who.el, who.secure, false, fact_key(table, reg), true, v);
                const o got = seen(a);
                if (allowed && got != o::ok) fail(who.name() + controls + ": " + reg + " write refused (" + a.detail + ")");
                if (!allowed && got == o::ok) fail(who.name() + controls + ": " + reg + " write allowed");
            };
            for (const auto& r : rw) {
                el3_wr("CLUSTERPMSELR_EL1", 0);
                for (uint64_t v : {r.a, r.b}) {
                    const uint64_t before = el3_rd(r.name);
                    lower_wr(r.name, v);
                    const uint64_t after = el3_rd(r.name);
                    if (allowed && after != v)
                        fail(fmt::format("{}{}: {} wrote {:#x}, reads {:#x}", who.name(), controls, r.name, v, after));
                    if (!allowed && after != before)
                        fail(fmt::format("{}{}: refused {} changed {:#x} to {:#x}", who.name(), controls, r.name, before, after));
                    (allowed ? took_effect : refused_unchanged)++;
                }
                el3_wr(r.name, 0);
            }
            for (const auto& [set, clr] : pairs) {
                const uint64_t state_bits = fact_bits(table, set, 32);
                const uint64_t low = state_bits & (0 - state_bits); // counter 0
                el3_wr(clr, ~0ULL);
                lower_wr(set, low); // 1 to SET sets
                uint64_t after = el3_rd(set) & state_bits;
                if (after != (allowed ? low : 0))
                    fail(fmt::format("{}{}: {} of {:#x} left {:#x}", who.name(), controls, set, low, after));
                el3_wr(set, low);
                lower_wr(clr, low); // 1 to CLR clears
                after = el3_rd(set) & state_bits;
                if (after != (allowed ? 0 : low))
                    fail(fmt::format("{}{}: {} of {:#x} left {:#x}", who.name(), controls, clr, low, after));
                el3_wr(clr, ~0ULL);
                (allowed ? took_effect : refused_unchanged) += 2;
            }
        }
    std::printf("arm-default dsu0 cpu0: %u writes below EL3 took effect, %u refused changed nothing\n", took_effect,
                refused_unchanged);
    CHECK(failures == 0);
    CHECK(took_effect >= 5 * 14); // every requester with every control open, 14 writes each
    CHECK(refused_unchanged > 0);
}

TEST_CASE("access readback: AMU system registers written below EL3 take effect when the controls allow it") {
    register_all_units();
    platform p(load_platform(source_tree + "/tests/platforms/amu-mixed.yaml"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* u = p.find_unit("amu");
    REQUIRE(u);
    const std::string table = u->table().unit;
    const unsigned cpu = 0, aux = 3; // amu-mixed cpu0: AMUv1p1, 3 auxiliary counters
    auto el3_rd = [&](const std::string& reg) {
        auto a = b.sysreg(cpu, 3, true, false, fact_key(table, reg), false, poison);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    auto el3_wr = [&](const std::string& reg, uint64_t v) {
        auto a = b.sysreg(cpu, 3, true, false, fact_key(table, reg), true, v);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
    };
    std::vector<std::string> regs = {"AMUSERENR_EL0", "AMCNTENSET0_EL0", "AMEVCNTR00_EL0", "AMEVCNTR10_EL0"};
    for (unsigned n : {0u, 2u, 3u}) regs.push_back("AMEVCNTVOFF0" + std::to_string(n) + "_EL2");
    for (unsigned n = 0; n < aux; ++n) regs.push_back("AMEVCNTVOFF1" + std::to_string(n) + "_EL2");
    unsigned took_effect = 0, refused_unchanged = 0, failures = 0;
    auto fail = [&](const std::string& what) {
        if (++failures <= 20) FAIL_CHECK(what);
    };
    for (const auto& who : requesters)
        for (unsigned bits = 0; bits < 8; ++bits) {
            const bool tam2 = bits & 1, tam3 = bits & 2, scr_amvoffen = bits & 4;
            const bool el2_enabled = !who.secure || who.eel2;
            const std::string controls =
                fmt::format(" CPTR_EL2.TAM={} CPTR_EL3.TAM={} SCR_EL3.AMVOFFEN={}", tam2, tam3, scr_amvoffen);
            for (const auto& reg : regs) {
                const bool voffset = reg.rfind("AMEVCNTVOFF", 0) == 0;
                bool allowed;
                if (voffset) allowed = who.el == 2 && scr_amvoffen && !tam3;
                else if (reg == "AMUSERENR_EL0") allowed = !(who.el == 1 && el2_enabled && tam2) && !tam3;
                else allowed = false; // counters and enables: the highest EL only
                const uint64_t width_bits = reg == "AMUSERENR_EL0" ? 32 : 64;
                const uint64_t bits_of = fact_bits(table, reg, unsigned(width_bits));
                for (uint64_t v : {0xA5A5A5A5A5A5A5A5ULL & bits_of, 0x5A5A5A5A5A5A5A5AULL & bits_of}) {
                    el3_wr(reg, 0);
                    const uint64_t before = el3_rd(reg) & bits_of; // AMCNTENSET0 is W1S: 0 leaves it as it was
                    set_cpu_controls(p, cpu, SCR_RES1 | (who.eel2 ? SCR_EEL2 : 0) | (scr_amvoffen ? SCR_AMVOFFEN : 0),
                                     tam3 ? CPTR_TAM : 0, CPTR_EL2_RES1 | (tam2 ? CPTR_TAM : 0), 0, 0, 0);
                    auto a = b.sysreg(cpu, who.el, who.secure, false, fact_key(table, reg), true, v);
                    const o got = seen(a);
                    // Read the state back at EL3 with the controls of this pass still set.
                    const uint64_t after = el3_rd(reg) & bits_of;
                    const std::string label = who.name() + controls + ": " + reg;
                    if (allowed && got != o::ok) fail(label + " write refused (" + a.detail + ")");
                    if (!allowed && got == o::ok) fail(label + " write allowed");
                    if (allowed && after != v) fail(fmt::format("{} wrote {:#x}, reads {:#x}", label, v, after));
                    if (!allowed && after != before)
                        fail(fmt::format("{}: refused write of {:#x} changed {:#x} to {:#x}", label, v, before, after));
                    (allowed ? took_effect : refused_unchanged)++;
                }
                el3_wr(reg, 0);
            }
        }
    std::printf("amu-mixed cpu0: %u writes below EL3 took effect, %u refused changed nothing\n", took_effect,
                refused_unchanged);
    CHECK(failures == 0);
    // AMUSERENR: 5 requesters, open when both TAM are 0 (and TAM2 for EL2 or EL2 disabled);
    // the 6 virtual offsets: the 2 EL2 requesters with SCR.AMVOFFEN = 1 and TAM3 = 0.
    CHECK(took_effect >= 2 * (5 * 2 + 2 * 2 * 6));
    CHECK(refused_unchanged > 0);
}
