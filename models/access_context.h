#pragma once
// The access-context extension is public API (include/pmusim/access_context.h): embedders attach it
// to say who is accessing. This name stays for the models.
#include "pmusim/access_context.h"

namespace pmusim {

// ESR_ELx, the syndrome of an exception taken to AArch64 (Arm ARM D17.2.37): EC [31:26],
// IL [25] (1: a 32-bit instruction, as every A64 instruction is), ISS [24:0]. Written once here
// for the gate, the units and the ISS.
namespace esr {
constexpr unsigned ec_lsb = 26;
constexpr uint64_t il = uint64_t(1) << 25;
constexpr uint32_t ec_unknown = 0x00; // unknown reason: an UNDEFINED access
constexpr uint32_t ec_sysreg = 0x18;  // a trapped MSR/MRS
// The syndrome of an A64 instruction's exception of class `ec`.
constexpr uint64_t syndrome(uint32_t ec, uint64_t iss = 0) { return uint64_t(ec) << ec_lsb | il | iss; }
// An UNDEFINED system-register access: EC 0x00, IL = 1.
constexpr uint64_t undefined = syndrome(ec_unknown);
} // namespace esr

} // namespace pmusim
