#pragma once
// The general-purpose loads and stores the ISS performs itself when they reach outside plain memory
// (a unit or device window): the engine stops on them exactly (iss/stage2_map.h) and the ISS does
// the access through the gate, as KVM does for a guest's MMIO from its own decoding. Arm ARM C4.1.66
// "Loads and Stores": LDR/STR (unsigned immediate, unscaled, pre- and post-index, unprivileged,
// register offset) of 1, 2, 4 and 8 bytes, sign-extending loads, LDP/STP/LDPSW (offset, pre- and
// post-index, non-temporal). Anything else (SIMD&FP, exclusive, atomic, literal) is not decoded here.
#include <cstdint>
#include <optional>

namespace pmusim {

struct load_store {
    bool is_load = false;
    unsigned bytes = 0;       // of each register's access
    bool pair = false;        // Rt2 too, at address + bytes
    bool sign_extend = false; // a signed load (LDRSB/LDRSH/LDRSW/LDPSW)
    bool to_w = false;        // a signed load into a W register (LDRSB/LDRSH Wt): upper 32 bits zero
    unsigned rt = 0, rt2 = 0; // 31: XZR
    unsigned rn = 0;          // 31: SP
    // The address: Rn + offset (register offset: + extend(Rm) << shift), except post-index: Rn.
    int64_t offset = 0;
    bool register_offset = false;
    unsigned rm = 0, extend = 0, shift = 0; // extend: option [15:13] (010 UXTW, 011 LSL, 110 SXTW, 111 SXTX)
    bool post_index = false, writeback = false;
    bool unprivileged = false; // LDTR/STTR: accessed as EL0 would
};

std::optional<load_store> decode_load_store(uint32_t word);

// The data addresses of any load or store the engine may abort on, for the fault's address (FAR):
// the general-purpose forms above, their SIMD&FP forms, exclusives and load-acquire/store-release,
// LSE atomics, LD1-LD4/ST1-ST4 (multiple structures), and DC ZVA (Xt, aligned down to the 64-byte
// block DCZID_EL0 reports). Not decoded: single-structure loads and stores (LD1 {lane}, LD1R).
struct access_range {
    unsigned rn = 0; // 31: SP (DC ZVA: Xt, with offset 0)
    int64_t offset = 0;
    bool register_offset = false;
    unsigned rm = 0, extend = 0, shift = 0;
    bool post_index = false;
    bool dc_zva = false;
    unsigned bytes = 0; // from the address on
    bool is_write = false;
    bool unprivileged = false;
};
std::optional<access_range> decode_access_range(uint32_t word);

// The register offset's value: Rm extended by `extend` and shifted left by `shift`.
uint64_t extend_register(uint64_t rm, unsigned extend, unsigned shift);

} // namespace pmusim
