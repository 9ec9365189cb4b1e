// Write and read back, per field access type (issue 31 item 4): an access the access matrix calls
// allowed must also do what the register's access type says, not merely be accepted. Through the
// real bus, as a Secure external debugger with every authentication signal set (everything open),
// each register of the DSU-110 and DSU-120 memory-mapped frames and of the CoreSight PMU frame is
// written and read back, and the read-back is compared with what the oracle says:
//   RW         reads back what was written, within the fields the facts files give it;
//   RO         a write changes nothing (the value before is the value after);
//   W1S / W1C  the SET register ORs the written ones into the state, the CLR register clears them,
//              and both read the state (DDI0487 PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR,
//              PMCLAIMSET/CLR; CoreSight IHI0029 claim tags; Linux arm_cspmu.c writes them so).
// The access types come from the architecture (DDI0487 M.a.a chapter I5 "Performance Monitors
// external register descriptions", CoreSight IHI0029 for the identification block), written here
// as a list of register names; the field positions from tests/facts. The model's tables give only
// the names and addresses to visit.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "vp/platform.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"
#include "tests/unit/access_matrix_bench.h"
#include "tests/unit/facts.h"
#include "tests/unit/pmu_external_access.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

using pmu_external::kind;
using pmu_external::access_kind;

// The bits the facts give a register (its fields' union), or every bit of its width when the facts
// give it no field (a counter is all value).
uint64_t fact_bits(const std::string& unit, const std::string& reg, unsigned width) {
    uint64_t bits = 0;
    for (const auto& f : facts::all_facts())
        if (f.applies() && f.unit == unit && f.reg == reg && f.kind == "field") bits |= facts::parse_field(f).mask();
    return bits ? bits : (width >= 64 ? ~0ULL : (1ULL << width) - 1);
}

unsigned fact_width(const std::string& unit, const std::string& reg) {
    for (const auto& f : facts::all_facts())
        if (f.applies() && f.unit == unit && f.reg == reg && f.kind == "width") return unsigned(facts::parse_number(f, f.value));
    return 32;
}

// The partner of a SET/CLR register.
std::string partner(const std::string& name) {
    const auto at = name.rfind(name.find("SET") != std::string::npos ? "SET" : "CLR");
    return name.substr(0, at) + (name.compare(at, 3, "SET") == 0 ? "CLR" : "SET");
}

struct frame {
    std::string instance; // dsu0
    std::string unit;     // the facts unit: dsu_clusterpmu
};

// `requesters`: whose accesses are checked, each in turn on the one platform (none: a Secure
// external debugger).
void write_read_back(const std::string& platform_name, const frame& fr, unsigned implemented_counters,
                     const std::vector<access_context>& requesters = {}) {
    register_all_units();
    platform p(load_platform(platform_name));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* u = p.find_unit(fr.instance);
    REQUIRE(u);
    if (u->table().find("CTL_AUTH")) b.debug_write(fr.instance + ".CTL_AUTH", 0xF);
    auto address = [&](const std::string& reg) {
        auto r = p.resolve_register(fr.instance + "." + reg, 0);
        REQUIRE(r);
        return r->address;
    };
    const access_context* who = nullptr;
    auto request = [&](const std::string& reg, unsigned len, bool write, uint64_t v) {
        return who ? b.access(*who, address(reg), len, write, v)
                   : b.mmio(initiator_kind::debugger, 0, true, address(reg), len, write, v);
    };
    auto rd = [&](const std::string& reg, unsigned len) {
        auto a = request(reg, len, false, 0);
        INFO(fr.instance << "." << reg << " read: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    auto wr = [&](const std::string& reg, unsigned len, uint64_t v) {
        auto a = request(reg, len, true, v);
        INFO(fr.instance << "." << reg << " write: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return seen(a);
    };
    const std::regex counter_index(R"((?:PMEVCNTR|PMEVTYPER|PMEVFILTR)(\d+))");
    unsigned checked = 0;
    const size_t rounds = requesters.empty() ? 1 : requesters.size();
    for (size_t round = 0; round < rounds; ++round) {
    who = requesters.empty() ? nullptr : &requesters[round];
    // A CPU on a frame with the software lock unlocks it first with the CoreSight key (IHI0029
    // PMLAR: 0xC5ACCE55); PMLAR is write-only and not visited below.
    if (who && who->initiator == initiator_kind::cpu && u->table().find("PMLAR"))
        REQUIRE(request("PMLAR", 4, true, 0xC5ACCE55).status == tlm::TLM_OK_RESPONSE);
    INFO("requester: " << (who ? (who->initiator == initiator_kind::debugger ? std::string("debugger")
                                                                               : "cpu" + std::to_string(who->cpu) + " EL" +
                                                                                     std::to_string(who->el)) +
                                         (who->secure ? " Secure" : " Non-secure")
                               : std::string("Secure debugger")));
    for (const auto& def : u->table().registers) {
        if (!def.offset || *def.offset >= 0x1000 || def.name.rfind("CTL_", 0) == 0) continue;
        const kind k = access_kind(def.name);
        if (k == kind::other) continue;
        const unsigned width = fact_width(fr.unit, def.name), len = width / 8;
        const uint64_t all = width >= 64 ? ~0ULL : (1ULL << width) - 1;
        std::smatch m;
        const bool unimplemented = std::regex_match(def.name, m, counter_index) && std::stoul(m[1]) >= implemented_counters;
        INFO(fr.instance << "." << def.name);
        if (k == kind::ro || unimplemented) {
            const uint64_t before = rd(def.name, len);
            const o outcome = wr(def.name, len, ~before & all);
            CHECK((outcome == o::ignored || outcome == o::ok));
            CHECK(rd(def.name, len) == (unimplemented ? 0 : before));
        } else if (k == kind::rw) {
            uint64_t bits = fact_bits(fr.unit, def.name, width);
            // PMSSRR.RP<n>: one bit per counter, RAZ/WI for the counters not implemented (DDI0487 I5).
            if (def.name == "PMSSRR" && bits == all) bits = (1ULL << implemented_counters) - 1;
            for (uint64_t pattern : {0xA5A5A5A5A5A5A5A5ULL & all, 0x5A5A5A5A5A5A5A5AULL & all}) {
                // An allowed write must take effect: "ignored" is a failure here (item 4).
                CHECK(wr(def.name, len, pattern) == o::ok);
                CHECK((rd(def.name, len) & bits) == (pattern & bits));
            }
            wr(def.name, len, 0);
        } else if (k == kind::w1s && def.name == "PMCLAIMSET") {
            // CoreSight IHI0029 claim tags: CLAIMSET reads the implemented tags (always), CLAIMCLR
            // reads the tags set; a 1 written to SET sets, to CLR clears.
            const uint64_t implemented = rd("PMCLAIMSET", len);
            CHECK(implemented != 0);
            wr("PMCLAIMCLR", len, implemented);
            CHECK(rd("PMCLAIMCLR", len) == 0);
            const uint64_t low = implemented & (0 - implemented);
            CHECK(wr("PMCLAIMSET", len, low) == o::ok);
            CHECK(rd("PMCLAIMCLR", len) == low);
            CHECK(rd("PMCLAIMSET", len) == implemented);
            CHECK(wr("PMCLAIMCLR", len, low) == o::ok);
            CHECK(rd("PMCLAIMCLR", len) == 0);
        } else if (k == kind::w1s) {
            const std::string clr = partner(def.name);
            const uint64_t bits = fact_bits(fr.unit, def.name, width);
            wr(clr, len, all); // start from nothing
            CHECK((rd(def.name, len) & bits) == 0);
            const uint64_t low = bits & (0 - bits); // the lowest bit the facts give it
            CHECK(wr(def.name, len, low) == o::ok);
            CHECK((rd(def.name, len) & bits) == low);
            CHECK((rd(clr, len) & bits) == low);      // both views read the state
            CHECK(wr(def.name, len, 0) == o::ok);     // writing 0 to SET changes nothing
            CHECK((rd(def.name, len) & bits) == low);
            CHECK(wr(clr, len, 0) == o::ok);          // nor 0 to CLR
            CHECK((rd(def.name, len) & bits) == low);
            CHECK(wr(clr, len, low) == o::ok);        // 1 to CLR clears
            CHECK((rd(def.name, len) & bits) == 0);
        }
        ++checked;
    }
    }
    std::printf("%s %s: %u registers written and read back by access type (%zu requesters)\n", platform_name.c_str(),
                fr.instance.c_str(), checked, rounds);
    CHECK(checked >= 20 * rounds);
}

} // namespace

TEST_CASE("access readback: DSU-110 external frame reads back each write by access type") {
    write_read_back("arm-default", {"dsu0", "dsu_clusterpmu"}, 6);
}

TEST_CASE("access readback: DSU-120 external frame reads back each write by access type") {
    write_read_back(source_tree + "/tests/platforms/dsu-120.yaml", {"dsu0", "dsu_clusterpmu_dsu120"}, 6);
}

TEST_CASE("access readback: CoreSight PMU frame reads back each write by access type") {
    write_read_back(source_tree + "/tests/platforms/cspmu.yaml", {"cspmu0", "arm_cspmu"}, 8);
}

// The CoreSight PMU's access matrix (issue 31 item 7): the frame has no authentication, power or
// lock condition (docs/cspmu.md "What is modelled": every memory-mapped access is served; IHI0091
// leaves who may reach the page to the system, and Linux's arm_cspmu drives it from Non-secure
// EL1), so every requester, a CPU at each exception level in each security state and an external
// debugger in each, must reach every register alike: reads served, an allowed write taking effect
// (never "ignored"), RO registers and unimplemented counters unchanged, SET/CLR by their rule.
TEST_CASE("access matrix: CoreSight PMU frame from each CPU EL and security state and the debugger by access type") {
    std::vector<access_context> requesters;
    for (unsigned el = 0; el < 4; ++el)
        for (bool secure : {false, true}) {
            if (el == 3 && !secure) continue; // EL3 is Secure (no FEAT_RME on these CPUs)
            access_context ctx;
            ctx.initiator = initiator_kind::cpu;
            ctx.cpu = 0;
            ctx.el = el;
            ctx.secure = secure;
            ctx.path = access_path::memory_mapped;
            requesters.push_back(ctx);
        }
    for (bool secure : {false, true}) {
        access_context ctx;
        ctx.initiator = initiator_kind::debugger;
        ctx.secure = secure;
        ctx.path = access_path::memory_mapped;
        requesters.push_back(ctx);
    }
    REQUIRE(requesters.size() == 9);
    write_read_back(source_tree + "/tests/platforms/cspmu.yaml", {"cspmu0", "arm_cspmu"}, 8, requesters);
}

// The DSU's system-register view (issue 31 item 4): the access matrix checks who may make each
// CLUSTERPM*_EL1 access; here, at EL3 Secure (every control open), each write it allows must do
// what the register's access type says. CLUSTERPM<X>_EL1 is the cluster's PM<X> (Linux
// drivers/perf/arm_dsu_pmu.c drives CLUSTERPMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR as the
// Armv8 PMU's SET/CLR pairs; DDI0487 I5), so the access types come from pmu_external::access_kind
// of that name; CLUSTERPMSELR, CLUSTERPMXEVTYPER (through SELR = 0; event numbers from the facts,
// Linux's DSU_EVENT_ATTR), CLUSTERPMXEVCNTR and CLUSTERPMCCNTR (64 bits: arm_dsu_pmu.c reads it
// as a u64) are RW; field positions from tests/facts. PMCR has its own tests.
TEST_CASE("access readback: DSU system registers at EL3 read back each write by access type") {
    register_all_units();
    platform p(load_platform("arm-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* u = p.find_unit("dsu0");
    REQUIRE(u);
    const std::string table = u->table().unit;
    auto rd = [&](const std::string& reg) {
        auto a = b.sysreg(0, 3, true, false, fact_key(table, reg), false, poison);
        INFO(reg << " read: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    auto wr = [&](const std::string& reg, uint64_t v) {
        auto a = b.sysreg(0, 3, true, false, fact_key(table, reg), true, v);
        INFO(reg << " write: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return seen(a);
    };
    auto event = [&](const std::string& name) { return facts::fact_number(table, name, "event"); };
    unsigned checked = 0;
    const std::regex cluster(R"(CLUSTERPM(\w+)_EL1)");
    for (const auto& def : u->table().registers) {
        std::smatch m;
        if (!std::regex_match(def.name, m, cluster)) continue;
        const std::string x = m[1];
        INFO(def.name);
        if (x == "SELR") {
            const uint64_t bits = fact_bits(table, def.name, 32);
            for (uint64_t sel : {uint64_t(1), uint64_t(0)}) { // counters 1 and 0 exist on every DSU
                CHECK(wr(def.name, sel) == o::ok);
                CHECK((rd(def.name) & bits) == sel);
            }
        } else if (x == "XEVTYPER") { // SELR = 0 from above
            const uint64_t bits = fact_bits(table, def.name, 32);
            for (uint64_t e : {event("L3D_CACHE"), event("CYCLES")}) {
                CHECK(wr(def.name, e) == o::ok);
                CHECK((rd(def.name) & bits) == e);
            }
        } else if (x == "XEVCNTR" || x == "CCNTR") {
            const uint64_t all = x == "CCNTR" ? ~0ULL : fact_bits(table, def.name, 32);
            for (uint64_t pattern : {0xA5A5A5A5A5A5A5A5ULL & all, 0x5A5A5A5A5A5A5A5AULL & all}) {
                CHECK(wr(def.name, pattern) == o::ok);
                CHECK((rd(def.name) & all) == pattern);
            }
            wr(def.name, 0);
        } else if (access_kind("PM" + x) == kind::w1s) {
            const std::string clr = "CLUSTER" + partner("PM" + x) + "_EL1";
            const uint64_t bits = fact_bits(table, def.name, 32);
            wr(clr, ~0ULL);
            CHECK((rd(def.name) & bits) == 0);
            const uint64_t low = bits & (0 - bits);
            CHECK(wr(def.name, low) == o::ok);
            CHECK((rd(def.name) & bits) == low);
            CHECK((rd(clr) & bits) == low); // both views read the state
            CHECK(wr(def.name, 0) == o::ok);
            CHECK((rd(def.name) & bits) == low);
            CHECK(wr(clr, 0) == o::ok);
            CHECK((rd(def.name) & bits) == low);
            CHECK(wr(clr, low) == o::ok); // 1 to CLR clears
            CHECK((rd(def.name) & bits) == 0);
        } else {
            continue; // PMCR, PMCEIDn (MSR UNDEFINED: the matrix), CLR registers (with their SET), MDCR
        }
        ++checked;
    }
    std::printf("arm-default dsu0: %u system registers written and read back by access type\n", checked);
    CHECK(checked == 7); // SELR, XEVTYPER, XEVCNTR, CCNTR, CNTENSET, INTENSET, OVSSET
}

// The AMU's system registers (issue 31 item 4): at EL3 (the highest EL, where DDI0487 D24 allows
// every AMU write: counters, enables, virtual offsets), each register of amu-mixed's cpu0 (AMUv1p1,
// 3 auxiliary counters: tests/platforms/amu-mixed.yaml) reads back what its access type says: the
// counters (64 bits, tests/facts) and AMEVCNTVOFF0<n>/1<n>_EL2 (n != 1 in group 0: D24.2.4) and
// AMUSERENR_EL0.EN are RW; AMCNTENSET<g>/CLR<g> are a W1S/W1C pair over the implemented counters.
// No simulated time passes between a write and its read, so a running counter reads what was written.
TEST_CASE("access readback: AMU system registers at EL3 read back each write by access type") {
    register_all_units();
    platform p(load_platform(source_tree + "/tests/platforms/amu-mixed.yaml"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* u = p.find_unit("amu");
    REQUIRE(u);
    const std::string table = u->table().unit;
    auto rd = [&](const std::string& reg) {
        auto a = b.sysreg(0, 3, true, false, fact_key(table, reg), false, poison);
        INFO(reg << " read: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    auto wr = [&](const std::string& reg, uint64_t v) {
        auto a = b.sysreg(0, 3, true, false, fact_key(table, reg), true, v);
        INFO(reg << " write: " << a.detail);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return seen(a);
    };
    const unsigned aux = 3;
    std::vector<std::string> rw = {"AMUSERENR_EL0"};
    for (unsigned n = 0; n < 4; ++n) rw.push_back("AMEVCNTR0" + std::to_string(n) + "_EL0");
    for (unsigned n = 0; n < aux; ++n) rw.push_back("AMEVCNTR1" + std::to_string(n) + "_EL0");
    for (unsigned n : {0u, 2u, 3u}) rw.push_back("AMEVCNTVOFF0" + std::to_string(n) + "_EL2");
    for (unsigned n = 0; n < aux; ++n) rw.push_back("AMEVCNTVOFF1" + std::to_string(n) + "_EL2");
    for (const auto& reg : rw) {
        INFO(reg);
        const uint64_t bits = fact_bits(table, reg, fact_width(table, reg));
        for (uint64_t pattern : {0xA5A5A5A5A5A5A5A5ULL & bits, 0x5A5A5A5A5A5A5A5AULL & bits}) {
            CHECK(wr(reg, pattern) == o::ok); // never "ignored"
            CHECK((rd(reg) & bits) == pattern);
        }
        wr(reg, 0);
    }
    for (const auto& [set, clr, implemented] : {std::tuple<std::string, std::string, uint64_t>{"AMCNTENSET0_EL0", "AMCNTENCLR0_EL0", 0xf},
                                                {"AMCNTENSET1_EL0", "AMCNTENCLR1_EL0", (1u << aux) - 1}}) {
        INFO(set);
        const uint64_t bits = fact_bits(table, set, 64) & implemented;
        wr(clr, bits);
        CHECK((rd(set) & bits) == 0);
        CHECK(wr(set, 0x5 & bits) == o::ok);
        CHECK((rd(set) & bits) == (0x5 & bits));
        CHECK((rd(clr) & bits) == (0x5 & bits)); // both views read the state
        CHECK(wr(clr, 0x1) == o::ok);            // 1 to CLR clears that counter only
        CHECK((rd(set) & bits) == (0x4 & bits));
        CHECK(wr(set, 0) == o::ok);
        CHECK((rd(set) & bits) == (0x4 & bits));
    }
    std::printf("amu-mixed cpu0: %zu RW registers and 2 SET/CLR pairs written and read back\n", rw.size());
}

// The original DSU's frame (issue 31 item 4): the same read-back as the DSU-110's, as the external
// debugger (which its software lock does not concern: CoreSight IHI0029 PMLAR/PMLSR are the memory-
// mapped side's; docs/embedding.md "DSU variants"), with 32-bit event counters (tests/facts widths).
TEST_CASE("access readback: original DSU external frame reads back each write by access type") {
    write_read_back(source_tree + "/tests/platforms/dsu-original.yaml", {"dsu0", "dsu_clusterpmu_original"}, 6);
}

// ... and as a CPU once the software lock is open (PMLAR written with the key): every allowed
// write takes effect, for Secure EL3 firmware and a Non-secure EL1 driver alike.
TEST_CASE("access readback: original DSU frame reads back each CPU write once PMLAR is unlocked") {
    std::vector<access_context> cpus;
    for (auto [el, secure] : {std::pair<unsigned, bool>{3, true}, {1, false}}) {
        access_context ctx;
        ctx.initiator = initiator_kind::cpu;
        ctx.cpu = 0;
        ctx.el = el;
        ctx.secure = secure;
        ctx.path = access_path::memory_mapped;
        cpus.push_back(ctx);
    }
    write_read_back(source_tree + "/tests/platforms/dsu-original.yaml", {"dsu0", "dsu_clusterpmu_original"}, 6, cpus);
}
