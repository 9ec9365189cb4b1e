// HCR_EL2 traps of EL1 registers the engine executes itself (issue 28 item 6): TVM/TRVM (the EL1
// virtual-memory controls), TID1, TID2, TID3 (ID groups 1-3) and TACR (ACTLR_EL1). Arm ARM (DDI 0487)
// HCR_EL2 field descriptions: TVM traps EL1 writes and TRVM EL1 reads of SCTLR_EL1, TTBR0_EL1,
// TTBR1_EL1, TCR_EL1, ESR_EL1, FAR_EL1, AFSR0_EL1, AFSR1_EL1, MAIR_EL1, AMAIR_EL1, CONTEXTIDR_EL1;
// TID1 EL1 reads of REVIDR_EL1 and AIDR_EL1; TID2 reads of CTR_EL0, CCSIDR_EL1, CCSIDR2_EL1,
// CLIDR_EL1 and reads and writes of CSSELR_EL1; TID3 EL1 reads of the ID group 3 registers, the
// encoding space op0 = 3, op1 = 0, CRn = 0, CRm = 1..7 (Linux's KVM traps the same space with
// TID3: arch/arm64/kvm/sys_regs.c ID_SANITISED/ID_UNALLOCATED); TACR EL1 reads and writes of
// ACTLR_EL1; TIDCP EL1 reads and writes of the IMPLEMENTATION DEFINED register space, op0 = 3 with
// CRn = 11 or 15 (HCR_EL2.TIDCP; its trap ranks above the UNDEFINED of an encoding the CPU does
// not implement, Arm ARM D1.4 "Synchronous exception prioritization"), except the DSU's registers,
// whose TIDCP rule is the gate's (dsu_clusterpmu). All trap to EL2 with EC 0x18 and the MSR/MRS
// syndrome, where EL2 is enabled. TID0 traps AArch32 registers only (FPSID, JIDR): nothing at
// AArch64. At EL0 whether TIDCP traps is IMPLEMENTATION DEFINED; pmusim's EL0 access is UNDEFINED.
//
// The engine executes these registers itself unless the ISS makes them its own: while a trap bit
// is set, their MRS/MSR are ISS instructions (handled_here, so the translation-block scan makes
// them engine exits), and a write of HCR_EL2 that changes a trap bit drops every translated block
// so that the scan sees them again. Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"

#include "models/cpu_controls.h"
#include "models/firmware_gate.h"
#include "models/register_access.h"

namespace pmusim {

using namespace a64;

namespace {

enum class trap_group { none, tvm, tid1, tid2, tid3, tacr, tidcp };

constexpr uint32_t key_csselr_el1 = key(3, 2, 0, 0, 0);
constexpr uint32_t key_ctr_el0 = key(3, 3, 0, 0, 1);

trap_group group_of(const sysreg_encoding& e) {
    // SYS/SYSL in the IMPLEMENTATION DEFINED space: UNDEFINED on the engine's CPU, so they reach
    // the ISS without being made engine exits (iss/exception_model.cpp).
    if (e.op0 == 1) return e.crn == 11 || e.crn == 15 ? trap_group::tidcp : trap_group::none;
    if (e.op0 != 3) return trap_group::none;
    switch (e.key()) {
    case key(3, 0, 1, 0, 0):  // SCTLR_EL1
    case key(3, 0, 2, 0, 0):  // TTBR0_EL1
    case key(3, 0, 2, 0, 1):  // TTBR1_EL1
    case key(3, 0, 2, 0, 2):  // TCR_EL1
    case key(3, 0, 5, 2, 0):  // ESR_EL1
    case key(3, 0, 6, 0, 0):  // FAR_EL1
    case key(3, 0, 5, 1, 0):  // AFSR0_EL1
    case key(3, 0, 5, 1, 1):  // AFSR1_EL1
    case key(3, 0, 10, 2, 0): // MAIR_EL1
    case key(3, 0, 10, 3, 0): // AMAIR_EL1
    case key(3, 0, 13, 0, 1): // CONTEXTIDR_EL1
        return trap_group::tvm;
    case key(3, 0, 0, 0, 6): // REVIDR_EL1
    case key(3, 1, 0, 0, 7): // AIDR_EL1
        return trap_group::tid1;
    case key_ctr_el0:
    case key(3, 1, 0, 0, 0): // CCSIDR_EL1
    case key(3, 1, 0, 0, 2): // CCSIDR2_EL1
    case key(3, 1, 0, 0, 1): // CLIDR_EL1
    case key_csselr_el1:
        return trap_group::tid2;
    case key(3, 0, 1, 0, 1): // ACTLR_EL1
        return trap_group::tacr;
    default: break;
    }
    if (e.op1 == 0 && e.crn == 0 && e.crm >= 1 && e.crm <= 7) return trap_group::tid3;
    if (e.crn == 11 || e.crn == 15) return trap_group::tidcp;
    return trap_group::none;
}

// The HCR_EL2 bits that trap any access of the group.
uint64_t group_bits(trap_group g) {
    auto bit = [](unsigned b) { return uint64_t(1) << b; };
    switch (g) {
    case trap_group::tvm: return bit(ctl::hcr_tvm) | bit(ctl::hcr_trvm);
    case trap_group::tid1: return bit(ctl::hcr_tid1);
    case trap_group::tid2: return bit(ctl::hcr_tid2);
    case trap_group::tid3: return bit(ctl::hcr_tid3);
    case trap_group::tacr: return bit(ctl::hcr_tacr);
    case trap_group::tidcp: return bit(ctl::hcr_tidcp);
    default: return 0;
    }
}

constexpr uint64_t all_trap_bits = (uint64_t(1) << ctl::hcr_tvm) | (uint64_t(1) << ctl::hcr_trvm) |
                                   (uint64_t(1) << ctl::hcr_tid1) | (uint64_t(1) << ctl::hcr_tid2) |
                                   (uint64_t(1) << ctl::hcr_tid3) | (uint64_t(1) << ctl::hcr_tacr) |
                                   (uint64_t(1) << ctl::hcr_tidcp);

// Registers of the ID groups are read-only except CSSELR_EL1 (an MSR to them is UNDEFINED).
bool writable(trap_group g, const sysreg_encoding& e) {
    return g == trap_group::tvm || g == trap_group::tacr || g == trap_group::tidcp || e.key() == key_csselr_el1;
}

} // namespace

bool aarch64_iss::el1_trap_candidate(const sysreg_encoding& enc) const {
    // Translated code is per EL: EL0's holds no access these bits trap but a read of CTR_EL0, which
    // TID2 traps at EL0 too (engine_register_access).
    if (el() == 0) return enc.key() == key_ctr_el0 && ((hcr() >> ctl::hcr_tid2) & 1);
    if (enc.op0 != 3) return false;
    const trap_group g = group_of(enc);
    if (g == trap_group::tidcp && gate_.sysreg_owner(cpu_, enc.key())) return false; // the gate's rule
    return g != trap_group::none && (hcr() & group_bits(g));
}

bool aarch64_iss::el1_register_trapped(const sysreg_encoding& enc, bool is_read) const {
    const trap_group g = group_of(enc);
    if (g == trap_group::none || el() != 1) return false;
    if (g == trap_group::tidcp && gate_.sysreg_owner(cpu_, enc.key())) return false; // the gate's rule
    const uint64_t h = hcr();
    if (!cpu_controls::el2_enabled_by(scr(), secure_state()) || ((h >> ctl::hcr_tge) & 1)) return false;
    if (!is_read && !writable(g, enc)) return false; // UNDEFINED, not trapped
    unsigned b = 0;
    switch (g) {
    case trap_group::tvm: b = is_read ? ctl::hcr_trvm : ctl::hcr_tvm; break;
    case trap_group::tid1: b = ctl::hcr_tid1; break;
    case trap_group::tid2: b = ctl::hcr_tid2; break;
    case trap_group::tid3: b = ctl::hcr_tid3; break;
    case trap_group::tacr: b = ctl::hcr_tacr; break;
    case trap_group::tidcp: b = ctl::hcr_tidcp; break;
    default: return false;
    }
    return (h >> b) & 1;
}

bool aarch64_iss::in_el1_trap_group(const sysreg_encoding& enc) { return group_of(enc) != trap_group::none; }

void aarch64_iss::engine_register_access(uint64_t pc, const sysreg_encoding& enc, bool is_read, unsigned rt) {
    const trap_group g = group_of(enc);
    if (el() == 0) {
        // The engine refused it at its EL0, or it was an engine exit: EL1 registers are UNDEFINED at
        // EL0 (el0_system_trap decides). A read of CTR_EL0 (Arm ARM DDI 0487 D24.2.42, "Accessing
        // CTR_EL0", at EL0; E2H is not modelled, so EL0 is never in a host): SCTLR_EL1.UCT [15] = 0
        // traps it to EL1, or to EL2 where EL2 is enabled and HCR_EL2.TGE = 1; else, where EL2 is
        // enabled, HCR_EL2.TID2 traps it to EL2, whatever TGE; both with EC 0x18.
        if (enc.key() != key_ctr_el0 || !is_read) {
            if (!el0_system_trap(0xd5000000u | (is_read ? 1u << 21 : 0) | (uint32_t(enc.op0 & 1) << 19) |
                                     (uint32_t(enc.op1) << 16) | (uint32_t(enc.crn) << 12) | (uint32_t(enc.crm) << 8) |
                                     (uint32_t(enc.op2) << 5) | rt,
                                 pc))
                take_undefined(pc);
            return;
        }
        uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0};
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
        const uint64_t syndrome = sysreg_trap_syndrome(enc, false, rt);
        if (!((sctlr.val >> 15) & 1)) {
            take_exception(route_from_el0(), false, syndrome, pc, std::nullopt);
            return;
        }
        if (cpu_controls::el2_enabled_by(scr(), secure_state()) && ((hcr() >> ctl::hcr_tid2) & 1)) {
            take_exception(2, false, syndrome, pc, std::nullopt);
            return;
        }
    }
    if (!is_read && !writable(g, enc)) {
        take_undefined(pc);
        return;
    }
    uc_arm64_cp_reg r{enc.crn, enc.crm, enc.op0, enc.op1, enc.op2, is_read ? 0 : read_x(rt)};
    if (is_read) {
        if (uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &r) != UC_ERR_OK) { // a register the engine lacks
            take_undefined(pc);
            return;
        }
        write_x(rt, r.val);
    } else {
        if (uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &r) != UC_ERR_OK) {
            take_undefined(pc);
            return;
        }
        // The write is the raw one (no TLB maintenance of sctlr_write/vmsa_ttbr_write): the
        // translation controls' old entries are dropped here.
        flush_tlb();
    }
    set_pc(pc + 4);
    retire(1);
}

void aarch64_iss::el1_traps_changed(uint64_t hcr_before, uint64_t hcr_after) {
    if (!((hcr_before ^ hcr_after) & all_trap_bits)) return;
    // Blocks translated under the old bits may hold an MRS/MSR the engine would now execute
    // itself: every block is translated and scanned again (UC_HOOK_EDGE_GENERATED, scan_block).
    flush_translations();
    engine_.rescan_first_block(); // the first block of the next run is scanned by the block hook (no edge to it)
}

} // namespace pmusim
