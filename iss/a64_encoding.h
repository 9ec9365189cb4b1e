#pragma once
// The A64 encodings, PSTATE bits, vector offsets and system-register keys the ISS decodes itself
// (internal to iss/: the parts of aarch64_iss share them).
#include <cstdint>

#include "models/access_context.h"
#include "models/cpu_controls.h"

namespace pmusim::a64 {

// A64 encodings (Arm ARM C6.2): the fixed words and the masks of the instruction classes
// the ISS decodes itself.
constexpr uint32_t insn_eret = 0xd69f03e0;
constexpr uint32_t insn_wfi = 0xd503207f, insn_wfe = 0xd503205f;
constexpr uint32_t insn_sev = 0xd503209f, insn_sevl = 0xd50320bf; // SEV, SEVL (hints, C6.2)
constexpr uint32_t insn_hlt_semihosting = 0xd45e0000; // HLT #0xF000 (Arm semihosting, AArch64)
constexpr uint32_t mask_exception_gen = 0xffe0001f;   // SVC/HVC/SMC: 0xd4000001/2/3 | imm16 << 5
constexpr uint32_t insn_svc = 0xd4000001, insn_hvc = 0xd4000002, insn_smc = 0xd4000003;
constexpr uint32_t mask_sysreg_move = 0xffd00000, insn_sysreg_move = 0xd5100000; // MSR/MRS (register)

// Instructions that access data memory in the engine: the A64 "Loads and Stores" encoding group
// (bits [28:25] x1x0; Unicorn 2.1.1's disas_ldst, translate-a64.c) and DC ZVA (SYS #3, C7, C4, #1), which writes.
inline bool accesses_memory(uint32_t w) { return (w & 0x0a000000) == 0x08000000 || (w & 0xffffffe0) == 0xd50b7420; }
// Branches (the A64 "Branches, Exception Generating and System instructions" group, as Unicorn
// 2.1.1's disas_b_exc_sys decodes it): B/BL, CBZ/CBNZ, TBZ/TBNZ, B.cond, and branches to a register
// (BR, BLR, RET, ERET, ...). Unicorn 2.1.1 ends a translation block at every one of them
// (disas_b_exc_sys: gen_goto_tb, DISAS_JUMP, or an exception for an unallocated encoding).
inline bool ends_block(uint32_t w) {
    return (w & 0x7c000000) == 0x14000000 || (w & 0x7e000000) == 0x34000000 || (w & 0x7e000000) == 0x36000000 ||
           (w & 0xfe000000) == 0x54000000 || (w & 0xfe000000) == 0xd6000000;
}

// PSTATE/SPSR bits (Arm ARM D1.7): NZCV [31:28], D A I F [9:6], M[3:0] = EL << 2 | SPSel.
constexpr uint64_t pstate_nzcv_daif = 0xf00003c0;
constexpr uint64_t pstate_daif = 0x3c0, pstate_i = 1u << 7;

// Exception vector offsets from VBAR_ELx (Arm ARM D1.10.2).
constexpr uint64_t vector_current_sp0 = 0x000, vector_current_spx = 0x200, vector_lower_a64 = 0x400,
                   vector_irq = 0x080;

// Control-register bits the routing reads (Arm ARM D17.2: SCR_EL3, HCR_EL2), as the control
// registers' table places them.
using ctl::scr_irq, ctl::scr_ea, ctl::scr_smd, ctl::scr_hce, ctl::hcr_vm, ctl::hcr_imo, ctl::hcr_tsc;
constexpr uint32_t key_scr_el3 = (3u << 14) | (6u << 11) | (1u << 7) | (1u << 3), key_hcr_el2 = (3u << 14) | (4u << 11) | (1u << 7) | (1u << 3);

constexpr uint64_t page_size = 4096;

// The system-register encoding of an MRS/MSR (register) word.
inline sysreg_encoding encoding_of(uint32_t word) {
    return {uint8_t(2 + ((word >> 19) & 1)), uint8_t((word >> 16) & 7), uint8_t((word >> 12) & 15),
            uint8_t((word >> 8) & 15), uint8_t((word >> 5) & 7)};
}
constexpr uint32_t key(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
    return (op0 << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2;
}
// Registers the ISS holds (Arm ARM encodings, D17 "AArch64 System Register Descriptions").
constexpr uint32_t key_currentel = key(3, 0, 4, 2, 2), key_spsel = key(3, 0, 4, 2, 0);
constexpr uint32_t key_sp_el1 = key(3, 4, 4, 1, 0), key_sp_el2 = key(3, 6, 4, 1, 0);
constexpr uint32_t key_cpacr_el1 = key(3, 0, 1, 0, 2);
// For op1 = 4 (EL2) and 6 (EL3): SPSR_ELx, ELR_ELx, ESR_ELx, FAR_ELx, VBAR_ELx.
constexpr uint32_t el_bank_key(unsigned op1, unsigned crn, unsigned crm, unsigned op2) { return key(3, op1, crn, crm, op2); }

} // namespace pmusim::a64
