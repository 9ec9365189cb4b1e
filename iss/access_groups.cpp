#include "iss/access_groups.h"

namespace pmusim {

namespace {
constexpr uint32_t insn_nop = 0xd503201f;
constexpr unsigned field(uint32_t w, unsigned lsb, unsigned width) { return (w >> lsb) & ((1u << width) - 1); }
int64_t sign_extend(uint32_t value, unsigned width) { return int64_t(uint64_t(value) << (64 - width)) >> (64 - width); }

// Size in bytes of the single-register access of LDR/STR (immediate) and LDUR/STUR: size [31:30],
// V [26], opc [23:22]; nothing for PRFM/PRFUM and the unallocated encodings.
std::optional<unsigned> single_register_bytes(uint32_t w, bool& is_load) {
    const unsigned size = field(w, 30, 2), opc = field(w, 22, 2);
    if (field(w, 26, 1)) { // SIMD&FP: opc 1x is the 128-bit form, with size 00 only
        is_load = opc & 1;
        if (opc >= 2) return size == 0 ? std::optional<unsigned>(16) : std::nullopt;
        return 1u << size;
    }
    if ((size == 3 && opc >= 2) || (size == 2 && opc == 3)) return std::nullopt; // PRFM, unallocated
    is_load = opc != 0;
    return 1u << size;
}
} // namespace

std::optional<base_offset_access> decode_base_offset(uint32_t w) {
    base_offset_access a;
    a.base = field(w, 5, 5);
    const bool simd = field(w, 26, 1);
    if ((w & 0x3b000000) == 0x39000000 || (w & 0x3b200c00) == 0x38000000) {
        // Load/store register (unsigned immediate): imm12 [21:10] scaled by the size;
        // (unscaled immediate): simm9 [20:12], bits [21] and [11:10] zero.
        auto bytes = single_register_bytes(w, a.is_load);
        if (!bytes) return std::nullopt;
        a.bytes = *bytes;
        a.offset = (w & 0x01000000) ? int64_t(field(w, 10, 12)) * *bytes : sign_extend(field(w, 12, 9), 9);
        if (a.is_load && !simd) a.rt = field(w, 0, 5);
        return a;
    }
    if ((w & 0x3b800000) == 0x29000000) {
        // Load/store register pair (signed offset): opc [31:30], L [22], simm7 [21:15] scaled.
        const unsigned opc = field(w, 30, 2);
        a.is_load = field(w, 22, 1);
        unsigned element;
        if (simd) {
            if (opc == 3) return std::nullopt;
            element = 4u << opc;
        } else {
            if (opc == 3 || (opc == 1 && !a.is_load)) return std::nullopt; // unallocated, STGP
            element = opc == 2 ? 8 : 4;                                     // LDPSW: 4
        }
        a.bytes = 2 * element;
        a.offset = sign_extend(field(w, 15, 7), 7) * element;
        if (a.is_load && !simd) {
            a.rt = field(w, 0, 5);
            a.rt2 = field(w, 10, 5);
        }
        return a;
    }
    return std::nullopt;
}

bool may_write_register(uint32_t w, unsigned r) {
    if (w == insn_nop) return false;
    // Data processing, immediate (op0 [28:26] = 100) and register ([27:25] = 101): every
    // instruction writes at most Rd [4:0] (ADD/SUB immediate and extended: 31 = SP).
    if ((w & 0x1c000000) == 0x10000000 || (w & 0x0e000000) == 0x0a000000) return field(w, 0, 5) == r;
    if (auto a = decode_base_offset(w)) return a->writes_register(r);
    // LDR (literal) [29:27] = 011, [25:24] = 00: a general-purpose one (V [26] = 0) writes Rt
    // (PRFM writes nothing: counted as writing, on the safe side).
    if ((w & 0x3b000000) == 0x18000000) return !field(w, 26, 1) && field(w, 0, 5) == r;
    return true;
}

} // namespace pmusim
