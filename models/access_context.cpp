#include "models/access_context.h"

#include <fmt/format.h>

namespace pmusim {

std::string sysreg_encoding::generic_name() const {
    return fmt::format("S{}_{}_C{}_C{}_{}", op0, op1, crn, crm, op2);
}

std::string access_context::describe() const {
    switch (initiator) {
    case initiator_kind::debugger: return fmt::format("debug {}", secure ? "S" : "NS");
    case initiator_kind::microcontroller: return "occ";
    case initiator_kind::dma: return "dma";
    case initiator_kind::cpu: break;
    }
    if (is_power) {
        const char* p = privilege == power_privilege::problem ? "user"
                      : privilege == power_privilege::supervisor ? "os" : "hv";
        return fmt::format("cpu{} {}", cpu, p);
    }
    return fmt::format("cpu{} EL{} {}{}", cpu, el, secure ? "S" : "NS", guest ? " guest" : "");
}

uint64_t sysreg_trap_syndrome(const sysreg_encoding& enc, bool is_write, unsigned rt) {
    // ISS: Op0[21:20] Op2[19:17] Op1[16:14] CRn[13:10] Rt[9:5] CRm[4:1] Direction[0] (1 = read, MRS)
    uint64_t iss = (uint64_t(enc.op0) << 20) | (uint64_t(enc.op2) << 17) | (uint64_t(enc.op1) << 14) |
                   (uint64_t(enc.crn) << 10) | (uint64_t(rt & 31) << 5) | (uint64_t(enc.crm) << 1) |
                   (is_write ? 0 : 1);
    return esr::syndrome(esr::ec_sysreg, iss);
}

} // namespace pmusim
