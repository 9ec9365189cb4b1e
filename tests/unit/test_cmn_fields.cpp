// CMN-600 register fields the model must carry because real silicon has them (issue 18 item 4),
// with positions from Arm cmn-tools data/regdefs/cmn600.regdefs (the CMN-600 register
// definitions) and FreeBSD sys/arm64/include/cmn600_reg.h.
// Read-back behaviour of the writable ones: tests/sequences/cmn/trigger_fields.seq.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cmn/cmn600.h"

using namespace pmusim;

namespace {

struct expected_field {
    unsigned lsb, width;
};

const field_def* find_field(const register_def& r, const std::string& name) {
    for (const auto& f : r.fields)
        if (f.name == name) return &f;
    return nullptr;
}

} // namespace

TEST_CASE("cmn: por_info_global carries every CMN-600 field read-only") {
    // cmn-tools cmn600.regdefs, por_cfgm_registers, R 0x900 por_info_global.
    const std::map<std::string, expected_field> fields = {
        {"chi_req_rsvdc_width", {0, 8}},       {"chi_req_addr_width", {8, 8}},
        {"physical_address_width", {16, 8}},   {"datacheck_en", {24, 1}},
        {"flit_parity_en", {25, 1}},           {"num_remote_rnf", {28, 8}},
        {"rnsam_num_add_hashed_tgt", {36, 6}}, {"r2_enable", {48, 1}},
        {"chic_mode_en", {49, 1}},
    };
    const register_def* r = cmn600_cfg_table().find("por_info_global");
    REQUIRE(r);
    CHECK(*r->offset == 0x900);
    uint64_t covered = 0;
    for (const auto& [name, e] : fields) {
        INFO(name);
        const field_def* f = find_field(*r, name);
        REQUIRE(f);
        CHECK(f->lsb == e.lsb);
        CHECK(f->width == e.width);
        CHECK(f->access == field_access::ro);
        covered |= f->mask();
    }
    // Every other bit is reserved (RES0) on CMN-600.
    for (const auto& f : r->fields)
        if (!fields.count(f.name)) {
            INFO(f.name);
            CHECK(f.access == field_access::res0);
            CHECK((f.mask() & covered) == 0);
        }
}
