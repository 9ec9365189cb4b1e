#include "iss/stage1_walk.h"

#include <algorithm>

namespace pmusim {

unsigned pa_range_bits(unsigned encoding) {
    static constexpr unsigned bits[] = {32, 36, 40, 42, 44, 48, 52};
    return encoding < 7 ? bits[encoding] : 48;
}

bool el10_top_byte_ignored(uint64_t tcr_el1, uint64_t va, bool fetch) {
    const bool upper = (va >> 55) & 1;
    const bool tbi = (tcr_el1 >> (upper ? 38 : 37)) & 1, tbid = (tcr_el1 >> (upper ? 52 : 51)) & 1;
    return tbi && !(fetch && tbid);
}

namespace {
// Bits [top:pa_bits] of an output address are not all zero (AArch64.OAOutOfRange; top 63, or 55
// where the top byte is ignored).
bool above_pa_size(uint64_t address, unsigned pa_bits, unsigned top = 63) {
    if (pa_bits > top) return false;
    const uint64_t field = address >> pa_bits;
    const unsigned width = top - pa_bits + 1;
    return (width >= 64 ? field : field & ((uint64_t(1) << width) - 1)) != 0;
}
} // namespace

walk_result stage1_walk(const walk_request& r, const std::function<bool(uint64_t, uint64_t&)>& read64) {
    walk_result out;
    auto fail = [&out](walk_fault f, unsigned level) {
        out.fault = f;
        out.level = level;
        return out;
    };
    if (!(r.sctlr & 1)) { // SCTLR_EL1.M = 0: flat (AArch64.S1DisabledOutput)
        if (above_pa_size(r.va, r.pa_bits, r.flat_tbi ? 55 : 63)) return fail(walk_fault::address_size, 0);
        out.pa = r.flat_tbi ? r.va & ~(uint64_t(0xff) << 56) : r.va;
        return out;
    }
    out.translated = true;
    // The output size: TCR_EL1.IPS [34:32], no larger than the implemented PA size.
    const unsigned oa_bits = std::min(r.pa_bits, pa_range_bits(unsigned(r.tcr >> 32) & 7));
    const bool upper = (r.va >> 55) & 1;
    // TCR_EL1 (D17.2.131): T0SZ [5:0], EPD0 [7], TG0 [15:14], T1SZ [21:16], EPD1 [23], TG1 [31:30],
    // TBI0 [37], TBI1 [38]. With TBI the top byte takes no part in the translation.
    const unsigned txsz = unsigned(upper ? (r.tcr >> 16) & 0x3f : r.tcr & 0x3f);
    const unsigned tg = unsigned(upper ? (r.tcr >> 30) & 3 : (r.tcr >> 14) & 3);
    const bool epd = upper ? (r.tcr >> 23) & 1 : (r.tcr >> 7) & 1;
    const bool tbi = upper ? (r.tcr >> 38) & 1 : (r.tcr >> 37) & 1;
    const unsigned va_bits = 64 - txsz;
    uint64_t va = r.va;
    if (tbi) va = upper ? va | (uint64_t(0xff) << 56) : va & ~(uint64_t(0xff) << 56);
    // Bits above the region's size must all equal bit 55's side: else a level 0 translation fault.
    const uint64_t top = va_bits >= 64 ? 0 : va >> va_bits;
    const uint64_t expected_top = upper ? (va_bits >= 64 ? 0 : (~uint64_t(0)) >> va_bits) : 0;
    if (epd || top != expected_top) return fail(walk_fault::translation, 0);
    if ((upper && tg != 2) || (!upper && tg != 0)) return fail(walk_fault::translation, 0); // 4 KB granule only
    int level = va_bits > 39 ? 0 : va_bits > 30 ? 1 : 2;
    const uint64_t ttbr = upper ? r.ttbr1 : r.ttbr0;
    if (above_pa_size(ttbr & 0x0000fffffffffffeull, oa_bits, 47)) return fail(walk_fault::address_size, 0); // BADDR [47:1]
    uint64_t table = ttbr & 0x0000fffffffff000ull;
    for (; level <= 3; ++level) {
        const unsigned shift = 12 + 9 * (3 - unsigned(level));
        const uint64_t index = (va >> shift) & 0x1ff;
        uint64_t desc = 0;
        if (!read64(table + index * 8, desc)) return fail(walk_fault::translation, unsigned(level));
        const bool valid = desc & 1, is_table = desc & 2;
        if (!valid || (level == 3 && !is_table) || (level == 0 && !is_table)) return fail(walk_fault::translation, unsigned(level));
        const uint64_t oa = desc & 0x0000fffffffff000ull;
        if (above_pa_size(oa, oa_bits, 47)) return fail(walk_fault::address_size, unsigned(level));
        if (level < 3 && is_table) {
            table = oa;
            continue;
        }
        auto translated_to = [&] {
            const uint64_t mask = (uint64_t(1) << shift) - 1;
            out.level = unsigned(level);
            out.pa = (oa & ~mask) | (va & mask);
            return out;
        };
        if (r.translate_only) return translated_to();
        // Block or page: AF [10], AP [7:6] (AP[2] read-only, AP[1] EL0 access), PXN [53], UXN [54].
        if (!((desc >> 10) & 1)) return fail(walk_fault::access_flag, unsigned(level));
        const bool el0_access = (desc >> 6) & 1, read_only = (desc >> 7) & 1;
        const bool pxn = (desc >> 53) & 1, uxn = (desc >> 54) & 1;
        bool allowed = true;
        if (r.fetch) allowed = r.el0 ? !uxn : !pxn;
        else {
            if (r.el0 && !el0_access) allowed = false;
            if (r.write && read_only) allowed = false;
        }
        if (!allowed) return fail(walk_fault::permission, unsigned(level));
        return translated_to();
    }
    return fail(walk_fault::translation, 3);
}

} // namespace pmusim
