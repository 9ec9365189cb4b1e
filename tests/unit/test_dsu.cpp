// Unit tests for the DSU CLUSTERPMU (dsu_clusterpmu/): the system-register access-rule table,
// Secure filtering with Secure producers, and the event list / PMCEID consistency.
#include <catch2/catch.hpp>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "vp/platform.h"
#include "tests/unit/tlm_test_access.h"
#include "vp/unit_list.h"
#include "tests/unit/esr_oracle.h"
#include "tests/unit/facts.h"

using namespace pmusim;

namespace {

struct rule_row {
    unsigned el;
    bool secure;
    bool tidcp, actlr2, actlr3, eel2;
    const char* reg;
    bool write;
    access_outcome expected;
};

// Priority order (DDI0487 HCR_EL2.TIDCP: EL1 accesses to the IMPLEMENTATION DEFINED S3_<op1>_C15
// encodings trap to EL2; DSU TRM 100453 and Cortex-A76 TRM 100798 B2.6 ACTLR_EL2/ACTLR_EL3
// CLUSTERPMUEN; tfa include/drivers/arm/dsu.h): EL0 UNDEFINED; EL1 TIDCP -> EL2; writes:
// EL1 ACTLR_EL2 -> EL2 (when EL2 enabled), ACTLR_EL3 -> EL3; EL2 ACTLR_EL3 -> EL3; MDCR EL3 only.
const rule_row rows[] = {
    {0, false, false, true, true, false, "CLUSTERPMCR_EL1", false, access_outcome::undefined},
    {0, false, false, true, true, false, "CLUSTERPMCR_EL1", true, access_outcome::undefined},
    {1, false, false, true, true, false, "CLUSTERPMCR_EL1", true, access_outcome::ok},
    {1, false, false, false, false, false, "CLUSTERPMCR_EL1", false, access_outcome::ok},
    {1, false, true, true, true, false, "CLUSTERPMCR_EL1", false, access_outcome::trap_el2},
    {1, false, true, false, false, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el2},
    {1, false, false, false, true, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el2},
    {1, false, false, false, false, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el2},
    {1, false, false, true, false, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el3},
    {1, true, false, false, true, false, "CLUSTERPMCR_EL1", true, access_outcome::ok},       // no Secure EL2
    {1, true, true, false, false, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el3}, // TIDCP n/a
    {1, true, false, false, true, true, "CLUSTERPMCR_EL1", true, access_outcome::trap_el2},  // Secure EL2
    {2, false, true, false, false, false, "CLUSTERPMCR_EL1", false, access_outcome::ok},
    {2, false, false, false, false, false, "CLUSTERPMCR_EL1", true, access_outcome::trap_el3},
    {2, false, false, false, true, false, "CLUSTERPMCR_EL1", true, access_outcome::ok},
    {3, true, true, false, false, false, "CLUSTERPMCR_EL1", true, access_outcome::ok},
    {1, false, false, true, true, false, "CLUSTERPMMDCR_EL3", false, access_outcome::undefined},
    {1, false, true, true, true, false, "CLUSTERPMMDCR_EL3", false, access_outcome::trap_el2},
    {2, false, false, true, true, false, "CLUSTERPMMDCR_EL3", true, access_outcome::undefined},
    {3, true, false, false, false, false, "CLUSTERPMMDCR_EL3", true, access_outcome::ok},
};

} // namespace

TEST_CASE("dsu: system-register access rules follow the reference's priority table") {
    register_all_units();
    platform p(load_platform("arm-default"));
    auto* dsu = dynamic_cast<dsu_clusterpmu*>(p.find_unit("dsu0"));
    REQUIRE(dsu);
    for (const auto& r : rows) {
        auto& b = p.controls().bank(0);
        // Bit positions from tests/facts/cpu.tsv (Linux kvm_arm.h, TF-A dsu.h and arch.h), not from the model.
        using facts::fact_field;
        b["HCR_EL2"].value = r.tidcp ? fact_field("cpu_controls", "HCR_EL2", "TIDCP").bit() : 0;
        b["ACTLR_EL2"].value = r.actlr2 ? fact_field("cpu_controls", "ACTLR_EL2", "CLUSTERPMUEN").bit() : 0;
        b["ACTLR_EL3"].value = r.actlr3 ? fact_field("cpu_controls", "ACTLR_EL3", "CLUSTERPMUEN").bit() : 0;
        b["SCR_EL3"].value = fact_field("cpu_controls", "SCR_EL3", "RES1").mask() |
                             (r.eel2 ? fact_field("cpu_controls", "SCR_EL3", "EEL2").bit() : 0);
        access_context ctx = testing::sysreg_context(0, r.el, r.secure || r.el == 3);
        const register_def* def = dsu->table().find(r.reg);
        REQUIRE(def);
        INFO("EL" << r.el << (r.secure ? " S" : " NS") << " TIDCP=" << r.tidcp << " ACTLR_EL2=" << r.actlr2
                  << " ACTLR_EL3=" << r.actlr3 << " EEL2=" << r.eel2 << " " << r.reg << (r.write ? " write" : " read"));
        CHECK(to_string(dsu->sysreg_rule(ctx, *def, r.write)) == to_string(r.expected));
        // The expected ESR from the encoding Linux's arm_dsu_pmu.h gives (tests/facts/dsu.tsv) and the
        // Arm ARM's ISS layout (tests/unit/esr_oracle.h), not from the model's table or encoder.
        if (r.expected == access_outcome::trap_el2 || r.expected == access_outcome::trap_el3)
            CHECK(ctx.syndrome == esr_oracle::trapped_sysreg(facts::fact_encoding("dsu_clusterpmu", r.reg), r.write));
    }
}

TEST_CASE("dsu: trap syndrome of MRS CLUSTERPMCR_EL1 matches the reference") {
    // CLUSTERPMCR_EL1 is S3_0_C15_C5_0 (Linux arch/arm64/include/asm/arm_dsu_pmu.h); ISS 0x303C0B
    // for MRS, 0x303C0A for MSR (DDI0487 ESR_ELx ISS for EC 0x18: Op0 [21:20], Op2 [19:17],
    // Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction [0]); EC 0x18 and IL give ESR 0x62303C0B / 0x62303C0A.
    const register_def* def = dsu_table(dsu_variant::dsu110).find("CLUSTERPMCR_EL1");
    REQUIRE(def);
    CHECK(sysreg_trap_syndrome(*def->sysreg, false) == 0x62303C0Bu);
    CHECK(sysreg_trap_syndrome(*def->sysreg, true) == 0x62303C0Au);
    // The tests' own encoder (esr_oracle.h) agrees with the published values, so the matrices may use it.
    const auto facts_encoding = facts::fact_encoding("dsu_clusterpmu", "CLUSTERPMCR_EL1");
    CHECK(esr_oracle::trapped_sysreg(facts_encoding, false) == 0x62303C0Bu);
    CHECK(esr_oracle::trapped_sysreg(facts_encoding, true) == 0x62303C0Au);
}

TEST_CASE("dsu: PMCEID advertises exactly the implemented common events") {
    CHECK(dsu_ceid(0) == 0x26020000u);
    CHECK(dsu_ceid(1) == 0x00001E00u);
    CHECK(dsu_event_code("l3d_cache") == 0x2B);
    CHECK(dsu_event_code("L3D_CACHE_REFILL_RD") == 0xA2);
    CHECK(dsu_event_code("0x19") == 0x19);
    CHECK(dsu_event_code("0x1E") == -1);
    CHECK(dsu_event_code("nonsense") == -1);
    // The one value grammar (docs/values.md): 025 is decimal 25 (0x19), not octal 21 (0x15).
    CHECK(dsu_event_code("025") == 0x19);
    CHECK(dsu_event_code("0x1_9") == 0x19);
    CHECK(dsu_event_code("0x19 ") == 0x19);
}

TEST_CASE("dsu: tables place the snapshot registers at each variant's offsets") {
    CHECK(*dsu_table(dsu_variant::dsu110).find("PMSSCR")->offset == 0x6F0);
    CHECK(*dsu_table(dsu_variant::dsu110).find("PMEVCNTSR0")->offset == 0x620);
    CHECK(*dsu_table(dsu_variant::dsu120).find("PMSSCR")->offset == 0xE30);
    CHECK(*dsu_table(dsu_variant::dsu120).find("PMSSSR")->offset == 0x638);
    CHECK(dsu_table(dsu_variant::dsu120).find("PMCCNTR") == nullptr);
    CHECK(dsu_table(dsu_variant::original).find("PMEVCNTR0")->width == 32);
}

namespace {
struct secure_tb : sc_core::sc_module {
    SC_HAS_PROCESS(secure_tb);
    platform& p;
    std::vector<uint64_t> results;
    tlm_utils::simple_initiator_socket<secure_tb> out{"out"};
    secure_tb(sc_core::sc_module_name n, platform& pl) : sc_module(n), p(pl) {
        out.bind(pl.gate().from_initiators);
        SC_THREAD(run);
    }
    // An MRS/MSR of the encoding Linux uses (tests/facts/dsu.tsv), not the DSU table's.
    uint64_t access(bool write, const std::string& reg, uint64_t v = 0) {
        access_context ctx = testing::sysreg_context(0, 3, true);
        return testing::tlm_access(*out.operator->(), write, facts::fact_encoding("dsu_clusterpmu", reg).key(), 8, v, ctx)
            .value;
    }
    void run() {
        auto& s = p.system();
        s.core(0).declare_event("l3_access_rd");
        s.core(0).set_secure(true, now_fs());
        s.core(0).set_workload({{"l3_access_rd", rational(1, 2)}}, now_fs());
        s.core(1).set_workload({{"l3_access_rd", rational(1, 4)}}, now_fs());
        const uint64_t types[] = {0x2B, 0x2000002B, 0x8000002B, 0xA000002B};
        for (unsigned n = 0; n < 4; ++n) {
            access(true, "CLUSTERPMSELR_EL1", n);
            access(true, "CLUSTERPMXEVTYPER_EL1", types[n]);
        }
        access(true, "CLUSTERPMCNTENSET_EL1", 0xF);
        access(true, "CLUSTERPMCR_EL1", 1);
        wait(sc_core::sc_time(1, sc_core::SC_US)); // SPME = 0: Secure not counted
        access(true, "CLUSTERPMMDCR_EL3", 1);
        wait(sc_core::sc_time(1, sc_core::SC_US)); // SPME = 1
        for (unsigned n = 0; n < 4; ++n) {
            access(true, "CLUSTERPMSELR_EL1", n);
            results.push_back(access(false, "CLUSTERPMXEVCNTR_EL1"));
        }
        sc_core::sc_stop();
    }
};
} // namespace

TEST_CASE("dsu: Secure producers are counted only with SPME=1 and S=0 (reading A)") {
    register_all_units();
    platform p(load_platform("arm-default"));
    secure_tb tb("tb", p);
    sc_core::sc_start();
    REQUIRE(tb.results.size() == 4);
    // cpu0 Secure at 2 GHz, 1/2 per cycle: 1000 per us; cpu1 Non-secure 1/4: 500 per us.
    CHECK(tb.results[0] == 1000 + 1000);     // S=0 NS=0: NS both us, Secure second us
    CHECK(tb.results[1] == 1000);            // NS=1: Secure only, second us
    CHECK(tb.results[2] == 0);               // S=1 NS=0: nothing
    CHECK(tb.results[3] == 1000);            // S=1 NS=1: Non-secure only
}
