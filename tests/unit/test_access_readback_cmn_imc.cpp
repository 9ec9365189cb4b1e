// Write and read back, per register access type, for the Arm CMN-600 configuration space and the
// POWER9 IMC (issue 31 item 4a): an access the matrix (test_access_matrix_cmn_imc.cpp) calls
// allowed must also do what the register's access type says.
//
// CMN-600 access types: Arm's cmn-tools data/regdefs/cmn600.regdefs (ArmDeveloperEcosystem/cmn-tools
// @34baf88b0fe9, the CMN-600 register definitions; format `R ADDR BITS ACCESS SECURITY NAME`, read by
// src/regview.py:282-284: ACCESS `-` = none given, read-write; RO; WO; SECURITY `S` = Secure
// register), transcribed below as (node type, offset) -> type with the line of each `R` entry. Arm's
// SCP-firmware module/cmn600/src/cmn600.h (b34e5ceb5bab) agrees for every DTC and XP register used
// here (struct cmn600_dt_reg lines 109-142, cmn600_mxp_reg 374-421: FWK_R / FWK_RW / FWK_W).
//   RW  reads back what was written, within the fields tests/facts gives the register;
//   RO  a write changes nothing;
//   WO  por_dt_pmovsr_clr, por_dt_pmsrr: a write is served (their effects: tests/sequences/cmn);
//   S   (por_cfgm_secure_access) RW for a Secure requester; a Non-secure one reads zero and its
//       write changes nothing.
// From every requester the CMN sees: a CPU at EL1, EL2 (Non-secure and Secure) and EL3, and a
// debugger in either security state (the CMN sees the transaction's NS attribute only).
//
// POWER9 IMC: LDBAR is a per-thread hypervisor SPR whose fields Linux writes and skiboot's stop
// API saves and restores (Linux 6.1 arch/powerpc/include/asm/imc-pmu.h THREAD_IMC_ENABLE,
// TRACE_IMC_ENABLE, THREAD_IMC_LDBAR_MASK; skiboot include/p9_stop_api.H P9_STOP_SPR_LDBAR 850):
// RW in its fields. The per-core SCOMs PDBAR, HTM_MODE, EVENT_MASK and TRACE_IMC are PCB registers
// OPAL writes with xscom_write (skiboot hw/imc.c:990-1031, 1120-1125, 1185, 1245): RW through
// XSCOM for OPAL (hypervisor) and the OCC, each reading back the value skiboot writes. Field positions from tests/facts; the model's tables give only the
// names and addresses to visit.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>
#include <optional>

#include "cmn/cmn600.h"
#include "tests/unit/access_matrix_bench.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

enum class acc { ro, rw, wo };
struct access_type {
    acc type;
    bool secure; // Secure register (regdefs SECURITY S)
    int line;    // the regdefs line
};

// cmn-tools data/regdefs/cmn600.regdefs@34baf88b0fe9, by node type and offset.
std::optional<access_type> cmn600_access(cmn_node_type type, uint64_t off) {
    struct row {
        uint64_t offset;
        acc type;
        bool secure;
        int line;
    };
    static const std::vector<row> cfg = {
        {0x0, acc::ro, false, 3879},   {0x8, acc::ro, false, 3886},   {0x10, acc::ro, false, 3891},
        {0x28, acc::ro, false, 3904},  {0x30, acc::ro, false, 3908},  {0x80, acc::ro, false, 3912},
        {0x900, acc::ro, false, 4685}, {0x980, acc::rw, true, 4705}};
    static const std::vector<row> dtc = {
        {0x0, acc::ro, false, 102},     {0x80, acc::ro, false, 109},    {0xa00, acc::rw, false, 118},
        {0xa30, acc::rw, false, 134},   {0x2000, acc::rw, false, 142},  {0x2010, acc::rw, false, 146},
        {0x2020, acc::rw, false, 150},  {0x2030, acc::rw, false, 154},  {0x2040, acc::rw, false, 158},
        {0x2050, acc::rw, false, 161},  {0x2060, acc::rw, false, 165},  {0x2070, acc::rw, false, 169},
        {0x2080, acc::rw, false, 173},  {0x2090, acc::rw, false, 177},  {0x2100, acc::rw, false, 180},
        {0x2118, acc::ro, false, 186},  {0x2120, acc::wo, false, 189},  {0x2128, acc::ro, false, 192},
        {0x2130, acc::wo, false, 197}};
    static const std::vector<row> xp = {
        {0x0, acc::ro, false, 3457},    {0x8, acc::ro, false, 3463},    {0x10, acc::ro, false, 3479},
        {0x80, acc::ro, false, 3503},   {0x2000, acc::rw, false, 3652}, {0x2100, acc::rw, false, 3658},
        {0x21a0, acc::rw, false, 3707}, {0x21a8, acc::rw, false, 3719}, {0x21b0, acc::rw, false, 3722},
        {0x21b8, acc::rw, false, 3725}, {0x21c0, acc::rw, false, 3736}, {0x21c8, acc::rw, false, 3739},
        {0x21d0, acc::rw, false, 3742}, {0x21d8, acc::rw, false, 3754}, {0x21e0, acc::rw, false, 3757},
        {0x21e8, acc::rw, false, 3760}, {0x21f0, acc::rw, false, 3771}, {0x21f8, acc::rw, false, 3774},
        {0x2210, acc::rw, false, 3783}, {0x2220, acc::rw, false, 3799}, {0x2240, acc::rw, false, 3805}};
    static const std::vector<row> hnf = {{0x0, acc::ro, false, 694}, {0x80, acc::ro, false, 701}, {0x2000, acc::rw, false, 1988}};
    static const std::vector<row> hni = {{0x0, acc::ro, false, 5353}, {0x80, acc::ro, false, 5360}, {0x2000, acc::rw, false, 5435}};
    static const std::vector<row> rni = {{0x0, acc::ro, false, 3286}, {0x80, acc::ro, false, 3293}, {0x2000, acc::rw, false, 3449}};
    static const std::vector<row> rnd = {{0x0, acc::ro, false, 513}, {0x80, acc::ro, false, 520}, {0x2000, acc::rw, false, 686}};
    static const std::vector<row> sbsx = {{0x0, acc::ro, false, 2}, {0x80, acc::ro, false, 9}, {0x2000, acc::rw, false, 26}};
    static const std::vector<row> dn = {{0x0, acc::ro, false, 2079}, {0x80, acc::ro, false, 2086}, {0x2000, acc::rw, false, 2392}};
    const std::vector<row>* rows = nullptr;
    switch (type) {
    case cmn_node_type::cfg: rows = &cfg; break;
    case cmn_node_type::dtc: rows = &dtc; break;
    case cmn_node_type::xp: rows = &xp; break;
    case cmn_node_type::hnf: rows = &hnf; break;
    case cmn_node_type::hni: rows = &hni; break;
    case cmn_node_type::rni: rows = &rni; break;
    case cmn_node_type::rnd: rows = &rnd; break;
    case cmn_node_type::dvm: rows = &dn; break;
    case cmn_node_type::sbsx: rows = &sbsx; break;
    default: return std::nullopt;
    }
    for (const auto& r : *rows)
        if (r.offset == off) return access_type{r.type, r.secure, r.line};
    // Child pointers: por_cfgm_child_pointer_0-255 at 0x100 + 8i (lines 3917-), por_mxp_child_pointer_0-15
    // (lines 3508-3553): RO.
    if (type == cmn_node_type::cfg && off >= 0x100 && off < 0x900 && off % 8 == 0) return access_type{acc::ro, false, 3917};
    if (type == cmn_node_type::xp && off >= 0x100 && off < 0x180 && off % 8 == 0) return access_type{acc::ro, false, 3508};
    return std::nullopt;
}

// The bits the facts give a register (its fields' union), or every bit when they give none.
uint64_t fact_bits(const std::string& unit, const std::string& reg) {
    uint64_t bits = 0;
    for (const auto& f : facts::all_facts())
        if (f.applies() && f.unit == unit && f.reg == reg && f.kind == "field") bits |= facts::parse_field(f).mask();
    return bits ? bits : ~0ULL;
}

// The facts unit of a node's registers: the device-node tables are keyed by node type
// (tests/facts/cmn.tsv `cmn600_node:hnf`), the others by their table.
std::string facts_unit(const cmn_node& n, const register_table& t) {
    switch (n.type) {
    case cmn_node_type::hnf: return "cmn600_node:hnf";
    case cmn_node_type::hni: return "cmn600_node:hni";
    case cmn_node_type::rni: return "cmn600_node:rni";
    case cmn_node_type::rnd: return "cmn600_node:rnd";
    case cmn_node_type::dvm: return "cmn600_node:dn";
    case cmn_node_type::sbsx: return "cmn600_node:sbsx";
    default: return t.unit;
    }
}

struct requester {
    access_context ctx;
    std::string name;
};

std::vector<requester> cmn_requesters() {
    std::vector<requester> out;
    for (auto [el, secure] : {std::pair{1u, false}, {2u, false}, {1u, true}, {2u, true}, {3u, true}}) {
        access_context c;
        c.initiator = initiator_kind::cpu;
        c.cpu = 0;
        c.el = el;
        c.secure = secure;
        c.path = access_path::memory_mapped;
        out.push_back({c, fmt::format("cpu0 EL{} {}", el, secure ? "Secure" : "Non-secure")});
    }
    for (bool secure : {false, true}) {
        access_context c;
        c.initiator = initiator_kind::debugger;
        c.secure = secure;
        c.path = access_path::memory_mapped;
        out.push_back({c, fmt::format("debugger {}", secure ? "Secure" : "Non-secure")});
    }
    return out;
}

void run_cmn_readback(const std::string& platform_name) {
    register_all_units();
    platform p(load_platform(platform_name));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
    REQUIRE(cmn);
    const uint64_t periphbase = cmn->mmio_windows().front().base;
    const cmn_mesh& mesh = cmn->mesh();
    access_context secure_debugger;
    secure_debugger.initiator = initiator_kind::debugger;
    secure_debugger.secure = true;
    secure_debugger.path = access_path::memory_mapped;
    auto peek = [&](uint64_t address) { // the register's value, whoever asked before
        auto a = b.access(secure_debugger, address, 8, false, 0);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    unsigned rw = 0, ro = 0, wo = 0, secure_only = 0, failures = 0;
    auto fail = [&](const std::string& what) {
        if (++failures <= 20) FAIL_CHECK(what);
    };
    for (const auto& who : cmn_requesters()) {
        // The Secure register last, so that its patterns never govern the other registers' accesses.
        for (bool secure_pass : {false, true})
            for (const auto& n : mesh.nodes) {
                if (n.external) continue; // no registers (its region is the matrix's)
                const register_table& t = cmn600_table_for(n);
                for (const auto& def : t.registers) {
                    const auto oracle = cmn600_access(n.type, *def.offset);
                    const std::string label = fmt::format("{} {}.{} (+{:#x})", who.name, n.name, def.name, *def.offset);
                    if (!oracle) {
                        fail(label + ": no cmn-tools access type transcribed for this register");
                        continue;
                    }
                    if (oracle->secure != secure_pass) continue;
                    const uint64_t address = periphbase + n.offset + *def.offset;
                    const uint64_t bits = fact_bits(facts_unit(n, t), def.name) & (def.width >= 64 ? ~0ULL : (1ULL << def.width) - 1);
                    const bool refused = oracle->secure && !who.ctx.secure;
                    const std::string src = fmt::format(" [regdefs:{}]", oracle->line);
                    if (oracle->type == acc::rw) {
                        for (uint64_t pattern : {0xA5A5A5A5A5A5A5A5ULL & bits, 0x5A5A5A5A5A5A5A5AULL & bits}) {
                            const uint64_t before = peek(address);
                            auto w = b.access(who.ctx, address, 8, true, pattern);
                            auto r = b.access(who.ctx, address, 8, false, poison);
                            if (refused) {
                                if (r.status != tlm::TLM_OK_RESPONSE || r.value != 0)
                                    fail(label + ": a Non-secure read of a Secure register must read zero" + src);
                                if (peek(address) != before)
                                    fail(label + ": a Non-secure write changed a Secure register" + src);
                            } else {
                                if (seen(w) != o::ok) fail(label + ": RW write not served (" + w.detail + ")" + src);
                                if (r.status != tlm::TLM_OK_RESPONSE || (r.value & bits) != pattern)
                                    fail(fmt::format("{}: RW wrote {:#x}, read back {:#x}{}", label, pattern, r.value & bits, src));
                            }
                        }
                        b.access(secure_debugger, address, 8, true, 0);
                        (refused ? secure_only : rw)++;
                    } else if (oracle->type == acc::ro) {
                        const uint64_t before = peek(address);
                        b.access(who.ctx, address, 8, true, ~before);
                        auto r = b.access(who.ctx, address, 8, false, poison);
                        if (r.status != tlm::TLM_OK_RESPONSE || r.value != before)
                            fail(fmt::format("{}: RO read {:#x} before a write of {:#x}, {:#x} after{}", label, before, ~before, r.value, src));
                        ++ro;
                    } else {
                        auto w = b.access(who.ctx, address, 8, true, 0);
                        if (seen(w) != o::ok) fail(label + ": WO write not served (" + w.detail + ")" + src);
                        ++wo;
                    }
                }
            }
    }
    std::printf("%s cmn0: %u RW, %u RO, %u WO, %u Secure-only-from-Non-secure accesses checked by access type\n",
                platform_name.c_str(), rw, ro, wo, secure_only);
    CHECK(failures == 0);
    CHECK(rw > 100);
    CHECK(ro > 100);
    CHECK(secure_only >= 3); // por_cfgm_secure_access from each Non-secure requester
}

} // namespace

TEST_CASE("access readback: CMN-600 registers read back each write by their cmn-tools access type from each requester") {
    run_cmn_readback(source_tree + "/tests/platforms/cmn-2x2.yaml");
}

// POWER9 IMC, power9-default (16 threads, 4 cores): every thread's LDBAR as the hypervisor (the
// only privilege that reaches it), and every core's PDBAR, HTM_MODE, EVENT_MASK and TRACE_IMC as
// OPAL (hypervisor) and as the OCC, through XSCOM.
TEST_CASE("access readback: POWER9 IMC LDBAR and per-core SCOMs read back each write by access type") {
    register_all_units();
    platform p(load_platform("power9-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    REQUIRE(p.find_unit("imc0"));
    const unsigned ncpus = unsigned(p.system().cpus.size());
    REQUIRE(ncpus == 16);
    const uint64_t xscom_base = 0x603FC00000000ULL; // power9-default xscom_base (platforms/power9-default.yaml)
    access_context hv;
    hv.initiator = initiator_kind::cpu;
    hv.is_power = true;
    hv.privilege = power_privilege::hypervisor;
    access_context occ = hv;
    occ.initiator = initiator_kind::microcontroller;
    const uint64_t ldbar_key = facts::fact_encoding("imc", "LDBAR").key();
    // LDBAR's fields (tests/facts/imc.tsv: ENABLE [63], MODE [62], the address [55:13]).
    const uint64_t ldbar_bits = fact_bits("imc", "LDBAR");
    unsigned checked = 0;
    for (unsigned cpu = 0; cpu < ncpus; ++cpu) {
        access_context c = hv;
        c.cpu = cpu;
        c.path = access_path::system_register;
        // ENABLE 0 in both patterns: a thread IMC running from a HOMER address would start counting.
        for (uint64_t pattern : {0x5A5A5A5A5A5A5A5AULL & ldbar_bits, 0x25A5A5A5A5A5A000ULL & ldbar_bits}) {
            auto w = b.access(c, ldbar_key, 8, true, pattern);
            auto r = b.access(c, ldbar_key, 8, false, poison);
            INFO("cpu" << cpu << " LDBAR pattern " << std::hex << pattern);
            CHECK(seen(w) == o::ok);
            CHECK(r.status == tlm::TLM_OK_RESPONSE);
            CHECK((r.value & ldbar_bits) == pattern);
        }
        b.access(c, ldbar_key, 8, true, 0);
        ++checked;
    }
    // The values skiboot writes (tests/facts/imc.tsv imc_const rows: skiboot include/imc.h:114-117,
    // hw/imc.c:757), each read back whole: PDBAR an address within its field (CORE_IMC_PDBAR_MASK),
    // HTM_MODE CORE_IMC_HTM_MODE_ENABLE then _DISABLE, EVENT_MASK CORE_IMC_EVENT_MASK, TRACE_IMC
    // skiboot's TRACE_IMC_SCOM(...) value.
    auto c = [](const char* name) { return facts::fact_number("imc_const", name, "value"); };
    const std::map<std::string, std::vector<uint64_t>> written = {
        {"PDBAR", {0x0000000010400000ULL & fact_bits("imc", "PDBAR"), 0x0002A5A5A5A5A000ULL & fact_bits("imc", "PDBAR")}},
        {"HTM_MODE", {c("htm_mode_enable"), c("htm_mode_disable")}},
        {"EVENT_MASK", {c("core_event_mask")}},
        {"TRACE_IMC", {c("skiboot_trace_scom")}}};
    for (unsigned core = 0; core < 4; ++core)
        for (const auto& [reg, values] : written) {
            const uint64_t offset = facts::fact_number("imc_xscom", fmt::format("{}@{}", reg, core), "offset");
            const uint64_t bits = ~0ULL;
            for (const auto& [who, name] : {std::pair{hv, "OPAL"}, {occ, "OCC"}}) {
                for (uint64_t pattern : values) {
                    auto w = b.access(who, xscom_base + offset, 8, true, pattern);
                    auto r = b.access(who, xscom_base + offset, 8, false, poison);
                    INFO("core" << core << " " << reg << " as " << name << " pattern " << std::hex << pattern);
                    CHECK(seen(w) == o::ok);
                    CHECK(r.status == tlm::TLM_OK_RESPONSE);
                    CHECK((r.value & bits) == pattern);
                }
                b.access(who, xscom_base + offset, 8, true, 0);
                ++checked;
            }
        }
    std::printf("power9-default imc0: %u LDBARs and SCOM/requester pairs written and read back\n", checked);
    CHECK(checked == 16 + 4 * 4 * 2);
}
