#pragma once
// The tests' own ESR_ELx of a trapped MRS/MSR, written from the architecture's field layout and
// never from the model's sysreg_trap_syndrome() or esr:: constants: an expected syndrome computed
// by the code under test would agree with it whatever it got wrong. Every position below is
// cited; docs/reliability.md ("Classes of failure", oracles) states the rule.
//
//   ESR_ELx (Arm ARM DDI0487, the ESR_EL1/EL2/EL3 pages): EC [31:26], IL [25], ISS [24:0].
//     Linux arch/arm64/include/asm/esr.h: ESR_ELx_EC_SHIFT (26), ESR_ELx_IL_SHIFT (25),
//     ESR_ELx_EC_SYS64 (0x18). IL is 1 for a 32-bit instruction, which every A64 instruction is.
//   ISS for EC 0x18 (Arm ARM: "ISS encoding for an exception because of MSR, MRS, or System
//   instruction execution in AArch64 state"): Op0 [21:20], Op2 [19:17], Op1 [16:14],
//   CRn [13:10], Rt [9:5], CRm [4:1], Direction [0] (0: MSR, a write; 1: MRS, a read).
//     Linux esr.h: ESR_ELx_SYS64_ISS_{OP0 20, OP2 17, OP1 14, CRN 10, RT 5, CRM 1}_SHIFT,
//     ESR_ELx_SYS64_ISS_DIR_READ 0x1, ESR_ELx_SYS64_ISS_DIR_WRITE 0x0.
#include <cstdint>

namespace pmusim::esr_oracle {

inline constexpr unsigned ec_shift = 26, il_shift = 25;
inline constexpr uint64_t ec_sys64 = 0x18;
inline constexpr unsigned op0_shift = 20, op2_shift = 17, op1_shift = 14, crn_shift = 10, rt_shift = 5, crm_shift = 1;
inline constexpr uint64_t dir_read = 1, dir_write = 0;

// ESR of a trapped MRS (write = false) or MSR (write = true) of S<op0>_<op1>_C<crn>_C<crm>_<op2> with Xt = rt.
constexpr uint64_t trapped_sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2, bool write,
                                  unsigned rt = 0) {
    const uint64_t iss = uint64_t(op0) << op0_shift | uint64_t(op2) << op2_shift | uint64_t(op1) << op1_shift |
                         uint64_t(crn) << crn_shift | uint64_t(rt) << rt_shift | uint64_t(crm) << crm_shift |
                         (write ? dir_write : dir_read);
    return ec_sys64 << ec_shift | uint64_t(1) << il_shift | iss;
}

// The same from an encoding record (op0, op1, crn, crm, op2 members), e.g. facts::fact_encoding().
template <class Encoding>
constexpr uint64_t trapped_sysreg(const Encoding& e, bool write, unsigned rt = 0) {
    return trapped_sysreg(e.op0, e.op1, e.crn, e.crm, e.op2, write, rt);
}

} // namespace pmusim::esr_oracle
