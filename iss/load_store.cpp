#include "iss/load_store.h"

namespace pmusim {

namespace {
constexpr unsigned field(uint32_t w, unsigned lsb, unsigned width) { return (w >> lsb) & ((1u << width) - 1); }
int64_t sign_extend(uint64_t value, unsigned width) { return int64_t(value << (64 - width)) >> (64 - width); }

// size [31:30] and opc [23:22] of a general-purpose single-register load or store (Arm ARM C4.1.66,
// "Load/store register (...)"): opc 00 store, 01 load, 10 signed load to X, 11 signed load to W;
// size 11 with opc 1x and size 10 with opc 11 are PRFM or unallocated.
bool single(uint32_t w, load_store& a) {
    const unsigned size = field(w, 30, 2), opc = field(w, 22, 2);
    if ((size == 3 && opc >= 2) || (size == 2 && opc == 3)) return false;
    a.bytes = 1u << size;
    a.is_load = opc != 0;
    a.sign_extend = opc >= 2;
    a.to_w = opc == 3;
    a.rt = field(w, 0, 5);
    a.rn = field(w, 5, 5);
    return true;
}
} // namespace

std::optional<load_store> decode_load_store(uint32_t w) {
    load_store a;
    if (field(w, 26, 1)) return std::nullopt; // SIMD&FP registers
    if ((w & 0x3b000000) == 0x39000000) {     // unsigned immediate: imm12 [21:10] scaled
        if (!single(w, a)) return std::nullopt;
        a.offset = int64_t(field(w, 10, 12)) * a.bytes;
        return a;
    }
    if ((w & 0x3b200000) == 0x38000000) { // imm9 [20:12]; [11:10]: 00 unscaled, 01 post, 10 unprivileged, 11 pre
        if (!single(w, a)) return std::nullopt;
        a.offset = sign_extend(field(w, 12, 9), 9);
        const unsigned mode = field(w, 10, 2);
        a.post_index = mode == 1;
        a.writeback = mode == 1 || mode == 3;
        a.unprivileged = mode == 2;
        return a;
    }
    if ((w & 0x3b200c00) == 0x38200800) { // register offset: Rm [20:16], option [15:13], S [12]
        if (!single(w, a)) return std::nullopt;
        const unsigned option = field(w, 13, 3);
        if (!(option & 2)) return std::nullopt; // unallocated extends
        a.register_offset = true;
        a.rm = field(w, 16, 5);
        a.extend = option;
        a.shift = field(w, 12, 1) ? field(w, 30, 2) : 0;
        return a;
    }
    if (field(w, 27, 3) == 5 && !field(w, 25, 1)) { // pairs: [25:23] 000 no-allocate, 001 post, 010 offset, 011 pre
        const unsigned opc = field(w, 30, 2), mode = field(w, 23, 2);
        a.is_load = field(w, 22, 1);
        if (opc == 3 || (opc == 1 && (!a.is_load || mode == 0))) return std::nullopt; // unallocated, STGP
        a.pair = true;
        a.bytes = opc == 2 ? 8 : 4;
        a.sign_extend = opc == 1; // LDPSW
        a.rt = field(w, 0, 5);
        a.rt2 = field(w, 10, 5);
        a.rn = field(w, 5, 5);
        a.offset = sign_extend(field(w, 15, 7), 7) * a.bytes;
        a.post_index = mode == 1;
        a.writeback = mode == 1 || mode == 3;
        return a;
    }
    return std::nullopt;
}

uint64_t extend_register(uint64_t rm, unsigned extend, unsigned shift) {
    uint64_t v = rm;
    switch (extend) {
    case 2: v = uint32_t(rm); break;                         // UXTW
    case 6: v = uint64_t(int64_t(int32_t(uint32_t(rm)))); break; // SXTW
    default: break;                                           // LSL (UXTX), SXTX
    }
    return v << shift;
}

} // namespace pmusim
