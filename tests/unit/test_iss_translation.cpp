// The ISS's own translation and load/store decoding (iss/stage2_map.h, iss/stage1_walk.h,
// iss/load_store.h). Instruction words are GNU as's encodings (aarch64-linux-gnu-as
// -march=armv8.1-a), descriptor formats Arm ARM D8.3.
#include <catch2/catch.hpp>

#include <map>

#include "iss/load_store.h"
#include "iss/stage1_walk.h"
#include "iss/stage2_map.h"

using namespace pmusim;

TEST_CASE("stage 2 maps plain memory 1:1 and nothing else", "[iss]") {
    // arm-linux: 256 MiB of DRAM at 0x80000000; a 64 KiB region that is not 2 MB aligned too.
    const stage2_map m = build_stage2_map({{0x80000000, 256u << 20}, {0x10010000, 0x10000}}, stage2_table_base);
    uint64_t pa = 0;
    CHECK(stage2_walk(m, 0x80000000, pa));
    CHECK(pa == 0x80000000);
    CHECK(stage2_walk(m, 0x8fffffff, pa));
    CHECK(pa == 0x8fffffff);
    CHECK_FALSE(stage2_walk(m, 0x90000000, pa)); // past DRAM
    CHECK_FALSE(stage2_walk(m, 0x1c090018, pa)); // the PL011: a window
    CHECK(stage2_walk(m, 0x10010004, pa));
    CHECK(pa == 0x10010004);
    CHECK_FALSE(stage2_walk(m, 0x1000f000, pa)); // the page before the small region
    CHECK_FALSE(stage2_walk(m, 0x10020000, pa)); // the page after it
    CHECK_FALSE(stage2_walk(m, stage2_table_base, pa)); // the tables themselves are out of reach
    // VTCR_EL2: T0SZ 25, SL0 1, TG0 4 KB, PS 40-bit, RES1 bit 31.
    CHECK((m.vtcr & 0x3f) == 25);
    CHECK(((m.vtcr >> 6) & 3) == 1);
    CHECK(((m.vtcr >> 14) & 3) == 0);
    CHECK(((m.vtcr >> 16) & 7) == 2);
    CHECK(((m.vtcr >> 31) & 1) == 1);
    CHECK(m.vttbr == stage2_table_base);
    CHECK_THROWS(build_stage2_map({{uint64_t(1) << 39, 4096}}, stage2_table_base));
}

namespace {
// A stage 1 table in a map of 8-byte words: TTBR0 at 0x1000 (level 1, T0SZ 25), one level 2 table
// at 0x2000, one level 3 table at 0x3000.
struct tables {
    std::map<uint64_t, uint64_t> words;
    bool read(uint64_t pa, uint64_t& v) const {
        auto it = words.find(pa);
        v = it == words.end() ? 0 : it->second;
        return true;
    }
};
constexpr uint64_t af = 1ull << 10, ap_el0 = 1ull << 6, ap_ro = 1ull << 7, uxn = 1ull << 54;
} // namespace

TEST_CASE("the ISS's stage 1 walk finds the fault with its kind and level", "[iss]") {
    tables t;
    t.words[0x1000 + 2 * 8] = 0x80000000 | af | 1;           // L1[2]: 1 GB block, EL1 only, read/write
    t.words[0x1000 + 0 * 8] = 0x2000 | 3;                    // L1[0] -> L2 table
    t.words[0x2000 + 2 * 8] = 0x3000 | 3;                    // L2[2] (0x400000) -> L3 table
    t.words[0x3000 + 0x34 * 8] = 0x81234000 | af | ap_el0 | 3;         // 0x434000: user page
    t.words[0x3000 + 0x35 * 8] = 0x81235000 | ap_el0 | 3;              // 0x435000: AF = 0
    t.words[0x3000 + 0x36 * 8] = 0x81236000 | af | ap_el0 | ap_ro | uxn | 3; // 0x436000: read-only, UXN
    walk_request r;
    r.sctlr = 1;
    r.tcr = 25 | (1ull << 23); // T0SZ 25, TG0 4 KB, EPD1
    r.ttbr0 = 0x1000 | (5ull << 48); // ASID 5 in [63:48]: not part of the address
    auto walk = [&](uint64_t va, bool write, bool fetch, bool el0) {
        r.va = va;
        r.write = write;
        r.fetch = fetch;
        r.el0 = el0;
        return stage1_walk(r, [&t](uint64_t pa, uint64_t& v) { return t.read(pa, v); });
    };
    auto ok = walk(0x434008, false, false, true);
    CHECK(ok.fault == walk_fault::none);
    CHECK(ok.pa == 0x81234008);
    CHECK(walk(0x80001234, true, false, false).pa == 0x80001234);
    auto w = walk(0x437000, false, false, true); // L3 entry 0x37: invalid
    CHECK(w.fault == walk_fault::translation);
    CHECK(w.level == 3);
    CHECK(w.status_code() == 0x07);
    w = walk(0x40000000, false, false, false); // L1[1]: invalid
    CHECK(w.fault == walk_fault::translation);
    CHECK(w.status_code() == 0x05);
    w = walk(0x435000, false, false, true);
    CHECK(w.fault == walk_fault::access_flag);
    CHECK(w.status_code() == 0x0b);
    w = walk(0x436000, true, false, true); // write to a read-only page
    CHECK(w.fault == walk_fault::permission);
    CHECK(w.status_code() == 0x0f);
    CHECK(walk(0x436000, false, false, true).fault == walk_fault::none);
    CHECK(walk(0x436000, false, true, true).fault == walk_fault::permission); // UXN
    CHECK(walk(0x80000000, false, false, true).fault == walk_fault::permission); // EL1-only from EL0
    CHECK(walk(uint64_t(1) << 40, false, false, false).fault == walk_fault::translation); // beyond T0SZ
    r.sctlr = 0;
    CHECK(walk(0x1c090018, false, false, false).pa == 0x1c090018); // MMU off: flat
}

TEST_CASE("the ISS's stage 1 walk gives an Address size fault above the PA size", "[iss]") {
    // Arm ARM DDI 0487: ID_AA64MMFR0_EL1.PARange (D17.2.64) 0b0100 = 44 bits, 0b0010 = 40 bits;
    // TCR_EL1.IPS [34:32] uses the same encoding and is capped by PARange. The DFSC of an Address size
    // fault is 0b0000LL (ESR_ELx, D17.2.40); with stage 1 disabled it is level 0
    // (AArch64.S1DisabledOutput), the TTBR's table address level 0, a descriptor's its own level
    // (AArch64.OAOutOfRange).
    CHECK(pa_range_bits(0) == 32);
    CHECK(pa_range_bits(2) == 40);
    CHECK(pa_range_bits(4) == 44);
    CHECK(pa_range_bits(6) == 52);
    tables t;
    t.words[0x1000 + 0 * 8] = 0x2000 | 3;                       // L1[0] -> L2 table at 0x2000
    t.words[0x2000 + 0 * 8] = 0x3000 | 3;                       // L2[0] (0x000000) -> L3 table
    t.words[0x2000 + 1 * 8] = (uint64_t(1) << 41) | 3;          // L2[1] (0x200000) -> a table at 2^41
    t.words[0x3000 + 1 * 8] = (uint64_t(1) << 40) | af | 3;     // L3[1] (0x1000): a page at 2^40
    t.words[0x3000 + 2 * 8] = 0x80002000 | 3;                   // L3[2] (0x2000): AF = 0
    walk_request r;
    r.pa_bits = 44;
    auto walk = [&](uint64_t va) {
        r.va = va;
        return stage1_walk(r, [&t](uint64_t pa, uint64_t& v) { return t.read(pa, v); });
    };
    // MMU off: the output address is the input address.
    auto w = walk(uint64_t(1) << 44);
    CHECK(w.fault == walk_fault::address_size);
    CHECK(w.level == 0);
    CHECK(w.status_code() == 0x00);
    CHECK(walk((uint64_t(1) << 44) - 8).fault == walk_fault::none);
    CHECK(walk(0xff00000080000000ull).fault == walk_fault::address_size); // the top byte counts without TBI
    r.flat_tbi = true;
    w = walk(0xff00000080000000ull);
    CHECK(w.fault == walk_fault::none);
    CHECK(w.pa == 0x80000000);
    CHECK(walk(0x0100000000000000ull | (uint64_t(1) << 50)).fault == walk_fault::address_size); // bit 50: below the top byte
    // TBI for EL1&0 from TCR_EL1: TBI0 [37] below bit 55, TBI1 [38] above; TBID0 [51]: data only.
    CHECK(el10_top_byte_ignored(uint64_t(1) << 37, 0x0012000000001000ull, false));
    CHECK_FALSE(el10_top_byte_ignored(uint64_t(1) << 37, 0xff80000000001000ull, false));
    CHECK(el10_top_byte_ignored(uint64_t(1) << 38, 0xff80000000001000ull, false));
    CHECK_FALSE(el10_top_byte_ignored((uint64_t(1) << 37) | (uint64_t(1) << 51), 0x0012000000001000ull, true));
    CHECK(el10_top_byte_ignored((uint64_t(1) << 37) | (uint64_t(1) << 51), 0x0012000000001000ull, false));
    // MMU on, T0SZ 25 (level 1 start), TG0 4 KB, EPD1, IPS 0b010 = 40 bits (below PARange's 44).
    r.flat_tbi = false;
    r.sctlr = 1;
    r.tcr = 25 | (1ull << 23) | (2ull << 32);
    r.ttbr0 = 0x1000;
    w = walk(0x1000);
    CHECK(w.fault == walk_fault::address_size); // the page's output address 2^40: at level 3
    CHECK(w.status_code() == 0x03);
    w = walk(0x200000);
    CHECK(w.fault == walk_fault::address_size); // the level 2 table descriptor's address 2^41
    CHECK(w.status_code() == 0x02);
    CHECK(walk(0x2000).fault == walk_fault::access_flag); // in range: the next check applies
    r.tcr = 25 | (1ull << 23) | (5ull << 32); // IPS 48 bits, capped by PARange 44: 2^40 is in range
    w = walk(0x1000);
    CHECK(w.fault == walk_fault::none);
    CHECK(w.pa == uint64_t(1) << 40);
    CHECK(walk(0x200000).fault == walk_fault::translation); // the table at 2^41 holds nothing
    r.ttbr0 = (uint64_t(1) << 44) | 0x1000; // BADDR above the PA size: level 0
    w = walk(0x1000);
    CHECK(w.fault == walk_fault::address_size);
    CHECK(w.level == 0);
    r.ttbr0 = 0x1000 | (7ull << 48); // an ASID is not part of the address
    CHECK(walk(0x1000).fault == walk_fault::none);
    // translate_only (the simulator's own reads): no access-flag or permission check.
    r.translate_only = true;
    w = walk(0x2000);
    CHECK(w.fault == walk_fault::none);
    CHECK(w.pa == 0x80002000);
}

TEST_CASE("loads and stores the ISS performs on windows are decoded as GNU as encodes them", "[iss]") {
    auto a = decode_load_store(0xb8404509); // ldr w9, [x8], #4
    REQUIRE(a);
    CHECK((a->is_load && a->bytes == 4 && a->rt == 9 && a->rn == 8 && a->post_index && a->writeback && a->offset == 4));
    a = decode_load_store(0xf9400841); // ldr x1, [x2, #16]
    REQUIRE(a);
    CHECK((a->bytes == 8 && a->offset == 16 && !a->writeback));
    a = decode_load_store(0xb90c0064); // str w4, [x3, #3072]
    REQUIRE(a);
    CHECK((!a->is_load && a->bytes == 4 && a->rt == 4 && a->rn == 3 && a->offset == 3072));
    a = decode_load_store(0xb8aa686c); // ldrsw x12, [x3, x10]
    REQUIRE(a);
    CHECK((a->sign_extend && !a->to_w && a->bytes == 4 && a->register_offset && a->rm == 10 && a->shift == 0));
    a = decode_load_store(0x38dfdfe5); // ldrsb w5, [sp, #-3]!
    REQUIRE(a);
    CHECK((a->sign_extend && a->to_w && a->bytes == 1 && a->rn == 31 && a->offset == -3 && a->writeback && !a->post_index));
    a = decode_load_store(0xa97fbaad); // ldp x13, x14, [x21, #-8]
    REQUIRE(a);
    CHECK((a->pair && a->bytes == 8 && a->rt == 13 && a->rt2 == 14 && a->rn == 21 && a->offset == -8));
    a = decode_load_store(0x29be0be1); // stp w1, w2, [sp, #-16]!
    REQUIRE(a);
    CHECK((a->pair && !a->is_load && a->bytes == 4 && a->offset == -16 && a->writeback));
    a = decode_load_store(0xf8408841); // ldtr x1, [x2, #8]
    REQUIRE(a);
    CHECK((a->unprivileged && a->offset == 8));
    a = decode_load_store(0xf863d841); // ldr x1, [x2, w3, sxtw #3]
    REQUIRE(a);
    CHECK((a->register_offset && a->extend == 6 && a->shift == 3));
    CHECK(extend_register(0xfffffffe, 6, 3) == uint64_t(-16)); // SXTW of -2, << 3
    CHECK_FALSE(decode_load_store(0x3dc00820)); // ldr q0: SIMD&FP, not performed by the ISS
}

TEST_CASE("the data address range of any load or store the engine aborts on", "[iss]") {
    auto r = decode_access_range(0x3dc00820); // ldr q0, [x1, #32]
    REQUIRE(r);
    CHECK((r->rn == 1 && r->offset == 32 && r->bytes == 16 && !r->is_write));
    r = decode_access_range(0xacc20440); // ldp q0, q1, [x2], #64
    REQUIRE(r);
    CHECK((r->rn == 2 && r->post_index && r->bytes == 32));
    r = decode_access_range(0xc85f7c83); // ldxr x3, [x4]
    REQUIRE(r);
    CHECK((r->rn == 4 && r->bytes == 8 && !r->is_write));
    r = decode_access_range(0xb82100a2); // ldadd w1, w2, [x5]
    REQUIRE(r);
    CHECK((r->rn == 5 && r->bytes == 4 && r->is_write));
    r = decode_access_range(0x4c40a0c0); // ld1 {v0.16b, v1.16b}, [x6]
    REQUIRE(r);
    CHECK((r->rn == 6 && r->bytes == 32 && !r->is_write));
    r = decode_access_range(0xd50b7427); // dc zva, x7
    REQUIRE(r);
    CHECK((r->dc_zva && r->rn == 7 && r->bytes == 64 && r->is_write));
    r = decode_access_range(0xb90c0064); // str w4, [x3, #3072]
    REQUIRE(r);
    CHECK((r->is_write && r->bytes == 4 && r->offset == 3072));
}
