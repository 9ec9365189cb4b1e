#pragma once
// Who is accessing: the one TLM-2.0 extension pmusim adds to the generic payload.
//
// The initiator fills in the request half; the gate and the target fill in the
// outcome half (the TLM response status alone cannot say "trapped to EL2").
// Response statuses keep their standard meaning: TLM_OK_RESPONSE for done and
// for ignored writes, TLM_ADDRESS_ERROR_RESPONSE for unmapped space,
// TLM_GENERIC_ERROR_RESPONSE for a refused access (APB PSLVERR), and
// TLM_COMMAND_ERROR_RESPONSE for a system-register access that raised an
// exception (trap or UNDEFINED); `outcome` then says which.
#include <cstdint>
#include <string>
#include <tlm>

#include "pmusim/access_outcome.h"

namespace pmusim {

enum class initiator_kind { cpu, debugger, microcontroller, dma };
enum class power_privilege { problem, supervisor, hypervisor }; // POWER: user, OS, hypervisor
enum class access_path { system_register, memory_mapped };

struct sysreg_encoding {
    uint8_t op0 = 0, op1 = 0, crn = 0, crm = 0, op2 = 0;
    // Packed as in the ESR_ELx ISS for exception class 0x18 (Op0:Op2:Op1:CRn:CRm positions).
    uint32_t key() const { return (uint32_t(op0) << 14) | (uint32_t(op1) << 11) | (uint32_t(crn) << 7) | (uint32_t(crm) << 3) | op2; }
    static sysreg_encoding from_key(uint32_t key) {
        return {uint8_t((key >> 14) & 3), uint8_t((key >> 11) & 7), uint8_t((key >> 7) & 15), uint8_t((key >> 3) & 15), uint8_t(key & 7)};
    }
    std::string generic_name() const; // "S3_3_C13_C2_0"
    friend bool operator==(const sysreg_encoding& a, const sysreg_encoding& b) { return a.key() == b.key(); }
};

struct access_context : tlm::tlm_extension<access_context> {
    // Request
    initiator_kind initiator = initiator_kind::cpu;
    unsigned cpu = 0;              // for initiator cpu
    unsigned el = 1;               // Arm exception level 0..3
    bool secure = false;           // Arm security state of the access
    bool guest = false;            // a virtual machine's EL0/EL1 (KVM guest)
    power_privilege privilege = power_privilege::supervisor; // POWER initiators
    bool is_power = false;         // POWER privilege model applies instead of Arm ELs
    access_path path = access_path::memory_mapped;
    // Outcome
    access_outcome outcome = access_outcome::ok;
    uint64_t syndrome = 0;         // ESR_ELx value for traps (EC in [31:26], IL, ISS)
    std::string detail;            // why refused/trapped, for logs

    // The request half and the direction in one word: two accesses with equal bits are the same
    // request to any access rule (the gate remembers the ones a rule allowed by it).
    uint32_t request_bits(bool is_write) const {
        // Exact for every value a field can hold (el last, with the bits left), so no two requests share bits.
        return uint32_t(initiator) | uint32_t(secure) << 2 | uint32_t(guest) << 3 | uint32_t(privilege) << 4 |
               uint32_t(is_power) << 6 | uint32_t(path) << 7 | uint32_t(is_write) << 8 | el << 9;
    }

    tlm::tlm_extension_base* clone() const override { return new access_context(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        *this = static_cast<const access_context&>(other);
    }
    std::string describe() const; // "cpu0 EL1 NS", "debug S", "cpu3 hv"
};

// ESR for a trapped MSR/MRS (exception class 0x18): IL=1, ISS = Op0 Op2 Op1 CRn Rt CRm Direction.
uint64_t sysreg_trap_syndrome(const sysreg_encoding& enc, bool is_write, unsigned rt = 0);

} // namespace pmusim
