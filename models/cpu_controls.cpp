#include "models/cpu_controls.h"

#include <array>
#include <cstring>
#include <stdexcept>
#include <fmt/format.h>

namespace pmusim {

namespace {

sysreg_encoding enc(uint8_t op0, uint8_t op1, uint8_t crn, uint8_t crm, uint8_t op2) {
    return {op0, op1, crn, crm, op2};
}

register_table make_table() {
    using fa = field_access;
    register_table t;
    t.unit = "cpu_controls";
    t.title = "CPU control registers (firmware gate)";
    t.summary =
        "Per-CPU EL3/EL2 controls that decide whether counter-unit registers trap. Architecturally "
        "many of their reset values are UNKNOWN; pmusim resets them to the values given here (the "
        "trap controls clear) and the firmware profile (tf-a or none) programs them at boot.";
    t.registers = {
        {"SCR_EL3", enc(3, 6, 1, 1, 0), {}, 64, 0x30,
         {{"NS", ctl::scr_ns, 1, fa::rw, "Non-secure state of EL0/EL1"},
          {"IRQ", ctl::scr_irq, 1, fa::rw, ""}, {"FIQ", 2, 1, fa::rw, ""}, {"EA", ctl::scr_ea, 1, fa::rw, ""},
          {"RES1", 4, 2, fa::res1, ""}, {"SMD", ctl::scr_smd, 1, fa::rw, ""}, {"HCE", ctl::scr_hce, 1, fa::rw, ""},
          {"RW", ctl::scr_rw, 1, fa::rw, "lower ELs are AArch64"},
          {"TWI", ctl::scr_twi, 1, fa::rw, "traps WFI below EL3 to EL3"}, {"TWE", ctl::scr_twe, 1, fa::rw, "traps WFE below EL3 to EL3"}, {"EEL2", ctl::scr_eel2, 1, fa::rw, "Secure EL2 enable"},
          {"FGTEn", ctl::scr_fgten, 1, fa::rw, "fine-grained traps enable"},
          {"AMVOFFEN", ctl::scr_amvoffen, 1, fa::rw, "AMUv1p1 virtual offsets enable (0 traps EL2 offset accesses to EL3)"},
          // Stored and read back as written, with no behaviour (reported once when set: unmodelled_bits).
          {"SIF", 9, 1, fa::rw, "stored, not modelled"}, {"ST", 11, 1, fa::rw, "stored, not modelled"},
          {"TERR", 15, 1, fa::rw, "stored, not modelled"}, {"APK", 16, 1, fa::rw, "stored, not modelled"},
          {"API", 17, 1, fa::rw, "stored, not modelled"}},
         "Secure Configuration Register"},
        {"CPTR_EL3", enc(3, 6, 1, 1, 2), {}, 64, 0,
         {{"TFP", 10, 1, fa::rw, ""}, {"TTA", 20, 1, fa::rw, ""},
          {"TAM", ctl::cptr_tam, 1, fa::rw, "1 traps EL0-EL2 AMU register accesses to EL3"},
          {"TCPAC", 31, 1, fa::rw, ""}},
         "Architectural Feature Trap Register (EL3)"},
        {"CPTR_EL2", enc(3, 4, 1, 1, 2), {}, 64, 0x33ff,
         {{"RES1_LOW", 0, 10, fa::res1, "RES1 ([8] is TZ, RES1 without SVE)"}, {"TFP", 10, 1, fa::rw, ""},
          {"RES1_12", 12, 2, fa::res1, ""}, {"TTA", 20, 1, fa::rw, ""},
          {"TAM", ctl::cptr_tam, 1, fa::rw, "1 traps EL0/EL1 AMU register accesses to EL2"},
          {"TCPAC", 31, 1, fa::rw, ""}},
         "Architectural Feature Trap Register (EL2), E2H=0 layout"},
        {"HCR_EL2", enc(3, 4, 1, 1, 0), {}, 64, 0,
         {{"VM", ctl::hcr_vm, 1, fa::rw, ""}, {"IMO", ctl::hcr_imo, 1, fa::rw, ""},
          {"TWI", ctl::hcr_twi, 1, fa::rw, "traps EL0/EL1 WFI to EL2"}, {"TWE", ctl::hcr_twe, 1, fa::rw, "traps EL0/EL1 WFE to EL2"},
          {"TSC", ctl::hcr_tsc, 1, fa::rw, "traps EL1 SMC to EL2"},
          {"TID1", ctl::hcr_tid1, 1, fa::rw, "traps EL1 reads of REVIDR_EL1, AIDR_EL1 to EL2"},
          {"TID2", ctl::hcr_tid2, 1, fa::rw, "traps EL1 CTR_EL0, CCSIDR_EL1, CLIDR_EL1, CSSELR_EL1 accesses to EL2"},
          {"TID3", ctl::hcr_tid3, 1, fa::rw, "traps EL1 reads of the ID group 3 registers to EL2"},
          {"TACR", ctl::hcr_tacr, 1, fa::rw, "traps EL1 ACTLR_EL1 accesses to EL2"},
          {"TVM", ctl::hcr_tvm, 1, fa::rw, "traps EL1 writes of the virtual-memory controls to EL2"},
          {"TRVM", ctl::hcr_trvm, 1, fa::rw, "traps EL1 reads of the virtual-memory controls to EL2"},
          {"TGE", ctl::hcr_tge, 1, fa::rw, "trap general exceptions to EL2"},
          {"TIDCP", ctl::hcr_tidcp, 1, fa::rw, "trap IMPLEMENTATION DEFINED registers (e.g. CLUSTERPM*) to EL2"},
          {"RW", ctl::hcr_rw, 1, fa::rw, ""}, {"E2H", ctl::hcr_e2h, 1, fa::rw, "EL2 host"},
          {"AMVOFFEN", ctl::hcr_amvoffen, 1, fa::rw, "AMUv1p1 virtual offsets enable"},
          // Stored and read back as written, with no behaviour (reported once when set: unmodelled_bits).
          {"SWIO", 1, 1, fa::rw, "stored, not modelled"}, {"PTW", 2, 1, fa::rw, "stored, not modelled"},
          {"FMO", 3, 1, fa::rw, "stored, not modelled"}, {"AMO", 5, 1, fa::rw, "stored, not modelled"},
          {"VF", 6, 1, fa::rw, "stored, not modelled"}, {"VI", 7, 1, fa::rw, "stored, not modelled"},
          {"VSE", 8, 1, fa::rw, "stored, not modelled"}, {"FB", 9, 1, fa::rw, "stored, not modelled"},
          {"BSU", 10, 2, fa::rw, "stored, not modelled"}, {"DC", 12, 1, fa::rw, "stored, not modelled"},
          {"TID0", 15, 1, fa::rw, "stored, not modelled (AArch32 registers only)"},
          {"TSW", 22, 1, fa::rw, "stored, not modelled"}, {"TPC", 23, 1, fa::rw, "stored, not modelled"},
          {"TPU", 24, 1, fa::rw, "stored, not modelled"}, {"TTLB", 25, 1, fa::rw, "stored, not modelled"},
          {"TDZ", 28, 1, fa::rw, "stored, not modelled"}, {"HCD", 29, 1, fa::rw, "stored, not modelled"},
          {"CD", 32, 1, fa::rw, "stored, not modelled"}, {"ID", 33, 1, fa::rw, "stored, not modelled"},
          {"TLOR", 35, 1, fa::rw, "stored, not modelled"}, {"TERR", 36, 1, fa::rw, "stored, not modelled"},
          {"TEA", 37, 1, fa::rw, "stored, not modelled"}, {"APK", 40, 1, fa::rw, "stored, not modelled"},
          {"API", 41, 1, fa::rw, "stored, not modelled"}},
         "Hypervisor Configuration Register"},
        {"MDCR_EL3", enc(3, 6, 1, 3, 1), {}, 64, 0,
         {{"TPM", 6, 1, fa::rw, "trap PMU accesses to EL3"}, {"SPME", 17, 1, fa::rw, "Secure PMU enable"}},
         "Monitor Debug Configuration Register (EL3)"},
        {"MDCR_EL2", enc(3, 4, 1, 1, 1), {}, 64, 0,
         {{"HPMN", 0, 5, fa::rw, ""}, {"TPM", 6, 1, fa::rw, ""}, {"HPME", 7, 1, fa::rw, ""},
          {"TDE", ctl::mdcr_tde, 1, fa::rw, "routes debug exceptions (BRK) from EL0/EL1 to EL2"}},
         "Monitor Debug Configuration Register (EL2)"},
        {"ACTLR_EL3", enc(3, 6, 1, 0, 1), {}, 64, 0,
         {{"PWREN", ctl::actlr_pwren, 1, fa::rw, "DSU power registers accessible from lower ELs"},
          {"CLUSTERPMUEN", ctl::actlr_clusterpmuen, 1, fa::rw, "CLUSTERPM* registers accessible from lower ELs"}},
         "Auxiliary Control Register (EL3), DynamIQ cores"},
        {"ACTLR_EL2", enc(3, 4, 1, 0, 1), {}, 64, 0,
         {{"PWREN", ctl::actlr_pwren, 1, fa::rw, ""},
          {"CLUSTERPMUEN", ctl::actlr_clusterpmuen, 1, fa::rw, "CLUSTERPM* registers write-accessible from EL1"}},
         "Auxiliary Control Register (EL2), DynamIQ cores"},
        {"ID_AA64PFR0_EL1", enc(3, 0, 0, 4, 0), {}, 64, 0x1111,
         {{"EL0", 0, 4, fa::ro, "AArch64 at EL0"}, {"EL1", 4, 4, fa::ro, ""}, {"EL2", 8, 4, fa::ro, ""},
          {"EL3", 12, 4, fa::ro, ""}, {"AMU", 44, 4, fa::ro, "0 none, 1 AMUv1, 2 AMUv1p1"}},
         "AArch64 Processor Feature Register 0: EL0-EL3 AArch64; AMU [47:44] per CPU from the platform; KVM hides the AMU from guests"},
    };
    // Field positions: the Arm ARM's register pages and TF-A's arch.h (checked by tests/facts/cpu.tsv);
    // reset values are pmusim's (architecturally mostly UNKNOWN, see the summary).
    const std::string reset = "; reset UNVERIFIED: pmusim's trap-clear value";
    cite(t, "SCR_EL3$", "DDI0487 M.a.a D24.2.169 SCR_EL3; TF-A include/arch/aarch64/arch.h SCR_*" + reset);
    cite(t, "CPTR_EL3$", "DDI0487 M.a.a D24.2.39 CPTR_EL3; TF-A include/arch/aarch64/arch.h TAM_BIT, TFP_BIT, TCPAC_BIT" + reset);
    cite(t, "CPTR_EL2$", "DDI0487 M.a.a D24.2.38 CPTR_EL2 (E2H=0); TF-A include/arch/aarch64/arch.h CPTR_EL2_*" + reset);
    cite(t, "HCR_EL2$", "DDI0487 M.a.a D24.2.62 HCR_EL2; Linux arch/arm64/include/asm/kvm_arm.h HCR_*" + reset);
    cite(t, "MDCR_EL3$", "DDI0487 MDCR_EL3; TF-A include/arch/aarch64/arch.h MDCR_TPM_BIT, MDCR_SPME_BIT" + reset);
    cite(t, "MDCR_EL2$", "DDI0487 MDCR_EL2; TF-A include/arch/aarch64/arch.h MDCR_EL2_*; Linux kvm_arm.h MDCR_EL2_*" + reset);
    cite(t, "ACTLR_EL3$", "Cortex-A76 TRM 100798 B2.5 ACTLR_EL3 and DSU TRM 100453 (CLUSTERPMUEN, PWREN); TF-A dsu_def.h" + reset);
    cite(t, "ACTLR_EL2$", "Cortex-A76 TRM 100798 B2.6 ACTLR_EL2 (CLUSTERPMUEN, PWREN)" + reset);
    cite(t, "ID_AA64PFR0_EL1$", "DDI0487 M.a.a D24.2.93 ID_AA64PFR0_EL1; TF-A include/arch/aarch64/arch.h ID_AA64PFR0_*_SHIFT; "
                                "reset: EL0-EL3 AArch64 only (pmusim)");
    return t;
}

} // namespace

const char* register_name(control reg) {
    switch (reg) {
    case control::scr_el3: return "SCR_EL3";
    case control::cptr_el3: return "CPTR_EL3";
    case control::cptr_el2: return "CPTR_EL2";
    case control::hcr_el2: return "HCR_EL2";
    case control::mdcr_el3: return "MDCR_EL3";
    case control::mdcr_el2: return "MDCR_EL2";
    case control::actlr_el3: return "ACTLR_EL3";
    case control::actlr_el2: return "ACTLR_EL2";
    case control::id_aa64pfr0_el1: return "ID_AA64PFR0_EL1";
    case control::count: break;
    }
    return "?";
}

const register_table& cpu_controls_table() {
    static const register_table table = make_table();
    return table;
}

uint64_t cpu_controls::unmodelled_bits(control reg, uint64_t value) {
    auto bit = [](unsigned b) { return uint64_t(1) << b; };
    uint64_t modelled = ~uint64_t(0);
    switch (reg) {
    case control::scr_el3:
        // FIQ is stored only (pmusim has no FIQ source); SIF, ST, TLOR, TERR, APK, API, TID3, ... act on nothing.
        modelled = bit(ctl::scr_ns) | bit(ctl::scr_irq) | bit(ctl::scr_ea) | (uint64_t(3) << 4) | bit(ctl::scr_smd) |
                   bit(ctl::scr_hce) | bit(ctl::scr_rw) | bit(ctl::scr_twi) | bit(ctl::scr_twe) | bit(ctl::scr_eel2) |
                   bit(ctl::scr_fgten) | bit(ctl::scr_amvoffen);
        break;
    case control::hcr_el2:
        // VM is read for the guest view (no stage 2 translation); TID1-3, TACR, TVM, TRVM trap EL1
        // registers the engine executes itself (iss/el1_register_traps.cpp); TID0 (AArch32 FPSID and
        // JIDR only), FMO, AMO, TSW, TPCP, TPU, TTLB, TDZ, ...: not modelled.
        modelled = bit(ctl::hcr_vm) | bit(ctl::hcr_imo) | bit(ctl::hcr_twi) | bit(ctl::hcr_twe) | bit(ctl::hcr_tsc) |
                   bit(ctl::hcr_tidcp) | bit(ctl::hcr_tge) | bit(ctl::hcr_rw) | bit(ctl::hcr_e2h) | bit(ctl::hcr_amvoffen) |
                   bit(ctl::hcr_tid1) | bit(ctl::hcr_tid2) | bit(ctl::hcr_tid3) | bit(ctl::hcr_tacr) | bit(ctl::hcr_tvm) |
                   bit(ctl::hcr_trvm);
        break;
    case control::cptr_el3:
    case control::cptr_el2:
        // TAM is the AMU's access rule (amu/amu.cpp); TFP (FP/SIMD), TTA (trace) and TCPAC (CPACR
        // accesses) trap nothing here: the engine's FP/SIMD traps are its own CPACR_EL1.FPEN only.
        // CPTR_EL2's RES1 bits are not behaviour either way.
        modelled = bit(ctl::cptr_tam) | (reg == control::cptr_el2 ? uint64_t(0x33ff) : 0);
        break;
    case control::mdcr_el3:
        // TPM and SPME concern the CPU's own PMU, which is the engine's (the DSU's Secure enable is
        // CLUSTERPMMDCR_EL3.SPME, a register of its own).
        modelled = 0;
        break;
    case control::mdcr_el2:
        // TDE routes BRK from EL0/EL1 to EL2 (iss/exception_model.cpp); HPMN, TPM, HPME concern the
        // CPU's own PMU.
        modelled = bit(ctl::mdcr_tde);
        break;
    default: break; // the others' fields are all acted on (ACTLR_ELx: the DSU's rules)
    }
    return value & ~modelled;
}

std::optional<control> cpu_controls::at(const sysreg_encoding& e) {
    // Every system-register write through the gate asks: the encodings' keys, looked up once.
    static const std::array<uint32_t, unsigned(control::count)> keys = [] {
        std::array<uint32_t, unsigned(control::count)> k{};
        for (unsigned c = 0; c < k.size(); ++c) {
            const register_def* def = cpu_controls_table().find(register_name(control(c)));
            k[c] = def && def->sysreg ? def->sysreg->key() : ~uint32_t(0);
        }
        return k;
    }();
    for (unsigned c = 0; c < keys.size(); ++c)
        if (keys[c] == e.key()) return control(c);
    return std::nullopt;
}

cpu_controls::cpu_controls(const sc_core::sc_module_name& name, soc& system) : unit(name, system) {
    for (size_t i = 0; i < system.cpus.size(); ++i) {
        banks_.push_back(std::make_unique<register_bank>(fmt::format("cpu{}", i), table()));
        auto& regs = controls_.emplace_back();
        for (unsigned c = 0; c < unsigned(control::count); ++c) regs[c] = &(*banks_.back())[register_name(control(c))];
    }
    id_aa64pfr0_ = table().find(register_name(control::id_aa64pfr0_el1));
    reset(true);
}

std::vector<const register_def*> cpu_controls::sysregs(unsigned cpu) const {
    std::vector<const register_def*> out;
    if (cpu >= system_.cpus.size() || system_.cpus[cpu].power_arch) return out;
    for (const auto& r : table().registers) out.push_back(&r);
    return out;
}

void cpu_controls::reset(bool) {
    for (size_t i = 0; i < banks_.size(); ++i) {
        banks_[i]->reset();
        // EL0..EL3 AArch64-only (1 each) and the fields of this CPU's features (its AMU version).
        uint64_t pfr0 = 0x1111ULL | system_.cpus[i].id_aa64pfr0_feature_fields;
        controls_[i][unsigned(control::id_aa64pfr0_el1)]->value = pfr0;
    }
}

uint64_t cpu_controls::value(unsigned cpu, const std::string& reg) const {
    return (*banks_.at(cpu))[reg].value;
}

void cpu_controls::no_such_cpu(unsigned cpu) const {
    throw std::out_of_range(fmt::format("cpu_controls: no cpu{} (the platform has {})", cpu, controls_.size()));
}

access_outcome cpu_controls::sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) {
    // Registers suffixed _ELn need EL >= n; lower ELs get UNDEFINED (EL0 for the
    // ID register too: Linux emulates it from the UNDEFINED exception).
    unsigned needed = unsigned(reg.name.back() - '0');
    if (ctx.el < needed) return refuse(ctx, access_outcome::undefined, reg, is_write,
                                       fmt::format("{} needs EL{} or higher", reg.name, needed));
    if (&reg == id_aa64pfr0_ && is_write)
        return refuse(ctx, access_outcome::undefined, reg, is_write, "ID_AA64PFR0_EL1 is read-only");
    return access_outcome::ok;
}

void cpu_controls::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    register_bank& b = bank(ctx.cpu);
    serve_from_bank(b, trans, ctx);
    // KVM presents guests an ID_AA64PFR0_EL1 without some features (the AMU).
    if (ctx.guest && trans.is_read() && trans.is_response_ok() &&
        trans.get_address() == id_aa64pfr0_->sysreg->key()) {
        uint64_t v;
        std::memcpy(&v, trans.get_data_ptr(), 8);
        v &= ~system_.cpus[ctx.cpu].id_aa64pfr0_guest_hidden;
        std::memcpy(trans.get_data_ptr(), &v, 8);
    }
}

} // namespace pmusim
