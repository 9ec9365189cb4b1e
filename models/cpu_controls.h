#pragma once
// The per-CPU control registers that decide traps: SCR_EL3, CPTR_EL3, CPTR_EL2,
// HCR_EL2, MDCR_EL3/EL2, ACTLR_EL3/EL2, plus the ID register that reports the
// AMU (ID_AA64PFR0_EL1). They are real system registers that EL3/EL2 code
// writes through the bus; the firmware gate and the units' access rules read them.
#include <array>
#include <memory>
#include <vector>

#include "models/unit.h"

namespace pmusim {

const register_table& cpu_controls_table();

// The control registers the access rules read on every access, named once here and
// resolved to their bank entries when the CPUs are built (a look-up by name string would
// cost more than the rest of the access).
enum class control : unsigned {
    scr_el3, cptr_el3, cptr_el2, hcr_el2, mdcr_el3, mdcr_el2, actlr_el3, actlr_el2, id_aa64pfr0_el1,
    count
};
const char* register_name(control reg); // "SCR_EL3", ...

class cpu_controls : public unit {
public:
    cpu_controls(const sc_core::sc_module_name& name, soc& system);

    std::string type() const override { return "cpu_controls"; }
    const register_table& table() const override { return cpu_controls_table(); }
    std::vector<const register_def*> sysregs(unsigned cpu) const override;
    access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) override;
    void reset(bool cold) override;

    // Current value of a control register of one CPU, and one bit of it.
    uint64_t value(unsigned cpu, control reg) const {
        if (cpu >= controls_.size()) no_such_cpu(cpu); // cold: keeps this inlined into the access rules
        return controls_[cpu][unsigned(reg)]->value;
    }
    bool bit(unsigned cpu, control reg, unsigned bit_index) const { return (value(cpu, reg) >> bit_index) & 1; }
    // The bank entry of a control register, for a unit that reads it on every access.
    const register_bank::reg& entry(unsigned cpu, control reg) const {
        if (cpu >= controls_.size()) no_such_cpu(cpu);
        return *controls_[cpu][unsigned(reg)];
    }
    // The same by register name (tests and tools; the access rules use `control`).
    uint64_t value(unsigned cpu, const std::string& reg) const;
    bool bit(unsigned cpu, const std::string& reg, unsigned bit_index) const { return (value(cpu, reg) >> bit_index) & 1; }
    // Whether EL2 is implemented and enabled in the CPU's current security state
    // (pmusim models EL2 as present; Secure EL2 needs SCR_EL3.EEL2).
    bool el2_enabled(unsigned cpu, bool secure) const { return el2_enabled_by(value(cpu, control::scr_el3), secure); }
    static bool el2_enabled_by(uint64_t scr_el3, bool secure);
    register_bank& bank(unsigned cpu) { return *banks_.at(cpu); }
    // The bits of `value` written to `reg` that pmusim gives no behaviour (docs/firmware.md
    // "What is not modelled"): stored and read back, but nothing acts on them. The ISS reports
    // each once per CPU in the log, naming the register and the bit.
    static uint64_t unmodelled_bits(control reg, uint64_t value);
    // The control register at this system-register encoding, if it is one (the ISS reports the
    // unmodelled bits of every write to one).
    static std::optional<control> at(const sysreg_encoding& enc);

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    std::vector<std::unique_ptr<register_bank>> banks_;
    // Per CPU, the bank entry of each `control`.
    std::vector<std::array<register_bank::reg*, unsigned(control::count)>> controls_;
    const register_def* id_aa64pfr0_ = nullptr;
    [[noreturn]] void no_such_cpu(unsigned cpu) const;
};

// The bit positions of the fields the units, the gate and the ISS read: written once here, and
// the table (cpu_controls_table()) places its fields with these same constants.
namespace ctl {
constexpr unsigned cptr_tam = 30;       // CPTR_EL3.TAM, CPTR_EL2.TAM
constexpr unsigned mdcr_tde = 8;        // MDCR_EL2.TDE
constexpr unsigned hcr_vm = 0;          // HCR_EL2.VM
constexpr unsigned hcr_imo = 4;         // HCR_EL2.IMO
constexpr unsigned hcr_tge = 27;        // HCR_EL2.TGE
constexpr unsigned hcr_e2h = 34;        // HCR_EL2.E2H
constexpr unsigned hcr_amvoffen = 51;   // HCR_EL2.AMVOFFEN
constexpr unsigned hcr_tidcp = 20;      // HCR_EL2.TIDCP (Linux kvm_arm.h HCR_TIDCP; 53 is EnSCXT)
constexpr unsigned hcr_twi = 13;        // HCR_EL2.TWI: trap EL0/EL1 WFI to EL2 (DDI0487 D24.2.62)
constexpr unsigned hcr_twe = 14;        // HCR_EL2.TWE: trap EL0/EL1 WFE to EL2
constexpr unsigned hcr_tsc = 19;        // HCR_EL2.TSC: trap EL1 SMC to EL2
// Traps of EL1 registers the engine executes itself (iss/el1_register_traps.cpp); positions as
// Linux's arch/arm64/include/asm/kvm_arm.h@022d3f080068 HCR_TID1..HCR_TRVM (tests/facts/cpu.tsv).
constexpr unsigned hcr_tid1 = 16, hcr_tid2 = 17, hcr_tid3 = 18, hcr_tacr = 21, hcr_tvm = 26, hcr_trvm = 30;
constexpr unsigned hcr_rw = 31;         // HCR_EL2.RW: EL1 is AArch64
constexpr unsigned scr_rw = 10;         // SCR_EL3.RW: lower ELs are AArch64
constexpr unsigned scr_twi = 12;        // SCR_EL3.TWI: trap EL0-EL2 WFI to EL3 (DDI0487 D24.2.169)
constexpr unsigned scr_twe = 13;        // SCR_EL3.TWE: trap EL0-EL2 WFE to EL3
constexpr unsigned scr_ns = 0;          // SCR_EL3.NS
constexpr unsigned scr_irq = 1;         // SCR_EL3.IRQ
constexpr unsigned scr_ea = 3;          // SCR_EL3.EA
constexpr unsigned scr_smd = 7;         // SCR_EL3.SMD
constexpr unsigned scr_hce = 8;         // SCR_EL3.HCE
constexpr unsigned scr_eel2 = 18;       // SCR_EL3.EEL2
constexpr unsigned scr_amvoffen = 35;   // SCR_EL3.AMVOFFEN
constexpr unsigned scr_fgten = 27;      // SCR_EL3.FGTEn
constexpr unsigned actlr_clusterpmuen = 12; // ACTLR_EL3/EL2.CLUSTERPMUEN (DSU)
constexpr unsigned actlr_pwren = 7;     // ACTLR_EL3.PWREN (DSU power registers)
} // namespace ctl

inline bool cpu_controls::el2_enabled_by(uint64_t scr_el3, bool secure) {
    return !secure || ((scr_el3 >> ctl::scr_eel2) & 1);
}

} // namespace pmusim
