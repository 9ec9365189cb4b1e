#pragma once
// The EL1&0 stage 1 translation as the ISS computes it for itself (the engine translates on its own;
// Unicorn 2.1.1 tells neither the fault's address nor its syndrome): the VMSAv8-64 table walk for
// the 4 KB granule (Arm ARM D8.2 "Translation tables", D8.3 "descriptor formats", D8.4 "access
// permissions", D8.5 "Access flag"), with the fault it finds in the architecture's priority:
// translation, address size, access flag, permission. What it leaves out: the 16 KB and 64 KB
// granules, PAN, hierarchical permissions (APTable, XNTable), and FEAT_LPA.
//
// Address size faults (Arm ARM DDI 0487 D8.2 "Translation table walks" and the pseudocode
// AArch64.S1DisabledOutput, AArch64.OAOutOfRange): the output address may not have a bit set at or
// above the PA size, which is ID_AA64MMFR0_EL1.PARange, or TCR_EL1.IPS where that is smaller (TCR_EL1
// IPS: "a value larger than the implemented PA size behaves as the implemented size"). With the MMU
// off the output address is the input address, so an access above the PA size is an Address size
// fault at level 0 (its top byte left out where TBI applies to it); with the MMU on, a TTBR whose
// table address is too large faults at level 0 and a descriptor's at its own level.
#include <cstdint>
#include <functional>

namespace pmusim {

enum class walk_fault { none, address_size, translation, access_flag, permission };

struct walk_request {
    uint64_t va = 0;
    bool write = false, fetch = false;
    bool el0 = false; // EL0's permissions (EL0 code, or LDTR/STTR at EL1)
    uint64_t sctlr = 0, tcr = 0, ttbr0 = 0, ttbr1 = 0;
    // The PA size in bits: ID_AA64MMFR0_EL1.PARange decoded (pa_range_bits).
    unsigned pa_bits = 48;
    // The regime's top byte is ignored for this access with the MMU off (TBI; TBID for a fetch).
    // With the MMU on the walk reads TCR_EL1's TBI0/TBI1 itself.
    bool flat_tbi = false;
    // The translation only, for the simulator's own reads of code and data: no access-flag or
    // permission fault.
    bool translate_only = false;
};

// ID_AA64MMFR0_EL1.PARange [3:0] in bits (Arm ARM D17.2.64): 0 32, 1 36, 2 40, 3 42, 4 44, 5 48,
// 6 52; TCR_ELx.IPS/PS use the same encoding. Reserved values: 48 (the largest without FEAT_LPA).
unsigned pa_range_bits(unsigned encoding);
// TBI for `va` in the EL1&0 regime from TCR_EL1 (D17.2.131: TBI0 [37], TBI1 [38], TBID0 [51],
// TBID1 [52]: with TBIDx = 1 the top byte is ignored for data accesses only).
bool el10_top_byte_ignored(uint64_t tcr_el1, uint64_t va, bool fetch);

struct walk_result {
    walk_fault fault = walk_fault::none;
    unsigned level = 0;   // of the fault (DFSC/IFSC [1:0]), or of the descriptor that translated
    uint64_t pa = 0;      // when no fault
    bool translated = false; // false: the MMU is off and pa = va
    // The fault status code of ESR_ELx.ISS DFSC/IFSC (Arm ARM D17.2.40): 0b0001LL translation,
    // 0b0010LL access flag, 0b0011LL permission.
    uint32_t status_code() const {
        // 0b0000LL address size (D17.2.40).
        const uint32_t base = fault == walk_fault::address_size ? 0x00
                              : fault == walk_fault::translation ? 0x04
                              : fault == walk_fault::access_flag ? 0x08
                                                                 : 0x0c;
        return base | (level & 3);
    }
};

// read64(pa, value): false when pa holds no memory (a walk that reads there faults).
walk_result stage1_walk(const walk_request& r, const std::function<bool(uint64_t, uint64_t&)>& read64);

} // namespace pmusim
