#include "iss/stage2_map.h"

#include <algorithm>
#include <stdexcept>

namespace pmusim {

namespace {

// Stage 2 block and page descriptors (Arm ARM D8.3.2 "Block descriptor and Page descriptor formats",
// the stage 2 attribute fields): MemAttr [5:2] = 0b1111 Normal Inner/Outer Write-Back, S2AP [7:6] =
// 0b11 read/write, SH [9:8] = 0b11 Inner Shareable, AF [10] = 1; XN [54:53] = 0 (executable).
constexpr uint64_t s2_attributes = (0xfull << 2) | (3ull << 6) | (3ull << 8) | (1ull << 10);
constexpr uint64_t desc_block = 0b01, desc_table_or_page = 0b11;
constexpr uint64_t oa_mask = 0x0000fffffffff000ull;

enum class coverage { none, full, partial };

coverage covered(const std::vector<std::pair<uint64_t, uint64_t>>& memory, uint64_t begin, uint64_t size) {
    const uint64_t end = begin + size;
    uint64_t inside = 0;
    for (const auto& [base, length] : memory) {
        const uint64_t lo = std::max(base, begin), hi = std::min(base + length, end);
        if (lo < hi) inside += hi - lo;
    }
    return inside == 0 ? coverage::none : inside == size ? coverage::full : coverage::partial;
}

} // namespace

stage2_map build_stage2_map(const std::vector<std::pair<uint64_t, uint64_t>>& memory, uint64_t table_base) {
    if (table_base & 0xfff) throw std::invalid_argument("stage 2 tables must be 4 KB aligned");
    for (const auto& [base, length] : memory)
        if (base + length > (uint64_t(1) << stage2_ipa_bits) || base + length < base)
            throw std::invalid_argument("plain memory above the 39-bit IPA range of the engine's stage 2");
    stage2_map m;
    m.table_base = table_base;
    auto new_table = [&m]() {
        const size_t index = m.words.size() / 512;
        m.words.resize(m.words.size() + 512, 0);
        return index;
    };
    auto table_pa = [&m](size_t index) { return m.table_base + index * 4096; };
    const size_t level1 = new_table();
    for (uint64_t i = 0; i < 512; ++i) {
        const uint64_t gb = i << 30;
        const coverage c1 = covered(memory, gb, uint64_t(1) << 30);
        if (c1 == coverage::none) continue;
        if (c1 == coverage::full) {
            m.words[level1 * 512 + i] = (gb & oa_mask) | s2_attributes | desc_block;
            continue;
        }
        const size_t level2 = new_table();
        m.words[level1 * 512 + i] = table_pa(level2) | desc_table_or_page;
        for (uint64_t j = 0; j < 512; ++j) {
            const uint64_t mb2 = gb + (j << 21);
            const coverage c2 = covered(memory, mb2, uint64_t(1) << 21);
            if (c2 == coverage::none) continue;
            if (c2 == coverage::full) {
                m.words[level2 * 512 + j] = (mb2 & oa_mask) | s2_attributes | desc_block;
                continue;
            }
            const size_t level3 = new_table();
            m.words[level2 * 512 + j] = table_pa(level3) | desc_table_or_page;
            for (uint64_t k = 0; k < 512; ++k) {
                const uint64_t page = mb2 + (k << 12);
                if (covered(memory, page, 4096) != coverage::none)
                    m.words[level3 * 512 + k] = (page & oa_mask) | s2_attributes | desc_table_or_page;
            }
        }
    }
    // VTCR_EL2 (Arm ARM D17.2 VTCR_EL2): T0SZ [5:0] = 25 (39-bit IPA), SL0 [7:6] = 0b01 (start at
    // level 1 with the 4 KB granule), IRGN0 [9:8] = ORGN0 [11:10] = 0b01 (write-back), SH0 [13:12] =
    // 0b11, TG0 [15:14] = 0b00 (4 KB), PS [18:16] = 0b010 (40-bit PA), bit 31 RES1.
    m.vtcr = (64 - stage2_ipa_bits) | (1u << 6) | (1u << 8) | (1u << 10) | (3u << 12) | (2u << 16) | (1u << 31);
    m.vttbr = table_base; // VMID [63:48] = 0, BADDR
    return m;
}

bool stage2_walk(const stage2_map& map, uint64_t ipa, uint64_t& pa) {
    if (ipa >> stage2_ipa_bits) return false;
    uint64_t table = map.table_base;
    for (unsigned level = 1; level <= 3; ++level) {
        const unsigned shift = 12 + 9 * (3 - level);
        const uint64_t index = (table - map.table_base) / 8 + ((ipa >> shift) & 0x1ff);
        if (index >= map.words.size()) return false;
        const uint64_t d = map.words[index];
        if (!(d & 1)) return false;
        if (level == 3 || !(d & 2)) {
            if (level == 3 && !(d & 2)) return false;
            if (!((d >> 10) & 1) || ((d >> 6) & 3) != 3) return false;
            const uint64_t mask = (uint64_t(1) << shift) - 1;
            pa = ((d & oa_mask) & ~mask) | (ipa & mask);
            return true;
        }
        table = d & oa_mask;
    }
    return false;
}

} // namespace pmusim
