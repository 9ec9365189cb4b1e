// HCR_EL2.TIDCP as a KVM host programs it (issue 18 item 1): the hypervisor writes HCR_EL2
// through MSR at EL2, then its guest's EL1 touches the DSU's CLUSTERPM* registers, which live in
// the IMPLEMENTATION DEFINED system-register space that TIDCP traps.
//   HCR_EL2.TIDCP is bit 20: Linux arch/arm64/include/asm/kvm_arm.h `HCR_TIDCP (UL(1) << 20)`,
//   and KVM's HCR_GUEST_FLAGS includes HCR_TIDCP; Arm ARM (DDI0487) HCR_EL2 page.
//   Bit 53 is HCR_EL2.EnSCXT (Arm ARM HCR_EL2 page), which does not trap these registers.
// Every bit position and encoding here is from those sources as tests/facts/cpu.tsv and dsu.tsv
// record them, not from models/cpu_controls.h or the DSU's register table.
#include <catch2/catch.hpp>

#include "tests/unit/access_matrix_bench.h"
#include "tests/unit/esr_oracle.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

// Linux arch/arm64/include/asm/kvm_arm.h HCR_VM, HCR_IMO, HCR_RW; arch/arm64/tools/sysreg
// HCR_EL2 Field 53 EnSCXT (a field pmusim does not model, hence source_field).
const uint64_t HCR_VM = cpu_bit("HCR_EL2", "VM"), HCR_IMO = cpu_bit("HCR_EL2", "IMO"), HCR_RW = cpu_bit("HCR_EL2", "RW");
const uint64_t HCR_ENSCXT = facts::source_field("cpu_controls", "HCR_EL2", "EnSCXT").bit();

// The encoding of a CPU control or a DSU-110 cluster PMU register, from the facts files.
sysreg_encoding encoding_of(const std::string& reg) {
    return facts::fact_encoding(reg.rfind("CLUSTERPM", 0) == 0 ? "dsu_clusterpmu" : "cpu_controls", reg);
}

// MRS/MSR of one system register by cpu0 at an EL in Non-secure state.
testing::tlm_access_result access_ns(bench& b, unsigned el, bool guest, const std::string& reg, bool write,
                                     uint64_t v) {
    return b.sysreg(0, el, false, guest, encoding_of(reg).key(), write, write ? v : poison);
}

} // namespace

TEST_CASE("access matrix: a KVM host's HCR_EL2.TIDCP traps its guest's CLUSTERPM accesses and EnSCXT does not") {
    register_all_units();
    platform p(load_platform("arm-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* dsu = p.find_unit("dsu0");
    REQUIRE(dsu);
    // Firmware lets lower ELs write the cluster PMU (ACTLR_EL3/EL2.CLUSTERPMUEN, Cortex-A76 TRM 100798 B2.6/B2.7), so
    // that only TIDCP can refuse an access below.
    b.el3_write(0, "SCR_EL3", SCR_RES1 | 1); // NS
    b.el3_write(0, "ACTLR_EL3", ACTLR_CLUSTERPMUEN);
    b.el3_write(0, "ACTLR_EL2", ACTLR_CLUSTERPMUEN);

    const uint64_t kvm_base = HCR_VM | HCR_IMO | HCR_RW;
    struct hypervisor_setting {
        const char* what;
        uint64_t hcr;
        bool traps;
    };
    const hypervisor_setting settings[] = {
        {"HCR_EL2.TIDCP (bit 20)", kvm_base | HCR_TIDCP, true},
        {"HCR_EL2.EnSCXT (bit 53)", kvm_base | HCR_ENSCXT, false},
        {"neither", kvm_base, false},
    };
    unsigned checked = 0;
    for (const auto& s : settings) {
        INFO(s.what);
        auto w = access_ns(b, 2, false, "HCR_EL2", true, s.hcr);
        REQUIRE(w.status == tlm::TLM_OK_RESPONSE);
        if (s.traps) CHECK((access_ns(b, 2, false, "HCR_EL2", false, 0).value & HCR_TIDCP) == HCR_TIDCP);
        for (const register_def* def : dsu->sysregs(0)) {
            if (def->name == "CLUSTERPMMDCR_EL3") continue; // UNDEFINED at EL1 without TIDCP (EL3 only)
            const bool read_only = def->name == "CLUSTERPMCEID0_EL1" || def->name == "CLUSTERPMCEID1_EL1";
            for (bool write : {false, true}) {
                if (write && read_only && !s.traps) continue; // no MSR form: UNDEFINED
                for (bool guest : {true, false}) {
                    INFO(def->name << (write ? " MSR" : " MRS") << (guest ? " guest" : " host") << " EL1");
                    // CLUSTERPMCR_EL1 gets E only: all ones would reset the counters.
                    const uint64_t v = def->name == "CLUSTERPMCR_EL1" ? 1 : 0;
                    auto a = access_ns(b, 1, guest, def->name, write, v);
                    ++checked;
                    if (s.traps) {
                        CHECK(seen(a) == o::trap_el2);
                        CHECK(a.syndrome == esr_oracle::trapped_sysreg(encoding_of(def->name), write));
                    } else {
                        CHECK(seen(a) == o::ok);
                    }
                }
            }
        }
        // EL2 itself is never trapped by its own TIDCP.
        CHECK(seen(access_ns(b, 2, false, "CLUSTERPMCR_EL1", false, 0)) == o::ok);
    }
    std::printf("KVM TIDCP: %u EL1 accesses checked\n", checked);
    CHECK(checked > 40);
}
