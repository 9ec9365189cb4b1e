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

std::optional<access_range> decode_access_range(uint32_t w) {
    access_range r;
    if (auto a = decode_load_store(w)) {
        r.rn = a->rn;
        r.offset = a->offset;
        r.register_offset = a->register_offset;
        r.rm = a->rm;
        r.extend = a->extend;
        r.shift = a->shift;
        r.post_index = a->post_index;
        r.bytes = a->bytes * (a->pair ? 2 : 1);
        r.is_write = !a->is_load;
        r.unprivileged = a->unprivileged;
        return r;
    }
    r.rn = field(w, 5, 5);
    const unsigned size = field(w, 30, 2);
    if (field(w, 26, 1) && (field(w, 24, 6) == 0x3d || field(w, 24, 6) == 0x3c)) {
        // SIMD&FP single register: [29:27] 111, V, [25:24] 01 unsigned immediate, 00 the rest.
        const unsigned opc = field(w, 22, 2);
        r.bytes = (opc & 2) ? 16 : 1u << size;
        r.is_write = !(opc & 1);
        if (field(w, 24, 1)) r.offset = int64_t(field(w, 10, 12)) * r.bytes;
        else if (field(w, 21, 1) && field(w, 10, 2) == 2) {
            r.register_offset = true;
            r.rm = field(w, 16, 5);
            r.extend = field(w, 13, 3);
            r.shift = field(w, 12, 1) ? (r.bytes == 16 ? 4 : size) : 0;
        } else if (!field(w, 21, 1)) {
            r.offset = sign_extend(field(w, 12, 9), 9);
            r.post_index = field(w, 10, 2) == 1;
        } else return std::nullopt;
        return r;
    }
    if (field(w, 27, 3) == 5 && field(w, 26, 1) && !field(w, 25, 1)) { // SIMD&FP pairs
        const unsigned opc = field(w, 30, 2);
        if (opc == 3) return std::nullopt;
        const unsigned element = 4u << opc;
        r.bytes = 2 * element;
        r.is_write = !field(w, 22, 1);
        r.offset = sign_extend(field(w, 15, 7), 7) * element;
        r.post_index = field(w, 23, 2) == 1;
        return r;
    }
    if ((w & 0x3f000000) == 0x08000000) { // exclusive, acquire/release, CAS: [Rn]; o1 [21] a pair
        r.bytes = (1u << size) * ((field(w, 21, 1) && size >= 2 && !field(w, 23, 1)) ? 2 : 1);
        r.is_write = !field(w, 22, 1) || field(w, 23, 1) == 1; // stores; CAS/CASP (o2 [23]) write too
        return r;
    }
    if ((w & 0x3f200c00) == 0x38200000) { // LSE atomics (LDADD, SWP, ...): [Rn]
        r.bytes = 1u << size;
        r.is_write = true;
        return r;
    }
    if ((w & 0xbfa00000) == 0x0c000000 || (w & 0xbfa00000) == 0x0c800000) { // LD1-4/ST1-4 multiple structures
        static const unsigned registers[16] = {4, 0, 4, 0, 3, 0, 3, 1, 2, 0, 2, 0, 0, 0, 0, 0};
        const unsigned n = registers[field(w, 12, 4)];
        if (!n) return std::nullopt;
        r.bytes = n * (field(w, 30, 1) ? 16 : 8);
        r.is_write = !field(w, 22, 1);
        r.post_index = field(w, 23, 1);
        return r;
    }
    if ((w & 0xffffffe0) == 0xd50b7420) { // DC ZVA, Xt
        r.rn = field(w, 0, 5);
        r.dc_zva = true;
        r.bytes = 64;
        r.is_write = true;
        return r;
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
