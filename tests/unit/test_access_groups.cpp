// The ISS's access-group decoder (iss/access_groups.h, docs/firmware.md "Inside the ISS"). The
// instruction words are GNU as's (aarch64-linux-gnu-gcc -c, objdump -d), in the comments.
#include <catch2/catch.hpp>

#include "iss/access_groups.h"

using namespace pmusim;

namespace {
void check_form(uint32_t word, unsigned base, int64_t offset, unsigned bytes, bool is_load) {
    auto a = decode_base_offset(word);
    REQUIRE(a);
    CHECK(a->base == base);
    CHECK(a->offset == offset);
    CHECK(a->bytes == bytes);
    CHECK(a->is_load == is_load);
}
} // namespace

TEST_CASE("iss access groups: base-plus-immediate loads and stores decode to their base and offset and size and direction", "[iss]") {
    check_form(0xf94000a4, 5, 0, 8, true);       // ldr x4, [x5]
    check_form(0xb94c10a2, 5, 0xC10, 4, true);   // ldr w2, [x5, #3088]
    check_form(0xf85f80a2, 5, -8, 8, true);      // ldur x2, [x5, #-8]
    check_form(0xb90c10a4, 5, 0xC10, 4, false);  // str w4, [x5, #3088]
    check_form(0xa940c4b0, 5, 8, 16, true);      // ldp x16, x17, [x5, #8]
    check_form(0x293e0be1, 31, -16, 8, false);   // stp w1, w2, [sp, #-16]
    check_form(0x3dc008a0, 5, 32, 16, true);     // ldr q0, [x5, #32]
    check_form(0x697f08a1, 5, -8, 8, true);      // ldpsw x1, x2, [x5, #-8]
}

TEST_CASE("iss access groups: other addressing forms anchor no group", "[iss]") {
    CHECK_FALSE(decode_base_offset(0xf8408ca4)); // ldr x4, [x5, #8]!
    CHECK_FALSE(decode_base_offset(0xf84084a4)); // ldr x4, [x5], #8
    CHECK_FALSE(decode_base_offset(0xf86668a4)); // ldr x4, [x5, x6]
    CHECK_FALSE(decode_base_offset(0xc85f7ca4)); // ldxr x4, [x5]
    CHECK_FALSE(decode_base_offset(0xf98000a0)); // prfm pldl1keep, [x5]
    CHECK_FALSE(decode_base_offset(0x580000a5)); // ldr x5, <literal>
}

TEST_CASE("iss access groups: which instructions may write the base register", "[iss]") {
    CHECK(may_write_register(0xf94000a5, 5));       // ldr x5, [x5]
    CHECK_FALSE(may_write_register(0xf94000a4, 5)); // ldr x4, [x5]
    CHECK(may_write_register(0xa940c4b0, 17));      // ldp x16, x17, [x5, #8]: Rt2
    CHECK_FALSE(may_write_register(0xb90c10a4, 4)); // str w4, [x5, #3088]: a store writes nothing
    CHECK_FALSE(may_write_register(0x3dc008a0, 0)); // ldr q0, [x5, #32]: no general-purpose register
    CHECK(may_write_register(0x914004a5, 5));       // add x5, x5, #0x1, lsl #12
    CHECK_FALSE(may_write_register(0x914004a5, 6));
    CHECK(may_write_register(0x910043ff, 31));      // add sp, sp, #0x10
    CHECK(may_write_register(0xaa020025, 5));       // orr x5, x1, x2
    CHECK_FALSE(may_write_register(0xaa020025, 1));
    CHECK_FALSE(may_write_register(0xd503201f, 5)); // nop
    CHECK(may_write_register(0x580000a5, 5));       // ldr x5, <literal>
    // Not decoded: counted as writing every register.
    CHECK(may_write_register(0xd53bd045, 5));       // mrs x5, tpidr_el0
    CHECK(may_write_register(0xd51bd045, 7));       // msr tpidr_el0, x5
    CHECK(may_write_register(0x9e660005, 5));       // fmov x5, d0
    CHECK(may_write_register(0xf8408ca4, 5));       // ldr x4, [x5, #8]!: writeback
}
