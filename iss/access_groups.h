#pragma once
// Decoding for the ISS's access groups (docs/firmware.md "Inside the ISS"): loads and stores
// that address memory as a base register plus an immediate, and whether an instruction may write
// a given general-purpose register. Arm ARM C4.1 (A64 encoding index), C4.1.66 (Loads and Stores).

#include <cstdint>
#include <optional>

namespace pmusim {

// A load or store whose address is [Rn, #imm] with no writeback: LDR/STR (unsigned offset),
// LDUR/STUR (unscaled), LDP/STP/LDPSW (signed offset), general-purpose or SIMD&FP registers.
struct base_offset_access {
    unsigned base = 0;    // Rn: 0-30, 31 = SP
    int64_t offset = 0;   // bytes from the base
    unsigned bytes = 0;   // every byte it accesses (both registers of a pair)
    bool is_load = false;
    // The general-purpose registers it writes: Rt (and Rt2) of a general-purpose load; none else.
    bool writes_register(unsigned r) const { return (rt && *rt == r) || (rt2 && *rt2 == r); }
    std::optional<unsigned> rt, rt2;
};
// The form above, or nothing for any other instruction (pre/post-index, register offset, literal,
// exclusive, atomic, PRFM, unallocated, ...).
std::optional<base_offset_access> decode_base_offset(uint32_t word);

// False only when the instruction certainly does not write general-purpose register r (31 = SP;
// XZR counts as SP, on the safe side): NOP, data processing (immediate or register: Rd), the
// loads and stores above and LDR (literal) (Rt, Rt2). Anything else may write every register.
bool may_write_register(uint32_t word, unsigned r);

} // namespace pmusim
