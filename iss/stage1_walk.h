#pragma once
// The EL1&0 stage 1 translation as the ISS computes it for itself (the engine translates on its own;
// Unicorn 2.1.1 tells neither the fault's address nor its syndrome): the VMSAv8-64 table walk for
// the 4 KB granule (Arm ARM D8.2 "Translation tables", D8.3 "descriptor formats", D8.4 "access
// permissions", D8.5 "Access flag"), with the fault it finds in the architecture's priority:
// translation, access flag, permission. What it leaves out: the 16 KB and 64 KB granules, PAN,
// hierarchical permissions (APTable, XNTable), and FEAT_LPA.
#include <cstdint>
#include <functional>

namespace pmusim {

enum class walk_fault { none, translation, access_flag, permission };

struct walk_request {
    uint64_t va = 0;
    bool write = false, fetch = false;
    bool el0 = false; // EL0's permissions (EL0 code, or LDTR/STTR at EL1)
    uint64_t sctlr = 0, tcr = 0, ttbr0 = 0, ttbr1 = 0;
};

struct walk_result {
    walk_fault fault = walk_fault::none;
    unsigned level = 0;   // of the fault (DFSC/IFSC [1:0]), or of the descriptor that translated
    uint64_t pa = 0;      // when no fault
    bool translated = false; // false: the MMU is off and pa = va
    // The fault status code of ESR_ELx.ISS DFSC/IFSC (Arm ARM D17.2.40): 0b0001LL translation,
    // 0b0010LL access flag, 0b0011LL permission.
    uint32_t status_code() const {
        const uint32_t base = fault == walk_fault::translation ? 0x04 : fault == walk_fault::access_flag ? 0x08 : 0x0c;
        return base | (level & 3);
    }
};

// read64(pa, value): false when pa holds no memory (a walk that reads there faults).
walk_result stage1_walk(const walk_request& r, const std::function<bool(uint64_t, uint64_t&)>& read64);

} // namespace pmusim
